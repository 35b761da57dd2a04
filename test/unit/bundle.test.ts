// The extension bundle as esbuild.js builds it: what it does when it loads.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
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

test('the extension bundle leaves DuckDB out: the query index reaches it through dist/query.js, on first use', async () => {
  const { builds } = require(path.join(ROOT, 'esbuild.js')) as { builds: esbuild.BuildOptions[] };
  const extension = builds.find((b) => b.outfile === 'dist/extension.js')!;
  const build = async (options: esbuild.BuildOptions): Promise<string> =>
    (
      await esbuild.build({
        ...options,
        absWorkingDir: ROOT,
        write: false,
        minify: false,
        sourcemap: false,
        logLevel: 'silent',
      })
    ).outputFiles[0].text;
  // The queries area imports src/query, so the bundle has the index's own code (its file is index.duckdb), but not
  // DuckDB's: that stays a require of ./query.js inside a function, as below.
  const bundled = await build(extension);
  assert.doesNotMatch(bundled, /@duckdb/);
  assert.match(bundled, /\n {4}[^\n]*require\("\.\/query\.js"\)/, 'required inside a function, not at load');
  // src/query as an area that imports it is bundled: the engine is a require of ./query.js inside a function.
  const query = await build({ ...extension, entryPoints: ['src/query/index.ts'] });
  assert.doesNotMatch(query, /@duckdb/);
  assert.match(query, /\n {4}[^\n]*require\("\.\/query\.js"\)/, 'required inside a function, not at load');
  // dist/query.js holds DuckDB's JavaScript and requires the native bindings from node_modules at run time.
  const engine = await build(builds.find((b) => b.outfile === 'dist/query.js')!);
  assert.match(engine, /require\("@duckdb\/node-bindings"\)/);
  assert.doesNotMatch(engine, /\.node"\)/);
});

test('bundled, an index loads DuckDB only when first used, from dist/query.js and node_modules', async () => {
  const { builds } = require(path.join(ROOT, 'esbuild.js')) as { builds: esbuild.BuildOptions[] };
  const extension = builds.find((b) => b.outfile === 'dist/extension.js')!;
  // Inside the project, so that node_modules is found from it as from dist/.
  fs.mkdirSync(path.join(ROOT, 'out'), { recursive: true });
  const out = fs.mkdtempSync(path.join(ROOT, 'out', 'bundle-query-'));
  try {
    await esbuild.build({ ...extension, entryPoints: ['src/query/index.ts'], outfile: path.join(out, 'index.js') });
    await esbuild.build({
      ...builds.find((b) => b.outfile === 'dist/query.js')!,
      absWorkingDir: ROOT,
      outfile: path.join(out, 'query.js'),
    });
    const script = `
      const loaded = () => Object.keys(require.cache).filter((f) => /duckdb/i.test(f)).length;
      const { UniverseIndex } = require(${JSON.stringify(path.join(out, 'index.js'))});
      const before = loaded();
      const index = new UniverseIndex({ dir: ${JSON.stringify(out)}, universeKey: 'c/1', universeId: 1 });
      index.query('SELECT 40 + 2 AS answer').then(async (r) => {
        console.log(JSON.stringify({ before, after: loaded(), rows: r.rows }));
        await index.close();
      });`;
    const result = JSON.parse(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' })) as {
      before: number;
      after: number;
      rows: unknown[][];
    };
    assert.equal(result.before, 0, 'nothing of DuckDB is loaded with the module');
    assert.ok(result.after > 0);
    assert.deepEqual(result.rows, [[42]]);
  } finally {
    fs.rmSync(out, { recursive: true, force: true });
  }
});

test('the command line bundle starts with a shebang and requires DuckDB and the emulator only when a command needs them', async () => {
  const { builds } = require(path.join(ROOT, 'esbuild.js')) as { builds: esbuild.BuildOptions[] };
  const cli = builds.find((b) => b.outfile === 'dist/cli.js');
  assert.ok(cli, 'esbuild.js builds dist/cli.js');
  const result = await esbuild.build({
    ...cli,
    absWorkingDir: ROOT,
    write: false,
    minify: false,
    sourcemap: false,
    logLevel: 'silent',
  });
  const code = result.outputFiles[0].text;
  assert.ok(code.startsWith('#!/usr/bin/env node\n'));
  assert.doesNotMatch(code, /@duckdb/);
  // dist/query.js, dist/emulator.js and dist/undici.js beside it, each required inside a function, not at load.
  for (const bundle of ['query', 'emulator', 'undici']) {
    assert.match(code, new RegExp(`\\n {2,}[^\\n]*require\\("\\./${bundle}\\.js"\\)`), bundle);
  }
  assert.doesNotMatch(code, /createServer/, 'the emulator is not copied into the command line');
});

test("the extension bundle is ASCII, its tagged templates' characters escaped, and reads the same", async () => {
  // src/main.ts decodes an ASCII bundle as Latin-1, a copy instead of a UTF-8 decode, and V8 keeps it one byte a
  // character. esbuild escapes every character but those of tagged templates; esbuild.js escapes those.
  const { builds } = require(path.join(ROOT, 'esbuild.js')) as { builds: esbuild.BuildOptions[] };
  const extension = builds.find((b) => b.outfile === 'dist/extension.js')!;
  fs.mkdirSync(path.join(ROOT, 'out'), { recursive: true });
  const out = fs.mkdtempSync(path.join(ROOT, 'out', 'bundle-ascii-'));
  try {
    const entry = path.join(out, 'entry.ts');
    fs.writeFileSync(
      entry,
      "import { t } from '../../src/core/text';\nexport const said = t`Loading ${'x'}… ✓ 日本 🎉`;\nexport const plain = 'é';\n",
    );
    const outfile = path.join(out, 'entry.js');
    await esbuild.build({ ...extension, entryPoints: [entry], outfile, sourcemap: false, logLevel: 'silent' });
    const bytes = fs.readFileSync(outfile);
    assert.ok(
      bytes.every((b) => b < 0x80),
      'only ASCII in the bundle',
    );
    const loaded = require(outfile) as { said: string; plain: string };
    assert.equal(loaded.said, 'Loading x… ✓ 日本 🎉');
    assert.equal(loaded.plain, 'é');
  } finally {
    fs.rmSync(out, { recursive: true, force: true });
  }
});
