// Query Data…, Run Query and Find Value…: a query document names its universe on its first line; running it asks
// that universe's index (read-only) and shows the rows in the document's results panel.
import vscode = require('vscode');
import { t } from '../../core/text';
import { required } from '../../core/ui';
import type { UniverseAddress } from '../../core/universe';
import { findValueSql, QueryError } from '../../query';
import { openQueryDocument, queryLanguage, STARTER_SQL, universeOfText } from '../document';
import type { ResultPanel, ShownResult } from '../results/panel';
import type { QueriesCommand, QueriesContext } from './context';
import { universeName, universeOf } from './universe';

/** Rows a panel keeps at most; the query's own LIMIT can ask for fewer. */
export const RESULT_ROWS = 100_000;

export const queryData: QueriesCommand = {
  id: 'universeExplorer.queryData',
  get failure() {
    return t`open a query`;
  },
  run: async (ctx, node: unknown) => {
    const u = await universeOf(ctx, node);
    const editor = await openQueryDocument(u, STARTER_SQL);
    return editor.document.uri;
  },
};

export const runQuery: QueriesCommand = {
  id: 'universeExplorer.runQuery',
  get failure() {
    return t`run the query`;
  },
  run: async (ctx, arg: unknown) => {
    const document = await queryDocument(arg);
    return run(ctx, document);
  },
};

export const findValue: QueriesCommand = {
  id: 'universeExplorer.findValue',
  get failure() {
    return t`find the value`;
  },
  run: async (ctx, node: unknown) => {
    const u = await universeOf(ctx, node);
    await builtIndex(ctx, u);
    const text = required(
      await ctx.ui.input({
        title: t`Find Value in ${universeName(ctx, u)}`,
        prompt: t`A text (found in any case) or a number (found as a whole number), anywhere in the values`,
        validateInput: (v) => (v.trim() ? undefined : t`Type a text or a number to find.`),
      }),
    );
    const editor = await openQueryDocument(u, findValueSql(text));
    return run(ctx, editor.document);
  },
};

/** The query document of the lens (a URI), or the active editor's. */
async function queryDocument(arg: unknown): Promise<vscode.TextDocument> {
  const document =
    arg instanceof vscode.Uri ? await vscode.workspace.openTextDocument(arg) : vscode.window.activeTextEditor?.document;
  if (!document || document.languageId !== queryLanguage) {
    throw new Error(t`open a query document first (Query Data… on a universe)`);
  }
  return document;
}

/** What the index covers; an error saying what to do when it covers nothing. */
async function builtIndex(ctx: QueriesContext, u: UniverseAddress): Promise<void> {
  const parts = await ctx.indexes.covered(u);
  if (!parts.length) {
    throw new Error(
      t`${universeName(ctx, u)} has no query index yet: run Build Query Index… on its Data Stores, then run the query again`,
    );
  }
}

async function run(ctx: QueriesContext, document: vscode.TextDocument): Promise<ResultPanel> {
  const text = document.getText();
  const u = universeOfText(text);
  if (!u) {
    throw new Error(
      t`the query names no universe: its first line must be "-- universe: <connection id>/<universe id>" (Query Data… writes it)`,
    );
  }
  return ctx.results.show(document.uri, await queryResult(ctx, u, text));
}

/** Runs a query on the universe's index under a notification; a QueryError is told in the product's words. */
export async function queryResult(ctx: QueriesContext, u: UniverseAddress, sql: string): Promise<ShownResult> {
  if (!ctx.connections.get(u.connectionId)) {
    throw new Error(t`the query names connection "${u.connectionId}", which is not in the Universes view`);
  }
  await builtIndex(ctx, u);
  const name = universeName(ctx, u);
  const result = await ctx.ui.progress(t`Running the query on ${name}…`, async (signal) => {
    try {
      return await ctx.indexes.index(u).query(sql, { signal, limit: RESULT_ROWS });
    } catch (error) {
      if (!(error instanceof QueryError)) throw error;
      const what = error.refused
        ? t`only one statement that reads (SELECT, WITH, EXPLAIN…) runs on the index`
        : t`fix the SQL and run it again`;
      throw new Error(t`the query index of ${name} says: ${error.message} (${what})`, { cause: error });
    }
  });
  ctx.log.info(`Query on ${name}: ${result.rows.length} rows${result.truncated ? ' (truncated)' : ''}`);
  return { universe: u, universeName: name, sql, result };
}
