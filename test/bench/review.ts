// Benchmark 10: the review panel's first paint of 100,000 actions against that of 1,000, inside a real VS Code. The
// panel keeps every row on the host and the page asks for the window in view, so a plan of 100,000 actions should
// open about as fast as one of 1,000. The measuring is done by the suite 'review benchmark'
// (test/vscode/suite/reviewBenchmark.test.ts), run here through the VS Code test runner (code-server, its Node 24
// extension host, Chromium), which writes its figures to the file named by UE_BENCH_REVIEW_OUT. Each figure is from
// before the review's items are built to the page's `painted` message reaching the host: what a user opening the plan
// waits for (the items, the state and counts, the first window, the webview and its page).
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { PaintFigures, PaintRound } from '../vscode/suite/reviewBenchmark.test';
import { fmt, main, report, ROOT, tempDir } from './support';

const GOAL_RATIO = 3;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Runs the suite 'review benchmark' in the VS Code test runner, its output on our stderr; resolves with its figures. */
async function measure(out: string): Promise<PaintFigures> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/vscode/run.ts', '--suite-only'], {
    cwd: ROOT,
    env: { ...process.env, UE_TEST_GREP: '^review benchmark ', UE_BENCH_REVIEW_OUT: out },
    // Our stdout is for the result line (run.ts reads it); the runner's lines go to stderr.
    stdio: ['ignore', 2, 2],
  });
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('exit', resolve);
    child.once('error', reject);
  });
  if (code !== 0 || !fs.existsSync(out)) throw new Error(`the VS Code test runner failed (exit code ${code})`);
  return JSON.parse(fs.readFileSync(out, 'utf8')) as PaintFigures;
}

function summary(rounds: PaintRound[]) {
  const pick = (f: (r: PaintRound) => number) => median(rounds.map(f));
  return {
    total: pick((r) => r.total),
    build: pick((r) => r.build),
    host: pick((r) => r.host),
    page: pick((r) => r.page),
    rows: pick((r) => r.rows),
    all: rounds.map((r) => `${fmt(r.total)} ms`).join(', '),
  };
}

main(async () => {
  const dir = tempDir('review');
  try {
    const figures = await measure(path.join(dir, 'figures.json'));
    const small = summary(figures.small.rounds);
    const large = summary(figures.large.rounds);
    const ratio = large.total / small.total;
    const line = (n: number, s: ReturnType<typeof summary>) =>
      `${fmt(n)} actions: first paint ${fmt(s.total)} ms (rounds ${s.all}); of it, items built ${fmt(s.build, 1)} ms, the host's handling of the page's messages (state, counts, first window) ${fmt(s.host, 1)} ms; the page painted ${fmt(s.rows)} rows at ${fmt(s.page)} ms of its own clock`;
    report({
      id: 10,
      title: `Review panel: first paint of ${fmt(figures.large.n)} actions against ${fmt(figures.small.n)} inside VS Code (code-server, median of ${figures.small.rounds.length} alternating rounds after one of each to warm up)`,
      figures: [line(figures.small.n, small), line(figures.large.n, large)],
      goals: [
        {
          text: `first paint of ${fmt(figures.large.n)} actions within ${GOAL_RATIO}× that of ${fmt(figures.small.n)}`,
          measured: `${fmt(ratio, 2)}× (${fmt(large.total)} ms against ${fmt(small.total)} ms)`,
          met: ratio <= GOAL_RATIO,
        },
      ],
    });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
