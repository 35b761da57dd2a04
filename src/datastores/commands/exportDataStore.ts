import fs = require('node:fs');
import path = require('node:path');
import vscode = require('vscode');
import type { ExportResult } from '../../api';
import { t } from '../../core/text';
import { required, type Ui } from '../../core/ui';
import { allScopes } from '../listState';
import { workspaceFile } from '../../core/files';
import { count, entries, localPath, ndjsonFilters, runBulk, seconds } from './bulk';
import type { DataStoresCommand } from './context';
import { asDataStore } from './nodes';

/** An existing export continues where it stopped (entries in it are not read again), unless the user starts over. */
async function askResume(ui: Ui, file: string): Promise<boolean> {
  if (!(fs.statSync(file, { throwIfNoEntry: false })?.size ?? 0)) return true;
  const picked = await ui.pick(
    [
      { label: t`Continue`, description: t`keep the entries in it and export the rest`, resume: true },
      { label: t`Start Over`, description: t`replace the file`, resume: false },
    ],
    { title: t`${path.basename(file)} already holds entries` },
  );
  return required(picked).resume;
}

function summary(what: string, file: string, r: ExportResult): string {
  const parts = [t`Exported ${entries(r.exported)} of ${what} to ${path.basename(file)} in ${seconds(r.ms)}`];
  if (r.resumed) parts.push(t`; ${count(r.resumed)} were already in the file`);
  if (r.skipped) parts.push(t`; ${count(r.skipped)} deleted meanwhile were left out`);
  if (r.failuresFile) {
    const failed = entries(r.failed);
    const list = path.basename(r.failuresFile);
    parts.push(
      r.failed === 1
        ? t`; ${failed} could not be read and is listed with the reason in ${list} (exporting into the same file again tries them again)`
        : t`; ${failed} could not be read and are listed with the reason in ${list} (exporting into the same file again tries them again)`,
    );
  }
  return `${parts.join('')}.`;
}

export const exportDataStore: DataStoresCommand = {
  id: 'universeExplorer.exportDataStore',
  get failure() {
    return t`export the data store`;
  },
  async run(ctx, node: unknown) {
    const store = asDataStore(node);
    const name = store.store.name;
    const what = store.scope === allScopes ? t`${name} (all scopes)` : t`${name} (scope ${store.scope})`;
    const uri = required(
      await ctx.ui.saveDialog({
        title: t`Export ${what}`,
        saveLabel: t`Export`,
        filters: ndjsonFilters(),
        defaultUri: workspaceFile(name),
      }),
    );
    const file = localPath(uri);
    const resume = await askResume(ctx.ui, file);
    const result = await runBulk(ctx, {
      title: t`Exporting ${what}`,
      connectionId: store.ref.connectionId,
      start: { exported: 0, resumed: 0, skipped: 0, failed: 0, listed: 0, listedAll: false },
      handled: (c) => c.resumed + c.exported,
      run: (opts) => ctx.timeMachine.export(store.ref, file, resume, opts),
      stopped: (c) =>
        t`Export of ${what} stopped with ${entries(c.resumed + c.exported)} in ${path.basename(file)}. Export into the same file again to continue where it stopped.`,
    });
    const text = summary(what, file, result);
    ctx.log.info(text);
    const failures = result.failuresFile;
    const openFile = t`Open File`;
    const openFailures = t`Open Failures`;
    const shown = failures ? ctx.ui.warn(text, {}, openFailures, openFile) : ctx.ui.info(text, openFile);
    void shown.then((choice) => {
      if (choice === openFile) void vscode.window.showTextDocument(uri, { preview: false });
      if (choice === openFailures && failures)
        void vscode.window.showTextDocument(vscode.Uri.file(failures), { preview: false });
    });
    return result;
  },
};
