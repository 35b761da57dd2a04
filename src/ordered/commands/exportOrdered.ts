import vscode = require('vscode');
import { toCsv } from '../../core/csv';
import { t } from '../../core/text';
import { required } from '../../core/ui';
import { filterText } from '../names';
import type { OrderedCommand } from './context';
import { asStore, storeWords } from './nodes';

type Format = 'csv' | 'ndjson';

/** CSV (formula-safe, core/csv.ts) or NDJSON: one line an entry, with its rank, in the list's order. */
function fileText(format: Format, rows: { id: string; value: number }[]): string {
  if (format === 'csv')
    return toCsv(
      ['rank', 'id', 'value'],
      rows.map((r, i) => [i + 1, r.id, r.value]),
    );
  return rows.map((r, i) => `${JSON.stringify({ rank: i + 1, id: r.id, value: r.value })}\n`).join('');
}

/** Every entry of the store in its current order and range, to a file the user picks. */
export const exportOrderedStore: OrderedCommand = {
  id: 'universeExplorer.exportOrderedStore',
  get failure() {
    return t`export the ordered data store`;
  },
  async run(ctx, node: unknown) {
    const s = asStore(node).ref;
    const what = storeWords(s);
    const picked = required(
      await ctx.ui.pick(
        [
          {
            label: 'CSV',
            description: t`for spreadsheets; text that looks like a formula is kept as text`,
            format: 'csv' as const,
          },
          { label: 'NDJSON', description: t`one JSON object a line`, format: 'ndjson' as const },
        ],
        { title: t`Export ${what} as` },
      ),
    );
    const { order, range } = ctx.model.view(s);
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    const name = `${s.store.replace(/[\\/:*?"<>|]/g, '_')}.${picked.format}`;
    const uri = required(
      await ctx.ui.saveDialog({
        title: t`Export ${what}`,
        saveLabel: t`Export`,
        filters: picked.format === 'csv' ? { [t`CSV files`]: ['csv'] } : { [t`NDJSON files`]: ['ndjson', 'jsonl'] },
        defaultUri: folder && vscode.Uri.joinPath(folder, name),
      }),
    );
    // Read in full before the file is written: a cancelled export leaves no file half written.
    const rows = await ctx.ui.progress(
      t`Exporting ${what}`,
      async (signal, report) => {
        const all: { id: string; value: number }[] = [];
        for await (const page of ctx.model.allEntries(s, signal)) {
          all.push(...page.map((e) => ({ id: e.key, value: e.value })));
          report(t`${all.length.toLocaleString('en-US')} entries read`);
        }
        return all;
      },
      { delayMs: 0 },
    );
    await vscode.workspace.fs.writeFile(uri, Buffer.from(fileText(picked.format, rows), 'utf8'));
    const how = [order === 'asc' ? t`lowest value first` : t`highest value first`, range ? filterText(range) : '']
      .filter(Boolean)
      .join(', ');
    ctx.log.info(`Exported ${rows.length} entries of an ordered data store to ${uri.toString(true)}`);
    const openFile = t`Open File`;
    void ctx.ui
      .info(t`Exported ${rows.length.toLocaleString('en-US')} entries of ${what} (${how}) to ${uri.fsPath}.`, openFile)
      .then((choice) => {
        if (choice === openFile) void vscode.window.showTextDocument(uri, { preview: false });
      });
    return uri;
  },
};
