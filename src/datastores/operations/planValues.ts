// The value an action of a plan writes, as a read-only document (`universe-plan:`), so a review row opens the diff of
// the key now against what the plan would write. The URI names the operation and the action; the plan file is read
// when the document opens.
import vscode = require('vscode');
import { bytesOf, readPlanActions } from '../../api';
import { t } from '../../core/text';
import { formatJson } from '../editor/json';
import type { Operations } from './operations';

export const planScheme = 'universe-plan';

export function planValueUri(opId: string, n: number, key: string): vscode.Uri {
  return vscode.Uri.from({ scheme: planScheme, path: `/${key}.json`, query: JSON.stringify({ op: opId, n }) });
}

/** The text of an action's value, as an entry's document shows it (JSON formatted, else the bytes as text). */
function textOf(value: string | Buffer): string {
  const text = typeof value === 'string' ? value : value.toString('utf8');
  try {
    return `${formatJson(text)}\n`;
  } catch {
    return text;
  }
}

export class PlanValues implements vscode.TextDocumentContentProvider {
  constructor(private readonly operations: Operations) {}

  async provideTextDocumentContent(uri: vscode.Uri, token: vscode.CancellationToken): Promise<string> {
    const { op: id, n } = JSON.parse(uri.query) as { op: string; n: number };
    const op = this.operations.get(id);
    if (!op) throw new Error(t`The operation of this plan was forgotten.`);
    const abort = new AbortController();
    token.onCancellationRequested(() => abort.abort());
    for await (const batch of readPlanActions(this.operations.planFile(op), abort.signal))
      for (const a of batch) if (a.n === n) return a.action === 'delete' ? '' : textOf(bytesOf(a));
    throw new Error(t`The plan has no action ${n}.`);
  }
}
