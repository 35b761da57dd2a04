// A universe as the areas address it (which connection, which universe), its role, and whether the user may write
// to it. The connection keeps the role and the read-only mark; the setting universeExplorer.readOnlyUniverses makes
// a universe read-only too.
import { WriteRefusedError } from '../api';
import { settings } from './settings';
import { t } from './text';

/** A universe of a connection. */
export interface UniverseAddress {
  connectionId: string;
  universeId: number;
}

/** What a universe is for: development (the default, and always the sandbox's), staging or production. */
export type Role = 'development' | 'staging' | 'production';

export const ROLES: readonly Role[] = ['development', 'staging', 'production'];

/** What the connections say of a universe. */
export interface UniverseFacts {
  name?: string;
  connectionName: string;
  role?: Role;
  readOnly?: boolean;
  sandbox?: boolean;
}

/** One string a universe is known by in maps and storage. */
export const universeKey = (u: UniverseAddress): string => `${u.connectionId}/${u.universeId}`;

export const sameUniverse = (a: UniverseAddress, b: UniverseAddress): boolean => universeKey(a) === universeKey(b);

type Lookup = {
  facts(u: UniverseAddress): UniverseFacts | undefined;
  /** The connections that list the universe id. */
  listing(universeId: number): UniverseAddress[];
};
let lookup: Lookup = { facts: () => undefined, listing: () => [] };

/** Where roles and read-only marks are read from: the window's connections (set once, by Connections). */
export function useUniverses(source: Lookup): void {
  lookup = source;
}

/** What the connections say of the universe (undefined for one no connection lists). */
export const universeFacts = (u: UniverseAddress): UniverseFacts | undefined => lookup.facts(u);

/**
 * The universe's role. Given a bare universe id (as the agent tools are), the strictest role any connection that
 * lists it gives it.
 */
export function roleOf(u: UniverseAddress | number): Role {
  if (typeof u === 'number') {
    const roles = lookup.listing(u).map((a) => roleOf(a));
    return [...ROLES].reverse().find((r) => roles.includes(r)) ?? 'development';
  }
  const facts = lookup.facts(u);
  return facts?.sandbox ? 'development' : (facts?.role ?? 'development');
}

/** The role as the product names it. */
export function roleName(role: Role): string {
  return role === 'production' ? t`production` : role === 'staging' ? t`staging` : t`development`;
}

/** Read-only in the setting (which the user's settings alone can lift). */
export const readOnlyInSettings = (universeId: number): boolean => settings().readOnlyUniverses.includes(universeId);

/** Whether the user may not write to the universe: marked read-only on its connection, or in the setting. */
export function isReadOnly(u: UniverseAddress): boolean {
  return readOnlyInSettings(u.universeId) || !!lookup.facts(u)?.readOnly;
}

/** `"Live Game" (universe 123) on Production Key`, or `universe 123` for one no connection lists. */
export function describeUniverse(u: UniverseAddress): string {
  const facts = lookup.facts(u);
  if (!facts) return t`universe ${u.universeId}`;
  return facts.name
    ? t`"${facts.name}" (universe ${u.universeId}) on ${facts.connectionName}`
    : t`universe ${u.universeId} on ${facts.connectionName}`;
}

/** Why a write to the universe is refused, and how to allow it; undefined when it may be written. */
export function readOnlyReason(u: UniverseAddress): string | undefined {
  const id = u.universeId;
  const where = describeUniverse(u);
  if (readOnlyInSettings(id)) {
    return t`${where} is read-only (setting universeExplorer.readOnlyUniverses); to write to it, remove ${id} from that user setting`;
  }
  if (lookup.facts(u)?.readOnly) {
    return t`${where} is read-only; to write to it, choose Allow Writes on its row in the Universes view`;
  }
  return undefined;
}

/** A write refused because the universe is read-only; its message is the one users see. */
export class ReadOnlyUniverseError extends WriteRefusedError {
  override name = 'ReadOnlyUniverseError';
  constructor(u: UniverseAddress) {
    super(readOnlyReason(u) ?? t`universe ${u.universeId} is read-only`, u.universeId);
  }
}

/** Throws a ReadOnlyUniverseError for a read-only universe: every model's write path calls it first. */
export function assertWritable(u: UniverseAddress): void {
  if (isReadOnly(u)) throw new ReadOnlyUniverseError(u);
}
