// universe-explorer export: a data store (one scope or all) to an NDJSON file, resumable.
import path = require('node:path');
import { exportDataStore, StoppedError, type ExportResult } from '../../api';
import type { Command } from '../command';
import { connect, describeStore, failure, requireStore, storeOf } from '../connect';
import { CONNECTION, flag, OUTPUT, required, STORE } from '../options';
import { EXIT } from '../output';
import { count, rate } from './words';

export const exportCommand: Command = {
  name: 'export',
  summary: 'write a data store (one scope or all) to an NDJSON file; run again to continue a stopped export',
  usage: ['--universe <id> --store <name> [--scope <scope> | --all-scopes] --out <file> [options]'],
  about:
    'Writes a header line naming the universe, store and scope, then one line per entry: ' +
    '{scope, key, value, attributes, userIds, version}, the value as the exact JSON the service holds. Exporting ' +
    'into the same file again continues where the last run stopped (killed, Ctrl+C, a failure); --restart ' +
    'replaces the file. Entries that cannot be read are listed in <file>.failures.ndjson and the export goes on.',
  options: [
    ['Connection', CONNECTION],
    ['Store', STORE],
    [
      'Files',
      {
        out: { type: 'string', value: '<file>', help: 'the NDJSON file written (continued when it holds this export)' },
        restart: { type: 'boolean', help: 'start over: replace the file instead of continuing it' },
      },
    ],
    ['Output', OUTPUT],
  ],
  json:
    '  {"command":"export","exitCode":0,"universe":"123456","store":"PlayerData","scope":"global" | "allScopes":true,\n' +
    '   "file":"players.ndjson","exported":120,"resumed":30,"skipped":0,"failed":0,"failuresFile":"…" (when any failed),\n' +
    '   "ms":5120}\n' +
    '  skipped: keys deleted between listing and reading; resumed: entries already in the file from an earlier run.',
  exits: '3: some entries could not be read; they are listed in the failures file (an export run again retries them).',
  examples: [
    'UE_API_KEY=… universe-explorer export --universe 123456 --store PlayerData --out players.ndjson',
    'universe-explorer export --universe 123456 --store Inventory --all-scopes --out inventory.ndjson --json',
  ],
  async run(ctx) {
    const store = storeOf(ctx.values);
    const file = required(ctx.values, 'out', 'the file to write, e.g. --out players.ndjson');
    const { client, universe } = await connect(ctx);
    const what = `${describeStore(store)} of universe ${universe}`;
    let result: ExportResult;
    try {
      await requireStore(client, universe, store.store, ctx.signal);
      result = await exportDataStore(
        client,
        {
          universeId: universe,
          datastoreName: store.store,
          scope: store.scope,
          allScopes: store.allScopes,
          file,
          resume: !flag(ctx.values, 'restart'),
        },
        {
          signal: ctx.signal,
          onProgress: (p) =>
            ctx.out.progress(
              `Exporting ${what}: ${count(p.exported + p.resumed, 'entry', 'entries')}${rate(p.ratePerSecond)}`,
            ),
        },
      );
    } catch (error) {
      if (error instanceof Error && error.name === 'AbortError') {
        ctx.out.note(`Stopped; run the same command again to continue ${path.basename(file)} where it stopped.`);
      }
      throw failure(`cannot export ${what} to ${file}`, error instanceof StoppedError ? error.cause : error);
    }
    const { exported, resumed, skipped, failed, failuresFile, ms } = result;
    const more = [
      resumed ? `${count(resumed, 'entry', 'entries')} already in the file` : '',
      skipped ? `${count(skipped, 'key')} deleted meanwhile, left out` : '',
    ].filter(Boolean);
    ctx.out.say(
      `Exported ${count(exported, 'entry', 'entries')} of ${what} to ${file}${more.length ? ` (${more.join('; ')})` : ''}.`,
    );
    if (failed) {
      ctx.out.say(
        `${count(failed, 'entry', 'entries')} could not be read: see ${failuresFile}; export again to retry them.`,
      );
    }
    return ctx.out.finish(
      {
        universe,
        store: store.store,
        ...(store.allScopes ? { allScopes: true } : { scope: store.scope }),
        file,
        exported,
        resumed,
        skipped,
        failed,
        ...(failuresFile ? { failuresFile } : {}),
        ms,
      },
      failed ? EXIT.partly : EXIT.done,
    );
  },
};
