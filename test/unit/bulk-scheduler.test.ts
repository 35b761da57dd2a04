// The bulk scheduler with plain tasks: its concurrency bound, pacing from rate-limit figures, 429s and abort.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { listAhead, orderedMap, RateLimitedError, Scheduler, type RateLimit } from '../../src/api';
import type { Page } from '../../src/api/paging';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Lets every step that waits on no timer run: promise callbacks, and the setImmediate turns orderedMap takes. */
async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
}

/** Calls that end only when the test ends them, in the order it chooses, so no two steps race. */
function gates<R = void>() {
  const open = new Map<number, { resolve: (value: R) => void; reject: (error: Error) => void }>();
  const take = (i: number) => {
    const call = open.get(i);
    assert.ok(call, `call ${i} is not waiting`);
    open.delete(i);
    return call;
  };
  return {
    /** Call `i`: it waits until the test ends it. */
    call: (i: number) => new Promise<R>((resolve, reject) => open.set(i, { resolve, reject })),
    /** The calls started and not yet ended, in the order they started, once all that can run has run. */
    async waiting(): Promise<number[]> {
      await settle();
      return [...open.keys()];
    },
    end: (i: number, value: R) => take(i).resolve(value),
    fail: (i: number, error: Error) => take(i).reject(error),
  };
}

/** A fixed-window limit like the service's: `limit` calls per window; figures as the transport would read them. */
function fixedWindow(limit: number, windowMs: number) {
  let start = 0;
  let count = 0;
  let figures: RateLimit | undefined;
  const stats = { ok: 0, refused: 0 };
  async function call(): Promise<void> {
    const now = Date.now();
    if (now - start >= windowMs) [start, count] = [now, 0];
    const resetSeconds = (start + windowMs - now) / 1000;
    await sleep(2);
    if (count >= limit) {
      stats.refused++;
      figures = { remaining: 0, resetSeconds, at: Date.now() };
      throw new RateLimitedError('Too many requests. (429)', { status: 429, retryAfterMs: resetSeconds * 1000 });
    }
    count++;
    stats.ok++;
    figures = { limit: String(limit), remaining: limit - count, resetSeconds, at: Date.now() };
  }
  /** Another client of the same limit (a game server): true when it was let through. */
  function other(): boolean {
    const now = Date.now();
    if (now - start >= windowMs) [start, count] = [now, 0];
    if (count >= limit) return false;
    count++;
    return true;
  }
  return { call, other, stats, figures: () => figures, window: () => start };
}

describe('bulk scheduler', () => {
  it('never runs more than `concurrency` tasks at once', async () => {
    const scheduler = new Scheduler({ concurrency: 3 });
    const tasks = gates();
    let running = 0;
    let peak = 0;
    const all = Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        scheduler.run(async () => {
          peak = Math.max(peak, ++running);
          await tasks.call(i);
          running--;
        }),
      ),
    );
    // The oldest task running ends, then whatever the scheduler starts next, until none is left.
    for (let w = await tasks.waiting(); w.length; w = await tasks.waiting()) tasks.end(w[0]);
    await all;
    assert.equal(peak, 3);
  });

  it('paces from the figures: no call is refused, and every call is made', async () => {
    const service = fixedWindow(5, 150);
    const scheduler = new Scheduler({ concurrency: 8, rateLimit: service.figures });
    await Promise.all(Array.from({ length: 18 }, () => scheduler.run(service.call)));
    assert.deepEqual(service.stats, { ok: 18, refused: 0 });
  });

  it('with a budget share, spends at most that share of each window and leaves the rest to another client', async () => {
    const limit = 20;
    const windowMs = 200;
    const service = fixedWindow(limit, windowMs);
    const scheduler = new Scheduler({ concurrency: 8, rateLimit: service.figures, budgetShare: 0.5 });
    const ours = new Map<number, number>();
    // The game spends nearly its half (9 calls) at a steady pace through each window.
    let gameRefused = 0;
    const gameSpent = new Map<number, number>();
    const game = setInterval(() => {
      const spent = gameSpent.get(service.window()) ?? 0;
      if (spent >= limit / 2 - 1) return;
      if (service.other()) gameSpent.set(service.window(), spent + 1);
      else gameRefused++;
    }, windowMs / limit);
    try {
      const task = async () => {
        await service.call();
        ours.set(service.window(), (ours.get(service.window()) ?? 0) + 1);
      };
      await Promise.all(Array.from({ length: 40 }, () => scheduler.run(task)));
    } finally {
      clearInterval(game);
    }
    assert.equal(gameRefused, 0, 'the game was refused');
    const perWindow = [...ours.values()];
    assert.ok(
      perWindow.every((n) => n <= limit / 2 + 1),
      `ours per window: ${perWindow.join(', ')}`,
    );
  });

  it('paces each budget by its own figures: a spent budget holds back only its own tasks', async () => {
    const windowMs = 400;
    const lists = fixedWindow(2, windowMs);
    const reads = fixedWindow(12, windowMs);
    const budgets: Record<string, ReturnType<typeof fixedWindow>> = { list: lists, read: reads };
    const scheduler = new Scheduler({ concurrency: 4, rateLimit: (b) => budgets[b!].figures() });
    await lists.call(); // each budget's window starts, and its figures are known
    await reads.call();
    const first = reads.window();
    let readsInFirstWindow = 0;
    const read = async () => {
      await reads.call();
      if (reads.window() === first) readsInFirstWindow++;
    };
    // Lists spend their 2 at once and then wait a window; reads must not wait with them.
    await Promise.all([
      ...Array.from({ length: 3 }, () => scheduler.run(lists.call, 'list')),
      ...Array.from({ length: 10 }, () => scheduler.run(read, 'read')),
    ]);
    assert.deepEqual(lists.stats.refused + reads.stats.refused, 0);
    assert.equal(readsInFirstWindow, 10, 'the reads ran in the first window');
  });

  it('without figures, a 429 pauses and repeats the task instead of failing it', async () => {
    const service = fixedWindow(5, 150);
    const scheduler = new Scheduler({ concurrency: 8 });
    await Promise.all(Array.from({ length: 18 }, () => scheduler.run(service.call)));
    assert.equal(service.stats.ok, 18);
    assert.ok(service.stats.refused > 0, 'the limit was met');
  });

  it('gives up on a task after maxRateLimited 429s with the last one', async () => {
    const scheduler = new Scheduler({ maxRateLimited: 3 });
    let calls = 0;
    const err = await scheduler
      .run(async () => {
        calls++;
        throw new RateLimitedError('Too many requests. (429)', { status: 429, retryAfterMs: 1 });
      })
      .catch((e: Error) => e);
    assert.ok(err instanceof RateLimitedError);
    assert.equal(calls, 3);
  });

  it('an abort rejects the tasks still waiting for a slot with an AbortError', async () => {
    const controller = new AbortController();
    const scheduler = new Scheduler({ concurrency: 1, signal: controller.signal });
    const tasks = gates();
    const first = scheduler.run(() => tasks.call(0));
    const waiting = scheduler.run(async () => 'never').catch((e: Error) => e);
    assert.deepEqual(await tasks.waiting(), [0]);
    controller.abort();
    tasks.end(0);
    await first;
    const err = await waiting;
    assert.ok(err instanceof Error && err.name === 'AbortError', String(err));
  });

  it('orderedMap yields in source order however the calls finish, across batches', async () => {
    async function* source() {
      yield [0, 1, 2];
      yield [];
      yield [3, 4, 5, 6, 7, 8, 9];
    }
    const calls = gates<number>();
    const out: number[] = [];
    const consumed = (async () => {
      for await (const v of orderedMap(source(), 4, calls.call)) out.push(...v);
    })();
    // The latest call started always ends first.
    for (let w = await calls.waiting(); w.length; w = await calls.waiting()) calls.end(w.at(-1)!, w.at(-1)! * 10);
    await consumed;
    assert.deepEqual(out, [0, 10, 20, 30, 40, 50, 60, 70, 80, 90]);
  });

  it('orderedMap yields the results before a failed call, then fails with its error', async () => {
    async function* source() {
      yield [0, 1, 2, 3, 4];
    }
    const calls = gates<number>();
    const out: number[] = [];
    const failed = (async () => {
      try {
        for await (const run of orderedMap(source(), 5, calls.call)) out.push(...run);
      } catch (e) {
        return e as Error;
      }
    })();
    assert.deepEqual(await calls.waiting(), [0, 1, 2, 3, 4]);
    // The later ones are in before the head: one run.
    [1, 2, 4].forEach((i) => calls.end(i, i));
    calls.fail(3, new Error('call 3 failed'));
    assert.deepEqual(await calls.waiting(), [0]);
    calls.end(0, 0);
    const err = await failed;
    assert.deepEqual(out, [0, 1, 2]);
    assert.equal(err?.message, 'call 3 failed');
  });

  it('orderedMap gives a run of every result already in after the head', async () => {
    async function* source() {
      yield Array.from({ length: 8 }, (_, i) => i);
    }
    const calls = gates<number>();
    const runs: number[][] = [];
    const consumed = (async () => {
      for await (const run of orderedMap(source(), 8, calls.call)) runs.push(run);
    })();
    assert.deepEqual(await calls.waiting(), [0, 1, 2, 3, 4, 5, 6, 7]);
    for (let i = 1; i < 8; i++) calls.end(i, i);
    assert.deepEqual(await calls.waiting(), [0]);
    calls.end(0, 0);
    await consumed;
    assert.deepEqual(runs, [[0, 1, 2, 3, 4, 5, 6, 7]]);
  });

  it('orderedMap with `running` keeps that many calls going, the next starting as soon as any settles', async () => {
    async function* source() {
      yield [0, 1, 2, 3];
      yield [4, 5];
    }
    const calls = gates<number>();
    let active = 0;
    let peak = 0;
    let headDone = false;
    const whileHeadRan: number[] = [];
    const out: number[] = [];
    const consumed = (async () => {
      for await (const run of orderedMap(
        source(),
        8,
        async (i) => {
          if (!headDone) whileHeadRan.push(i);
          peak = Math.max(peak, ++active);
          const result = await calls.call(i);
          active--;
          if (i === 0) headDone = true;
          return result;
        },
        2,
      ))
        out.push(...run);
    })();
    // The head ends last: every other call started ends first, one at a time.
    for (let w = await calls.waiting(); w.length; w = await calls.waiting()) {
      const next = w.find((i) => i !== 0) ?? 0;
      calls.end(next, next);
    }
    await consumed;
    assert.deepEqual(out, [0, 1, 2, 3, 4, 5]);
    assert.equal(peak, 2);
    assert.deepEqual(whileHeadRan, [0, 1, 2, 3, 4, 5]); // the next batch too, before the head settled
  });
});

/** `count` pages of `size` numbers; page i > 0 is fetched by `fetch(i)`, which the test ends when it chooses. */
function numberPages(count: number, size: number, fetch: (i: number) => Promise<void>): Page<number> {
  const make = (i: number): Page<number> => {
    const items = Array.from({ length: size }, (_, j) => i * size + j);
    return {
      items,
      next: i + 1 < count ? String(i + 1) : undefined,
      nextPage: async () => {
        if (i + 1 >= count) return undefined;
        await fetch(i + 1);
        return make(i + 1);
      },
      [Symbol.asyncIterator]: async function* () {
        yield* items;
      },
    };
  };
  return make(0);
}

describe('listAhead', () => {
  it('lists on while the reader holds its items, up to maxAhead, and tells each page as it comes', async () => {
    const fetches = gates();
    const told: [number, boolean][] = [];
    const it = listAhead(new Scheduler(), numberPages(5, 2, fetches.call), {
      maxAhead: 4,
      onPage: (items, last) => told.push([items.length, last]),
    })[Symbol.asyncIterator]();
    assert.deepEqual((await it.next()).value, [0, 1]);
    // The reader holds page 0 and asks for nothing more; the listing goes on until 4 items wait for it.
    assert.deepEqual(await fetches.waiting(), [1]);
    fetches.end(1);
    assert.deepEqual(await fetches.waiting(), [2]);
    fetches.end(2);
    assert.deepEqual(await fetches.waiting(), [], 'the listing waits while 4 items are held');
    assert.deepEqual(told, [
      [2, false],
      [2, false],
      [2, false],
    ]);
    assert.deepEqual((await it.next()).value, [2, 3]);
    assert.deepEqual(await fetches.waiting(), [3], 'a page taken lets the listing go on');
    fetches.end(3);
    assert.deepEqual(await fetches.waiting(), [], 'held again: 4 items');
    const rest: number[] = [];
    for (let r = await it.next(); !r.done; r = await it.next()) {
      rest.push(...r.value);
      for (const i of await fetches.waiting()) fetches.end(i);
    }
    assert.deepEqual(rest, [4, 5, 6, 7, 8, 9]);
    assert.deepEqual(told.at(-1), [2, true]);
    assert.equal(told.length, 5);
  });

  it('a page that fails fails the iteration after the pages before it', async () => {
    const fetches = gates();
    const out: number[] = [];
    const failed = (async () => {
      try {
        for await (const items of listAhead(new Scheduler(), numberPages(4, 2, fetches.call), { maxAhead: 100 })) {
          out.push(...items);
          for (const i of await fetches.waiting()) {
            if (i === 2) fetches.fail(i, new Error('page 2 failed'));
            else fetches.end(i);
          }
        }
      } catch (e) {
        return e as Error;
      }
    })();
    assert.equal((await failed)?.message, 'page 2 failed');
    assert.deepEqual(out, [0, 1, 2, 3]);
  });

  it('stopping the iteration stops the listing', async () => {
    const fetches = gates();
    for await (const items of listAhead(new Scheduler(), numberPages(10, 2, fetches.call), { maxAhead: 2 })) {
      assert.deepEqual(items, [0, 1]);
      break;
    }
    assert.deepEqual(await fetches.waiting(), [1], 'the page asked for before the stop');
    fetches.end(1);
    assert.deepEqual(await fetches.waiting(), [], 'and none after it');
  });
});
