// `npm run package` (scripts/package.ts): vsce's secret scan runs as the script runs vsce, the .vsix's size
// budget, and what .vscodeignore lets into the package.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, test } from 'node:test';
import { listFiles, PackageManager } from '@vscode/vsce';
import { ToolError } from '../../scripts/code-server';
import { checkSize, packSummary, packWithVsce } from '../../scripts/package';

const ROOT = path.resolve(__dirname, '../..');
const dirs: string[] = [];
after(() => dirs.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

/** A folder holding `files` (relative path to content). */
function folder(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ue-package-'));
  dirs.push(dir);
  for (const [file, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), content);
  }
  return dir;
}

/** The smallest extension vsce packs without a warning, plus `files`. */
function tinyExtension(files: Record<string, string> = {}): string {
  const manifest = {
    name: 'tiny',
    publisher: 'test',
    version: '0.0.1',
    license: 'MIT',
    repository: { type: 'git', url: 'https://github.com/universe-explorer/universe-explorer' },
    engines: { vscode: '^1.95.0' },
  };
  return folder({
    'package.json': JSON.stringify(manifest),
    'README.md': '# Tiny\n',
    LICENSE: 'MIT\n',
    '.vscodeignore': '*.vsix\n',
    'lib/main.js': 'module.exports = {};\n',
    ...files,
  });
}

// An npm token's shape (npm_ and 36 letters and digits), made here so no literal in this file looks like one.
const fakeToken = ['npm', 'A1b2C3d4E5'.repeat(3) + 'XyZ789'].join('_');

test("vsce's secret scan refuses a package holding a key-shaped string, and the error names the file", () => {
  const dir = tinyExtension({ 'lib/config.js': `module.exports = { token: '${fakeToken}' };\n` });
  const out = path.join(dir, 'tiny.vsix');
  assert.throws(
    () => packWithVsce(dir, out),
    (err: Error) =>
      err instanceof ToolError &&
      /^ {2}lib\/config\.js#1:\d+-1:\d+: found npm access token \[npm\]$/m.test(err.message) &&
      !err.message.includes(fakeToken.slice(0, 8)) &&
      !/lib\/main\.js/.test(err.message),
  );
  assert.equal(fs.existsSync(out), false);
});

test('the same package without the key-shaped string packs', () => {
  const dir = tinyExtension({ 'lib/config.js': `module.exports = { token: process.env.TOKEN };\n` });
  const out = path.join(dir, 'tiny.vsix');
  assert.match(packWithVsce(dir, out), /Packaged: .*tiny\.vsix/);
  assert.ok(fs.statSync(out).size > 0);
  // What npm start and npm run package print of it: one line, not vsce's file tree.
  assert.match(packSummary(packWithVsce(dir, out)), /^packaged tiny\.vsix \(\d+ files, [\d.]+ KB\)$/);
});

test('vsce refuses a .env file in the package, and the error names it', () => {
  const dir = tinyExtension({ 'lib/.env': 'TOKEN=1\n' });
  assert.throws(
    () => packWithVsce(dir, path.join(dir, 'tiny.vsix')),
    (err: Error) => err instanceof ToolError && /^ {2}lib\/\.env: a \.env file \[no-dotenv\]$/m.test(err.message),
  );
});

test('checkSize prints the size against the budget and fails over it', () => {
  const file = path.join(folder({ 'x.vsix': 'x'.repeat(2048) }), 'x.vsix');
  assert.equal(checkSize(file, 2048), 'x.vsix: 2.0 KB (budget 2.0 KB)');
  assert.throws(() => checkSize(file, 1536), {
    message: /^x\.vsix: 2\.0 KB \(budget 1\.5 KB\): over budget\. .*VSIX_BUDGET_BYTES/,
  });
});

test('.vscodeignore packs the bundles, media, the manifest and the documents, and nothing else', async () => {
  const manifest = fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8');
  // Every file the manifest names (main, icon, view icons, grammars, walkthrough pages, ...) and media/ as it is.
  const named = [...manifest.matchAll(/"(?:\.\/)?((?:dist|media)\/[^"*]+)"/g)].map((m) => m[1]);
  const media = fs
    .readdirSync(path.join(ROOT, 'media'), { recursive: true, encoding: 'utf8' })
    .filter((f) => fs.statSync(path.join(ROOT, 'media', f)).isFile())
    .map((f) => `media/${f.split(path.sep).join('/')}`)
    .filter((f) => f !== 'media/icon.svg');
  const packed = [
    ...new Set([
      ...named,
      ...media,
      'dist/extension.js',
      'dist/undici.js',
      'dist/emulator.js',
      'package.json',
      'README.md',
      'CHANGELOG.md',
      'LICENSE',
    ]),
  ];
  const left = [
    'media/icon.svg',
    'dist/extension.js.map',
    'dist/emulator.js.map',
    'src/extension.ts',
    'test/unit/a.test.ts',
    'scripts/package.ts',
    '.tools/code-server/x.js',
    'docs/a.md',
    'demo/a.json',
    'node_modules/zod/index.js',
    'esbuild.js',
    'tsconfig.json',
    '.env',
    'test-results/a.png',
    'universe-explorer-0.1.0.vsix',
  ];
  const files = Object.fromEntries([...packed, ...left].map((f) => [f, '']));
  const dir = folder({ ...files, 'package.json': manifest });
  const listed = await listFiles({
    cwd: dir,
    packageManager: PackageManager.None,
    ignoreFile: path.join(ROOT, '.vscodeignore'),
  });
  assert.ok(named.includes('media/icon.png') && named.includes('dist/extension.js'), named.join(', '));
  assert.deepEqual([...listed].sort(), [...packed].sort());
});
