// Benchmark 8: export 5,000 entries through cloud v2 against the same export through v1, from the emulator (its own
// process): v2 lists 256 keys a page where v1 lists 100, so it needs fewer list requests and must be at least as fast.
// The values' numbers stay within ±2^53; a store whose values hold larger ones (read again through v1 for their exact
// text, as v2 clamps them) is timed too, as a figure without a goal.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { exportDataStore, OpenApiClient, type ApiVersion } from '../../src/api';
import { API_KEY, fastest, fmt, main, newClient, report, seedStore, startEmulatorProcess, tempDir, U } from './support';

const N = 5000;
const CONCURRENCY = 16;
const STORE = 'ExportV2';
const BIG = 'ExportV2Big';
const RUNS = 7;
const WARM_UP = 4;

main(async () => {
  const emu = await startEmulatorProcess();
  const client = newClient(emu.url);
  const dir = tempDir('export-v2');
  try {
    await seedStore(client, STORE, N, dir, true);
    await seedStore(client, BIG, N, dir);
    const exportThrough =
      (c: OpenApiClient, api: ApiVersion, store = STORE) =>
      async () => {
        const file = path.join(dir, `${store}-${api}.ndjson`);
        const r = await exportDataStore(
          c,
          { universeId: U, datastoreName: store, file, resume: false, api },
          { concurrency: CONCURRENCY },
        );
        if (r.exported !== N) throw new Error(`exported ${r.exported} of ${N} through ${api}`);
      };

    // One counted run each, with a client that logs every request (left out of the timed runs).
    const lists = { v1: 0, v2: 0 };
    for (const api of ['v1', 'v2'] as const) {
      const counting = new OpenApiClient({
        baseUrl: emu.url,
        apiKey: API_KEY,
        log: (e) => {
          if (e.method === 'GET' && /\/entries(\?|$)/.test(e.path)) lists[api]++;
        },
      });
      await exportThrough(counting, api)();
      await counting.close();
    }
    const text = (api: ApiVersion, store = STORE) => fs.readFileSync(path.join(dir, `${store}-${api}.ndjson`), 'utf8');
    const same = text('v1') === text('v2');

    // Warm up, then alternate the runs so a busy moment of the machine hits each about equally.
    const v1 = exportThrough(client, 'v1');
    const v2 = exportThrough(client, 'v2');
    for (let i = 0; i < WARM_UP; i++) {
      await v1();
      await v2();
    }
    const times = { v1: Infinity, v2: Infinity };
    for (let i = 0; i < RUNS; i++) {
      times.v1 = Math.min(times.v1, await fastest(1, v1));
      times.v2 = Math.min(times.v2, await fastest(1, v2));
    }
    const bigV1 = exportThrough(client, 'v1', BIG);
    const bigV2 = exportThrough(client, 'v2', BIG);
    await bigV1();
    await bigV2();
    const big = { v1: await fastest(3, bigV1), v2: await fastest(3, bigV2) };
    const bigSame = text('v1', BIG) === text('v2', BIG);
    const rate = (ms: number) => (N / ms) * 1000;
    const ratio = times.v2 / times.v1;
    report({
      id: 8,
      title: `Export ${fmt(N)} entries through cloud v2 against v1 (concurrency ${CONCURRENCY}, emulator in its own process, no rate limits; fastest of ${RUNS} runs each after ${WARM_UP} unmeasured ones, alternated)`,
      figures: [
        `through v1: ${fmt(times.v1)} ms (${fmt(rate(times.v1))} entries/s), ${lists.v1} List Entries requests (100 keys a page)`,
        `through v2: ${fmt(times.v2)} ms (${fmt(rate(times.v2))} entries/s), ${lists.v2} List Entries requests (256 keys a page)`,
        `the two files are ${same ? 'byte-identical' : 'different'}`,
        `values holding numbers beyond 2^53 (fastest of 3): through v1 ${fmt(big.v1)} ms, through v2 ${fmt(big.v2)} ms (each value read again through v1, as v2 clamps such numbers); files ${bigSame ? 'byte-identical' : 'different'}`,
      ],
      goals: [
        {
          text: 'v2 export: fewer list requests than v1',
          measured: `${lists.v2} against ${lists.v1}`,
          met: lists.v2 < lists.v1,
        },
        { text: 'v2 export at least as fast as v1 (time v2 / v1 <= 1)', measured: fmt(ratio, 2), met: ratio <= 1 },
      ],
    });
  } finally {
    await client.close();
    await emu.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
