// `npm run l10n`: writes l10n/bundle.l10n.json, the English messages of every t`…` in src/ (src/core/text.ts), the
// file a translator copies to bundle.l10n.<language>.json. `--check` only says whether the file is up to date.
import * as fs from 'node:fs';
import * as path from 'node:path';
import ts from 'typescript';
import { messageOf } from '../src/core/text';

const ROOT = path.join(__dirname, '..');
export const BUNDLE = path.join(ROOT, 'l10n/bundle.l10n.json');

/** The messages of the t`…` templates in one file's text, in order. */
export function messagesIn(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isTaggedTemplateExpression(node) && ts.isIdentifier(node.tag) && node.tag.text === 't') {
      const tpl = node.template;
      found.push(
        ts.isNoSubstitutionTemplateLiteral(tpl)
          ? tpl.text
          : messageOf([tpl.head.text, ...tpl.templateSpans.map((s) => s.literal.text)]),
      );
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** Every message in src/, sorted, as the bundle holds them (message → English text). */
export function bundle(): Record<string, string> {
  const dir = path.join(ROOT, 'src');
  const files = fs
    .readdirSync(dir, { recursive: true })
    .map(String)
    .filter((f) => f.endsWith('.ts'))
    .sort();
  const messages = new Set(files.flatMap((f) => messagesIn(f, fs.readFileSync(path.join(dir, f), 'utf8'))));
  return Object.fromEntries([...messages].sort().map((m) => [m, m]));
}

export const bundleText = (): string => `${JSON.stringify(bundle(), null, 2)}\n`;

if (require.main === module) {
  const text = bundleText();
  const current = fs.existsSync(BUNDLE) ? fs.readFileSync(BUNDLE, 'utf8') : '';
  if (process.argv.includes('--check')) {
    if (current !== text) {
      console.error(`${path.relative(ROOT, BUNDLE)} is out of date: run npm run l10n`);
      process.exit(1);
    }
  } else if (current !== text) {
    fs.mkdirSync(path.dirname(BUNDLE), { recursive: true });
    fs.writeFileSync(BUNDLE, text);
    console.log(`wrote ${path.relative(ROOT, BUNDLE)}: ${Object.keys(JSON.parse(text) as object).length} messages`);
  }
}
