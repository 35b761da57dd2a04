// Version retention, as the live service documents it (docs/SERVICE.md, "Versions and deletion"), applied per key:
// - One kept version per UTC hour: the hour's last write. Earlier writes of that hour are thinned only once the hour
//   ended more than an hour ago, so a client still lists each version it just wrote.
// - A superseded version expires 30 days after it was superseded (the time of the next write to the key, kept as
//   `until`); the latest never expires.
// - A key whose latest version is a tombstone is purged for good 30 days after the delete.
// - A snapshot (cloud v2) keeps what was current when it was taken: a version current at a
//   snapshot is never thinned, so it lives until 30 days after it was superseded. Snapshots are given as the
//   highest sequence number written before each (exact where times may tie within a millisecond).
export const HOUR_MS = 60 * 60 * 1000;
export const KEEP_MS = 30 * 24 * HOUR_MS;

export interface Dated {
  seq: number;
  at: number;
  until?: number;
  deleted: boolean;
}

/**
 * The sequence numbers of the versions the rule removes at `now` (all of them for a purged key); oldest first.
 * `snapshots`: the universe's snapshots as sequence numbers, ascending.
 */
export function expiredVersions(versions: readonly Dated[], now: number, snapshots: readonly number[] = []): number[] {
  const last = versions.length - 1;
  if (last < 0) return [];
  const latest = versions[last];
  if (latest.deleted && now - latest.at >= KEEP_MS) return versions.map((v) => v.seq);
  const out: number[] = [];
  for (let i = 0; i < last; i++) {
    const v = versions[i];
    const hour = Math.floor(v.at / HOUR_MS);
    const next = versions[i + 1];
    const thinned =
      hour === Math.floor(next.at / HOUR_MS) &&
      now - (hour + 1) * HOUR_MS > HOUR_MS &&
      !heldBySnapshot(v.seq, next.seq, snapshots);
    const expired = v.until !== undefined && now - v.until >= KEEP_MS;
    if (thinned || expired) out.push(v.seq);
  }
  return out;
}

/** Whether a deleted data store's 30 days have run out. */
export const purgeDue = (store: { deletedAt?: number }, now: number): boolean =>
  store.deletedAt !== undefined && now - store.deletedAt >= KEEP_MS;

/** Whether a key may have something to remove (most have one live version and never do). */
export const mayExpire = (versions: readonly Dated[]): boolean =>
  versions.length > 1 || (versions.length === 1 && versions[0].deleted);

/** Whether a snapshot was taken while the version written at `seq` was current (until `nextSeq`). */
function heldBySnapshot(seq: number, nextSeq: number, snapshots: readonly number[]): boolean {
  let lo = 0;
  let hi = snapshots.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (snapshots[mid] < seq) lo = mid + 1;
    else hi = mid;
  }
  return lo < snapshots.length && snapshots[lo] < nextSeq;
}
