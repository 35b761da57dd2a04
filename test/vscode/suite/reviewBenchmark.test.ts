// The measuring half of benchmark 10 (test/bench/review.ts): the time from opening a review panel to its page's first
// paint, for a review of 1,000 actions and one of 100,000, in the same run. It runs only when UE_BENCH_REVIEW_OUT
// names the file its figures go to (the benchmark sets it and picks this suite with UE_TEST_GREP); otherwise it is
// skipped, so npm test does not wait for it.
import * as fs from 'node:fs';
import { suite, test } from 'mocha';
import { ReviewPanel, type Review, type ReviewDeps, type ReviewItem } from '../../../src/core/review/panel';
import { extensionApi } from './support';

const OUT = process.env.UE_BENCH_REVIEW_OUT;
const SMALL = 1_000;
const LARGE = 100_000;
const ROUNDS = 5;

/** One round's figures, in ms. */
export interface PaintRound {
  /** From before the items are built to the page's `painted` message reaching the host. */
  total: number;
  /** Building the Review's items. */
  build: number;
  /** The host handling the page's messages (the state, counts and filter worked out, the first window). */
  host: number;
  /** The page's own clock at its paint (from the page's start). */
  page: number;
  /** Rows the page drew. */
  rows: number;
}

/** What the suite writes to UE_BENCH_REVIEW_OUT. */
export interface PaintFigures {
  small: { n: number; rounds: PaintRound[] };
  large: { n: number; rounds: PaintRound[] };
}

function item(i: number): ReviewItem {
  return {
    key: `Player_${String(i).padStart(7, '0')}`,
    scope: 'global',
    kind: i % 10 === 0 ? 'delete' : 'write',
    bytes: 150 + (i % 50),
    version: `08DC${String(i).padStart(12, '0')}`,
  };
}

function review(items: ReviewItem[]): Review {
  return {
    title: 'Review benchmark',
    heading: `Restore Players: ${items.length} actions`,
    direction: 'Players (scope global) in Bench Universe → as of 10:30',
    phase: 'plan',
    summary: `${items.length} actions.`,
    kinds: [
      { id: 'write', label: 'write', tone: 'change' },
      { id: 'delete', label: 'delete', tone: 'remove' },
      { id: 'same', label: 'unchanged', tone: 'same', count: 12_345 },
    ],
    items,
    buttons: [
      { id: 'apply', label: 'Apply', primary: true },
      { id: 'cancel', label: 'Cancel' },
    ],
  };
}

/** Opens a panel for `n` actions, as a user opening a plan of that size waits for it, and closes it once painted. */
async function firstPaint(deps: ReviewDeps, n: number): Promise<PaintRound> {
  const t0 = performance.now();
  const items = Array.from({ length: n }, (_, i) => item(i));
  const build = performance.now() - t0;
  const panel = new ReviewPanel(deps, review(items), {
    button: async () => undefined,
    open: async () => undefined,
  });
  let host = 0;
  const receive = panel.receive.bind(panel);
  // The webview's listener calls panel.receive; its synchronous part is all the host's work for a message.
  panel.receive = (message: unknown) => {
    const started = performance.now();
    const done = receive(message);
    host += performance.now() - started;
    return done;
  };
  try {
    await panel.whenPainted();
    const total = performance.now() - t0;
    if (!panel.painted) throw new Error(`the panel of ${n} actions closed before its page painted`);
    return { total, build, host, page: panel.painted.ms, rows: panel.painted.rows };
  } finally {
    panel.dispose();
  }
}

suite('review benchmark', function () {
  this.timeout(5 * 60_000);

  test('first paint of 1,000 and of 100,000 actions, alternating, after one of each to warm up', async function () {
    if (!OUT) this.skip();
    const { ctx } = (await extensionApi()).testing;
    const deps = { extensionUri: ctx.extension.extensionUri, log: ctx.log };
    await firstPaint(deps, SMALL);
    await firstPaint(deps, LARGE);
    const figures: PaintFigures = { small: { n: SMALL, rounds: [] }, large: { n: LARGE, rounds: [] } };
    for (let round = 0; round < ROUNDS; round++) {
      // Each size goes first in turn, so neither always follows the other's garbage.
      const order = round % 2 ? [LARGE, SMALL] : [SMALL, LARGE];
      for (const n of order) (n === SMALL ? figures.small : figures.large).rounds.push(await firstPaint(deps, n));
    }
    fs.writeFileSync(OUT, JSON.stringify(figures));
  });
});
