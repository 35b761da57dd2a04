// The query index and files: Export Index as Parquet… (for tools beyond this editor: DuckDB, Spark, BigQuery,
// Athena) and Load Query Index from Export File… (an export Export Data Store… wrote, indexed without reading the
// service again).
import fs = require('node:fs');
import path = require('node:path');
import vscode = require('vscode');
import { t } from '../../core/text';
import { required } from '../../core/ui';
import { headerOf, type BuildProgress, type IndexedPart } from '../../query';
import { describeCoverage } from '../indexes';
import type { QueriesCommand } from './context';
import { universeName, universeOf } from './universe';

export const PARQUET_FILE = 'entries.parquet';

/** The path of a chosen file or folder: DuckDB reads and writes through the extension host's disk. */
function localPath(uri: vscode.Uri): string {
  if (uri.scheme !== 'file') throw new Error(t`choose a location on disk (got a ${uri.scheme}: location)`);
  return uri.fsPath;
}

const workspaceFolder = (): vscode.Uri | undefined => vscode.workspace.workspaceFolders?.[0]?.uri;

export const exportIndexParquet: QueriesCommand = {
  id: 'universeExplorer.exportQueryIndexParquet',
  get failure() {
    return t`export the query index as Parquet`;
  },
  run: async (ctx, node: unknown) => {
    const u = await universeOf(ctx, node);
    const name = universeName(ctx, u);
    if (!(await ctx.indexes.covered(u)).length) {
      throw new Error(t`the query index of ${name} is not built yet; run Build Query Index… first`);
    }
    const [folder] = required(
      await ctx.ui.openDialog({
        title: t`Export the Query Index of ${name} as Parquet: choose a folder`,
        openLabel: t`Export Here`,
        canSelectFiles: false,
        canSelectFolders: true,
        canSelectMany: false,
        defaultUri: workspaceFolder(),
      }),
    );
    const dir = localPath(folder);
    if (fs.existsSync(path.join(dir, PARQUET_FILE))) {
      const replace = t`Replace`;
      const answer = await ctx.ui.warn(t`${dir} already holds ${PARQUET_FILE}. Replace it?`, { modal: true }, replace);
      if (answer !== replace) return undefined;
    }
    const written = await ctx.ui.progress(
      t`Exporting the query index of ${name} as Parquet`,
      (signal, report) =>
        ctx.indexes
          .index(u)
          .exportParquet(dir, { signal, onProgress: (percent) => report(t`${Math.round(percent)}%`) }),
      { delayMs: 0 },
    );
    ctx.log.info(`Exported the query index of ${name} (${written.rows} entries) as Parquet to ${written.file}`);
    const copy = t`Copy DuckDB Query`;
    const query = `SELECT store, scope, key, value->>'coins' AS coins FROM '${written.file.replace(/'/g, "''")}' LIMIT 10;`;
    void ctx.ui
      .info(
        t`Exported ${written.rows.toLocaleString()} entries of ${name} to ${written.file}. DuckDB reads it with SELECT key, value->>'coins' FROM '${PARQUET_FILE}'; Spark, BigQuery and Athena read Parquet too (value and attributes are JSON text, user_ids a list of numbers).`,
        copy,
      )
      .then((choice) => {
        if (choice === copy) void ctx.ui.copy(query);
      });
    return written;
  },
};

export const loadQueryIndex: QueriesCommand = {
  id: 'universeExplorer.loadQueryIndexFromFile',
  get failure() {
    return t`load the query index from the export file`;
  },
  run: async (ctx, node: unknown): Promise<IndexedPart[]> => {
    const u = await universeOf(ctx, node);
    const name = universeName(ctx, u);
    const [uri] = required(
      await ctx.ui.openDialog({
        title: t`Load the Query Index of ${name} from an Export File`,
        openLabel: t`Load`,
        canSelectMany: false,
        defaultUri: workspaceFolder(),
        filters: { [t`NDJSON (one entry per line)`]: ['ndjson', 'jsonl'], [t`All files`]: ['*'] },
      }),
    );
    const file = localPath(uri);
    const base = path.basename(file);
    const header = await headerOf(file).catch((error: unknown) => {
      if ((error as NodeJS.ErrnoException).code) throw error;
      throw new Error(
        t`${base} does not start with the line Export Data Store… writes, which names the universe and data store; export the store with Export Data Store… and load that file`,
        { cause: error },
      );
    });
    if (String(header.universeId) !== String(u.universeId)) {
      throw new Error(
        t`${base} holds data store ${header.datastoreName} of universe ${header.universeId}, not of ${name}; choose an export of this universe, or load the file into the query index of universe ${header.universeId}`,
      );
    }
    const index = ctx.indexes.index(u);
    try {
      await ctx.ui.progress(
        t`Loading ${base} into the query index of ${name}`,
        (signal, report) => index.buildFromFile(file, { signal, onProgress: (p) => report(loading(p)) }),
        { delayMs: 0 },
      );
    } finally {
      await ctx.indexes.reload(u);
    }
    const now = await ctx.indexes.covered(u);
    ctx.log.info(`Loaded ${file} into the query index of ${name}`);
    void ctx.ui.info(t`Query index of ${name}: ${describeCoverage(now) ?? t`empty`}.`);
    return now;
  },
};

function loading(p: BuildProgress): string {
  if (p.phase === 'reading') return '';
  return p.percent === undefined ? t`loading into the index…` : t`loading ${Math.round(p.percent)}%`;
}
