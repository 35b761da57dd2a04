// The extension bundle as esbuild.js builds it: what it does when it loads.
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { test } from 'node:test';
import * as esbuild from 'esbuild';

const ROOT = path.resolve(__dirname, '../..');

test('the bundle takes the vscode module as it is, never copying the API object per module', async () => {
  // `import * as vscode from 'vscode'` compiles to __toESM(require("vscode")): a copy of the whole API (hundreds
  // of getters) in every module that has it, made while the extension activates. `import vscode = require(...)`.
  const { builds } = require(path.join(ROOT, 'esbuild.js')) as { builds: esbuild.BuildOptions[] };
  const extension = builds.find((b) => b.outfile === 'dist/extension.js')!;
  const result = await esbuild.build({
    ...extension,
    absWorkingDir: ROOT,
    write: false,
    minify: false,
    sourcemap: false,
    logLevel: 'silent',
  });
  const code = result.outputFiles[0].text;
  assert.match(code, /require\("vscode"\)/);
  assert.doesNotMatch(code, /__toESM\(require\("vscode"\)\)/);
});
