// Ordered data stores as the area names them: a store of a universe with its scope, remembered as `scope/store`
// (the service cannot list them), and the rules the service holds names, ids and values to.
import { t } from '../core/text';
import type { UniverseAddress } from '../core/universe';

/** The RememberedNames kind of ordered data stores. */
export const ORDERED_KIND = 'ordered';

export interface OrderedStoreRef extends UniverseAddress {
  store: string;
  scope: string;
}

/** How a store is remembered: its scope (which has no `/`), a slash, its name. */
export const rememberedName = (s: { store: string; scope: string }): string => `${s.scope}/${s.store}`;

export function storeOfName(name: string): { store: string; scope: string } | undefined {
  const slash = name.indexOf('/');
  if (slash < 1 || slash === name.length - 1) return undefined;
  return { scope: name.slice(0, slash), store: name.slice(slash + 1) };
}

/** One string a store is known by in maps. */
export const storeKey = (s: OrderedStoreRef): string => `${s.connectionId}/${s.universeId}/${rememberedName(s)}`;

export const sameStore = (a: OrderedStoreRef, b: OrderedStoreRef): boolean => storeKey(a) === storeKey(b);

/** The service's limit for a store name, a scope and an entry id: bytes of UTF-8. */
const MAX_NAME_BYTES = 50;

function checkLength(value: string, what: string): string {
  const bytes = Buffer.byteLength(value, 'utf8');
  if (bytes < 1 || bytes > MAX_NAME_BYTES)
    throw new Error(t`The ${what} must be 1 to ${MAX_NAME_BYTES} bytes long (it is ${bytes}).`);
  return value;
}

export const checkStoreName = (v: string): string => checkLength(v, t`ordered data store name`);

export function checkScope(v: string): string {
  if (v.includes('/')) throw new Error(t`A scope has no "/" in it.`);
  return checkLength(v, t`scope`);
}

export const checkEntryId = (v: string): string => checkLength(v, t`entry id`);

/** A whole number the service keeps exactly (within ±(2^53 - 1)); throws with how to write one. */
export function parseWhole(text: string): number {
  const v = text.trim().replace(/[,_ ]/g, '');
  const n = Number(v);
  if (!/^[+-]?\d+$/.test(v) || !Number.isSafeInteger(n))
    throw new Error(
      t`Enter a whole number from ${formatValue(-Number.MAX_SAFE_INTEGER)} to ${formatValue(Number.MAX_SAFE_INTEGER)}, e.g. 250 or -5.`,
    );
  return n;
}

/** A value with thousands separators: 1,234,567. */
export const formatValue = (n: number): string => n.toLocaleString('en-US');

/** A value range as the service's filter has it: `entry >= 10 && entry <= 50`. */
export interface ValueRange {
  min?: number;
  max?: number;
}

export function filterText(range: ValueRange): string {
  return [
    range.min !== undefined ? `entry >= ${range.min}` : '',
    range.max !== undefined ? `entry <= ${range.max}` : '',
  ]
    .filter(Boolean)
    .join(' && ');
}
