// A universe as the areas address it (which connection, which universe), and whether the user may write to it.
import { settings } from './settings';
import { t } from './text';

/** A universe of a connection. */
export interface UniverseAddress {
  connectionId: string;
  universeId: number;
}

/** One string a universe is known by in maps and storage. */
export const universeKey = (u: UniverseAddress): string => `${u.connectionId}/${u.universeId}`;

export const sameUniverse = (a: UniverseAddress, b: UniverseAddress): boolean => universeKey(a) === universeKey(b);

/** Whether the setting universeExplorer.readOnlyUniverses makes the universe read-only. */
export function isReadOnly(universeId: number): boolean {
  return settings().readOnlyUniverses.includes(universeId);
}

/** A write refused because the universe is read-only; its message is the one users see. */
export class ReadOnlyUniverseError extends Error {
  constructor(readonly universeId: number) {
    super(t`universe ${universeId} is read-only (setting universeExplorer.readOnlyUniverses)`);
    this.name = 'ReadOnlyUniverseError';
  }
}

/** Throws a ReadOnlyUniverseError for a read-only universe: every model's write path calls it first. */
export function assertWritable(universeId: number): void {
  if (isReadOnly(universeId)) throw new ReadOnlyUniverseError(universeId);
}
