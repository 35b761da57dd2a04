// Benchmark 9: under the emulator's cloud v2 limits with a concurrent-users figure set, an export through v2 with
// universeExplorer.bulk.budgetShare 0.5 uses its half of each read window within 10%, while a simulated game server
// spending the rest at a steady pace is never answered 429.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Agent } from 'undici';
import { exportDataStore, OpenApiClient } from '../../src/api';
import { API_KEY, fmt, main, report, seededData, startEmulatorProcess, tempDir, U } from './support';

const CCU = 20;
const READ_LIMIT = 300 + 40 * CCU; // v2 reads per window (reference 4.1)
const WINDOW_MS = 10_000; // the minute, scaled by 1/6
const SHARE = 0.5;
/** Windows the export needs at its share; the last one it only starts. */
const WINDOWS = 4;
const N = WINDOWS * SHARE * READ_LIMIT - 100;
/** The game spends the rest less 1%, evenly across each window. */
const GAME_PER_WINDOW = Math.floor(READ_LIMIT * (1 - SHARE) * 0.99);
const STORE = 'Shared';

main(async () => {
  const dir = tempDir('budget-share');
  try {
    const data = await seededData(dir, STORE, N, true);

    const emu = await startEmulatorProcess([
      '--data',
      data,
      '--rate-limits',
      '--rate-limit-window-scale',
      String(WINDOW_MS / 60_000),
      '--concurrent-users',
      String(CCU),
    ]);
    // Our reads, by when they were sent.
    const ours: number[] = [];
    const client = new OpenApiClient({
      baseUrl: emu.url,
      apiKey: API_KEY,
      log: (e) => {
        if (e.method === 'GET' && e.path.includes('@latest') && e.status === 200) ours.push(Date.now() - e.ms);
      },
    });
    const game = { sent: 0, refused: 0, failed: 0 };
    const agent = new Agent({ connections: 4 });
    const origin = new URL(emu.url).origin;
    const gamePath = `/cloud/v2/universes/${U}/data-stores/${STORE}/scopes/global/entries/Player_0000000@latest`;
    let playing = true;
    const gameLoop = (async () => {
      const every = WINDOW_MS / GAME_PER_WINDOW;
      const start = performance.now();
      while (playing) {
        const due = start + game.sent * every;
        const wait = due - performance.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        game.sent++;
        void agent
          .request({ origin, path: gamePath, method: 'GET', headers: { 'x-api-key': API_KEY } })
          .then(async (res) => {
            await res.body.arrayBuffer();
            if (res.statusCode === 429) game.refused++;
            else if (res.statusCode !== 200) game.failed++;
          });
      }
    })();
    try {
      // The game first: its first request opens the read window, and windows follow each other from then on.
      const windowsStart = Date.now();
      await new Promise((r) => setTimeout(r, 500));
      const result = await exportDataStore(
        client,
        { universeId: U, datastoreName: STORE, file: path.join(dir, 'export.ndjson'), resume: false, api: 'v2' },
        { budgetShare: SHARE },
      );
      playing = false;
      await gameLoop;
      await new Promise((r) => setTimeout(r, 200));
      const perWindow = new Map<number, number>();
      for (const at of ours) {
        const w = Math.floor((at - windowsStart) / WINDOW_MS);
        perWindow.set(w, (perWindow.get(w) ?? 0) + 1);
      }
      const windows = [...perWindow.entries()].sort((a, b) => a[0] - b[0]).map(([, n]) => n);
      // Whole windows of work: all but the last, which the export only finishes.
      const whole = windows.slice(0, -1);
      const used = whole.reduce((a, b) => a + b, 0) / (whole.length * READ_LIMIT);
      const off = Math.abs(used / SHARE - 1);
      const lines = fs.readFileSync(path.join(dir, 'export.ndjson'), 'utf8').split('\n').filter(Boolean).length - 1;
      report({
        id: 9,
        title: `A bulk job under the cloud v2 limits, sharing them with a game server (--rate-limits --concurrent-users ${CCU}: ${fmt(READ_LIMIT)} reads a ${WINDOW_MS / 1000} s window; export of ${fmt(N)} entries through v2 with budgetShare ${SHARE}; the game reads ${GAME_PER_WINDOW} a window at a steady pace)`,
        figures: [
          `our reads per window: ${windows.map((n) => fmt(n)).join(', ')} (of ${fmt(READ_LIMIT)}; the last window only finishes the export)`,
          `share used in whole windows: ${fmt(used, 3)} (asked: ${SHARE})`,
          `entries written: ${fmt(lines)} of ${fmt(N)} (exported ${fmt(result.exported)}, failed ${result.failed})`,
          `game server: ${fmt(game.sent)} reads, ${game.refused} answered 429, ${game.failed} other failures`,
        ],
        goals: [
          {
            text: 'bulk job uses its share within 10%',
            measured: `${fmt(used, 3)} of ${SHARE} (${fmt(off * 100, 1)}% off)`,
            met: whole.length > 0 && off <= 0.1,
          },
          {
            text: 'no 429 for the game server',
            measured: `${game.refused} of ${fmt(game.sent)}`,
            met: game.refused === 0 && game.failed === 0,
          },
        ],
      });
    } finally {
      playing = false;
      await agent.close();
      await client.close();
      await emu.close();
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
