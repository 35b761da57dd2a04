// `npm run package`: builds the extension (minified) once and packs it with @vscode/vsce into one .vsix per VS Code
// target in TARGETS, plus a universal one:
//   universe-explorer-<target>-<version>.vsix  the extension with the query engine's native part for <target>
//   universe-explorer-<version>.vsix           the extension without it (see BUILDS for why it is built)
// `npm run package -- linux-x64 universal` packs only those. Install one into desktop VS Code with
//   code --install-extension universe-explorer-linux-x64-<version>.vsix
//
// The query engine is DuckDB: its JavaScript (@duckdb/node-api) is bundled into dist/ with @duckdb/node-bindings
// left external (esbuild.js), so dist/query.js requires node_modules/@duckdb/node-bindings at run time, whose
// duckdb.js requires the platform package of the machine (node_modules/@duckdb/node-bindings-<platform>/duckdb.node
// and the DuckDB library beside it) and, on Linux, detect-libc to tell musl (Alpine) from glibc. vsce takes
// node_modules only through its dependency scan (`npm list --production` in the folder it packs), and the
// repository's node_modules holds the dev tools and only this machine's platform package. So each .vsix is packed
// from a staging folder: what .vscodeignore lets in from the repository (dist/, media/, the manifest, the documents),
// a node_modules with exactly those three packages (none for the universal .vsix), and the manifest with
// `dependencies` naming @duckdb/node-bindings alone, which is what the .vsix holds in node_modules (the rest is
// bundled into dist/) and what npm list must find there. Platform packages of other machines come from their npm
// tarballs, checked against package-lock.json's integrity and kept in .tools/duckdb-bindings/.
//
// Each .vsix is then read back: its node_modules must be exactly its target's packages, with one duckdb.node, the
// target's (vsixProblems), under the size budget; the host's own is unpacked and must load DuckDB and answer a
// query (probeDuckDb). vsce runs its secret scan (the one `vsce publish` runs) with no allow flag: a key-shaped
// string or a .env file in the package fails it, naming the file, and any vsce warning fails the script.
import { spawnSync } from 'node:child_process';
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { listFiles, PackageManager } from '@vscode/vsce';
import { ROOT, ToolError, run } from './code-server';
import { readZip, type Zip } from './zip';

/**
 * The VS Code targets we build, each with the DuckDB platform package (@duckdb/node-bindings-<value>) whose
 * duckdb.node @duckdb/node-bindings requires there (test/unit/package.test.ts runs its duckdb.js for each target
 * to check this map). VS Code's alpine-* targets are Linux with musl.
 */
export const TARGETS = {
  'linux-x64': 'linux-x64',
  'linux-arm64': 'linux-arm64',
  'alpine-x64': 'linux-x64-musl',
  'alpine-arm64': 'linux-arm64-musl',
  'darwin-x64': 'darwin-x64',
  'darwin-arm64': 'darwin-arm64',
  'win32-x64': 'win32-x64',
  'win32-arm64': 'win32-arm64',
} as const;
export type Target = keyof typeof TARGETS;
export type Build = Target | 'universal';

/**
 * Every target, then the universal .vsix. The Marketplace gives VS Code the .vsix of its own target, so the
 * universal one reaches only a platform none of these cover (linux-armhf, for which DuckDB ships no binding), or
 * `npm start` on such a host. Without it the whole extension, whose data stores, assets and bans need no DuckDB,
 * would be unavailable there; with it, only a query fails, with the engine's message that it cannot load here.
 */
export const BUILDS: Build[] = [...(Object.keys(TARGETS) as Target[]), 'universal'];

/**
 * A target's .vsix, measured with 0.1.0 and DuckDB 1.5.6: the biggest, darwin-x64 and darwin-arm64, pack to 35.4 MB
 * (DuckDB's macOS library is one 112 MB file holding both architectures), the others to 13.3 (win32-x64) to 23.9 MB
 * (alpine-x64); 1.2 times the biggest, rounded up. Nearly all of it is DuckDB's library, so a new DuckDB release is
 * what moves them; the extension's own files are the universal .vsix's few hundred KB.
 */
const TARGET_BUDGET_BYTES = 43 * 1024 * 1024;
/**
 * The universal .vsix (no node_modules): 0.1.0 packed to 216 KB when first set (budget 330 KB), had grown to 344 KB
 * by the command line, which adds dist/cli.js (185 KB minified, 60 KB packed): 403 KB then (budget 480 KB). The MCP
 * server the extension offers to agents inside VS Code adds dist/mcp.js (538 KB minified, 157 KB packed: the MCP
 * SDK with zod and ajv), and the language model tools' schemas the manifest: 609 KB; 1.2 times that.
 */
const UNIVERSAL_BUDGET_BYTES = 730 * 1024;

export const BINDINGS = '@duckdb/node-bindings';
/** The packages a target's .vsix holds in node_modules, each whole: the bindings' JavaScript and what it requires. */
export function targetModules(target: Target): string[] {
  return [BINDINGS, 'detect-libc', platformPackage(target)];
}
export function platformPackage(target: Target): string {
  return `${BINDINGS}-${TARGETS[target]}`;
}
/** The DuckDB library duckdb.node links against, beside it in the platform package. */
function duckdbLibrary(target: Target): string {
  if (target.startsWith('darwin')) return 'libduckdb.dylib';
  if (target.startsWith('win32')) return 'duckdb.dll';
  return 'libduckdb.so';
}

const VSCE = require.resolve('@vscode/vsce/vsce');
/**
 * vsce's arguments: its npm dependency scan (the staging folder's node_modules is the target's), never
 * --allow-package-secrets, --allow-package-all-secrets or --allow-package-env-file.
 */
const VSCE_ARGS = ['package', '--dependencies', '--no-yarn'];

/**
 * This machine's target, or undefined when it is none of TARGETS (npm start then installs the universal .vsix).
 * code-server installs a .vsix of any target without a word (it took a darwin-arm64 one on linux-x64), so choosing
 * is npm start's job.
 */
export function hostTarget(
  platform: string = process.platform,
  arch: string = process.arch,
  musl = platform === 'linux' && isMusl(),
): Target | undefined {
  const os = platform === 'linux' && musl ? 'alpine' : platform;
  const target = `${os}-${arch}`;
  return target in TARGETS ? (target as Target) : undefined;
}

/** Node reports the glibc it runs on; a Linux without one is musl (what detect-libc checks first too). */
function isMusl(): boolean {
  const report = process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined;
  return !report?.header?.glibcVersionRuntime;
}

export function vsixName(build: Build): string {
  const { name, version } = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
    name: string;
    version: string;
  };
  return build === 'universal' ? `${name}-${version}.vsix` : `${name}-${build}-${version}.vsix`;
}

/** Builds the extension, then packs and checks the .vsix of each build in turn; returns their paths. */
export async function packageVsixes(builds: Build[]): Promise<string[]> {
  run(process.execPath, ['esbuild.js', '--minify']);
  const modules = lockedModules();
  const host = hostTarget();
  const outs: string[] = [];
  for (const build of builds) {
    const out = path.join(ROOT, vsixName(build));
    const stage = fs.mkdtempSync(path.join(os.tmpdir(), `ue-vsix-${build}-`));
    try {
      await stageExtension({ from: ROOT, to: stage, build, modules });
      // vsce prints the package's whole file tree; one line says what matters (unzip -l lists the .vsix).
      const packed = packSummary(packWithVsce(stage, out, build === 'universal' ? undefined : build));
      const zip = readZip(out);
      const problems = vsixProblems(zip, build);
      if (problems.length) {
        fs.rmSync(out, { force: true });
        throw new ToolError(
          `${path.basename(out)} holds the wrong files:\n${problems.map((p) => `  ${p}`).join('\n')}`,
        );
      }
      const budget = build === 'universal' ? UNIVERSAL_BUDGET_BYTES : TARGET_BUDGET_BYTES;
      const size = checkSize(out, budget).replace(`${path.basename(out)}: `, '');
      const probed = build === host ? `; ${probeVsix(zip, build)}` : '';
      console.log(`${packed}; size ${size}${probed}`);
    } finally {
      fs.rmSync(stage, { recursive: true, force: true });
    }
    outs.push(out);
  }
  return outs;
}

/** A package's folder by its name. */
export type ModuleSource = (name: string) => string;

/**
 * Each package at the version package-lock.json pins: from node_modules when installed at it, else (a platform
 * package of another machine) from its npm tarball, fetched with npm pack into .tools/duckdb-bindings/ (or
 * UE_TOOLS_DIR's), checked against the lockfile's integrity and unpacked there once.
 */
export function lockedModules(): ModuleSource {
  const lock = JSON.parse(fs.readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { version?: string; integrity?: string }>;
  };
  return (name) => {
    const locked = lock.packages[`node_modules/${name}`];
    if (!locked?.version || !locked.integrity)
      throw new ToolError(`${name} is not in package-lock.json; @duckdb/node-api must be a dependency (npm install)`);
    const installed = path.join(ROOT, 'node_modules', name);
    if (packageVersion(installed) === locked.version) return installed;
    if (!name.startsWith(`${BINDINGS}-`))
      throw new ToolError(`${name}@${locked.version} (package-lock.json) is not in node_modules: run npm install`);
    return fetchPackage(name, locked.version, locked.integrity);
  };
}

function packageVersion(dir: string): string | undefined {
  try {
    return (JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as { version?: string }).version;
  } catch {
    return undefined;
  }
}

function fetchPackage(name: string, version: string, integrity: string): string {
  const cache = path.join(process.env.UE_TOOLS_DIR || path.join(ROOT, '.tools'), 'duckdb-bindings');
  const base = `${name.replace(/^@/, '').replace('/', '-')}-${version}`; // npm pack's file name, without .tgz
  const dir = path.join(cache, base);
  if (packageVersion(dir) === version) return dir; // unpacked only after its tarball matched the lockfile
  fs.mkdirSync(cache, { recursive: true });
  const tgz = path.join(cache, `${base}.tgz`);
  if (!fs.existsSync(tgz) || sri(tgz) !== integrity) {
    console.log(`fetching ${name}@${version} (npm pack) ...`);
    const r = spawnSync('npm', ['pack', `${name}@${version}`, '--pack-destination', cache, '--loglevel=error'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    if (r.status !== 0 || !fs.existsSync(tgz))
      throw new ToolError(`npm pack ${name}@${version} failed (exit ${r.status ?? r.signal}):\n${r.stdout}${r.stderr}`);
  }
  const got = sri(tgz);
  if (got !== integrity) {
    fs.rmSync(tgz, { force: true });
    throw new ToolError(`${name}@${version}: the tarball's integrity ${got} is not package-lock.json's ${integrity}`);
  }
  const tmp = `${dir}.tmp-${process.pid}`;
  fs.rmSync(tmp, { recursive: true, force: true });
  fs.mkdirSync(tmp);
  run('tar', ['-xzf', tgz, '-C', tmp, '--strip-components=1']);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.renameSync(tmp, dir);
  return dir;
}

/** A file's Subresource Integrity string, as package-lock.json writes it (sha512-<base64>). */
function sri(file: string): string {
  return `sha512-${crypto.createHash('sha512').update(fs.readFileSync(file)).digest('base64')}`;
}

/**
 * Lays out in `to` what the .vsix of `build` packs: the files of `from` that its .vscodeignore lets in, that
 * .vscodeignore, the manifest with `dependencies` naming what node_modules holds, and for a target the packages of
 * targetModules, copied whole from `modules` (.vscodeignore decides again what vsce takes of them).
 */
export async function stageExtension(opts: { from: string; to: string; build: Build; modules: ModuleSource }) {
  const { from, to, build, modules } = opts;
  const ignoreFile = path.join(from, '.vscodeignore');
  for (const file of await listFiles({ cwd: from, packageManager: PackageManager.None, ignoreFile })) {
    fs.mkdirSync(path.dirname(path.join(to, file)), { recursive: true });
    fs.copyFileSync(path.join(from, file), path.join(to, file));
  }
  fs.copyFileSync(ignoreFile, path.join(to, '.vscodeignore'));
  const manifest = JSON.parse(fs.readFileSync(path.join(from, 'package.json'), 'utf8')) as Record<string, unknown>;
  manifest.dependencies = {};
  if (build !== 'universal') {
    for (const name of targetModules(build))
      fs.cpSync(modules(name), path.join(to, 'node_modules', name), { recursive: true, dereference: true });
    manifest.dependencies = { [BINDINGS]: packageVersion(path.join(to, 'node_modules', BINDINGS)) };
  }
  fs.writeFileSync(path.join(to, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
}

/**
 * What is wrong with the files of a built .vsix (none when right): its node_modules must be exactly the packages of
 * its target (none for the universal one), with one native binding, the target's duckdb.node, and the DuckDB library
 * beside it; and its manifest must name its target, so that VS Code installs it only there.
 */
export function vsixProblems(zip: Zip, build: Build): string[] {
  const names = zip.entries.map((e) => e.name);
  const problems: string[] = [];
  for (const bundle of [
    'extension/dist/main.js',
    'extension/dist/extension.js',
    'extension/dist/cli.js',
    'extension/dist/mcp.js',
  ]) {
    if (!names.includes(bundle)) problems.push(`no ${bundle}`);
  }
  const wanted = build === 'universal' ? [] : targetModules(build).map((m) => `extension/node_modules/${m}/`);
  const foreign = names.filter((n) => n.startsWith('extension/node_modules/') && !wanted.some((m) => n.startsWith(m)));
  if (foreign.length) problems.push(`node_modules its target does not use: ${foreign.join(', ')}`);
  for (const m of wanted) if (!names.includes(`${m}package.json`)) problems.push(`no ${m}package.json`);
  const natives = names.filter((n) => n.endsWith('.node'));
  const native = build === 'universal' ? [] : [`extension/node_modules/${platformPackage(build)}/duckdb.node`];
  if (natives.sort().join() !== native.join())
    problems.push(`native bindings: ${natives.join(', ') || 'none'}; expected ${native.join(', ') || 'none'}`);
  if (build !== 'universal') {
    const library = `extension/node_modules/${platformPackage(build)}/${duckdbLibrary(build)}`;
    if (!names.includes(library)) problems.push(`no ${library}`);
  }
  const vsixManifest = zip.entries.find((e) => e.name === 'extension.vsixmanifest');
  const platform = vsixManifest && /TargetPlatform="([^"]*)"/.exec(zip.read(vsixManifest).toString('utf8'))?.[1];
  if (!vsixManifest) problems.push('no extension.vsixmanifest');
  else if ((platform ?? 'universal') !== build)
    problems.push(`extension.vsixmanifest's target is ${platform ?? 'none'}; expected ${build}`);
  return problems;
}

/** Unpacks the node_modules of the host's .vsix and loads DuckDB from it (probeDuckDb); one line saying so. */
function probeVsix(zip: Zip, target: Target): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ue-vsix-probe-'));
  try {
    for (const entry of zip.entries.filter((e) => e.name.startsWith('extension/node_modules/'))) {
      const file = path.join(dir, entry.name);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, zip.read(entry));
    }
    const { version } = probeDuckDb(path.join(dir, 'extension'), target);
    return `loads DuckDB ${version} here`;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Loads DuckDB from an extension folder the way dist/query.js will: a script in its dist/ requires
 * @duckdb/node-bindings, opens an in-memory database and runs a query. Throws unless that worked with the
 * folder's own node_modules/@duckdb/node-bindings and the target's duckdb.node; returns DuckDB's version.
 */
export function probeDuckDb(extensionDir: string, target: Target): { version: string } {
  const dir = fs.realpathSync(extensionDir);
  const probe = path.join(dir, 'dist', 'duckdb-probe.js');
  fs.mkdirSync(path.dirname(probe), { recursive: true });
  fs.writeFileSync(probe, PROBE);
  const r = spawnSync(process.execPath, [probe], {
    encoding: 'utf8',
    env: { ...process.env, NODE_PATH: '' },
    timeout: 60_000,
  });
  fs.rmSync(probe);
  const fail = (why: string) => new ToolError(`DuckDB did not load from ${dir}: ${why}\n${r.stdout}${r.stderr}`);
  if (r.status !== 0) throw fail(`the probe exited ${r.status ?? r.signal}`);
  const got = JSON.parse(r.stdout) as { version: string; answer: number; bindings: string; natives: string[] };
  const bindings = path.join(dir, 'node_modules', BINDINGS, 'duckdb.js');
  const native = path.join(dir, 'node_modules', platformPackage(target), 'duckdb.node');
  if (got.bindings !== bindings) throw fail(`${BINDINGS} came from ${got.bindings}, not ${bindings}`);
  if (got.natives.join() !== native) throw fail(`the native bindings came from ${got.natives.join(', ')}`);
  if (got.answer !== 42) throw fail(`select 6 * 7 answered ${got.answer}`);
  return { version: got.version };
}

const PROBE = `const duckdb = require('@duckdb/node-bindings');
(async () => {
  const db = await duckdb.open();
  const con = await duckdb.connect(db);
  const chunk = await duckdb.fetch_chunk(await duckdb.query(con, 'select 6 * 7 as answer'));
  const data = duckdb.vector_get_data(duckdb.data_chunk_get_vector(chunk, 0), 4);
  const answer = new DataView(data.buffer, data.byteOffset, 4).getInt32(0, true);
  duckdb.disconnect_sync(con);
  duckdb.close_sync(db);
  const natives = Object.keys(require.cache).filter((f) => f.endsWith('.node'));
  const bindings = require.resolve('@duckdb/node-bindings');
  console.log(JSON.stringify({ version: duckdb.library_version(), answer, bindings, natives }));
})().catch((err) => {
  console.error(err && err.stack ? err.stack : String(err));
  process.exit(1);
});
`;

/** vsce's "Packaged: <file> (<n> files, <size>)" as one line, without the file tree it prints before. */
export function packSummary(vsceOutput: string): string {
  const packaged = /Packaged: (.+)$/m.exec(vsceOutput);
  if (!packaged) return 'packaged';
  return `packaged ${packaged[1].trim().replace(/^.*[\\/]/, '')}`;
}

/**
 * Packs the extension in `dir` into `out` with vsce (for `target` when given) and returns what vsce printed.
 * Throws a ToolError that names each file vsce's secret scan flags, or that holds vsce's output when it fails or
 * warns for another reason (vsce answers yes to its own questions when its output is not a terminal, so a warning
 * would otherwise pass).
 */
export function packWithVsce(dir: string, out: string, target?: Target): string {
  fs.rmSync(out, { force: true });
  const args = [VSCE, ...VSCE_ARGS, ...(target ? ['--target', target] : []), '--out', out];
  const r = spawnSync(process.execPath, args, {
    cwd: dir,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, FORCE_COLOR: '0' },
  });
  const output = `${r.stdout}${r.stderr}`;
  const found = [...secretFindings(output), ...dotEnvFindings(dir, output)];
  if (found.length) throw new ToolError(secretsMessage(found));
  if (r.status !== 0 || !fs.existsSync(out))
    throw new ToolError(`vsce package failed (exit ${r.status ?? r.signal}):\n${output.trim()}`);
  if (/^ WARNING /m.test(output))
    throw new ToolError(
      `vsce package warned; fix what it says (scripts/package.ts fails on warnings):\n${output.trim()}`,
    );
  return output;
}

interface SecretFinding {
  file: string; // path in the package, with the line and column when vsce gives them (dist/x.js#1:12-1:52)
  finding: string; // what was found ("found npm access token"), without the secret
  rule: string;
}

/**
 * The findings in what vsce printed when its secret scan refused the package: a "<finding> [<rule>]" line, then
 * the finding's locations.
 */
function secretFindings(vsceOutput: string): SecretFinding[] {
  const start = vsceOutput.indexOf('Potential security issue detected');
  if (start < 0) return [];
  const found: SecretFinding[] = [];
  let current: { finding: string; rule: string } | undefined;
  for (const line of vsceOutput.slice(start).split('\n')) {
    const head = /^\t(.+) \[([\w-]+)\]$/.exec(line);
    const location = /^\t(\S+)$/.exec(line);
    if (head)
      current = { finding: head[1].replace(/:.*/, ''), rule: head[2] }; // vsce quotes the secret's start
    else if (location && current) found.push({ file: location[1], ...current });
  }
  return found;
}

/** vsce refuses a .env file without naming it: the files named .env that vsce packs from `dir`. */
function dotEnvFindings(dir: string, vsceOutput: string): SecretFinding[] {
  if (!/^ ERROR +\.env files should not be packaged/m.test(vsceOutput)) return [];
  const r = spawnSync(process.execPath, [VSCE, 'ls', ...VSCE_ARGS.slice(1)], { cwd: dir, encoding: 'utf8' });
  return r.stdout
    .split('\n')
    .map((line) => line.trim())
    .filter((file) => path.posix.basename(file) === '.env')
    .map((file) => ({ file, finding: 'a .env file', rule: 'no-dotenv' }));
}

function secretsMessage(found: SecretFinding[]): string {
  return [
    "vsce's secret scan (the one `vsce publish` runs) refused the package:",
    ...found.map((f) => `  ${f.file}: ${f.finding} [${f.rule}]`),
    'Remove each key-shaped string at its source (or build it at run time so no literal looks like a key) and keep',
    '.env files out of the package (.vscodeignore). Do not pass --allow-package-secrets: the package must pass the',
    'scan as `vsce publish` runs it.',
  ].join('\n');
}

/** "<file>: <size> (budget <budget>)"; throws when the file is over the budget. */
export function checkSize(file: string, budget: number): string {
  const size = fs.statSync(file).size;
  const line = `${path.basename(file)}: ${formatSize(size)} (budget ${formatSize(budget)})`;
  if (size > budget)
    throw new ToolError(
      `${line}: over budget. See what it holds with unzip -l and leave out what the extension does not need ` +
        '(.vscodeignore), or raise TARGET_BUDGET_BYTES or UNIVERSAL_BUDGET_BYTES in scripts/package.ts when the ' +
        'growth is wanted.',
    );
  return line;
}

function formatSize(bytes: number): string {
  return bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** The builds named on the command line (targets or "universal"), all of BUILDS when none. */
function buildsFromArgs(args: string[]): Build[] {
  for (const arg of args)
    if (!BUILDS.includes(arg as Build)) throw new ToolError(`"${arg}" is not one of: ${BUILDS.join(', ')}`);
  return args.length ? (args as Build[]) : BUILDS;
}

if (require.main === module) {
  packageVsixes(buildsFromArgs(process.argv.slice(2))).then(
    (outs) => {
      const mine = vsixName(hostTarget() ?? 'universal');
      const install = outs.some((out) => path.basename(out) === mine) ? mine : '<the .vsix of its platform>';
      console.log(`install into VS Code here: code --install-extension ${install}`);
    },
    (err: Error) => {
      console.error(err instanceof ToolError ? err.message : err);
      process.exit(1);
    },
  );
}
