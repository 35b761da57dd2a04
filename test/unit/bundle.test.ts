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

test("DuckDB's native bindings stay out of the bundles, and only dist/query.js requires them", async () => {
  // The .vsix of a target ships node_modules/@duckdb/node-bindings with its platform's duckdb.node
  // (scripts/package.ts), so the engine's bundle must leave it to node_modules (esbuild cannot bundle a .node file
  // anyway), and the universal .vsix has none, so no other bundle may require it: the extension loads the engine
  // when a query needs it, not when it activates.
  const { builds } = require(path.join(ROOT, 'esbuild.js')) as { builds: esbuild.BuildOptions[] };
  for (const build of builds.filter((b) => b.platform === 'node')) {
    const result = await esbuild.build({
      ...build,
      absWorkingDir: ROOT,
      write: false,
      minify: false,
      sourcemap: false,
      metafile: true,
      logLevel: 'silent',
    });
    const bundled = Object.keys(result.metafile.inputs).filter((f) => f.includes('node_modules/@duckdb/node-bindings'));
    assert.deepEqual(bundled, [], build.outfile);
    if (build.outfile !== 'dist/query.js')
      assert.doesNotMatch(result.outputFiles[0].text, /@duckdb\/node-bindings/, build.outfile);
  }
});
