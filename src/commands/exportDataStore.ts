import * as fs from 'node:fs';
import * as path from 'node:path';
import vscode = require('vscode');
import { exportDataStore as exportToFile, type ExportCounts, type ExportResult } from '../api';
import { isCancel } from '../errors';
import { allScopes, type DataStoreNode } from '../tree/dataStoreNode';
import { required, type Ui } from '../ui';
import type { CommandDef } from './context';
import { count, localPath, ndjsonFilters, seconds } from './ndjsonFiles';
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
  const parts = [`Exported ${count(r.exported)} entries of ${what} to ${path.basename(file)} in ${seconds(r.ms)}`];
  if (r.resumed) parts.push(`; ${count(r.resumed)} were already in the file`);
  if (r.skipped) parts.push(`; ${count(r.skipped)} deleted meanwhile were left out`);
  return `${parts.join('')}.`;
}

export const exportDataStore: CommandDef = {
  id: 'universeExplorer.exportDataStore',
  failure: 'export the data store',
  async run(ctx, node: unknown) {
    const store: DataStoreNode = asDataStore(node);
    const name = store.store.name;
    const all = store.scope === allScopes;
    const what = `${name} (${all ? 'all scopes' : `scope ${store.scope}`})`;
    const uri = required(
      await ctx.ui.saveDialog({ title: `Export ${what}`, saveLabel: 'Export', filters: ndjsonFilters, defaultUri: defaultUri(name) }),
    );
    const file = localPath(uri);
    const resume = await askResume(ctx.ui, file);
    const client = await ctx.connections.client(store.connectionId);
    let progress: ExportCounts = { exported: 0, resumed: 0, skipped: 0 };
    try {
      const result = await ctx.progress(`Exporting ${what}`, (signal, report) =>
        exportToFile(
          client,
          { universeId: store.universeId, datastoreName: name, scope: all ? undefined : store.scope, allScopes: all, file, resume },
          {
            signal,
            onProgress: (p) => {
              progress = p;
              report(`${count(p.resumed + p.exported)} entries · ${count(p.ratePerSecond)}/s`);
            },
          },
        ),
      );
      ctx.log.info(summary(what, file, result));
      void ctx.ui.info(summary(what, file, result), 'Open File').then((choice) => {
        if (choice === 'Open File') void vscode.window.showTextDocument(uri, { preview: false });
      });
      return result;
    } catch (error) {
      if (isCancel(error)) {
        void ctx.ui.info(
          `Export of ${what} stopped with ${count(progress.resumed + progress.exported)} entries in ${path.basename(file)}. ` +
            'Export into the same file again to continue where it stopped.',
        );
      }
      throw error;
    }
  },
};
