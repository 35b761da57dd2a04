import * as path from 'node:path';
import vscode = require('vscode');
import { importDataStore as importFromFile, type ImportCounts, type ImportMode, type ImportResult } from '../api';
import { isCancel } from '../errors';
import { required } from '../ui';
import type { CommandDef } from './context';
import { count, localPath, ndjsonFilters, seconds } from './ndjsonFiles';
import { writableStore } from './nodes';

const modes: (vscode.QuickPickItem & { mode: ImportMode })[] = [
  { label: 'Create Only', description: 'skip keys that already exist', mode: 'createOnly' },
  { label: 'Overwrite', description: 'replace values, attributes and user ids of existing keys', mode: 'overwrite' },
];

const counts = (c: ImportCounts): string =>
  `${count(c.written)} written, ${count(c.skipped)} skipped (already there), ${count(c.failed)} failed`;

export const importDataStore: CommandDef = {
  id: 'universeExplorer.importDataStore',
  failure: 'import into the data store',
  async run(ctx, node: unknown) {
    const store = writableStore(node);
    const name = store.store.name;
    const [uri] = required(
      await ctx.ui.openDialog({ title: `Import into ${name}`, openLabel: 'Import', canSelectMany: false, filters: ndjsonFilters }),
    );
    const file = localPath(uri);
    const input = path.basename(file);
    const { mode } = required(
      await ctx.ui.pick(modes, { title: `Import ${input} into ${name}`, placeHolder: 'Each entry goes to the scope its line names' }),
    );
    const client = await ctx.connections.client(store.connectionId);
    let progress: ImportCounts = { written: 0, skipped: 0, failed: 0 };
    let result: ImportResult;
    try {
      result = await ctx.progress(`Importing ${input} into ${name}`, (signal, report) =>
        importFromFile(client, { universeId: store.universeId, datastoreName: name, file, mode }, {
          signal,
          onProgress: (p) => {
            progress = p;
            report(`${count(p.written + p.skipped + p.failed)} entries · ${count(p.ratePerSecond)}/s`);
          },
        }),
      );
    } catch (error) {
      if (isCancel(error)) {
        void ctx.ui.info(`Import into ${name} stopped: ${counts(progress)}. Import again in Create Only mode to add the rest.`);
      }
      throw error;
    } finally {
      ctx.tree.refresh(store);
    }
    const text = `Imported ${input} into ${name} in ${seconds(result.ms)}: ${counts(result)}.`;
    ctx.log.info(text);
    if (result.failuresFile) {
      const failures = vscode.Uri.file(result.failuresFile);
      void ctx.ui
        .warn(`${text} The failed lines and their errors are in ${path.basename(result.failuresFile)}.`, {}, 'Open Failures')
        .then((choice) => {
          if (choice === 'Open Failures') void vscode.window.showTextDocument(failures, { preview: false });
        });
    } else void ctx.ui.info(text);
    return result;
  },
};
