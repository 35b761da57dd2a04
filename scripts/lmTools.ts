// `node --import tsx scripts/lmTools.ts`: writes package.json's contributes.languageModelTools from the agent tools
// (src/tools), each as src/agents/contributions.ts declares it. `--check` only says whether package.json is up to date.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { lmToolContribution } from '../src/agents/contributions';
import { TOOLS } from '../src/tools';

const MANIFEST = path.join(__dirname, '..', 'package.json');

const manifest = JSON.parse(fs.readFileSync(MANIFEST, 'utf8')) as { contributes: Record<string, unknown> };
const wanted = TOOLS.map(lmToolContribution);
const same = JSON.stringify(manifest.contributes.languageModelTools) === JSON.stringify(wanted);
if (process.argv.includes('--check')) {
  if (!same) {
    console.error(
      'package.json: contributes.languageModelTools is not what src/tools declares: run node --import tsx scripts/lmTools.ts',
    );
    process.exit(1);
  }
} else if (!same) {
  manifest.contributes.languageModelTools = wanted;
  fs.writeFileSync(MANIFEST, `${JSON.stringify(manifest, null, 2)}\n`);
  console.log(`wrote ${wanted.length} language model tools to package.json`);
}
