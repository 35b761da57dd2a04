// Benchmark 4: page through 100,000 keys by iterating listEntries; memory growth of the paging process. The store is
// seeded first, then a fresh process (this script with --measure) pages, so seeding leaves nothing on its heap.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import { createInterface } from 'node:readline';
import {
  fmt,
  main,
  mb,
  newClient,
  parseResult,
  peakMemoryGrowth,
  report,
  seedStore,
  startEmulatorProcess,
  tempDir,
  U,
} from './support';

const N = 100_000;
const PAGE = 100;
const STORE = 'Paging';

async function measure(url: string): Promise<void> {
  const client = newClient(url);
  // One page first, so the client's own first-use allocations are in the baseline.
  await client.datastores.listEntries({ universeId: U, datastoreName: STORE, limit: PAGE });
  const started = performance.now();
  const {
    result: count,
    rss,
    heap,
  } = await peakMemoryGrowth(async () => {
    let n = 0;
    for await (const key of client.datastores.listEntries({ universeId: U, datastoreName: STORE, limit: PAGE }))
      if (key.key) n++;
    return n;
  });
  const ms = performance.now() - started;
  await client.close();
  report({
    id: 4,
    title: `Paging through ${fmt(N)} keys (iterating listEntries, ${PAGE} keys a page, ${fmt(N / PAGE)} pages)`,
    figures: [
      `keys seen: ${fmt(count)} in ${fmt(ms / 1000, 1)} s (${fmt(count / (ms / 1000))} keys/s)`,
      `peak growth: RSS ${mb(rss)}, heap + external ${mb(heap)}`,
    ],
    goals: [{ text: 'memory growth < 50 MB', measured: `RSS ${mb(rss)}`, met: rss < 50 * 1024 * 1024 && count === N }],
  });
}

main(async () => {
  const at = process.argv.indexOf('--measure');
  if (at > 0) return measure(process.argv[at + 1]);
  const dir = tempDir('paging');
  const emu = await startEmulatorProcess();
  try {
    const client = newClient(emu.url);
    await seedStore(client, STORE, N, dir);
    await client.close();
    const child = spawn(process.execPath, [...process.execArgv, __filename, '--measure', emu.url], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let result;
    for await (const line of createInterface({ input: child.stdout! })) result ??= parseResult(line);
    if (!result) throw new Error('the measuring process printed no result');
    report(result);
  } finally {
    await emu.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
