// Which listed keys are live and which deleted, as far as is known, and the probe that finds out for a page of keys
// (a listing does not say). The model owns it and tells the views of each change.
import type { OpenApiClient } from '../api';
import { entryRequest, type EntryAddress } from './editor/entryPath';
import { entryKey } from './editor/openEntries';

/** What is known of a listed key: v1 lists deleted keys too until they are purged, cloud v2 when asked. */
export type KeyState = 'live' | 'deleted';

/** What a key's value is, as far as is known from a read or a write: Increment is offered on numbers only. */
export type ValueKind = 'number' | 'other';

/** The kind of a JSON text (known valid): a number starts with a digit or a minus sign. */
export function valueKindOf(raw: string | Buffer): ValueKind {
  const text = typeof raw === 'string' ? raw.slice(0, 64) : raw.subarray(0, 64).toString('latin1');
  return /^\s*-?\d/.test(text) ? 'number' : 'other';
}

/** Keys checked at once when a page of keys is listed, to mark the deleted ones. */
export const PROBES_IN_FLIGHT = 4;

export class KeyStates {
  private readonly states = new Map<string, KeyState>();
  private readonly kinds = new Map<string, ValueKind>();

  /** `changed` hears of each key whose state changed. */
  constructor(private readonly changed: (a: EntryAddress) => void) {}

  /** Live or deleted, as far as is known (undefined: not checked yet). */
  get(a: EntryAddress): KeyState | undefined {
    return this.states.get(entryKey(a));
  }

  set(a: EntryAddress, state: KeyState): void {
    const key = entryKey(a);
    if (state === 'deleted') this.kinds.delete(key);
    if (this.states.get(key) === state) return;
    this.states.set(key, state);
    this.changed(a);
  }

  /** The kind of the key's value, as far as is known (undefined: not read since listed or written). */
  kind(a: EntryAddress): ValueKind | undefined {
    return this.kinds.get(entryKey(a));
  }

  setKind(a: EntryAddress, kind: ValueKind | undefined): void {
    const key = entryKey(a);
    if (this.kinds.get(key) === kind) return;
    if (kind === undefined) this.kinds.delete(key);
    else this.kinds.set(key, kind);
    this.changed(a);
  }

  /**
   * Checks which of these listed keys are deleted (the newest version of each), a few at a time, while the rate limit
   * leaves room for twice as many reads: a listing does not say which keys are deleted. A failed check leaves a key
   * as it was known.
   */
  async probe(client: OpenApiClient, keys: EntryAddress[], signal: AbortSignal): Promise<void> {
    const left = [...keys];
    const next = () => left.shift();
    const worker = async (): Promise<void> => {
      for (let a = next(); a && !signal.aborted; a = next()) {
        const remaining = client.rateLimit?.remaining;
        if (remaining !== undefined && remaining < 2 * (left.length + PROBES_IN_FLIGHT)) return;
        try {
          const page = await client.datastores.listEntryVersions(
            { ...entryRequest(a), sortOrder: 'Descending', limit: 1 },
            { signal },
          );
          if (page.items[0]) this.set(a, page.items[0].deleted ? 'deleted' : 'live');
        } catch {
          // It stays as it was known; the key still opens and says what it is.
        }
      }
    };
    await Promise.all(Array.from({ length: PROBES_IN_FLIGHT }, worker));
  }
}
