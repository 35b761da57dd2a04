// `node --import tsx scripts/lmTools.ts`: writes package.json's contributes.languageModelTools from the agent tools
// (src/tools), each as src/agents/contributions.ts declares it, and their titles to package.nls.json. `--check` only
// says whether both are up to date.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { displayNameKey, lmToolContribution } from '../src/agents/contributions';
import { TOOLS } from '../src/tools';

const MANIFEST = path.join(__dirname, '..', 'package.json');
const TEXTS = path.join(__dirname, '..', 'package.nls.json');

const manifest = JSON.parse(fs.readFileSync(MANIFEST, 'utf8')) as { contributes: Record<string, unknown> };
const texts = JSON.parse(fs.readFileSync(TEXTS, 'utf8')) as Record<string, string>;
const wanted = TOOLS.map(lmToolContribution);
const titles = Object.fromEntries(TOOLS.map((t) => [displayNameKey(t), t.title]));
const sameTools = JSON.stringify(manifest.contributes.languageModelTools) === JSON.stringify(wanted);
const sameTitles = Object.entries(titles).every(([k, v]) => texts[k] === v);
if (process.argv.includes('--check')) {
  if (!sameTools || !sameTitles) {
    console.error(
      'package.json (contributes.languageModelTools) or package.nls.json is not what src/tools declares: run ' +
        'node --import tsx scripts/lmTools.ts',
    );
    process.exit(1);
  }
} else {
  if (!sameTools) {
    manifest.contributes.languageModelTools = wanted;
    fs.writeFileSync(MANIFEST, `${JSON.stringify(manifest, null, 2)}\n`);
  }
  if (!sameTitles) {
    const kept = Object.fromEntries(Object.entries(texts).filter(([k]) => !k.startsWith('languageModelTool.')));
    fs.writeFileSync(TEXTS, `${JSON.stringify({ ...kept, ...titles }, null, 2)}\n`);
  }
  console.log(`${wanted.length} language model tools in package.json and their titles in package.nls.json`);
}
