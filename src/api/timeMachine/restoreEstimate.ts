// How long a restore plan takes to run: its requests and bytes against the per-universe limits.

/** Requests per minute (and write bytes per minute) the estimate assumes. */
export interface RestoreRate {
  /** Default 300, the documented per-universe limit of Set, Increment and Delete. */
  writesPerMinute?: number;
  /** Default 300, the documented per-universe limit of reads. */
  readsPerMinute?: number;
  /** Default 10 MB, the documented per-universe write throughput. */
  writeBytesPerMinute?: number;
}

export const DEFAULT_RESTORE_RATE: Required<RestoreRate> = {
  writesPerMinute: 300,
  readsPerMinute: 300,
  writeBytesPerMinute: 10 * 1024 * 1024,
};

/** How long a plan's requests and bytes take at `rate`: the slowest of the three limits. */
export function estimateMs(plan: { writes: number; reads: number; bytes: number }, rate: RestoreRate = {}): number {
  const r = { ...DEFAULT_RESTORE_RATE, ...rate };
  const minutes = Math.max(
    plan.writes / r.writesPerMinute,
    plan.reads / r.readsPerMinute,
    plan.bytes / r.writeBytesPerMinute,
  );
  return Math.round(minutes * 60_000);
}
