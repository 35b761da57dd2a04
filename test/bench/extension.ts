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
const CODE_SERVER_RUNS = 3;
const GOAL_BYTES = 600 * 1024;
const GOAL_MS = 50;

async function runMeasure(script: string, bundle: string): Promise<{ loadMs: number; activateMs: number; network: string[] }> {
  const child = spawn(process.execPath, [script, bundle, ROOT], { stdio: ['ignore', 'pipe', 'inherit'] });
  for await (const line of createInterface({ input: child.stdout! })) {
    if (line.startsWith('ACTIVATE ')) return JSON.parse(line.slice('ACTIVATE '.length));
  }
  throw new Error('the measuring process printed no result');
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function build(dir: string, minify: boolean): Promise<string> {
  // esbuild.js's own extension build, written to a temporary folder (dist/ may be in use by a test run).
  const { builds } = require(path.join(ROOT, 'esbuild.js')) as { builds: { outfile: string; sourcemap?: boolean }[] };
  const extension = builds.find((b) => b.outfile === 'dist/extension.js');
  if (!extension) throw new Error('esbuild.js has no dist/extension.js build');
  const outfile = path.join(dir, minify ? 'extension.min.js' : 'extension.js');
  const esbuild = require('esbuild') as typeof import('esbuild');
  await esbuild.build({ ...(extension as object), absWorkingDir: ROOT, outfile, minify, sourcemap: false, logLevel: 'error' });
  return outfile;
}

main(async () => {
  const dir = tempDir('extension');
  try {
    const production = await build(dir, true);
    const development = await build(dir, false);
    const size = fs.statSync(production).size;
    const script = path.join(dir, 'measure.js');
    const esbuild = require('esbuild') as typeof import('esbuild');
    await esbuild.build({ entryPoints: [path.join(__dirname, 'activate-node.ts')], bundle: true, platform: 'node', format: 'cjs', outfile: script, logLevel: 'error' });
    const runs = [];
    for (let i = 0; i < RUNS; i++) runs.push(await runMeasure(script, production));
    const load = median(runs.map((r) => r.loadMs));
    const activate = median(runs.map((r) => r.activateMs));
    const network = runs.flatMap((r) => r.network);
    const inVsCode = await codeServerActivation(dir, production, CODE_SERVER_RUNS);
    const vscodeMs = inVsCode && median(inVsCode);
    report({
      id: 6,
      title: `Extension bundle and activation (plain Node ${process.version} with a vscode stand-in, median of ${RUNS} fresh processes; ${os.cpus().length} CPUs)`,
      figures: [
        `dist/extension.js, production (minified, as npm run package builds it): ${fmt(size / 1024)} KB; unminified (npm run build): ${fmt(fs.statSync(development).size / 1024)} KB`,
        `load (require + parse + module init): ${fmt(load, 1)} ms; activate() call: ${fmt(activate, 1)} ms; total ${fmt(load + activate, 1)} ms`,
        `network calls during load and activation: ${network.length ? network.join(', ') : 'none'}`,
        inVsCode
          ? `inside VS Code (code-server 1.139, Node 24 extension host, "Activation" in Show Running Extensions): ${inVsCode.map((t) => `${t} ms`).join(', ')}; median ${vscodeMs} ms`
          : 'inside VS Code: not measured (code-server is not installed; npm run test:vscode installs it)',
      ],
      goals: [
        { text: 'activate < 50 ms, plain Node (load + activate())', measured: `${fmt(load + activate, 1)} ms`, met: load + activate < GOAL_MS },
        ...(vscodeMs === undefined ? [] : [{ text: 'activate < 50 ms, inside VS Code (median)', measured: `${vscodeMs} ms`, met: vscodeMs < GOAL_MS }]),
        { text: 'no network calls', measured: `${network.length}`, met: network.length === 0 },
        { text: 'dist/extension.js < 600 KB (production)', measured: `${fmt(size / 1024)} KB`, met: size < GOAL_BYTES },
      ],
    });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
