// Benchmark 10: the query index. (a) Building it from a 100,000-entry export file against a plain streaming parse of
// the same file (readline and JSON.parse per line). (b) Over 1,000,000 indexed entries, a value query (coins above a
// bound) and a text match (findValue) against a plain streaming scan of the same NDJSON doing the same test, and the
// RSS growth of the querying process. The files are made in a temporary folder; the queries run in a fresh process
// (this script with --measure), so building leaves nothing in its memory.
import { spawn } from 'node:child_process';
import { createReadStream, createWriteStream } from 'node:fs';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createInterface } from 'node:readline';
import { formatEntryLine, formatHeaderLine } from '../../src/api/bulk/ndjson';
import { findValueSql, UniverseIndex } from '../../src/query';
import { fmt, main, mb, parseResult, peakMemoryGrowth, report, tempDir, U } from './support';

const SMALL = 100_000;
const LARGE = 1_000_000;
const STORE = 'Players';
const RUNS = 5;
/** Coins run 0..4999: above this bound, 9 in 5,000 entries. */
const BOUND = 4990;
const TEXT = 'PLAYER 99999';

/** An export file of `n` entries, values of about 120 bytes (ids beyond 2^53), as Export… writes them. */
async function makeExport(file: string, n: number): Promise<void> {
  const out = createWriteStream(file);
  const write = (text: string) =>
    out.write(text) ? Promise.resolve() : new Promise<void>((r) => out.once('drain', () => r()));
  await write(formatHeaderLine({ universeId: U, datastoreName: STORE, scope: 'global' }));
  for (let i = 0; i < n; i++) {
    const value = `{"coins":${(i * 137) % 5000},"level":${1 + (i % 60)},"items":["sword","shield","potion"],"id":${10n ** 18n + BigInt(i)},"name":"player ${i}"}`;
    await write(
      formatEntryLine({
        scope: 'global',
        key: `Player_${String(i).padStart(7, '0')}`,
        value,
        attributes: { seed: true },
        userIds: [i],
        version: `08DC1A2B3C4D5E6F.${String(i).padStart(10, '0')}.08DC1A2B3C4D5E6F.01`,
      }),
    );
  }
  await new Promise<void>((resolve, reject) => out.end(() => resolve()).once('error', reject));
}

interface Line {
  key: string;
  value: unknown;
}

/** The plain way: stream the file, JSON.parse every entry line, test it; the keys that pass. */
async function scan(file: string, test: (e: Line) => boolean): Promise<string[]> {
  const found: string[] = [];
  let first = true;
  for await (const line of createInterface({ input: createReadStream(file), crlfDelay: Infinity })) {
    if (first) {
      first = false;
      continue;
    }
    const e = JSON.parse(line) as Line;
    if (test(e)) found.push(e.key);
  }
  return found;
}

const coinsAbove = (e: Line): boolean => ((e.value as { coins?: number }).coins ?? 0) > BOUND;
const needle = TEXT.toLowerCase();
const holdsText = (e: Line): boolean => JSON.stringify(e.value).toLowerCase().includes(needle);

const timed = async <T>(fn: () => Promise<T>): Promise<{ ms: number; result: T }> => {
  const started = performance.now();
  const result = await fn();
  return { ms: performance.now() - started, result };
};

const ratio = (a: number, b: number): string => `${fmt(a / b, 2)}x`;

async function measure(dir: string, file: string, built: string): Promise<void> {
  const index = new UniverseIndex({ dir, universeKey: `bench/${U}`, universeId: U });
  // DuckDB loaded and the database open before the baseline, as in an editor that has used its index once.
  await index.query('SELECT 1');
  const valueSql = `SELECT key FROM entries WHERE CAST(value->>'coins' AS BIGINT) > ${BOUND} ORDER BY key`;
  const textSql = findValueSql(TEXT);
  const all = { limit: LARGE };
  const times = { value: [] as number[], text: [] as number[], scanValue: Infinity, scanText: Infinity };
  // The first run of each, measured for memory: what reading the entries in costs.
  const memory = await peakMemoryGrowth(async () => {
    const v = await timed(() => index.query(valueSql, all));
    const t = await timed(() => index.query(textSql, all));
    times.value.push(v.ms);
    times.text.push(t.ms);
    return [v.result.rows.length, t.result.rows.length];
  });
  for (let i = 0; i < 3; i++) {
    times.value.push((await timed(() => index.query(valueSql, all))).ms);
    times.text.push((await timed(() => index.query(textSql, all))).ms);
  }
  const [valueRows, textRows] = memory.result;
  await index.close();
  let scanned = { value: 0, text: 0 };
  for (let i = 0; i < 2; i++) {
    const v = await timed(() => scan(file, coinsAbove));
    const t = await timed(() => scan(file, holdsText));
    times.scanValue = Math.min(times.scanValue, v.ms);
    times.scanText = Math.min(times.scanText, t.ms);
    scanned = { value: v.result.length, text: t.result.length };
  }
  // A lower bound for any scan: the line's text tested, nothing parsed.
  const raw = await timed(async () => {
    let n = 0;
    for await (const line of createInterface({ input: createReadStream(file), crlfDelay: Infinity }))
      if (line.toLowerCase().includes(needle)) n++;
    return n;
  });
  if (scanned.value !== valueRows || scanned.text !== textRows) {
    throw new Error(`the index found ${valueRows} and ${textRows} rows, the scan ${scanned.value} and ${scanned.text}`);
  }
  const cold = { value: times.value[0], text: times.text[0] };
  const warm = { value: Math.min(...times.value.slice(1)), text: Math.min(...times.text.slice(1)) };
  const limit = 300 * 1024 * 1024;
  report({
    id: 11,
    title: `Query index: build from a ${fmt(SMALL)}-entry export file; value and text queries over ${fmt(LARGE)} entries (DuckDB with a thread per core; queries in a fresh process, fastest of 3 after the first, scans fastest of 2)`,
    figures: [
      built,
      `value query (coins > ${BOUND}, ${fmt(valueRows)} rows): ${fmt(warm.value)} ms (the first, just after opening: ${fmt(cold.value)} ms); plain scan (readline + JSON.parse per line): ${fmt(times.scanValue)} ms`,
      `text match (findValue ${JSON.stringify(TEXT)}, ${fmt(textRows)} rows): ${fmt(warm.text)} ms (the first: ${fmt(cold.text)} ms); plain scan (JSON.parse, then the value's JSON text in lower case): ${fmt(times.scanText)} ms; lines tested as text without parsing: ${fmt(raw.ms)} ms`,
      `peak growth while querying (first run of each, from an open index): RSS ${mb(memory.rss)}, heap + external ${mb(memory.heap)}`,
    ],
    goals: [
      {
        text: 'value query over 1,000,000 entries vs plain scan >= 10x',
        measured: ratio(times.scanValue, warm.value),
        met: times.scanValue / warm.value >= 10,
      },
      {
        text: 'text match over 1,000,000 entries vs plain scan >= 10x',
        measured: ratio(times.scanText, warm.text),
        met: times.scanText / warm.text >= 10,
      },
      { text: 'RSS growth while querying < 300 MB', measured: mb(memory.rss), met: memory.rss < limit },
    ],
  });
}

main(async () => {
  const at = process.argv.indexOf('--measure');
  if (at > 0) return measure(process.argv[at + 1], process.argv[at + 2], process.argv[at + 3]);
  const dir = tempDir('query');
  try {
    // (a) Build from 100,000 entries against a plain parse, alternated, fastest of RUNS each.
    const small = path.join(dir, 'small.ndjson');
    await makeExport(small, SMALL);
    let build = Infinity;
    let open = Infinity;
    let parse = Infinity;
    for (let i = 0; i < RUNS; i++) {
      const index = new UniverseIndex({ dir: path.join(dir, `small-${i}`), universeKey: `bench/${U}`, universeId: U });
      const opened = await timed(() => index.info());
      const b = await timed(() => index.buildFromFile(small));
      if (b.result.entries !== SMALL) throw new Error(`built ${b.result.entries} of ${SMALL}`);
      await index.close();
      build = Math.min(build, b.ms);
      open = Math.min(open, opened.ms);
      parse = Math.min(parse, (await timed(() => scan(small, () => false))).ms);
    }
    const size = fs.statSync(small).size;

    // (b) 1,000,000 entries, indexed once here, queried in a fresh process.
    const large = path.join(dir, 'large.ndjson');
    await makeExport(large, LARGE);
    const indexDir = path.join(dir, 'large-index');
    const index = new UniverseIndex({ dir: indexDir, universeKey: `bench/${U}`, universeId: U });
    const bigBuild = await timed(() => index.buildFromFile(large));
    await index.close();
    const built =
      `build from ${fmt(SMALL)} entries (${mb(size)}): ${fmt(build)} ms (opening a new index before it: ${fmt(open)} ms); ` +
      `plain streaming parse of the same file: ${fmt(parse)} ms (fastest of ${RUNS} each, alternated); ` +
      `build from ${fmt(LARGE)} entries (${mb(fs.statSync(large).size)}): ${fmt(bigBuild.ms / 1000, 1)} s`;

    const child = spawn(process.execPath, [...process.execArgv, __filename, '--measure', indexDir, large, built], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let result;
    for await (const line of createInterface({ input: child.stdout! })) result ??= parseResult(line);
    if (!result) throw new Error('the measuring process printed no result');
    result.goals.unshift({
      text: 'build from the export file <= 3 x a plain streaming parse',
      measured: ratio(build, parse),
      met: build <= 3 * parse,
    });
    report(result);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
