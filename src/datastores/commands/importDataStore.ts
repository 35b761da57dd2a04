import * as path from 'node:path';
import vscode = require('vscode');
import type { ImportCounts, ImportMode } from '../../api';
import { required } from '../../core/ui';
import { count, localPath, ndjsonFilters, runBulk, seconds } from './bulk';
import type { DataStoresCommand } from './context';
import { writableStore } from './nodes';

const modes: (vscode.QuickPickItem & { mode: ImportMode })[] = [
  { label: 'Create Only', description: 'skip keys that already exist', mode: 'createOnly' },
  { label: 'Overwrite', description: 'replace values, attributes and user ids of existing keys', mode: 'overwrite' },
];

const counts = (c: ImportCounts): string =>
  `${count(c.written)} written, ${count(c.skipped)} skipped (already there), ${count(c.failed)} failed`;

export const importDataStore: DataStoresCommand = {
  id: 'universeExplorer.importDataStore',
  failure: 'import into the data store',
  async run(ctx, node: unknown) {
    const store = writableStore(node);
    const name = store.store.name;
    const [uri] = required(
      await ctx.ui.openDialog({
        title: `Import into ${name}`,
        openLabel: 'Import',
        canSelectMany: false,
        filters: ndjsonFilters,
      }),
    );
    const file = localPath(uri);
    const input = path.basename(file);
    const { mode, label } = required(
      await ctx.ui.pick(modes, {
        title: `Import ${input} into ${name}`,
        placeHolder: 'Each entry goes to the scope its line names',
      }),
    );
    const result = await runBulk(ctx, {
      title: `Importing ${input} into ${name}`,
      connectionId: store.ref.connectionId,
      start: { written: 0, skipped: 0, failed: 0, lastLine: 0 },
      handled: (c) => c.written + c.skipped + c.failed,
      run: (opts) => ctx.model.import(store.ref, file, mode, opts),
      stopped: (c) =>
        `Import into ${name} stopped after line ${count(c.lastLine)}: ${counts(c)}. Import again in ${label} mode to finish it.`,
    });
    const text = `Imported ${input} into ${name} in ${seconds(result.ms)}: ${counts(result)}.`;
    ctx.log.info(text);
    if (result.failuresFile) {
      const failures = vscode.Uri.file(result.failuresFile);
      void ctx.ui
        .warn(
          `${text} The failed lines and their errors are in ${path.basename(result.failuresFile)}.`,
          {},
          'Open Failures',
        )
        .then((choice) => {
          if (choice === 'Open Failures') void vscode.window.showTextDocument(failures, { preview: false });
        });
    } else void ctx.ui.info(text);
    return result;
  },
};
