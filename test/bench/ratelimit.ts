// Benchmark 2: with the emulator's rate limits on at a reduced scale, an export of N entries takes at most
// 1.1 x N / limit, with zero failed entries. N is chosen so the last window holds only a few reads: the worst case
// for a fixed window, where wasting any part of a window would show.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { exportDataStore } from '../../src/api';
import { fmt, main, newClient, report, seededData, startEmulatorProcess, tempDir, U } from './support';

const SCALE = 0.5;
const LIMIT_PER_MINUTE = 300 * SCALE; // the documented 300 reads a minute per universe, scaled
const N = 2 * LIMIT_PER_MINUTE; // plus 3 list pages: two full windows and 3 reads in a third
const STORE = 'Limited';

main(async () => {
  const dir = tempDir('ratelimit');
  try {
    // Seed without limits, then serve the same data with limits on.
    const data = await seededData(dir, STORE, N);

    const emu = await startEmulatorProcess([
      '--data',
      data,
      '--rate-limits',
      '--rate-limit-scale',
      String(SCALE),
      '--control',
    ]);
    const client = newClient(emu.url);
    try {
      const file = path.join(dir, 'export.ndjson');
      const started = performance.now();
      const result = await exportDataStore(client, { universeId: U, datastoreName: STORE, file, resume: false });
      const ms = performance.now() - started;
      const lines = fs.readFileSync(file, 'utf8').split('\n').filter(Boolean).length - 1; // after the header line
      const seen = ((await (await fetch(`${emu.url}/_emulator/requests`)).json()) as { requests: { status: number }[] })
        .requests;
      const limited = seen.filter((r) => r.status === 429).length;
      const failed = N - lines;
      const bound = (N / LIMIT_PER_MINUTE) * 60_000;
      const ratio = ms / bound;
      report({
        id: 2,
        title: `Export of ${fmt(N)} entries under the rate limit (--rate-limits --rate-limit-scale ${SCALE}: ${LIMIT_PER_MINUTE} reads/min, fixed 60 s windows)`,
        figures: [
          `time: ${fmt(ms / 1000, 1)} s; N / limit = ${fmt(bound / 1000, 1)} s`,
          `entries written: ${fmt(lines)} of ${fmt(N)} (exported ${fmt(result.exported)}, skipped ${fmt(result.skipped)})`,
          `requests answered 429: ${limited} of ${seen.length}`,
        ],
        goals: [
          { text: 'time <= 1.1 x N / limit', measured: `${fmt(ratio, 3)} x N / limit`, met: ratio <= 1.1 },
          { text: 'zero failed entries', measured: `${failed} failed`, met: failed === 0 },
        ],
      });
    } finally {
      await client.close();
      await emu.close();
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
