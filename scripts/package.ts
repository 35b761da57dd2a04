// `npm run package`: builds the extension (minified) and packs universe-explorer-<version>.vsix with
// @vscode/vsce. dist/ is the whole runtime (.vscodeignore keeps only dist/*.js, media/ and the manifest),
// so vsce's dependency scan is off. Install it into desktop VS Code with
//   code --install-extension universe-explorer-<version>.vsix
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ROOT, run } from './code-server';

export function packageVsix(): string {
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { name: string; version: string };
  const out = path.join(ROOT, `${pkg.name}-${pkg.version}.vsix`);
  run(process.execPath, ['esbuild.js', '--minify']);
  const vsce = require.resolve('@vscode/vsce/vsce');
  run(process.execPath, [
    vsce,
    'package',
    '--no-dependencies',
    '--allow-missing-repository',
    '--skip-license',
    '--out',
    out,
  ]);
  if (!fs.existsSync(out)) throw new Error(`vsce did not write ${out}`);
  return out;
}

if (require.main === module) {
  try {
    const out = packageVsix();
    console.log(`packaged ${path.relative(process.cwd(), out) || out}`);
    console.log(`install into VS Code: code --install-extension ${path.basename(out)}`);
  } catch (err) {
    console.error((err as Error).message);
    process.exit(1);
  }
}
