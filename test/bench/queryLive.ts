// Benchmark 12: a query index built live from the sandbox (the emulator process) under its rate limits, at the
// default budget share: the whole build (export paced by the share, then the load into DuckDB) takes at most 1.1 x
// (requests / allotted budget) windows, with no request answered 429 and every entry indexed. Windows are scaled to
// 5 s, and N is chosen so the last window holds only a few reads: the worst case for a fixed window, as in 2.
import * as fs from 'node:fs';
import { OpenApiClient } from '../../src/api';
import { UniverseIndex } from '../../src/query';
import { API_KEY, fmt, main, report, seededData, startEmulatorProcess, tempDir, U } from './support';

const WINDOW_MS = 5_000; // the minute, scaled by 1/12
const READ_LIMIT = 300; // v1 data store reads a window per universe (docs/SERVICE.md, "Rate limits")
const SHARE = 0.5; // universeExplorer.bulk.budgetShare's default
const BUDGET = READ_LIMIT * SHARE;
const PAGE = 100; // v1 List Entries page the export asks for
/** With its 5 list pages, 456 requests: three windows' budgets and a few reads in a fourth window. */
const N = 451;
const STORE = 'Indexed';

main(async () => {
  const dir = tempDir('query-live');
  try {
    const data = await seededData(dir, STORE, N);
    const emu = await startEmulatorProcess([
      '--data',
      data,
      '--rate-limits',
      '--rate-limit-window-scale',
      String(WINDOW_MS / 60_000),
      '--control',
    ]);
    // When each request was sent: the emulator's window opens at the first.
    const sent: number[] = [];
    const client = new OpenApiClient({
      baseUrl: emu.url,
      apiKey: API_KEY,
      log: (e) => void sent.push(performance.now() - e.ms),
    });
    const index = new UniverseIndex({ dir, universeKey: 'bench/query-live', universeId: U });
    try {
      const started = performance.now();
      const built = await index.build(client, { store: STORE }, { budgetShare: SHARE });
      const ms = performance.now() - started;
      const answers = (
        (await (await fetch(`${emu.url}/_emulator/requests`)).json()) as { requests: { status: number }[] }
      ).requests;
      const requests = answers.length;
      const limited = answers.filter((r) => r.status === 429).length;
      const bound = (requests / BUDGET) * WINDOW_MS;
      const ratio = ms / bound;
      const first = Math.min(...sent);
      const perWindow: number[] = [];
      for (const at of sent) {
        const w = Math.floor((at - first) / WINDOW_MS);
        perWindow[w] = (perWindow[w] ?? 0) + 1;
      }
      report({
        id: 12,
        title: `Query index built live from the sandbox under its rate limits (--rate-limits, windows scaled to ${WINDOW_MS / 1000} s: ${READ_LIMIT} reads a window; budgetShare ${SHARE}, so ${BUDGET} a window allotted; ${fmt(N)} entries)`,
        figures: [
          `build: ${fmt(ms / 1000, 1)} s (export ${fmt((built.export?.ms ?? 0) / 1000, 1)} s, then the load); requests / allotted budget = ${fmt(requests)} / ${BUDGET} a window = ${fmt(bound / 1000, 1)} s`,
          `requests: ${fmt(requests)} (${Math.ceil(N / PAGE)} list pages and ${fmt(N)} reads expected), ${limited} answered 429`,
          `entries indexed: ${fmt(built.entries)} of ${fmt(N)}; requests sent per window: ${perWindow.join(', ')}`,
        ],
        goals: [
          {
            text: 'build time <= 1.1 x requests / allotted budget',
            measured: `${fmt(ratio, 3)} x requests / budget`,
            met: ratio <= 1.1,
          },
          {
            text: 'every entry indexed, no 429',
            measured: `${fmt(built.entries)} of ${fmt(N)}, ${limited} answered 429`,
            met: built.entries === N && limited === 0,
          },
        ],
      });
    } finally {
      await index.close();
      await client.close();
      await emu.close();
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
