import * as path from 'node:path';
import vscode = require('vscode');
import type { ImportCounts, ImportMode } from '../../api';
import { t } from '../../core/text';
import { required } from '../../core/ui';
import { count, localPath, ndjsonFilters, runBulk, seconds } from './bulk';
import type { DataStoresCommand } from './context';
import { offerSnapshot } from './snapshot';
import { writableStore } from './nodes';

const modes = (): (vscode.QuickPickItem & { mode: ImportMode })[] => [
  { label: t`Create Only`, description: t`skip keys that already exist`, mode: 'createOnly' },
  {
    label: t`Overwrite`,
    description: t`replace existing keys with their lines; a line without attributes or user ids keeps the key's own`,
    mode: 'overwrite',
  },
];

const counts = (c: ImportCounts): string =>
  t`${count(c.written)} written, ${count(c.skipped)} skipped (already there), ${count(c.failed)} failed`;

export const importDataStore: DataStoresCommand = {
  id: 'universeExplorer.importDataStore',
  get failure() {
    return t`import into the data store`;
  },
  async run(ctx, node: unknown) {
    const store = writableStore(node);
    const name = store.store.name;
    const [uri] = required(
      await ctx.ui.openDialog({
        title: t`Import into ${name}`,
        openLabel: t`Import`,
        canSelectMany: false,
        filters: ndjsonFilters(),
      }),
    );
    const file = localPath(uri);
    const input = path.basename(file);
    const { mode, label } = required(
      await ctx.ui.pick(modes(), {
        title: t`Import ${input} into ${name}`,
        placeHolder: t`Each entry goes to the scope its line names`,
      }),
    );
    if (!(await offerSnapshot(ctx, store.ref, t`importing ${input} into ${name}`))) return undefined;
    const result = await runBulk(ctx, {
      title: t`Importing ${input} into ${name}`,
      connectionId: store.ref.connectionId,
      start: { written: 0, skipped: 0, failed: 0, lastLine: 0 },
      handled: (c) => c.written + c.skipped + c.failed,
      run: (opts) => ctx.model.import(store.ref, file, mode, opts),
      stopped: (c) =>
        t`Import into ${name} stopped after line ${count(c.lastLine)}: ${counts(c)}. Import again in ${label} mode to finish it.`,
    });
    const text = t`Imported ${input} into ${name} in ${seconds(result.ms)}: ${counts(result)}.`;
    ctx.log.info(text);
    if (result.failuresFile) {
      const failures = vscode.Uri.file(result.failuresFile);
      const openFailures = t`Open Failures`;
      void ctx.ui
        .warn(
          t`${text} The failed lines and their errors are in ${path.basename(result.failuresFile)}.`,
          {},
          openFailures,
        )
        .then((choice) => {
          if (choice === openFailures) void vscode.window.showTextDocument(failures, { preview: false });
        });
    } else void ctx.ui.info(text);
    return result;
  },
};
