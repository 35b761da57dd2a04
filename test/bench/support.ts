// What the benchmarks share: the emulator in a child process (dist/emulator.js, as users run it), memory sampling,
// a seeded store, and the one line each benchmark prints for run.ts.
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createInterface } from 'node:readline';
import { importDataStore, OpenApiClient } from '../../src/api';

export const ROOT = path.resolve(__dirname, '../..');
export const API_KEY = 'bench-key';
export const U = 9000;

export interface Goal {
  text: string;
  measured: string;
  met: boolean;
}

export interface BenchResult {
  id: number;
  title: string;
  /** Plain figures, e.g. ["our export: 8,100 entries/s"]. */
  figures: string[];
  goals: Goal[];
}

const RESULT_PREFIX = 'BENCH_RESULT ';

/** Prints the result for run.ts (one line) and a readable version. */
export function report(result: BenchResult): void {
  console.log(`\n${result.id}. ${result.title}`);
  for (const f of result.figures) console.log(`   ${f}`);
  for (const g of result.goals) console.log(`   goal ${g.text}: ${g.measured} ${g.met ? 'MET' : 'NOT MET'}`);
  console.log(RESULT_PREFIX + JSON.stringify(result));
}

export function parseResult(line: string): BenchResult | undefined {
  return line.startsWith(RESULT_PREFIX) ? (JSON.parse(line.slice(RESULT_PREFIX.length)) as BenchResult) : undefined;
}

export const fmt = (n: number, digits = 0): string =>
  n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
export const mb = (bytes: number): string => `${fmt(bytes / 1024 / 1024, 1)} MB`;

export interface EmulatorProcess {
  url: string;
  child: ChildProcess;
  close(): Promise<void>;
}

/** Starts `node dist/emulator.js --port 0 --api-key bench-key ...args` and waits for its "listening on" line. */
export async function startEmulatorProcess(args: string[] = []): Promise<EmulatorProcess> {
  const script = path.join(ROOT, 'dist/emulator.js');
  if (!fs.existsSync(script)) throw new Error('dist/emulator.js is missing; run node esbuild.js first');
  const child = spawn(process.execPath, [script, '--port', '0', '--api-key', API_KEY, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stderr!.resume();
  const url = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      const m = /^listening on (\S+)/.exec(line);
      if (m) resolve(m[1]);
    });
    child.once('exit', (code) => reject(new Error(`the emulator exited with ${code} before listening`)));
  });
  return {
    url,
    child,
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

export function newClient(url: string): OpenApiClient {
  return new OpenApiClient({ baseUrl: url, apiKey: API_KEY });
}

export function tempDir(name: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), `ue-bench-${name}-`));
}

/**
 * Fills `store` with `n` entries (values of about 150 bytes) through the bulk import. Each value's id is beyond 2^53
 * unless `safeIds`: cloud v2 reads clamp such numbers, so a v2 export reads those values again through v1.
 */
export async function seedStore(
  client: OpenApiClient,
  store: string,
  n: number,
  dir: string,
  safeIds = false,
): Promise<void> {
  const file = path.join(dir, `${store}-seed.ndjson`);
  const out = fs.createWriteStream(file);
  for (let i = 0; i < n; i++) {
    const key = `Player_${String(i).padStart(7, '0')}`;
    const value = `{"coins":${(i * 137) % 5000},"level":${1 + (i % 60)},"items":["sword","shield","potion"],"id":${safeIds ? 10 ** 12 + i : 10n ** 18n + BigInt(i)},"name":"player ${i}"}`;
    if (
      !out.write(`{"scope":"global","key":"${key}","value":${value},"attributes":{"seed":true},"userIds":[${i}]}\n`)
    ) {
      await new Promise<void>((r) => out.once('drain', () => r()));
    }
  }
  await new Promise<void>((resolve, reject) => out.end(() => resolve()).once('error', reject));
  const result = await importDataStore(client, { universeId: U, datastoreName: store, file, mode: 'overwrite' });
  if (result.written !== n)
    throw new Error(`seeding wrote ${result.written} of ${n} entries (${result.failed} failed)`);
}

/** A data folder holding `store` with `n` entries (seedStore), written by an emulator process that is then stopped. */
export async function seededData(dir: string, store: string, n: number, safeIds = false): Promise<string> {
  const data = path.join(dir, 'data');
  const seeder = await startEmulatorProcess(['--data', data]);
  const client = newClient(seeder.url);
  try {
    await seedStore(client, store, n, dir, safeIds);
  } finally {
    await client.close();
    await seeder.close();
  }
  return data;
}

/** Peak growth of RSS and heap over a baseline taken after a GC, sampled every 5 ms while `work` runs. */
export async function peakMemoryGrowth<T>(work: () => Promise<T>): Promise<{ result: T; rss: number; heap: number }> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with --expose-gc');
  gc();
  await new Promise((r) => setTimeout(r, 50));
  const base = process.memoryUsage();
  let rss = base.rss;
  let heap = base.heapUsed + base.external;
  const sample = (): void => {
    const m = process.memoryUsage();
    rss = Math.max(rss, m.rss);
    heap = Math.max(heap, m.heapUsed + m.external);
  };
  const timer = setInterval(sample, 5);
  try {
    const result = await work();
    sample();
    return { result, rss: rss - base.rss, heap: heap - base.heapUsed - base.external };
  } finally {
    clearInterval(timer);
  }
}

/** Runs `fn` `times` times and returns the fastest run's milliseconds. */
export async function fastest(times: number, fn: () => Promise<unknown>): Promise<number> {
  let best = Infinity;
  for (let i = 0; i < times; i++) {
    const started = performance.now();
    await fn();
    best = Math.min(best, performance.now() - started);
  }
  return best;
}

/** Runs a benchmark's main, printing a failure as one line and exiting non-zero. */
export function main(fn: () => Promise<void>): void {
  fn().then(
    () => process.exit(0),
    (err: Error) => {
      console.error(`benchmark failed: ${err.stack ?? err.message}`);
      process.exit(1);
    },
  );
}
