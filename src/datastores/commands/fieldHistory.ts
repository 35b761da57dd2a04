// History of a Field… on an entry row: the versions where the value at a JSON path changed (time, old → new), and
// the diff of any of them against the version before it.
import vscode = require('vscode');
import { parseFieldPath, type FieldChange } from '../../api';
import { reason } from '../../core/errors';
import { t } from '../../core/text';
import { required } from '../../core/ui';
import type { EntryAddress } from '../editor/entryPath';
import { diffTitle, versionTime, versionUri } from '../editor/uris';
import { count, runBulk } from './bulk';
import type { DataStoresCommand } from './context';
import { asEntry } from './nodes';

/** How much of a value the pick shows on each side of the arrow. */
const SHOWN_CHARS = 60;

export interface FieldHistoryResult {
  path: string;
  changes: FieldChange[];
}

const changesFound = (n: number): string => (n === 1 ? t`${count(n)} change found` : t`${count(n)} changes found`);

function shown(value: unknown): string {
  if (value === undefined) return t`(absent)`;
  const text = JSON.stringify(value);
  return text.length > SHOWN_CHARS ? `${text.slice(0, SHOWN_CHARS - 1)}…` : text;
}

function afterText(c: FieldChange): string {
  if (c.deleted) return t`(entry deleted)`;
  if (c.notJson) return t`(not JSON)`;
  return shown(c.after);
}

/** The version against the one before it; the first version, or one after a deletion, opens alone. */
async function openChange(a: EntryAddress, c: FieldChange): Promise<void> {
  const previous = c.previous && !c.previous.deleted ? c.previous : undefined;
  if (c.deleted) {
    if (previous) await vscode.window.showTextDocument(versionUri(a, previous), { preview: false });
    return;
  }
  const uri = versionUri(a, c);
  if (!previous) {
    await vscode.window.showTextDocument(uri, { preview: false });
    return;
  }
  const title = diffTitle(
    a.key,
    t`version of ${versionTime(previous.createdTime)}`,
    t`version of ${versionTime(c.createdTime)}`,
  );
  await vscode.commands.executeCommand('vscode.diff', versionUri(a, previous), uri, title);
}

export const fieldHistory: DataStoresCommand = {
  id: 'universeExplorer.fieldHistory',
  get failure() {
    return t`show the history of the field`;
  },
  async run(ctx, node: unknown) {
    const entry = asEntry(node);
    const a = entry.address;
    const text = required(
      await ctx.ui.input({
        title: t`History of a field of "${a.key}"`,
        prompt: t`The field's JSON path: keys separated by dots, indexes in brackets (inventory.sword, coins, items[2])`,
        placeHolder: 'inventory.sword',
        validateInput: (value) => {
          try {
            parseFieldPath(value);
            return undefined;
          } catch (error) {
            return reason(error);
          }
        },
      }),
    ).trim();
    const path = parseFieldPath(text);
    const changes: FieldChange[] = [];
    await runBulk(ctx, {
      title: t`History of ${text} in "${a.key}"`,
      connectionId: a.connectionId,
      start: { changes: 0 },
      handled: (c) => c.changes,
      describe: (c) => changesFound(c.changes),
      run: async (opts) => {
        const started = Date.now();
        for await (const change of ctx.timeMachine.fieldHistory(a, path, { signal: opts.signal })) {
          changes.push(change);
          const perSecond = changes.length / Math.max(0.001, (Date.now() - started) / 1000);
          opts.onProgress?.({ changes: changes.length, ratePerSecond: Math.round(perSecond) });
        }
      },
      stopped: (c) => t`History of ${text} in "${a.key}" stopped with ${changesFound(c.changes)}.`,
    });
    const result: FieldHistoryResult = { path: text, changes };
    if (!changes.length) {
      void ctx.ui.info(t`No version of "${a.key}" holds ${text}.`);
      return result;
    }
    // Newest first, as the tree lists versions.
    const items = [...changes].reverse().map((c) => ({
      label: versionTime(c.createdTime),
      description: `${shown(c.before)} → ${afterText(c)}`,
      change: c,
    }));
    const picked = await ctx.ui.pick(items, {
      title: t`${text} in "${a.key}": ${changesFound(changes.length)}`,
      placeHolder: t`Pick a change to see the version against the one before it`,
      matchOnDescription: true,
    });
    if (picked) await openChange(a, picked.change);
    return result;
  },
};
