// What each request does, declared by the function that makes it (not guessed from the HTTP verb: some cloud v2
// reads are POSTs): it reads, or it writes to a universe, or to the connection's assets.

/** A universe's data (entries, stores, restrictions), or the assets, which every universe of a connection shares. */
export type WriteTarget = { universeId: number } | { assets: true };

/** Every request says which: a read, or a write and what it writes to. */
export type Access = 'read' | WriteTarget;

/** Why a write may not be sent (the message users see), or undefined when it may. Asked before every write. */
export type WriteGuard = (target: WriteTarget) => string | undefined;

/** A write to the connection's assets. */
export const ASSETS: WriteTarget = { assets: true };

/** A write to the universe's data. */
export const writes = (universeId: number | string): WriteTarget => ({ universeId: Number(universeId) });
