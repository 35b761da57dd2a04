import * as fs from 'node:fs';
import * as path from 'node:path';
import vscode = require('vscode');
import type { ExportResult } from '../../api';
import { required, type Ui } from '../../core/ui';
import { allScopes } from '../model';
import { count, entries, localPath, ndjsonFilters, runBulk, seconds } from './bulk';
import type { DataStoresCommand } from './context';
import { asDataStore } from './nodes';

function defaultUri(name: string): vscode.Uri | undefined {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  return folder && vscode.Uri.joinPath(folder, `${name.replace(/[\\/:*?"<>|]/g, '_')}.ndjson`);
}

/** An existing export continues where it stopped (entries in it are not read again), unless the user starts over. */
async function askResume(ui: Ui, file: string): Promise<boolean> {
  if (!(fs.statSync(file, { throwIfNoEntry: false })?.size ?? 0)) return true;
  const picked = await ui.pick(
    [
      { label: 'Continue', description: 'keep the entries in it and export the rest', resume: true },
      { label: 'Start Over', description: 'replace the file', resume: false },
    ],
    { title: `${path.basename(file)} already holds entries` },
  );
  return required(picked).resume;
}

function summary(what: string, file: string, r: ExportResult): string {
  const parts = [`Exported ${entries(r.exported)} of ${what} to ${path.basename(file)} in ${seconds(r.ms)}`];
  if (r.resumed) parts.push(`; ${count(r.resumed)} were already in the file`);
  if (r.skipped) parts.push(`; ${count(r.skipped)} deleted meanwhile were left out`);
  if (r.failuresFile) {
    parts.push(
      `; ${entries(r.failed)} could not be read and ${r.failed === 1 ? 'is' : 'are'} listed with the reason in ` +
        `${path.basename(r.failuresFile)} (exporting into the same file again tries them again)`,
    );
  }
  return `${parts.join('')}.`;
}

export const exportDataStore: DataStoresCommand = {
  id: 'universeExplorer.exportDataStore',
  failure: 'export the data store',
  async run(ctx, node: unknown) {
    const store = asDataStore(node);
    const name = store.store.name;
    const what = `${name} (${store.scope === allScopes ? 'all scopes' : `scope ${store.scope}`})`;
    const uri = required(
      await ctx.ui.saveDialog({
        title: `Export ${what}`,
        saveLabel: 'Export',
        filters: ndjsonFilters,
        defaultUri: defaultUri(name),
      }),
    );
    const file = localPath(uri);
    const resume = await askResume(ctx.ui, file);
    const result = await runBulk(ctx, {
      title: `Exporting ${what}`,
      connectionId: store.ref.connectionId,
      start: { exported: 0, resumed: 0, skipped: 0, failed: 0 },
      handled: (c) => c.resumed + c.exported,
      run: (opts) => ctx.model.export(store.ref, file, resume, opts),
      stopped: (c) =>
        `Export of ${what} stopped with ${entries(c.resumed + c.exported)} in ${path.basename(file)}. ` +
        'Export into the same file again to continue where it stopped.',
    });
    const text = summary(what, file, result);
    ctx.log.info(text);
    const failures = result.failuresFile;
    const shown = failures ? ctx.ui.warn(text, {}, 'Open Failures', 'Open File') : ctx.ui.info(text, 'Open File');
    void shown.then((choice) => {
      if (choice === 'Open File') void vscode.window.showTextDocument(uri, { preview: false });
      if (choice === 'Open Failures' && failures)
        void vscode.window.showTextDocument(vscode.Uri.file(failures), { preview: false });
    });
    return result;
  },
};
