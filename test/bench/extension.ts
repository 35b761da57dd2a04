// Benchmark 6: the production bundle (esbuild.js's extension build, minified) and activate() time, measured two
// ways: in plain Node with a stand-in for `vscode` (activate-node.ts, which also counts network calls), and inside
// code-server as VS Code reports it (activation.ts).
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createInterface } from 'node:readline';
import { codeServerActivation } from './activation';
import { fmt, main, report, ROOT, tempDir } from './support';

const RUNS = 7;
const CODE_SERVER_RUNS = 7;
const GOAL_BYTES = 600 * 1024;
const GOAL_MS = 50;

interface Run {
  loadMs: number;
  activateMs: number;
  network: string[];
  /** Whether the code cache of an earlier run was there. */
  cached: boolean;
}

async function runMeasure(script: string, entry: string, storage: string): Promise<Run> {
  const child = spawn(process.execPath, [script, entry, storage, ROOT], { stdio: ['ignore', 'pipe', 'inherit'] });
  for await (const line of createInterface({ input: child.stdout! })) {
    if (line.startsWith('ACTIVATE ')) return JSON.parse(line.slice('ACTIVATE '.length));
  }
  throw new Error('the measuring process printed no result');
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * esbuild.js's builds of the extension's runtime (dist/extension.js and what it loads on first use, except the
 * emulator), written to `<dir>/<variant>/` (dist/ may be in use by a test run). Returns that folder.
 */
async function build(dir: string, variant: 'production' | 'development'): Promise<string> {
  const { builds } = require(path.join(ROOT, 'esbuild.js')) as { builds: { outfile: string }[] };
  const runtime = builds.filter((b) => b.outfile.startsWith('dist/') && b.outfile !== 'dist/emulator.js');
  const out = path.join(dir, variant);
  const esbuild = require('esbuild') as typeof import('esbuild');
  for (const b of runtime) {
    const outfile = path.join(out, path.basename(b.outfile));
    await esbuild.build({
      ...b,
      absWorkingDir: ROOT,
      outfile,
      minify: variant === 'production',
      sourcemap: false,
      logLevel: 'error',
    });
  }
  return out;
}

const kb = (file: string) => `${fmt(fs.statSync(file).size / 1024)} KB`;

main(async () => {
  const dir = tempDir('extension');
  try {
    const productionDir = await build(dir, 'production');
    const developmentDir = await build(dir, 'development');
    const production = path.join(productionDir, 'extension.js');
    const size = fs.statSync(production).size;
    const entry = path.join(productionDir, 'main.js');
    const loadedLater = fs.readdirSync(productionDir).filter((f) => f !== 'extension.js' && f !== 'main.js');
    const script = path.join(dir, 'measure.js');
    const esbuild = require('esbuild') as typeof import('esbuild');
    await esbuild.build({
      entryPoints: [path.join(__dirname, 'activate-node.ts')],
      bundle: true,
      platform: 'node',
      format: 'cjs',
      outfile: script,
      logLevel: 'error',
    });
    // The first start after an install compiles the bundle and leaves the code cache; the later ones start from it.
    const storage = path.join(dir, 'global-storage');
    const first = await runMeasure(script, entry, storage);
    const runs: Run[] = [];
    for (let i = 0; i < RUNS; i++) runs.push(await runMeasure(script, entry, storage));
    if (first.cached || runs.some((r) => !r.cached)) throw new Error('the code cache was not left by the first start');
    const load = median(runs.map((r) => r.loadMs));
    const activate = median(runs.map((r) => r.activateMs));
    const network = [first, ...runs].flatMap((r) => r.network);
    const inVsCode = await codeServerActivation(dir, productionDir, CODE_SERVER_RUNS);
    const vscodeMs = inVsCode && median(inVsCode.ours);
    const list = (xs: number[]) => xs.map((t) => `${t} ms`).join(', ');
    report({
      id: 6,
      title: `Extension bundle and activation (plain Node ${process.version} with a vscode stand-in, median of ${RUNS} fresh processes; ${os.cpus().length} CPUs)`,
      figures: [
        `dist/extension.js, production (minified, as npm run package builds it): ${kb(production)}; unminified (npm run build): ${kb(path.join(developmentDir, 'extension.js'))}; the entry that compiles it with a V8 code cache, dist/main.js: ${kb(entry)}`,
        `loaded on first use, not at activation: ${loadedLater.map((f) => `dist/${f} ${kb(path.join(productionDir, f))}`).join(', ') || 'nothing'}`,
        `first start after an install (no code cache yet; it leaves one): ${fmt(first.loadMs + first.activateMs, 1)} ms`,
        `later starts: require of dist/main.js ${fmt(load, 1)} ms; activate() call (the bundle compiled from the cache, run, and its activate()): ${fmt(activate, 1)} ms; total ${fmt(load + activate, 1)} ms`,
        `network calls during load and activation: ${network.length ? network.join(', ') : 'none'}`,
        inVsCode
          ? `inside VS Code (code-server 1.139, Node 24 extension host, "Activation" in Show Running Extensions, fresh pages): the first start after an install (no code cache yet; it leaves one) ${inVsCode.first} ms; the ${CODE_SERVER_RUNS} later starts ${list(inVsCode.ours)}, median ${vscodeMs} ms (timed inside: require of dist/main.js ${list(inVsCode.load)}, activate() call ${list(inVsCode.activate)}); reference, the same manifest with an activate() that does nothing: ${list(inVsCode.empty)}, median ${median(inVsCode.empty)} ms`
          : 'inside VS Code: not measured (code-server is not installed; npm run test:vscode installs it)',
      ],
      goals: [
        {
          text: 'activate < 50 ms, plain Node (load + activate(), later starts)',
          measured: `${fmt(load + activate, 1)} ms`,
          met: load + activate < GOAL_MS,
        },
        ...(vscodeMs === undefined
          ? []
          : [
              {
                text: 'activate < 50 ms, inside VS Code (median of the later starts)',
                measured: `${vscodeMs} ms (an empty activate(): ${median(inVsCode!.empty)} ms)`,
                met: vscodeMs < GOAL_MS,
              },
            ]),
        { text: 'no network calls', measured: `${network.length}`, met: network.length === 0 },
        { text: 'dist/extension.js < 600 KB (production)', measured: `${fmt(size / 1024)} KB`, met: size < GOAL_BYTES },
      ],
    });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
