// universe-explorer compare: a store now against the same store at a time (which keys changed, were created or
// deleted since), or against another store or an export file (which keys differ or are on one side only). Reads only.
import fs = require('node:fs');
import {
  compareStores,
  changedKeys,
  compareWithTime,
  writeComparison,
  type CompareSide,
  type CompareSummary,
  type StoresComparison,
  type StoresSummary,
} from '../../api';
import type { Command, Context } from '../command';
import {
  connect,
  describeStore,
  failure,
  momentOf,
  requireStore,
  storeOf,
  universeOf,
  type StoreChoice,
} from '../connect';
import { CONNECTION, OUTPUT, STORE, text } from '../options';
import { EXIT, UsageError, type ExitCode } from '../output';
import { count, listed } from './words';

/** What the --json output says first: the store compared. */
const compared = (universe: string, store: StoreChoice, prefix: string | undefined) => ({
  universe,
  store: store.store,
  ...(store.allScopes ? { allScopes: true } : { scope: store.scope }),
  ...(prefix ? { prefix } : {}),
});

export const compareCommand: Command = {
  name: 'compare',
  summary: 'compare a store with itself at a time, with another store or with an export file (reads only)',
  usage: [
    '--universe <id> --store <name> [--scope <scope> | --all-scopes] --to <time> [--out <file>] [options]',
    '--universe <id> --store <name> [--scope <scope> | --all-scopes] --with-store <name> [--with-scope <scope>] ' +
      '[--with-universe <id>] [--out <file>] [options]',
    '--universe <id> --store <name> [--scope <scope> | --all-scopes] --with-file <export.ndjson> [--out <file>] [options]',
  ],
  about:
    'With --to, lists each key whose newest version is not the one in effect at the time: changed, created (no entry ' +
    'then) or deleted (an entry then, none now). With --with-store or --with-file, lists each key that differs ' +
    '(value, attributes or user ids) or is only on one side; the store is the source, the other the target. Keys ' +
    'that are the same are counted, not listed; the report lists 200 keys at most (--json and --out list them all). ' +
    'With --out the keys go to an NDJSON file instead of the output ({scope, key, status, then, now} against a ' +
    'time; {scope, key, status, differs, source, target} against a store or file). Times read as for restore: ' +
    '2024-01-15T10:00:00Z, "3 hours ago", 24h, yesterday 18:00.',
  options: [
    ['Connection', CONNECTION],
    ['Store', STORE],
    [
      'Comparison',
      {
        to: { type: 'string', value: '<time>', help: 'the time compared with' },
        'with-store': { type: 'string', value: '<name>', help: 'the store compared with' },
        'with-scope': { type: 'string', value: '<scope>', help: "that store's scope (default the same as --scope)" },
        'with-universe': { type: 'string', value: '<id>', help: "that store's universe (default --universe)" },
        'with-file': { type: 'string', value: '<file>', help: 'the export file compared with' },
        prefix: { type: 'string', value: '<text>', help: 'only keys that start with this' },
        out: { type: 'string', value: '<file>', help: 'write the keys that differ to this NDJSON file' },
      },
    ],
    ['Output', OUTPUT],
  ],
  json:
    '  {"command":"compare","exitCode":0,"universe":"123456","store":"…","scope":"global","time":"…",\n' +
    '   "unchanged":96,"changed":3,"created":1,"deleted":0,\n' +
    '   "keys":[{"scope":"global","key":"k","status":"changed"}] (without --out) | "out":"<file>","ms":300}\n' +
    '  with --with-store or --with-file: "with":"Settings (scope global) of universe 123456" | "<file>", and\n' +
    '   "same":96,"different":3,"onlySource":1,"onlyTarget":0 instead of the time and its counts;\n' +
    "   the keys' status is one of different, onlySource, onlyTarget",
  examples: [
    'universe-explorer compare --universe 123456 --store Settings --to "yesterday 18:00"',
    'universe-explorer compare --universe 123456 --store Settings --with-store Settings --with-universe 654321',
    'universe-explorer compare --universe 123456 --store PlayerData --with-file backup.ndjson',
  ],
  async run(ctx) {
    const others = ['to', 'with-store', 'with-file'].filter((o) => ctx.values[o] !== undefined);
    if (others.length !== 1) {
      throw new UsageError(
        others.length
          ? `${others.map((o) => `--${o}`).join(' and ')} go apart: compare with one of them`
          : 'give what to compare with: --to <time>, --with-store <name> or --with-file <export.ndjson>',
      );
    }
    if (others[0] !== 'to') return compareWithStore(ctx);
    const store = storeOf(ctx.values);
    const time = momentOf(ctx.values, 'to');
    const prefix = text(ctx.values, 'prefix');
    const out = text(ctx.values, 'out');
    const { client, universe } = await connect(ctx);
    const what = `${describeStore(store)} of universe ${universe}`;
    const keys: { scope: string; key: string; status: string }[] = [];
    let summary: CompareSummary | undefined;
    try {
      await requireStore(client, universe, store.store, ctx.signal);
      const results = changedKeys(
        compareWithTime(
          client,
          { universeId: universe, datastoreName: store.store, scope: store.scope, allScopes: store.allScopes, prefix },
          time,
          {
            signal: ctx.signal,
            now: new Date(),
            onProgress: (p) => ctx.out.progress(`Comparing ${what}: ${count(p.changed + p.unchanged, 'key')}`),
          },
        ),
        (s) => (summary = s),
      );
      if (out !== undefined) await writeComparison(out, results);
      else for await (const c of results) keys.push({ scope: c.scope, key: c.key, status: c.status });
    } catch (error) {
      throw failure(`cannot compare ${what} with ${time.toISOString()}`, error);
    }
    const { unchanged, changed, created, deleted, ms } = summary!;
    ctx.out.say(`${what} now against ${time.toISOString()}:`);
    for (const l of listed(keys, (k) => `${k.status.padEnd(8)} ${k.scope}/${k.key}`, 200)) ctx.out.say(l);
    ctx.out.say(
      `${changed.toLocaleString('en-US')} changed, ${created.toLocaleString('en-US')} created, ` +
        `${deleted.toLocaleString('en-US')} deleted, ${unchanged.toLocaleString('en-US')} unchanged` +
        `${out !== undefined ? `; the keys are in ${out}` : ''}.`,
    );
    return ctx.out.finish(
      {
        ...compared(universe, store, prefix),
        time: time.toISOString(),
        unchanged,
        changed,
        created,
        deleted,
        ...(out !== undefined ? { out } : { keys }),
        ms,
      },
      EXIT.done,
    );
  },
};

/** What --with-store or --with-file names, checked before anything is sent. */
type Other = { file: string } | { universe: string; choice: StoreChoice };

function otherOf(ctx: Context, universe: string, store: StoreChoice): Other {
  const file = text(ctx.values, 'with-file');
  if (file !== undefined) {
    if (!fs.existsSync(file)) throw new UsageError(`--with-file: ${file} does not exist: name an export file`);
    return { file };
  }
  const name = text(ctx.values, 'with-store')!;
  const other =
    ctx.values['with-universe'] === undefined ? universe : universeOf({ universe: ctx.values['with-universe'] });
  const scope = text(ctx.values, 'with-scope');
  if (scope !== undefined && store.allScopes) throw new UsageError('--with-scope and --all-scopes go apart');
  const choice = store.allScopes
    ? { store: name, allScopes: true as const }
    : { store: name, scope: scope ?? store.scope };
  return { universe: other, choice };
}

/** compare --with-store / --with-file. */
async function compareWithStore(ctx: Context): Promise<ExitCode> {
  const store = storeOf(ctx.values);
  const prefix = text(ctx.values, 'prefix');
  const out = text(ctx.values, 'out');
  const other = otherOf(ctx, universeOf(ctx.values), store);
  const { client, universe } = await connect(ctx);
  const what = `${describeStore(store)} of universe ${universe}`;
  await requireStore(client, universe, store.store, ctx.signal);
  let side: CompareSide;
  let name: string;
  if ('file' in other) {
    side = { file: other.file, prefix };
    name = other.file;
  } else {
    await requireStore(client, other.universe, other.choice.store, ctx.signal);
    const { store: datastoreName, ...selection } = other.choice;
    side = { client, universeId: other.universe, datastoreName, ...selection, prefix };
    name = `${describeStore(other.choice)} of universe ${other.universe}`;
  }
  const keys: { scope: string; key: string; status: string; differs?: string[] }[] = [];
  let summary: StoresSummary | undefined;
  const file = out === undefined ? undefined : fs.createWriteStream(out);
  try {
    const { store: datastoreName, ...selection } = store;
    const source = { client, universeId: universe, datastoreName, ...selection, prefix };
    const results = compareStores(source, side, {
      signal: ctx.signal,
      onProgress: (p) => ctx.out.progress(`Comparing ${what} with ${name}: ${count(p.same + p.different, 'key')}`),
    });
    for (let r = await results.next(); ; r = await results.next()) {
      if (r.done) {
        summary = r.value;
        break;
      }
      const c: StoresComparison = r.value;
      if (c.status === 'same') continue;
      if (file) {
        if (!file.write(`${JSON.stringify(c)}\n`)) await new Promise<void>((done) => file.once('drain', () => done()));
      } else keys.push({ scope: c.scope, key: c.key, status: c.status, ...(c.differs ? { differs: c.differs } : {}) });
    }
    if (file) await new Promise<void>((done, fail) => file.end((e?: Error | null) => (e ? fail(e) : done())));
  } catch (error) {
    file?.destroy();
    throw failure(`cannot compare ${what} with ${name}`, error);
  }
  const { same, different, onlySource, onlyTarget, ms } = summary;
  ctx.out.say(`${what} against ${name}:`);
  const status = (k: (typeof keys)[number]) =>
    k.status === 'different'
      ? `differs (${k.differs?.join(', ')})`
      : k.status === 'onlySource'
        ? 'only here'
        : 'only there';
  for (const l of listed(keys, (k) => `${status(k).padEnd(10)} ${k.scope}/${k.key}`, 200)) ctx.out.say(l);
  ctx.out.say(
    `${different.toLocaleString('en-US')} different, ${onlySource.toLocaleString('en-US')} only in ${store.store}, ` +
      `${onlyTarget.toLocaleString('en-US')} only in the other, ${same.toLocaleString('en-US')} the same` +
      `${out !== undefined ? `; the keys are in ${out}` : ''}.`,
  );
  return ctx.out.finish(
    {
      ...compared(universe, store, prefix),
      with: name,
      same,
      different,
      onlySource,
      onlyTarget,
      ...(out !== undefined ? { out } : { keys }),
      ms,
    },
    EXIT.done,
  );
}
