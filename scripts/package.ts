// `npm run package`: builds the extension (minified) and packs universe-explorer-<version>.vsix with
// @vscode/vsce, then checks the .vsix's size against VSIX_BUDGET_BYTES. vsce runs its secret scan (the one
// `vsce publish` runs) with no allow flag: a key-shaped string or a .env file in the package fails it, naming
// the file. dist/ is the whole runtime (.vscodeignore keeps only the bundles, media/, the manifest and the
// documents), so vsce's dependency scan is off. Install it into desktop VS Code with
//   code --install-extension universe-explorer-<version>.vsix
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ROOT, ToolError, run } from './code-server';

/** 0.1.0 packs to 216 KB: 1.5 times that, rounded up. */
const VSIX_BUDGET_BYTES = 330 * 1024;

const VSCE = require.resolve('@vscode/vsce/vsce');
/** vsce's arguments: never --allow-package-secrets, --allow-package-all-secrets or --allow-package-env-file. */
const VSCE_ARGS = ['package', '--no-dependencies'];

export function packageVsix(): string {
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { name: string; version: string };
  const out = path.join(ROOT, `${pkg.name}-${pkg.version}.vsix`);
  run(process.execPath, ['esbuild.js', '--minify']);
  // vsce prints the package's whole file tree; one line says what matters (npx vsce ls lists the files).
  const packed = packSummary(packWithVsce(ROOT, out));
  console.log(`${packed}; size ${checkSize(out, VSIX_BUDGET_BYTES).replace(`${path.basename(out)}: `, '')}`);
  return out;
}

/** vsce's "Packaged: <file> (<n> files, <size>)" as one line, without the file tree it prints before. */
export function packSummary(vsceOutput: string): string {
  const packaged = /Packaged: (.+)$/m.exec(vsceOutput);
  if (!packaged) return 'packaged';
  return `packaged ${packaged[1].trim().replace(/^.*[\\/]/, '')}`;
}

/**
 * Packs the extension in `dir` into `out` with vsce and returns what vsce printed. Throws a ToolError that names
 * each file vsce's secret scan flags, or that holds vsce's output when it fails or warns for another reason (vsce
 * answers yes to its own questions when its output is not a terminal, so a warning would otherwise pass).
 */
export function packWithVsce(dir: string, out: string): string {
  fs.rmSync(out, { force: true });
  const r = spawnSync(process.execPath, [VSCE, ...VSCE_ARGS, '--out', out], {
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
  const r = spawnSync(process.execPath, [VSCE, 'ls', '--no-dependencies'], { cwd: dir, encoding: 'utf8' });
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
  const line = `${path.basename(file)}: ${kb(size)} (budget ${kb(budget)})`;
  if (size > budget)
    throw new ToolError(
      `${line}: over budget. See what it holds with npx vsce ls and leave out what the extension does not need ` +
        '(.vscodeignore), or raise VSIX_BUDGET_BYTES in scripts/package.ts when the growth is wanted.',
    );
  return line;
}

function kb(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KB`;
}

if (require.main === module) {
  try {
    const out = packageVsix();
    console.log(`install into VS Code: code --install-extension ${path.basename(out)}`);
  } catch (err) {
    console.error((err as Error).message);
    process.exit(1);
  }
}
