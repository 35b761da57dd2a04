// universe-explorer index build|query: the query index of a universe (src/query, DuckDB loaded on first use), kept
// in a folder of the user's cache unless --index-dir names another.
import fsp = require('node:fs/promises');
import os = require('node:os');
import path = require('node:path');
import { QueryError, UniverseIndex, type BuildResult } from '../../query';
import type { Command, Context } from '../command';
import { connect, failure, universeOf } from '../connect';
import { CONNECTION, DEFAULT_BASE_URL, OUTPUT, text, whole, type Options } from '../options';
import { EXIT, UsageError } from '../output';
import { count, rate } from './words';

/** Where indexes live by default: the user's cache folder, as each system names it. */
function cacheDir(env: NodeJS.ProcessEnv, platform = process.platform): string {
  const home = os.homedir();
  if (platform === 'win32') {
    return path.join(env.LOCALAPPDATA || path.join(home, 'AppData', 'Local'), 'universe-explorer', 'Cache');
  }
  if (platform === 'darwin') return path.join(home, 'Library', 'Caches', 'universe-explorer');
  return path.join(env.XDG_CACHE_HOME || path.join(home, '.cache'), 'universe-explorer');
}

export const INDEX: Options = {
  'index-dir': {
    type: 'string',
    value: '<dir>',
    help: "the folder of the indexes (default: universe-explorer in the user's cache folder, e.g. ~/.cache)",
  },
};

/** Where the indexes are (--index-dir, else the cache folder), and the host of --base-url that names them. */
export function indexPlace(ctx: Context): { dir: string; host: string } {
  const dir = text(ctx.values, 'index-dir') ?? cacheDir(ctx.env);
  try {
    return { dir, host: new URL(text(ctx.values, 'base-url') ?? DEFAULT_BASE_URL).host };
  } catch {
    throw new UsageError(`--base-url: ${JSON.stringify(ctx.values['base-url'])} is not an address`);
  }
}

/** The universe's index: one per service address and universe, `<dir>/<host>%2F<universe>/index.duckdb`. */
function indexOf(ctx: Context, universe: string): UniverseIndex {
  const { dir, host } = indexPlace(ctx);
  const index = new UniverseIndex({ dir, universeKey: `${host}/${universe}`, universeId: universe, idleCloseMs: 0 });
  ctx.onClose(() => index.close());
  return index;
}

const builtJson = (b: BuildResult, source: string) => ({
  store: b.store,
  ...(b.scope === undefined ? {} : { scope: b.scope }),
  entries: b.entries,
  asOf: b.asOf,
  source,
  failed: b.export?.failed ?? 0,
  ...(b.export?.failuresFile ? { failuresFile: b.export.failuresFile } : {}),
});

export const indexBuild: Command = {
  name: 'index build',
  summary: 'index data stores (read live, or from export files) for SQL queries',
  usage: [
    '--universe <id> --store <name> [--store <name> …] [--scope <scope>] [options]',
    '--universe <id> --from-file <export file> [--from-file <file> …] [options]',
  ],
  about:
    "Reads each store (all its scopes, or --scope) through the service into the universe's query index, replacing " +
    'what the index held of it; a build that stopped goes on from where it was the next time. --from-file indexes ' +
    'export files instead (no API key needed); each must be an export of this universe. The index is kept per ' +
    'service address (--base-url) and universe.',
  options: [
    ['Connection', CONNECTION],
    [
      'What to index',
      {
        store: { type: 'string', multiple: true, value: '<name>', help: 'a data store (repeat for more)' },
        scope: { type: 'string', value: '<scope>', help: 'only this scope of each store (default: every scope)' },
        'from-file': { type: 'string', multiple: true, value: '<file>', help: 'an export file (repeat for more)' },
        ...INDEX,
      },
    ],
    ['Output', OUTPUT],
  ],
  json:
    '  {"command":"index build","exitCode":0,"universe":"123456","index":"<dir>/…/index.duckdb",\n' +
    '   "built":[{"store":"PlayerData","scope":"global" (when one),"entries":1204,"asOf":"…","source":"service"|"<file>",\n' +
    '   "failed":0,"failuresFile":"…" (when entries could not be read)}],"ms":2100}',
  exits: '3: some entries could not be read (each build lists them in its failuresFile).',
  examples: [
    'universe-explorer index build --universe 123456 --store PlayerData --store Inventory',
    'universe-explorer index build --universe 123456 --from-file players.ndjson',
  ],
  async run(ctx) {
    const stores = (ctx.values.store as string[] | undefined) ?? [];
    const files = (ctx.values['from-file'] as string[] | undefined) ?? [];
    const scope = text(ctx.values, 'scope');
    if (!stores.length && !files.length) throw new UsageError('give --store <name> or --from-file <file>');
    if (stores.length && files.length)
      throw new UsageError('--store and --from-file go apart: build one kind at a time');
    if (scope !== undefined && !stores.length) throw new UsageError('--scope goes with --store');
    const started = Date.now();
    const built: ReturnType<typeof builtJson>[] = [];
    let universe: string;
    let index: UniverseIndex;
    if (files.length) {
      universe = universeOf(ctx.values);
      index = indexOf(ctx, universe);
      for (const file of files) {
        if (!(await fsp.stat(file).catch(() => undefined))?.isFile()) throw new UsageError(`${file} is not a file`);
        const b = await index
          .buildFromFile(file, { signal: ctx.signal, onProgress: () => ctx.out.progress(`Indexing ${file}…`) })
          .catch((error: Error) => {
            throw /export header|not of universe/.test(error.message)
              ? new UsageError(error.message)
              : failure(`cannot index ${file}`, error);
          });
        built.push(builtJson(b, file));
        ctx.out.say(`Indexed ${file}: ${count(b.entries, 'entry', 'entries')} of ${b.store}.`);
      }
    } else {
      const connected = await connect(ctx);
      universe = connected.universe;
      index = indexOf(ctx, universe);
      for (const store of stores) {
        const what = `${store}${scope === undefined ? '' : ` (scope ${scope})`} of universe ${universe}`;
        const b = await index
          .build(
            connected.client,
            { store, scope },
            {
              signal: ctx.signal,
              onProgress: (p) =>
                ctx.out.progress(
                  p.phase === 'reading'
                    ? `Indexing ${what}: ${count(p.exported + p.resumed, 'entry', 'entries')} read${rate(p.ratePerSecond)}`
                    : `Indexing ${what}: loading${p.percent === undefined ? '' : ` ${p.percent}%`}`,
                ),
            },
          )
          .catch((error: unknown) => {
            throw failure(`cannot index ${what}`, error);
          });
        built.push(builtJson(b, 'service'));
        const failed = b.export?.failed ?? 0;
        ctx.out.say(
          `Indexed ${what}: ${count(b.entries, 'entry', 'entries')} as of ${b.asOf}` +
            `${failed ? `; ${failed} could not be read (see ${b.export?.failuresFile})` : ''}.`,
        );
      }
    }
    ctx.out.say(`Index: ${index.file}`);
    const partly = built.some((b) => b.failed > 0);
    return ctx.out.finish(
      { universe, index: index.file, built, ms: Date.now() - started },
      partly ? EXIT.partly : EXIT.done,
    );
  },
};

/** A value as one cell of the human table. */
function cell(v: unknown): string {
  const s = v === null ? 'NULL' : typeof v === 'string' ? v : JSON.stringify(v);
  const line = s.replace(/[\r\n\t]+/g, ' ');
  return line.length > 60 ? `${line.slice(0, 59)}…` : line;
}

export const indexQuery: Command = {
  name: 'index query',
  summary: "run one SQL statement that reads (SELECT, WITH, DESCRIBE…) over a universe's index",
  usage: ['--universe <id> [--limit <n>] "<sql>" [options]'],
  about:
    'The index has one table, entries (store, scope, key, version, created_time, updated_time, user_ids, attributes, ' +
    'value, not_json), and index_info (what each build covers, and as of when). Only statements that read are run, ' +
    'in a read-only transaction. Times are UTC. Use the same --base-url as the build (the index is kept per ' +
    'service address).',
  options: [
    ['Connection (no API key needed)', { universe: CONNECTION.universe, 'base-url': CONNECTION['base-url'] }],
    ['Query', { limit: { type: 'string', value: '<n>', help: 'rows at most (default 1000)' }, ...INDEX }],
    ['Output', OUTPUT],
  ],
  positionals: 1,
  json:
    '  {"command":"index query","exitCode":0,"universe":"123456","columns":[{"name":"key","type":"VARCHAR"}],\n' +
    '   "rows":[["Player_1"]],"truncated":false}\n' +
    '  Whole numbers beyond 2^53 are strings, times ISO 8601, JSON columns their text.',
  exits:
    '2: the statement is refused (it would write) or DuckDB cannot run it (its message names the line and column).',
  examples: [
    'universe-explorer index query --universe 123456 "SELECT key, value->>\'coins\' AS coins FROM entries LIMIT 10"',
  ],
  async run(ctx) {
    const universe = universeOf(ctx.values);
    const [sql] = ctx.positionals;
    if (sql === undefined || sql.trim() === '')
      throw new UsageError('the statement is missing: give it as the argument');
    const limit = whole(ctx.values, 'limit', 0);
    const index = indexOf(ctx, universe);
    if (!(await fsp.stat(index.file).catch(() => undefined))) {
      throw new UsageError(
        `universe ${universe} has no index in ${path.dirname(index.folder)}: build one with universe-explorer index build`,
      );
    }
    const result = await index.query(sql, { limit, signal: ctx.signal }).catch((error: unknown) => {
      if (error instanceof QueryError) throw new UsageError(`the query was not run: ${error.message}`);
      throw failure(`cannot query the index of universe ${universe}`, error);
    });
    const { columns, rows, truncated } = result;
    const table = [columns.map((c) => c.name), ...rows.map((r) => r.map(cell))];
    const widths = columns.map((_, i) => Math.max(...table.map((r) => r[i].length)));
    for (const row of table)
      ctx.out.say(
        row
          .map((v, i) => v.padEnd(widths[i]))
          .join('  ')
          .trimEnd(),
      );
    ctx.out.say(`(${count(rows.length, 'row')}${truncated ? '; more follow: raise --limit' : ''})`);
    return ctx.out.finish({ universe, columns, rows, truncated }, EXIT.done);
  },
};
