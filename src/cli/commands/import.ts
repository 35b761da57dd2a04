// universe-explorer import: an export file into a data store. A dry run unless --apply is given.
import fsp = require('node:fs/promises');
import {
  describeHeader,
  importDataStore,
  planImport,
  StoppedError,
  type ImportMode,
  type ImportResult,
} from '../../api';
import type { Command, Context } from '../command';
import { connect, failure } from '../connect';
import { CONNECTION, flag, OUTPUT, required, text, whole } from '../options';
import { EXIT, UsageError } from '../output';
import { count, listed, rate } from './words';

/** The file to read: --in, or the one positional argument (not both). */
async function inputFile(ctx: Context, what: string): Promise<string> {
  const named = text(ctx.values, 'in');
  const [given] = ctx.positionals;
  if (named !== undefined && given !== undefined) throw new UsageError(`give the file once: --in or ${what}, not both`);
  const file = named ?? given;
  if (file === undefined) throw new UsageError(`the file is missing: give --in <file> or ${what}`);
  const stat = await fsp.stat(file).catch(() => undefined);
  if (!stat?.isFile()) throw new UsageError(`${file} is not a file: check the path`);
  return file;
}

export const importCommand: Command = {
  name: 'import',
  summary: 'plan (default) or, with --apply, write an export file into a data store',
  usage: ['--universe <id> --store <name> (--in <file> | <file>) [--overwrite] [--apply] [options]'],
  about:
    'Without --apply nothing is written: a dry run lists what the import would do with each line (create, ' +
    'overwrite, skip a key that exists, or refuse an invalid line). With --apply the entries are written: ' +
    'create-only by default (a key that exists is skipped, never changed), every entry with --overwrite. Each line ' +
    'names its scope. Failed lines go to <file>.failures.ndjson, each with its line number and error. A stopped ' +
    'import says the line to go on from (--from-line).',
  options: [
    ['Connection', CONNECTION],
    [
      'Store and file',
      {
        store: { type: 'string', value: '<name>', help: 'the data store written into (created by the first write)' },
        in: { type: 'string', value: '<file>', help: 'the export file read (or give it as the argument)' },
        overwrite: { type: 'boolean', help: 'write every entry, replacing keys that exist (default: create only)' },
        apply: { type: 'boolean', help: 'write; without it the command is a dry run that writes nothing' },
        'from-line': { type: 'string', value: '<n>', help: 'with --apply: start at this line (after a stop)' },
      },
    ],
    ['Output', OUTPUT],
  ],
  positionals: 1,
  json:
    '  dry run: {"command":"import","exitCode":0,"dryRun":true,"universe":"123456","store":"PlayerData","file":"…",\n' +
    '   "mode":"createOnly"|"overwrite","create":10,"overwrite":0,"skip":2,"invalid":0,"bytes":5120,\n' +
    '   "invalidLines":[{"line":7,"scope":"global","key":"k","reason":"…"}],"ms":40}\n' +
    '  --apply: {"command":"import","exitCode":0,"dryRun":false,"universe":"123456","store":"PlayerData","file":"…",\n' +
    '   "mode":"createOnly","written":10,"skipped":2,"failed":0,"lastLine":13,"failuresFile":"…" (when any failed),"ms":90}',
  exits:
    '3: a dry run found invalid lines, or --apply could not write some lines (listed in the failures file).\n' +
    'Keys skipped because they exist (create only) are not failures.',
  examples: [
    'universe-explorer import --universe 123456 --store PlayerData players.ndjson',
    'universe-explorer import --universe 123456 --store PlayerData players.ndjson --apply',
  ],
  async run(ctx) {
    const store = required(ctx.values, 'store', 'the data store, e.g. --store PlayerData');
    const file = await inputFile(ctx, 'the file as the argument');
    const mode: ImportMode = flag(ctx.values, 'overwrite') ? 'overwrite' : 'createOnly';
    const apply = flag(ctx.values, 'apply');
    const fromLine = whole(ctx.values, 'from-line', 1);
    if (fromLine !== undefined && !apply) throw new UsageError('--from-line goes with --apply');
    const { client, universe } = await connect(ctx);
    const where = `${store} of universe ${universe}`;
    const head = { universe, store, file, mode };
    if (!apply) {
      const plan = await planImport(client, { universeId: universe, datastoreName: store }, file, mode, {
        signal: ctx.signal,
        onProgress: (p) =>
          ctx.out.progress(`Planning the import of ${file}: ${count(p.create + p.overwrite + p.skip, 'line')}`),
      }).catch((error: unknown) => {
        throw failure(`cannot plan the import of ${file} into ${where}`, error);
      });
      const { create, overwrite, skip, invalid, bytes } = plan.counts;
      const invalidLines = plan.actions
        .filter((a) => a.action === 'invalid')
        .map(({ line, scope, key, reason }) => ({ line, scope, key, reason: reason ?? '' }));
      ctx.out.say(
        `Dry run of importing ${file}${plan.header ? ` (an export of ${describeHeader(plan.header)})` : ''} into ${where}, ` +
          `${mode === 'overwrite' ? 'overwriting' : 'create only'}: nothing was written.`,
      );
      ctx.out.say(
        `Would create ${count(create, 'entry', 'entries')}, overwrite ${overwrite}, skip ${skip} that exist; ` +
          `${count(invalid, 'invalid line')}.`,
      );
      for (const l of listed(invalidLines, (l) => `line ${l.line}: ${l.reason}`)) ctx.out.say(l);
      ctx.out.say('Run again with --apply to write.');
      return ctx.out.finish(
        { dryRun: true, ...head, create, overwrite, skip, invalid, bytes, invalidLines, ms: plan.ms },
        invalid ? EXIT.partly : EXIT.done,
      );
    }
    let result: ImportResult;
    try {
      result = await importDataStore(
        client,
        { universeId: universe, datastoreName: store, file, mode, fromLine },
        {
          signal: ctx.signal,
          onProgress: (p) =>
            ctx.out.progress(`Importing ${file}: line ${p.lastLine.toLocaleString('en-US')}${rate(p.ratePerSecond)}`),
        },
      );
    } catch (error) {
      if (error instanceof StoppedError) {
        const done = (error as StoppedError<ImportResult>).result;
        ctx.out.note(
          `Stopped after line ${done.lastLine}: go on with the same command and --from-line ${done.lastLine + 1}.`,
        );
        throw failure(`cannot import ${file} into ${where}`, error.cause);
      }
      throw failure(`cannot import ${file} into ${where}`, error);
    }
    const { written, skipped, failed, lastLine, failuresFile, ms } = result;
    ctx.out.say(
      `Imported ${file} into ${where}: ${count(written, 'entry', 'entries')} written, ${skipped} skipped (they exist), ` +
        `${failed} failed.`,
    );
    if (failed) ctx.out.say(`The failed lines are in ${failuresFile}: fix them and import that file.`);
    return ctx.out.finish(
      { dryRun: false, ...head, written, skipped, failed, lastLine, ...(failuresFile ? { failuresFile } : {}), ms },
      failed ? EXIT.partly : EXIT.done,
    );
  },
};
