// Query documents: the `universe-query` language, whose first line names the universe the SQL runs against, and
// the Run Query lens above the SQL.
import vscode = require('vscode');
import { t } from '../core/text';
import { universeKey, type UniverseAddress } from '../core/universe';

export const queryLanguage = 'universe-query';
export const runQueryId = 'universeExplorer.runQuery';

/** `-- universe: <connectionId>/<universeId>` */
export const headerLine = (u: UniverseAddress): string => `-- universe: ${universeKey(u)}`;

/** The universe a query document names on its first line, or undefined when it names none. */
export function universeOfText(text: string): UniverseAddress | undefined {
  const first = text.replace(/^\uFEFF/, '').split(/\r?\n/, 1)[0];
  const m = /^\s*--\s*universe:\s*(\S+)\/(\d+)\s*$/.exec(first);
  if (!m) return undefined;
  const universeId = Number(m[2]);
  return Number.isSafeInteger(universeId) ? { connectionId: m[1], universeId } : undefined;
}

/** The SQL of a document: its text (the header is a comment, so DuckDB reads past it). */
export function documentText(u: UniverseAddress, sql: string): string {
  return `${headerLine(u)}\n${sql.trimEnd()}\n`;
}

export const STARTER_SQL = [
  '-- The table `entries`: store, scope, key, version, created_time, updated_time, user_ids, attributes,',
  '-- value (JSON), not_json. Run with Ctrl+Enter (Cmd+Enter) or the Run Query lens above.',
  'SELECT store, scope, key, value',
  'FROM entries',
  'ORDER BY store, scope, key',
  'LIMIT 100',
].join('\n');

/** Opens a new untitled query document on the universe. */
export async function openQueryDocument(u: UniverseAddress, sql: string): Promise<vscode.TextEditor> {
  const document = await vscode.workspace.openTextDocument({ language: queryLanguage, content: documentText(u, sql) });
  return vscode.window.showTextDocument(document, { preview: false });
}

/** Run Query above the first line of every query document. */
export class RunQueryLens implements vscode.CodeLensProvider {
  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    return [
      new vscode.CodeLens(new vscode.Range(0, 0, 0, 0), {
        title: t`Run Query`,
        command: runQueryId,
        arguments: [document.uri],
      }),
    ];
  }
}
