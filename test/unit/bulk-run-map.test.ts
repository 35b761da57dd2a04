// A bulk run's map: orderedMap with the run's window (its scheduler's slots times WINDOW_PER_SLOT unless given) and
// its progress ticked once each run of results has been handled.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { startRun, WINDOW_PER_SLOT } from '../../src/api/bulk/progress';

async function* batches(n: number, size: number): AsyncGenerator<number[]> {
  for (let i = 0; i < n; i += size) yield Array.from({ length: Math.min(size, n - i) }, (_, j) => i + j);
}

/** A call that answers after a turn of timers, counting how many are pending at most. */
function counted(): { fn: (i: number) => Promise<number>; most: () => number } {
  let pending = 0;
  let most = 0;
  return {
    fn: async (i) => {
      most = Math.max(most, ++pending);
      await new Promise((r) => setTimeout(r, 1));
      pending--;
      return i * 2;
    },
    most: () => most,
  };
}

describe('run.map', () => {
  it('keeps source order and at most the run window pending', async () => {
    const run = startRun(undefined, { concurrency: 2 });
    const { fn, most } = counted();
    const out: number[] = [];
    try {
      for await (const results of run.map(batches(50, 7), fn)) out.push(...results);
    } finally {
      run.end();
    }
    assert.deepEqual(
      out,
      Array.from({ length: 50 }, (_, i) => i * 2),
    );
    assert.equal(most(), 2 * WINDOW_PER_SLOT);
  });

  it('takes a window of its own, and ticks the progress after each run is handled', async () => {
    const run = startRun(undefined, {});
    const { fn, most } = counted();
    const events: string[] = [];
    try {
      const results = run.map(batches(20, 5), fn, { window: 3, progress: { tick: () => events.push('tick') } });
      for await (const r of results) events.push(`run ${r.length}`);
    } finally {
      run.end();
    }
    assert.equal(most(), 3);
    assert.ok(events.length >= 2, events.join());
    events.forEach((e, i) => assert.equal(e.startsWith('run') ? 'run' : 'tick', i % 2 ? 'tick' : 'run', events.join()));
    assert.equal(events.filter((e) => e.startsWith('run')).length, events.filter((e) => e === 'tick').length);
  });
});
