// Benchmark 7: the data-store time machine (issue 17). Three measurements, each against a reference of the same run:
// - compareWithTime over 5,000 keys against the emulator's capacity for the requests it needs: a bare keep-alive
//   loop of the same List Entry Versions requests at the same concurrency;
// - a restore of 300 keys under the emulator's rate limits (the documented 300 writes a minute, 60 s windows), another
//   writer changing 20 of those keys during the run: time against requests / limit, those 20 skipped, none overwritten;
// - memory growth of a fresh process comparing 100,000 keys (this script with --memory).
// The history is written straight into the emulator's data folder as journal lines (the format the emulator replays,
// src/emulator/facts.ts), one line per version: seeding 100,000 keys with history through the API would take minutes.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createInterface } from 'node:readline';
import { Agent } from 'undici';
import { compareWithTime, OpenApiClient, planRestore, runRestore, type CompareStatus } from '../../src/api';
import {
  API_KEY,
  fastest,
  fmt,
  main,
  mb,
  newClient,
  parseResult,
  peakMemoryGrowth,
  report,
  startEmulatorProcess,
  tempDir,
  U,
  type BenchResult,
} from './support';

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
/** Versions "then" 2 days ago, versions "now" 1 day ago; the moment compared and restored lies between. */
const BASE = Math.floor((Date.now() - 2 * DAY) / HOUR) * HOUR;
const THEN = BASE;
const NOW = BASE + DAY;
const TIME = new Date(BASE + 12 * HOUR);

const N_COMPARE = 5000;
const CONCURRENCY = 16;
const RUNS = 7;
const WARM_UP = 4;
const N_MEMORY = 100_000;
const N_RESTORE = 300;
const THEIRS = 20;
const WRITES_PER_MINUTE = 300; // the documented per-universe limit of Set, Increment and Delete, unscaled

/** What key i of a compared store went through; 6 in 10 unchanged, the others one change of each kind. */
function kindOf(i: number): CompareStatus {
  const r = i % 10;
  return r < 6 ? 'unchanged' : r < 8 ? 'changed' : r === 8 ? 'created' : 'deleted';
}

const keyName = (i: number) => `Player_${String(i).padStart(7, '0')}`;
const valueOf = (i: number, round: number) =>
  `{"coins":${(i * 137 + round) % 5000},"level":${1 + (i % 60)},"items":["sword","shield","potion"],"id":${10n ** 18n + BigInt(i)},"name":"player ${i}"}`;

/** Appends journal lines to `<data>/journal.jsonl`, one version each, with increasing sequence numbers. */
class JournalWriter {
  private seq = 0;
  private readonly out: fs.WriteStream;

  constructor(data: string) {
    fs.mkdirSync(data, { recursive: true });
    this.out = fs.createWriteStream(path.join(data, 'journal.jsonl'));
  }

  async version(
    store: string,
    key: string,
    at: number,
    raw: string | undefined,
    userIds: number[] = [],
  ): Promise<void> {
    const fact = {
      t: 'ds',
      u: U,
      store,
      scope: 'global',
      key,
      seq: ++this.seq,
      at,
      deleted: raw === undefined,
      value: Buffer.from(raw ?? '').toString('base64'),
      uids: JSON.stringify(userIds),
    };
    if (!this.out.write(`${JSON.stringify([fact])}\n`))
      await new Promise<void>((r) => this.out.once('drain', () => r()));
  }

  close(): Promise<void> {
    return new Promise((resolve, reject) => this.out.end(() => resolve()).once('error', reject));
  }
}

/** A store of `n` keys: the versions then (all keys but the created ones), then the versions since. */
async function writeCompared(journal: JournalWriter, store: string, n: number): Promise<void> {
  for (let i = 0; i < n; i++)
    if (kindOf(i) !== 'created') await journal.version(store, keyName(i), THEN, valueOf(i, 0));
  for (let i = 0; i < n; i++) {
    const kind = kindOf(i);
    if (kind === 'changed' || kind === 'created') await journal.version(store, keyName(i), NOW, valueOf(i, 1));
    if (kind === 'deleted') await journal.version(store, keyName(i), NOW, undefined);
  }
}

function expectedCounts(n: number): Record<CompareStatus, number> {
  const counts: Record<CompareStatus, number> = { unchanged: 0, changed: 0, created: 0, deleted: 0 };
  for (let i = 0; i < n; i++) counts[kindOf(i)]++;
  return counts;
}

async function compareAll(client: OpenApiClient, store: string): Promise<Record<CompareStatus, number>> {
  const counts: Record<CompareStatus, number> = { unchanged: 0, changed: 0, created: 0, deleted: 0 };
  const compared = compareWithTime(client, { universeId: U, datastoreName: store }, TIME, {
    concurrency: CONCURRENCY,
  });
  for await (const c of compared) counts[c.status]++;
  return counts;
}

const sameCounts = (a: Record<CompareStatus, number>, b: Record<CompareStatus, number>) =>
  JSON.stringify(a) === JSON.stringify(b);

/** The child process: memory growth of comparing the 100,000-key store, counts only (nothing held). */
async function measureMemory(url: string): Promise<void> {
  const client = newClient(url);
  // A first comparison of a few keys, so the client's first-use allocations are in the baseline.
  const warm = compareWithTime(client, { universeId: U, datastoreName: 'Memory', keys: [keyName(0)] }, TIME);
  for await (const c of warm) void c;
  const started = performance.now();
  const { result: counts, rss, heap } = await peakMemoryGrowth(() => compareAll(client, 'Memory'));
  const ms = performance.now() - started;
  await client.close();
  const total = Object.values(counts).reduce((a, b) => a + b, 0);
  const right = sameCounts(counts, expectedCounts(N_MEMORY));
  report({
    id: 7,
    title: 'memory',
    figures: [
      `compare ${fmt(N_MEMORY)} keys (fresh process): ${fmt(total)} compared in ${fmt(ms / 1000, 1)} s (${fmt(total / (ms / 1000))} keys/s), counts ${right ? 'as seeded' : `NOT as seeded: ${JSON.stringify(counts)}`}; peak growth RSS ${mb(rss)}, heap + external ${mb(heap)}`,
    ],
    goals: [
      {
        text: `compare ${fmt(N_MEMORY)} keys: memory growth < 100 MB`,
        measured: `RSS ${mb(rss)}`,
        met: rss < 100 * 1024 * 1024 && right,
      },
    ],
  });
}

async function runMemoryChild(url: string): Promise<BenchResult> {
  const child = spawn(process.execPath, [...process.execArgv, __filename, '--memory', url], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let result: BenchResult | undefined;
  for await (const line of createInterface({ input: child.stdout! })) result ??= parseResult(line);
  if (!result) throw new Error('the memory process printed no result');
  return result;
}

/** Compare 5,000 keys against the capacity loop, and the 100,000-key memory measurement, on one emulator. */
async function compareAndMemory(data: string): Promise<{ figures: string[]; goals: BenchResult['goals'] }> {
  const emu = await startEmulatorProcess(['--data', data]);
  const client = newClient(emu.url);
  try {
    const expected = expectedCounts(N_COMPARE);
    const ours = async () => {
      const counts = await compareAll(client, 'Compare');
      if (!sameCounts(counts, expected))
        throw new Error(`compared ${JSON.stringify(counts)}, seeded ${JSON.stringify(expected)}`);
    };

    // Capacity: the same List Entry Versions (newest 2, newest first) for each key, bare keep-alive GETs.
    const paths: string[] = [];
    for (let i = 0; i < N_COMPARE; i++) {
      const q = new URLSearchParams({
        datastoreName: 'Compare',
        entryKey: keyName(i),
        scope: 'global',
        sortOrder: 'Descending',
        limit: '2',
      });
      paths.push(`/datastores/v1/universes/${U}/standard-datastores/datastore/entries/entry/versions?${q}`);
    }
    const agent = new Agent({ connections: CONCURRENCY, keepAliveTimeout: 10_000 });
    const origin = new URL(emu.url).origin;
    const headers = { 'x-api-key': API_KEY };
    const capacity = async () => {
      let next = 0;
      let bad = 0;
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (next < paths.length) {
            const res = await agent.request({ origin, path: paths[next++], method: 'GET', headers });
            if (res.statusCode !== 200) bad++;
            await res.body.arrayBuffer();
          }
        }),
      );
      if (bad) throw new Error(`${bad} capacity requests not answered 200`);
    };

    for (let i = 0; i < WARM_UP; i++) {
      await ours();
      await capacity();
    }
    const times = { ours: Infinity, capacity: Infinity };
    for (let i = 0; i < RUNS; i++) {
      times.ours = Math.min(times.ours, await fastest(1, ours));
      times.capacity = Math.min(times.capacity, await fastest(1, capacity));
    }
    await agent.close();
    const rate = (ms: number) => (N_COMPARE / ms) * 1000;
    const vsCapacity = rate(times.ours) / rate(times.capacity);

    const memory = await runMemoryChild(emu.url);
    return {
      figures: [
        `compare ${fmt(N_COMPARE)} keys with a time (concurrency ${CONCURRENCY}, fastest of ${RUNS} runs after ${WARM_UP} unmeasured ones; ${fmt(N_COMPARE)} List Entry Versions + ${fmt(N_COMPARE / 100)} List Entries pages; counts as seeded, ${Object.entries(
          expected,
        )
          .map(([k, v]) => `${fmt(v)} ${k}`)
          .join(', ')}): ${fmt(times.ours)} ms (${fmt(rate(times.ours))} keys/s)`,
        `emulator capacity (the same ${fmt(N_COMPARE)} List Entry Versions, bare keep-alive GETs): ${fmt(times.capacity)} ms (${fmt(rate(times.capacity))} requests/s)`,
        ...memory.figures,
      ],
      goals: [
        {
          text: `compare ${fmt(N_COMPARE)} keys vs emulator capacity >= 0.7`,
          measured: fmt(vsCapacity, 2),
          met: vsCapacity >= 0.7,
        },
        ...memory.goals,
      ],
    };
  } finally {
    await client.close();
    await emu.close();
  }
}

/** Plan without limits, run under them with another writer meanwhile, check with limits off again. */
async function restore(data: string, dir: string): Promise<{ figures: string[]; goals: BenchResult['goals'] }> {
  const keys = Array.from({ length: N_RESTORE }, (_, i) => `k${String(i).padStart(3, '0')}`);
  const plan = path.join(dir, 'restore-plan.ndjson');
  const planner = await startEmulatorProcess(['--data', data]);
  const planClient = newClient(planner.url);
  try {
    const summary = await planRestore(planClient, { universeId: U, datastoreName: 'Restore' }, TIME, plan);
    if (summary.write !== N_RESTORE) throw new Error(`planned ${summary.write} writes of ${N_RESTORE}`);
  } finally {
    await planClient.close();
    await planner.close();
  }
  const planned = new Map<string, string>();
  for (const line of fs.readFileSync(plan, 'utf8').split('\n').slice(1).filter(Boolean)) {
    const a = JSON.parse(line) as { key: string; now: string };
    planned.set(a.key, a.now);
  }

  const emu = await startEmulatorProcess(['--data', data, '--rate-limits', '--control']);
  const runner = newClient(emu.url);
  // The other writer: conditioned on the version it read, so its client may repeat it after a 429.
  const writer = new OpenApiClient({
    baseUrl: emu.url,
    apiKey: API_KEY,
    retry: { maxAttempts: 10, baseDelayMs: 50, maxDelayMs: 1000 },
  });
  const theirs = keys.slice(-THEIRS);
  let ms: number;
  let result: Awaited<ReturnType<typeof runRestore>>;
  let writerFailed = 0;
  let admitted: number;
  let limited: number;
  try {
    const started = performance.now();
    const running = runRestore(runner, plan);
    await Promise.all(
      theirs.map((key) =>
        writer.datastores
          .setEntry({
            universeId: U,
            datastoreName: 'Restore',
            entryKey: key,
            value: 'theirs',
            matchVersion: planned.get(key),
          })
          .catch(() => writerFailed++),
      ),
    );
    result = await running;
    ms = performance.now() - started;
    const seen = (
      (await (await fetch(`${emu.url}/_emulator/requests`)).json()) as {
        requests: { method: string; status: number }[];
      }
    ).requests.filter((r) => r.method === 'POST');
    admitted = seen.filter((r) => r.status !== 429).length;
    limited = seen.length - admitted;
  } finally {
    await runner.close();
    await writer.close();
    await emu.close();
  }

  // What the keys hold now, read with the limits off.
  const checker = await startEmulatorProcess(['--data', data]);
  const checkClient = newClient(checker.url);
  let overwritten = 0;
  let wrong = 0;
  try {
    for (const key of keys) {
      const raw = (
        await checkClient.datastores.getEntry({ universeId: U, datastoreName: 'Restore', entryKey: key })
      ).raw.toString();
      if (theirs.includes(key)) overwritten += raw === '"theirs"' ? 0 : 1;
      else wrong += raw === `"${key} then"` ? 0 : 1;
    }
  } finally {
    await checkClient.close();
    await checker.close();
  }
  const skipped = result.skippedKeys.map((s) => s.key).sort();
  const skippedRight = skipped.length === THEIRS && skipped.every((k, i) => k === theirs[i]);
  const bound = (admitted / WRITES_PER_MINUTE) * 60_000;
  const ratio = ms / bound;
  return {
    figures: [
      `restore ${N_RESTORE} keys under the rate limits (--rate-limits: ${WRITES_PER_MINUTE} writes/min per universe, fixed 60 s windows; another writer changing ${THEIRS} of them at the start of the run): ${fmt(ms / 1000, 1)} s; requests / limit = ${fmt(admitted)} writes (ours and theirs, 429s left out) / ${WRITES_PER_MINUTE} a minute = ${fmt(bound / 1000, 1)} s; answered 429: ${limited}`,
      `restore outcome: written ${result.written}, skipped ${result.skipped} (${skippedRight ? `the other writer's ${THEIRS}, listed in ${path.basename(result.skippedFile ?? '')}` : `NOT the other writer's: ${skipped.join(', ')}`}), failed ${result.failed}; the other writer's keys overwritten: ${overwritten}; other keys not as then: ${wrong}; the other writer's writes failed: ${writerFailed}`,
    ],
    goals: [
      {
        text: `restore ${N_RESTORE} keys: time <= 1.1 x requests / limit, 0 failures`,
        measured: `${fmt(ratio, 3)} x requests / limit, ${result.failed} failed`,
        met: ratio <= 1.1 && result.failed === 0 && wrong === 0,
      },
      {
        text: `restore with another writer changing ${THEIRS} keys: those skipped and listed, 0 overwritten`,
        measured: `${result.skipped} skipped${skippedRight ? ' (theirs)' : ''}, ${overwritten} overwritten`,
        met: skippedRight && overwritten === 0 && writerFailed === 0,
      },
    ],
  };
}

main(async () => {
  const at = process.argv.indexOf('--memory');
  if (at > 0) return measureMemory(process.argv[at + 1]);
  const dir = tempDir('timemachine');
  try {
    const seeding = performance.now();
    const compareData = path.join(dir, 'compare-data');
    const journal = new JournalWriter(compareData);
    await writeCompared(journal, 'Compare', N_COMPARE);
    await writeCompared(journal, 'Memory', N_MEMORY);
    await journal.close();
    const restoreData = path.join(dir, 'restore-data');
    const restoreJournal = new JournalWriter(restoreData);
    for (let i = 0; i < N_RESTORE; i++) {
      const key = `k${String(i).padStart(3, '0')}`;
      await restoreJournal.version('Restore', key, THEN, `"${key} then"`, [1]);
      await restoreJournal.version('Restore', key, NOW, `"${key} now"`);
    }
    await restoreJournal.close();
    const seedMs = performance.now() - seeding;

    const compared = await compareAndMemory(compareData);
    const restored = await restore(restoreData, dir);
    report({
      id: 7,
      title: `Time machine: compare with a time, restore under the rate limits, memory (emulator in its own process; history written as journal lines in ${fmt(seedMs / 1000, 1)} s)`,
      figures: [...compared.figures, ...restored.figures],
      goals: [compared.goals[0], ...restored.goals, compared.goals[1]],
    });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
