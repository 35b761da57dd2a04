// universe-explorer compare: a store now against the same store at a time; which keys changed, were created or
// deleted since. Reads only.
import { compareWithTime, writeComparison, type CompareSummary, type KeyComparison } from '../../api';
import type { Command } from '../command';
import { connect, describeStore, failure, momentOf, requireStore, storeOf } from '../connect';
import { CONNECTION, OUTPUT, STORE, text } from '../options';
import { EXIT } from '../output';
import { count, listed } from './words';

/** The keys of `results` that differ, handing the summary it returns to `keep`. */
async function* differing(
  results: AsyncGenerator<KeyComparison, CompareSummary>,
  keep: (summary: CompareSummary) => void,
): AsyncGenerator<KeyComparison> {
  try {
    let next = await results.next();
    for (; !next.done; next = await results.next()) if (next.value.status !== 'unchanged') yield next.value;
    keep(next.value);
  } finally {
    await results.return(undefined as never); // stops the requests in flight when the reader stopped early
  }
}

export const compareCommand: Command = {
  name: 'compare',
  summary: 'compare a store with itself at a time: the keys changed, created or deleted since (reads only)',
  usage: ['--universe <id> --store <name> [--scope <scope> | --all-scopes] --to <time> [--out <file>] [options]'],
  about:
    'Lists each key whose newest version is not the one in effect at the time: changed, created (no entry then) or ' +
    'deleted (an entry then, none now). Unchanged keys are counted, not listed; the report lists 200 keys at most ' +
    '(--json and --out list them all). With --out the keys go to an ' +
    'NDJSON file ({scope, key, status, then, now}, the versions as the service sent them) instead of the output. ' +
    'Times read as for restore: 2024-01-15T10:00:00Z, "3 hours ago", 24h, yesterday 18:00.',
  options: [
    ['Connection', CONNECTION],
    ['Store', STORE],
    [
      'Comparison',
      {
        to: { type: 'string', value: '<time>', help: 'the time compared with' },
        prefix: { type: 'string', value: '<text>', help: 'only keys that start with this' },
        out: { type: 'string', value: '<file>', help: 'write the keys that differ to this NDJSON file' },
      },
    ],
    ['Output', OUTPUT],
  ],
  json:
    '  {"command":"compare","exitCode":0,"universe":"123456","store":"…","scope":"global","time":"…",\n' +
    '   "unchanged":96,"changed":3,"created":1,"deleted":0,\n' +
    '   "keys":[{"scope":"global","key":"k","status":"changed"}] (without --out) | "out":"<file>","ms":300}',
  examples: ['universe-explorer compare --universe 123456 --store Settings --to "yesterday 18:00"'],
  async run(ctx) {
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
      const results = differing(
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
        universe,
        store: store.store,
        ...(store.allScopes ? { allScopes: true } : { scope: store.scope }),
        ...(prefix ? { prefix } : {}),
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
