// Builds what the tests inside VS Code load: the extension (esbuild.js -> dist/) and the mocha suite
// (test/vscode/suite/index.ts and every suite/**/*.test.ts -> out/test/vscode/suite/, CommonJS, with
// vscode and mocha left to the extension host's require).
import * as esbuild from 'esbuild';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ROOT, run } from '../../scripts/code-server';

export const SUITE_SRC = path.join(ROOT, 'test/vscode/suite');
export const SUITE_OUT = path.join(ROOT, 'out/test/vscode/suite');

export function buildExtension(): void {
  run(process.execPath, ['esbuild.js']);
}

/** Returns the path of the built suite index (the extensionTestsPath). */
export async function buildSuite(): Promise<{ indexJs: string; testFiles: number }> {
  const tests = (fs.readdirSync(SUITE_SRC, { recursive: true }) as string[])
    .filter((f) => f.endsWith('.test.ts'))
    .map((f) => path.join(SUITE_SRC, f));
  fs.rmSync(SUITE_OUT, { recursive: true, force: true });
  await esbuild.build({
    entryPoints: [path.join(SUITE_SRC, 'index.ts'), ...tests],
    outbase: SUITE_SRC,
    outdir: SUITE_OUT,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    sourcemap: 'inline',
    external: ['vscode', 'mocha'],
    logLevel: 'warning',
  });
  return { indexJs: path.join(SUITE_OUT, 'index.js'), testFiles: tests.length };
}
