// npm run bench [-- <name>...]: builds, runs each benchmark in its own process, prints its figures, and after a
// full run writes test/bench/RESULTS.md (figures, machine and date). Names: extension, serve, export, upload,
// paging, ratelimit, timemachine (test/bench/timeMachine.ts), exportv2 (exportV2.ts), budgetshare (budgetShare.ts),
// review (runs the VS Code test runner, so it needs the tools npm run test:vscode installs), query, querylive
// (queryLive.ts), bans.
// Not part of npm test: the figures depend on the machine, so nothing here fails a build.
import { execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createInterface } from 'node:readline';
import * as esbuild from 'esbuild';
import { parseResult, ROOT, type BenchResult } from './support';

const BENCHMARKS = [
  'extension',
  'serve',
  'export',
  'upload',
  'paging',
  'ratelimit',
  'timemachine',
  'exportv2',
  'budgetshare',
  'review',
  'query',
  'querylive',
  'bans',
];
/** Benchmarks whose source file is not named `<name>.ts`. */
const SOURCES: Record<string, string> = {
  timemachine: 'timeMachine',
  exportv2: 'exportV2',
  budgetshare: 'budgetShare',
  querylive: 'queryLive',
};

/**
 * The node arguments that run a benchmark. Each runs bundled by esbuild, as the extension ships our code (tsx would
 * add a name-keeping helper call to every function it loads), except the extension benchmark, which builds and
 * measures the extension's own bundles and finds its helper scripts next to its source.
 */
async function scriptArgs(name: string): Promise<string[]> {
  const source = path.join(__dirname, `${SOURCES[name] ?? name}.ts`);
  if (name === 'extension') return ['--import', 'tsx', source];
  const outfile = path.join(ROOT, 'out/bench', `${name}.js`);
  await esbuild.build({
    entryPoints: [source],
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    outfile,
    // DuckDB's native bindings load from node_modules, as dist/query.js loads them (esbuild.js).
    external: ['@duckdb/node-bindings', '@duckdb/node-bindings-*'],
    logLevel: 'error',
  });
  return [outfile];
}

async function runOne(name: string): Promise<BenchResult | undefined> {
  const child = spawn(process.execPath, ['--expose-gc', ...(await scriptArgs(name))], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let result: BenchResult | undefined;
  for await (const line of createInterface({ input: child.stdout! })) {
    const parsed = parseResult(line);
    if (parsed) result = parsed;
    else console.log(line);
  }
  const code = await new Promise<number | null>((resolve) =>
    child.exitCode !== null ? resolve(child.exitCode) : child.once('exit', resolve),
  );
  if (code !== 0) console.log(`   (${name} failed with exit code ${code})`);
  return result;
}

function machine(): string {
  const cpus = os.cpus();
  return `${cpus.length} × ${cpus[0]?.model.trim() ?? 'unknown CPU'}, ${(os.totalmem() / 1024 ** 3).toFixed(1)} GB RAM, ${os.type()} ${os.release()}, Node ${process.version}`;
}

function markdown(results: BenchResult[]): string {
  const out = [
    '# Benchmark results',
    '',
    `Written by \`npm run bench\` on ${new Date().toISOString()}.`,
    '',
    `Machine: ${machine()}.`,
    '',
    'Each figure is measured in the same run as the reference it is compared with; the machine was shared with other',
    'work, so absolute figures move from run to run more than the ratios do.',
    '',
    '| # | goal | measured | met |',
    '|---|---|---|---|',
    ...results.flatMap((r) =>
      r.goals.map((g) => `| ${r.id} | ${g.text} | ${g.measured} | ${g.met ? 'yes' : '**no**'} |`),
    ),
    '',
  ];
  for (const r of results) out.push(`## ${r.id}. ${r.title}`, '', ...r.figures.map((f) => `- ${f}`), '');
  return out.join('\n');
}

async function main(): Promise<void> {
  const asked = process.argv.slice(2);
  const unknown = asked.filter((a) => !BENCHMARKS.includes(a));
  if (unknown.length) throw new Error(`unknown benchmark(s): ${unknown.join(', ')} (known: ${BENCHMARKS.join(', ')})`);
  const names = asked.length ? asked : BENCHMARKS;
  console.log(`building (node esbuild.js) on ${machine()}`);
  execFileSync(process.execPath, ['esbuild.js'], { cwd: ROOT, stdio: 'inherit' });
  const results: BenchResult[] = [];
  for (const name of names) {
    const result = await runOne(name);
    if (result) results.push(result);
  }
  results.sort((a, b) => a.id - b.id);
  const unmet = results.flatMap((r) => r.goals.filter((g) => !g.met).map((g) => `${r.id}: ${g.text}`));
  console.log(
    `\n${results.length} of ${names.length} benchmarks ran; goals not met: ${unmet.length ? unmet.join('; ') : 'none'}`,
  );
  if (results.length === BENCHMARKS.length) {
    fs.writeFileSync(path.join(__dirname, 'RESULTS.md'), markdown(results));
    console.log('wrote test/bench/RESULTS.md');
  } else console.log('test/bench/RESULTS.md is written after a full run (npm run bench without names)');
}

main().catch((err: Error) => {
  console.error(`bench: ${err.message}`);
  process.exit(1);
});
