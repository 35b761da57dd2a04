// `npm run package` (scripts/package.ts): vsce's secret scan runs as the script runs vsce, the size budget, what
// .vscodeignore lets into the package, and what each target's .vsix holds of the query engine (DuckDB's bindings).
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, test } from 'node:test';
import * as vm from 'node:vm';
import { listFiles, PackageManager } from '@vscode/vsce';
import { ToolError } from '../../scripts/code-server';
import {
  BINDINGS,
  BUILDS,
  checkSize,
  hostTarget,
  lockedModules,
  packSummary,
  packWithVsce,
  platformPackage,
  probeDuckDb,
  stageExtension,
  type Target,
  TARGETS,
  targetModules,
  vsixProblems,
} from '../../scripts/package';
import { readZip, type Zip } from '../../scripts/zip';

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
    message: /^x\.vsix: 2\.0 KB \(budget 1\.5 KB\): over budget\. .*TARGET_BUDGET_BYTES or UNIVERSAL_BUDGET_BYTES/,
  });
  fs.truncateSync(file, 23.5 * 1024 * 1024);
  assert.equal(checkSize(file, 43 * 1024 * 1024), 'x.vsix: 23.5 MB (budget 43.0 MB)');
});

/** What the repository's .vscodeignore lets in, apart from node_modules. */
function repositoryFiles(manifest: string): { packed: string[]; named: string[] } {
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
      'dist/main.js',
      'dist/extension.js',
      'dist/undici.js',
      'dist/emulator.js',
      'dist/cli.js',
      'dist/mcp.js',
      'dist/query.js',
      'package.json',
      'README.md',
      'CHANGELOG.md',
      'LICENSE',
    ]),
  ];
  return { packed, named };
}

/** Files .vscodeignore leaves out, node_modules among them (dist/ bundles it, apart from DuckDB's bindings). */
const LEFT_OUT = [
  'media/icon.svg',
  'dist/mcp.js.map',
  'dist/main.js.map',
  'dist/extension.js.map',
  'dist/emulator.js.map',
  'dist/cli.js.map',
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

/**
 * A repository as `npm run package` sees it after a build: the real manifest and .vscodeignore, every file the
 * .vsix packs (the documents and the icon real, so vsce packs them without a warning; the rest empty), and files it
 * leaves out.
 */
function fakeRepository(): { dir: string; packed: string[]; named: string[] } {
  const manifest = fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8');
  const { packed, named } = repositoryFiles(manifest);
  const real = ['README.md', 'CHANGELOG.md', 'LICENSE', 'media/icon.png', '.vscodeignore'];
  const files = Object.fromEntries([...packed, ...LEFT_OUT].map((f) => [f, '']));
  const dir = folder({ ...files, 'package.json': manifest });
  for (const f of real) fs.copyFileSync(path.join(ROOT, f), path.join(dir, f));
  return { dir, packed, named };
}

test('.vscodeignore packs the bundles, media, the manifest and the documents, and nothing else', async () => {
  const { dir, packed, named } = fakeRepository();
  const listed = await listFiles({
    cwd: dir,
    packageManager: PackageManager.None,
    ignoreFile: path.join(ROOT, '.vscodeignore'),
  });
  assert.ok(named.includes('media/icon.png') && named.includes('dist/main.js'), named.join(', '));
  assert.deepEqual([...listed].sort(), [...packed].sort());
});

/** How the platform, arch and libc of each target look to Node (and so to @duckdb/node-bindings). */
const HOSTS: Record<Target, { platform: string; arch: string; musl: boolean }> = {
  'linux-x64': { platform: 'linux', arch: 'x64', musl: false },
  'linux-arm64': { platform: 'linux', arch: 'arm64', musl: false },
  'alpine-x64': { platform: 'linux', arch: 'x64', musl: true },
  'alpine-arm64': { platform: 'linux', arch: 'arm64', musl: true },
  'darwin-x64': { platform: 'darwin', arch: 'x64', musl: false },
  'darwin-arm64': { platform: 'darwin', arch: 'arm64', musl: false },
  'win32-x64': { platform: 'win32', arch: 'x64', musl: false },
  'win32-arm64': { platform: 'win32', arch: 'arm64', musl: false },
};

test('each target packs the platform package whose duckdb.node @duckdb/node-bindings requires there', () => {
  // The installed duckdb.js, run with each target's process.platform, process.arch and detect-libc's answer.
  const source = fs.readFileSync(path.join(ROOT, 'node_modules', BINDINGS, 'duckdb.js'), 'utf8');
  for (const [target, host] of Object.entries(HOSTS) as [Target, (typeof HOSTS)[Target]][]) {
    const required: string[] = [];
    const require = (id: string) => {
      if (id === 'detect-libc') return { MUSL: 'musl', familySync: () => (host.musl ? 'musl' : 'glibc') };
      required.push(id);
      return {};
    };
    const module = { exports: {} };
    vm.runInNewContext(source, { require, module, exports: module.exports, process: host });
    assert.deepEqual(required, [`${platformPackage(target)}/duckdb.node`], target);
    assert.ok(targetModules(target).includes(platformPackage(target)) && targetModules(target).includes('detect-libc'));
    assert.equal(hostTarget(host.platform, host.arch, host.musl), target);
  }
  assert.deepEqual(Object.keys(HOSTS).sort(), Object.keys(TARGETS).sort());
  assert.equal(hostTarget('linux', 'arm', false), undefined); // linux-armhf: no DuckDB binding, the universal .vsix
});

const VERSION = '1.5.6-r.1';
/** The DuckDB library each platform package holds beside its duckdb.node, as the real tarballs do. */
const LIBRARY: Record<Target, string> = {
  'linux-x64': 'libduckdb.so',
  'linux-arm64': 'libduckdb.so',
  'alpine-x64': 'libduckdb.so',
  'alpine-arm64': 'libduckdb.so',
  'darwin-x64': 'libduckdb.dylib',
  'darwin-arm64': 'libduckdb.dylib',
  'win32-x64': 'duckdb.dll',
  'win32-arm64': 'duckdb.dll',
};

/** A node_modules with @duckdb/node-bindings, detect-libc and every platform package, shaped as the real ones. */
function fakeModules(): string {
  const json = (o: unknown) => JSON.stringify(o);
  const files: Record<string, string> = {
    [`${BINDINGS}/package.json`]: json({
      name: BINDINGS,
      version: VERSION,
      main: './duckdb.js',
      dependencies: { 'detect-libc': '^2.1.2' },
      optionalDependencies: Object.fromEntries(Object.values(TARGETS).map((p) => [`${BINDINGS}-${p}`, VERSION])),
    }),
    [`${BINDINGS}/duckdb.js`]: '',
    [`${BINDINGS}/duckdb.d.ts`]: '',
    [`${BINDINGS}/README.md`]: '',
    [`${BINDINGS}/LICENSE`]: '',
    'detect-libc/package.json': json({ name: 'detect-libc', version: '2.1.2', main: 'lib/detect-libc.js' }),
    'detect-libc/lib/detect-libc.js': '',
    'detect-libc/index.d.ts': '',
    'detect-libc/LICENSE': '',
  };
  for (const target of Object.keys(TARGETS) as Target[]) {
    const name = platformPackage(target);
    files[`${name}/package.json`] = json({ name, version: VERSION });
    for (const f of ['duckdb.node', LIBRARY[target], 'README.md', 'LICENSE']) files[`${name}/${f}`] = '';
  }
  return folder(files);
}

test("each target's file list holds its own duckdb.node and no other platform's, the universal one no node_modules", async () => {
  const repo = fakeRepository();
  const modules = fakeModules();
  const filesOf = (pkg: string) =>
    fs
      .readdirSync(path.join(modules, pkg), { recursive: true, encoding: 'utf8' })
      .filter((f) => fs.statSync(path.join(modules, pkg, f)).isFile())
      .map((f) => `node_modules/${pkg}/${f.split(path.sep).join('/')}`);
  // What vsce packs from each build's staging folder (`vsce ls`, with the npm dependency scan packWithVsce runs),
  // all at once: each is mostly waiting for npm.
  const lists = await Promise.all(
    BUILDS.map(async (build) => {
      const stage = folder({});
      await stageExtension({ from: repo.dir, to: stage, build, modules: (name) => path.join(modules, name) });
      return listFiles({ cwd: stage, packageManager: PackageManager.Npm });
    }),
  );
  for (const [i, build] of BUILDS.entries()) {
    const listed = lists[i];
    // node_modules: the target's three packages, whole; nothing else.
    const expected = build === 'universal' ? [] : targetModules(build).flatMap(filesOf);
    assert.deepEqual(listed.filter((f) => f.startsWith('node_modules/')).sort(), expected.sort(), build);
    assert.deepEqual(
      listed.filter((f) => f.endsWith('.node')),
      build === 'universal' ? [] : [`node_modules/@duckdb/node-bindings-${TARGETS[build]}/duckdb.node`],
    );
    // The rest is what .vscodeignore lets in from the repository.
    assert.deepEqual(listed.filter((f) => !f.startsWith('node_modules/')).sort(), [...repo.packed].sort(), build);
  }
});

test("a .vsix names its target and passes vsixProblems; its manifest's dependencies are its node_modules", async () => {
  const repo = fakeRepository();
  const modules = fakeModules();
  const manifest = JSON.parse(fs.readFileSync(path.join(repo.dir, 'package.json'), 'utf8')) as object;
  for (const build of ['alpine-arm64', 'universal'] as const) {
    const stage = folder({});
    await stageExtension({ from: repo.dir, to: stage, build, modules: (name) => path.join(modules, name) });
    const out = path.join(stage, 'x.vsix');
    packWithVsce(stage, out, build === 'universal' ? undefined : build);
    const zip = readZip(out);
    assert.deepEqual(vsixProblems(zip, build), [], build);
    const names = zip.entries.map((e) => e.name);
    const platform = `extension/node_modules/${BINDINGS}-linux-arm64-musl/`;
    assert.deepEqual(
      names.filter((n) => n.startsWith(platform)).sort(),
      build === 'universal'
        ? []
        : ['LICENSE', 'README.md', 'duckdb.node', 'libduckdb.so', 'package.json'].map((f) => platform + f),
    );
    // The manifest names as dependencies what node_modules holds, and is otherwise the repository's.
    const packed = zip.read(zip.entries.find((e) => e.name === 'extension/package.json')!).toString('utf8');
    const dependencies = build === 'universal' ? {} : { [BINDINGS]: VERSION };
    assert.deepEqual(JSON.parse(packed), { ...manifest, dependencies }, build);
  }
});

/** A .vsix's files as a Zip, its manifest naming `target`. */
function fakeZip(names: string[], target?: string): Zip {
  const xml = `<Identity Id="x" ${target ? `TargetPlatform="${target}"` : ''}/>`;
  const bundles = [
    'extension/dist/main.js',
    'extension/dist/extension.js',
    'extension/dist/cli.js',
    'extension/dist/mcp.js',
  ];
  const entries = ['extension.vsixmanifest', ...bundles, ...names].map((name) => ({
    name,
    size: 0,
    method: 0,
    compressedSize: 0,
    localHeader: 0,
  }));
  return { entries, read: (e) => Buffer.from(e.name === 'extension.vsixmanifest' ? xml : '') };
}

test('vsixProblems names a foreign platform package, a missing duckdb.node or library, and a wrong target', () => {
  const files = (pkg: string, ...names: string[]) => names.map((f) => `extension/node_modules/${pkg}/${f}`);
  const [native, library] = files(`${BINDINGS}-linux-x64`, 'duckdb.node', 'libduckdb.so');
  const js = [...files(BINDINGS, 'package.json', 'duckdb.js'), ...files('detect-libc', 'package.json')];
  const right = [...js, `extension/node_modules/${BINDINGS}-linux-x64/package.json`, native, library];
  assert.deepEqual(vsixProblems(fakeZip(right, 'linux-x64'), 'linux-x64'), []);
  const musl = files(`${BINDINGS}-linux-x64-musl`, 'package.json', 'duckdb.node', 'libduckdb.so');
  assert.deepEqual(vsixProblems(fakeZip([...right, ...musl], 'linux-x64'), 'linux-x64'), [
    `node_modules its target does not use: ${musl.join(', ')}`,
    `native bindings: ${musl[1]}, ${native}; expected ${native}`,
  ]);
  assert.deepEqual(vsixProblems(fakeZip(right.slice(0, 4), 'linux-x64'), 'linux-x64'), [
    `native bindings: none; expected ${native}`,
    `no ${library}`,
  ]);
  assert.deepEqual(vsixProblems(fakeZip(right, 'alpine-x64'), 'linux-x64'), [
    "extension.vsixmanifest's target is alpine-x64; expected linux-x64",
  ]);
  assert.deepEqual(vsixProblems(fakeZip(right), 'universal'), [
    `node_modules its target does not use: ${right.join(', ')}`,
    `native bindings: ${native}; expected none`,
  ]);
  assert.deepEqual(vsixProblems(fakeZip([]), 'universal'), []);
  const noCli = fakeZip([]);
  assert.deepEqual(
    vsixProblems({ ...noCli, entries: noCli.entries.filter((e) => !e.name.endsWith('cli.js')) }, 'universal'),
    ['no extension/dist/cli.js'],
  );
});

test("this machine's target, staged from the installed packages, loads DuckDB from its own node_modules", async (t) => {
  const host = hostTarget();
  if (!host) return t.skip(`${process.platform}-${process.arch} is none of the targets`);
  const stage = folder({});
  // dist/ as built is not needed: the probe stands where dist/query.js will.
  await stageExtension({ from: fakeRepository().dir, to: stage, build: host, modules: lockedModules() });
  assert.match(probeDuckDb(stage, host).version, /^v\d+\.\d+\.\d+/);
});
