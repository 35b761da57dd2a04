// The plan tools of entries. Each WRITES NOTHING to the service: it reads what it needs and writes a restore plan
// (api/timeMachine/restoreFormat.ts) into a plan folder, every action conditioned on the version it read, for
// apply_plan to run through runRestore (audited, resumable, undoable from its audit).
import path = require('node:path');
import * as z from 'zod/mini';
import {
  MAX_ENTRY_BYTES,
  NotFoundError,
  planCopy,
  planErase,
  planRestore,
  playerTie,
  readPlanActions,
  recordOf,
  startPlanFile,
  undoRecordOf,
  writePlan,
  type EntryKey,
  type OpenApiClient,
  type RestoreAction,
  type RestorePlanHeader,
  type RestorePlanSummary,
} from '../api';
import { newPlan, writeManifest, type PlanFolder, type PlanKind } from './plans';
import { requireStore } from './read';
import {
  about,
  keyField,
  momentOf,
  named,
  scopeField,
  storeField,
  timeField,
  tool,
  ToolError,
  universeField,
  userField,
  type Tool,
  type ToolContext,
} from './types';

/** Actions a plan's result lists; its files hold them all. */
const ACTIONS_SHOWN = 20;

const NOTHING_WRITTEN = 'Nothing was written: apply_plan with this planId runs it.';

/** What a plan tool answers: the plan's id and files, what it does, its counts and its first actions. */
async function planned(
  ctx: ToolContext,
  folder: PlanFolder,
  kind: PlanKind,
  universe: string,
  summary: string,
  parts: { store: string; file: string; plan: RestorePlanSummary }[],
  extra: Record<string, unknown> = {},
) {
  const counts = { write: 0, recreate: 0, delete: 0, unchanged: 0, gone: 0, bytes: 0 };
  const actions: { store: string; scope: string; key: string; action: string; bytes: number }[] = [];
  let total = 0;
  for (const { store, file, plan } of parts) {
    for (const k of ['write', 'recreate', 'delete', 'unchanged', 'bytes'] as const) counts[k] += plan[k];
    counts.gone += plan.gone.length;
    for await (const batch of readPlanActions(file, ctx.signal)) {
      total += batch.length;
      for (const a of batch.slice(0, ACTIONS_SHOWN - actions.length)) {
        actions.push({ store, scope: a.scope, key: a.key, action: a.action, bytes: a.bytes });
      }
    }
  }
  await writeManifest(folder, {
    planId: folder.planId,
    kind,
    universe,
    planned: new Date().toISOString(),
    summary,
    parts: parts.map((p) => path.basename(p.file)),
  });
  return {
    planId: folder.planId,
    file: folder.file,
    parts: parts.map((p) => p.file),
    universe,
    summary,
    counts,
    actions,
    more: total - actions.length,
    ...(counts.gone ? { gone: parts.flatMap((p) => p.plan.gone).slice(0, ACTIONS_SHOWN) } : {}),
    ...extra,
    note: total ? NOTHING_WRITTEN : 'Nothing to do: the plan holds no action, and nothing was written.',
  };
}

/** A one-action plan of one entry (set or delete), conditioned on the version read. */
async function entryPlan(
  ctx: ToolContext,
  kind: 'set_entry' | 'delete_entry',
  universe: string,
  store: string,
  scope: string,
  action: RestoreAction | undefined,
  summary: string,
) {
  const folder = await newPlan(ctx.plansDir, kind);
  const file = path.join(folder.dir, 'part-1.ndjson');
  await startPlanFile(file);
  const header: RestorePlanHeader = {
    universeId: universe,
    datastoreName: store,
    selection: { scope, keys: true },
    planned: new Date().toISOString(),
    undoRecord: undoRecordOf(file),
  };
  const actions = async function* () {
    if (action) yield [action];
  };
  const plan = await writePlan(file, header, actions(), undefined, Date.now());
  return planned(ctx, folder, kind, universe, summary, [{ store, file, plan }]);
}

/** The live entry, or undefined when there is none (the store checked then, so a typo is named). */
async function liveEntry(
  client: OpenApiClient,
  universe: string,
  store: string,
  scope: string,
  key: string,
  signal: AbortSignal,
) {
  try {
    return await client.datastores.getEntryBytes(
      { universeId: universe, datastoreName: store, scope, entryKey: key },
      { signal },
    );
  } catch (error) {
    if (!(error instanceof NotFoundError)) throw error;
    return undefined;
  }
}

const jsonValue = about(z.unknown(), 'the new value: any JSON (object, array, string, number, boolean, null)');

const planSetEntry = tool({
  name: 'plan_set_entry',
  title: 'Plan setting an entry',
  description:
    "Plans writing one entry's value (creating it when it does not exist). WRITES NOTHING: it reads the entry and " +
    'writes a plan whose write is conditioned on the version read, so apply_plan skips it if someone changes the ' +
    'entry meanwhile. Attributes and user ids are kept unless given. Returns the planId for apply_plan.',
  kind: 'plan',
  input: z.object({
    universe: universeField,
    store: storeField,
    scope: scopeField,
    key: keyField,
    value: jsonValue,
    attributes: about(z.optional(z.record(z.string(), z.unknown())), 'the attributes (default: kept as they are)'),
    userIds: about(
      z.optional(z.array(z.number().check(z.int(), z.positive()))),
      'the user ids (default: kept as they are)',
    ),
  }),
  async run({ universe, store, scope = 'global', key, value, attributes, userIds }, ctx) {
    if (value === undefined) throw new ToolError('value is missing: give the new value as JSON');
    const raw = JSON.stringify(value);
    const bytes = Buffer.byteLength(raw, 'utf8');
    if (bytes > 4 * 1024 * 1024 || bytes > MAX_ENTRY_BYTES) {
      throw new ToolError(`the value is ${bytes} bytes: an entry holds 4 MiB at most`);
    }
    const client = await ctx.client(universe);
    const what = `${JSON.stringify(key)} (${store}, scope ${scope}) of universe ${universe}`;
    return named(`cannot plan setting ${what}`, async () => {
      const entry = await liveEntry(client, universe, store, scope, key, ctx.signal);
      if (!entry) await requireStore(client, universe, store, ctx.signal);
      const metadata = { attributes: attributes ?? entry?.attributes ?? {}, userIds: userIds ?? entry?.userIds ?? [] };
      const same =
        entry?.raw.toString('utf8') === raw &&
        JSON.stringify(metadata) === JSON.stringify({ attributes: entry.attributes, userIds: entry.userIds });
      const action: RestoreAction | undefined = same
        ? undefined
        : {
            n: 0,
            action: entry ? 'write' : 'recreate',
            scope,
            key,
            now: entry?.version ?? '',
            then: '',
            bytes,
            raw,
            ...metadata,
            ...(entry ? { replaces: recordOf(entry) } : {}),
          };
      const summary = same
        ? `${what} already holds this value`
        : entry
          ? `write ${what} (${bytes} bytes), if it is still version ${entry.version}`
          : `create ${what} (${bytes} bytes), if it still does not exist`;
      return entryPlan(ctx, 'set_entry', universe, store, scope, action, summary);
    });
  },
});

const planDeleteEntry = tool({
  name: 'plan_delete_entry',
  title: 'Plan deleting an entry',
  description:
    'Plans deleting one entry. WRITES NOTHING: it reads the entry and writes a plan whose delete is conditioned on ' +
    'the version read (apply_plan skips it if the entry changed meanwhile), keeping its value for undo. Returns the ' +
    'planId for apply_plan.',
  kind: 'plan',
  input: z.object({ universe: universeField, store: storeField, scope: scopeField, key: keyField }),
  async run({ universe, store, scope = 'global', key }, ctx) {
    const client = await ctx.client(universe);
    const what = `${JSON.stringify(key)} (${store}, scope ${scope}) of universe ${universe}`;
    return named(`cannot plan deleting ${what}`, async () => {
      const entry = await liveEntry(client, universe, store, scope, key, ctx.signal);
      if (!entry) {
        await requireStore(client, universe, store, ctx.signal);
        throw new ToolError(`${what} has no live entry (never written, or deleted): there is nothing to delete`);
      }
      const action: RestoreAction = {
        n: 0,
        action: 'delete',
        scope,
        key,
        now: entry.version,
        bytes: 0,
        replaces: recordOf(entry),
      };
      return entryPlan(
        ctx,
        'delete_entry',
        universe,
        store,
        scope,
        action,
        `delete ${what}, if it is still version ${entry.version}`,
      );
    });
  },
});

const planRestoreToTime = tool({
  name: 'plan_restore_to_time',
  title: 'Plan restoring a store to a time',
  description:
    'Plans putting a data store (one scope or all; optionally only keys with a prefix, or the keys given) back as ' +
    'it was at a time: changed keys written back, deleted ones re-created, created ones deleted. WRITES NOTHING: ' +
    'it compares and writes a plan, each action conditioned on the version seen now. compare_with_time shows the ' +
    'same keys first. Returns the planId for apply_plan.',
  kind: 'plan',
  input: z.object({
    universe: universeField,
    store: storeField,
    scope: scopeField,
    allScopes: about(z.optional(z.boolean()), 'every scope instead of one'),
    prefix: about(z.optional(z.string()), 'only keys that start with this'),
    keys: about(z.optional(z.array(z.string().check(z.minLength(1)))), 'only these keys (of the scope)'),
    time: timeField('the time to put the store back to'),
  }),
  async run({ universe, store, scope, allScopes, prefix, keys, time: typed }, ctx) {
    if (allScopes && scope !== undefined) throw new ToolError('scope and allScopes go apart: give one of them');
    const time = momentOf(typed, 'time');
    const client = await ctx.client(universe);
    const where = `${store} (${allScopes ? 'all scopes' : `scope ${scope ?? 'global'}`}) of universe ${universe}`;
    return named(`cannot plan the restore of ${where} to ${time.toISOString()}`, async () => {
      await requireStore(client, universe, store, ctx.signal);
      const folder = await newPlan(ctx.plansDir, 'restore_to_time');
      const file = path.join(folder.dir, 'part-1.ndjson');
      const selection = { universeId: universe, datastoreName: store, scope, allScopes, prefix, keys };
      const plan = await planRestore(client, selection, time, file, { signal: ctx.signal, now: new Date() });
      const summary = `put ${where}${prefix ? ` (keys starting ${JSON.stringify(prefix)})` : ''} back to ${time.toISOString()}`;
      return planned(ctx, folder, 'restore_to_time', universe, summary, [{ store, file, plan }]);
    });
  },
});

const planCopyDifferences = tool({
  name: 'plan_copy_differences',
  title: 'Plan copying differences between stores',
  description:
    "Plans making a target data store hold a source store's entries: keys that differ are written with the " +
    "source's value, keys only the source has are created, keys only the target has are deleted only with " +
    'deleteExtra. Source and target may be in two universes. WRITES NOTHING: each action is conditioned on the ' +
    "target's version seen now. Returns the planId for apply_plan.",
  kind: 'plan',
  input: z.object({
    universe: about(universeField, 'the universe of the source store'),
    store: about(storeField, 'the source store'),
    scope: about(scopeField, 'the scope of both stores (default "global")'),
    targetUniverse: about(
      z.optional(z.string().check(z.regex(/^\d{1,19}$/))),
      'the target universe (default: the same)',
    ),
    targetStore: about(storeField, 'the target store'),
    deleteExtra: about(z.optional(z.boolean()), "delete the target's keys the source does not have (default false)"),
  }),
  async run({ universe, store, scope = 'global', targetUniverse = universe, targetStore, deleteExtra }, ctx) {
    if (targetUniverse === universe && targetStore === store) {
      throw new ToolError('the source and the target are the same store: name another targetStore or targetUniverse');
    }
    const [client, targetClient] = [await ctx.client(universe), await ctx.client(targetUniverse)];
    const from = `${store} (scope ${scope}) of universe ${universe}`;
    const to = `${targetStore} of universe ${targetUniverse}`;
    return named(`cannot plan the copy of ${from} to ${to}`, async () => {
      await requireStore(client, universe, store, ctx.signal);
      const folder = await newPlan(ctx.plansDir, 'copy_differences');
      const file = path.join(folder.dir, 'part-1.ndjson');
      const plan = await planCopy(
        { client, universeId: universe, datastoreName: store, scope },
        { client: targetClient, universeId: targetUniverse, datastoreName: targetStore, scope },
        file,
        { signal: ctx.signal, deleteExtra },
      );
      const summary = `copy the differences of ${from} to ${to}${deleteExtra ? ', deleting keys the source lacks' : ''}`;
      return planned(ctx, folder, 'copy_differences', targetUniverse, summary, [{ store: targetStore, file, plan }], {
        extra: plan.extra,
      });
    });
  },
});

const idsOf = (cell: unknown): number[] => (Array.isArray(cell) ? cell.map(Number) : []);

const planErasePlayer = tool({
  name: 'plan_erase_player',
  title: "Plan erasing a player's data",
  description:
    "Plans erasing one user's data (right to be forgotten) in every store the universe's query index holds: entries " +
    'tied to the user alone (the key names the id, or the user ids are only theirs) are deleted, entries shared ' +
    'with other users keep everything but the id. WRITES NOTHING: each entry is read from the service and every ' +
    'action conditioned on that version; stores not in the index are not searched (show_player lists the index). ' +
    'Returns the planId for apply_plan.',
  kind: 'plan',
  input: z.object({ universe: universeField, user: userField }),
  async run({ universe, user }, ctx) {
    const userId = Number(user);
    const client = await ctx.client(universe);
    const index = await ctx.index(universe);
    const [found, parts] = await Promise.all([
      index.playerEntries(user, { signal: ctx.signal, limit: Number.MAX_SAFE_INTEGER }),
      index.info(),
    ]);
    const col = (name: string) => found.columns.findIndex((c) => c.name === name);
    const [s, sc, k, ids] = ['store', 'scope', 'key', 'user_ids'].map(col);
    const byStore = new Map<string, EntryKey[]>();
    for (const r of found.rows) {
      if (!playerTie(String(r[k]), idsOf(r[ids]), userId)) continue;
      const store = String(r[s]);
      byStore.set(store, [...(byStore.get(store) ?? []), { scope: String(r[sc]), key: String(r[k]) }]);
    }
    const indexed = [...new Set(parts.map((p) => p.store))];
    if (!byStore.size) {
      throw new ToolError(
        `the query index of universe ${universe} ties no entry to user ${user} (stores indexed: ${indexed.join(', ') || 'none'}): ` +
          'nothing to erase; rebuild the index if the entries were written since it was built',
      );
    }
    return named(`cannot plan the erase of user ${user} in universe ${universe}`, async () => {
      const folder = await newPlan(ctx.plansDir, 'erase_player');
      const stores = [...byStore.keys()].map((datastoreName) => ({ universeId: universe, datastoreName }));
      const planParts: { store: string; file: string; plan: RestorePlanSummary }[] = [];
      let left = 0;
      for (const [i, store] of stores.entries()) {
        const file = path.join(folder.dir, `part-${i + 1}.ndjson`);
        const plan = await planErase(client, store, userId, byStore.get(store.datastoreName)!, file, {
          signal: ctx.signal,
          stores,
        });
        left += plan.left.length;
        planParts.push({ store: store.datastoreName, file, plan });
      }
      const summary = `erase the data of user ${user} in ${stores.map((x) => x.datastoreName).join(', ')} of universe ${universe}`;
      return planned(ctx, folder, 'erase_player', universe, summary, planParts, {
        searched: indexed,
        leftOut: left,
      });
    });
  },
});

export const PLAN_ENTRY_TOOLS: Tool[] = [
  planSetEntry,
  planDeleteEntry,
  planRestoreToTime,
  planCopyDifferences,
  planErasePlayer,
];
