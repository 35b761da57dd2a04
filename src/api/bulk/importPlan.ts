// The dry run of an import: what importDataStore would do with each line of a file, without writing anything, for
// review before the import runs. Lines are read as the import reads them (readImportLine). Which keys exist comes
// from listing each scope the file names, once, when its first line is met: a listing costs a request per page of
// keys, where a read would cost one per key. Only those key sets are kept; the file is streamed.
//
// A deleted key counts as absent, as for the import (a create-only set revives a tombstone; docs/SERVICE.md,
// "Versions and deletion"). Cloud v2 lists live keys only, so through v2 a listing is the answer. v1 lists deleted
// keys too and does not mark them, so through v1 (and for a store or scope name v2 cannot address) a listed key the
// file names is checked: one List Entry Versions request (newest, one item) each.
import type { OpenApiClient } from '../client';
import type { EntryKey } from '../datastores';
import { V2_BUDGET } from '../datastoresV2Wire';
import type { ApiVersion } from '../entryService';
import { NeedsV1Error } from '../errors';
import type { Page } from '../paging';
import { isRecord } from '../schemas';
import { newestVersions } from '../timeMachine/at';
import { linesFrom, readImportLine, type ImportMode } from './import';
import { readLines, type ExportHeader, type Line } from './ndjson';
import { bulkRun, Progress, type BulkOptions } from './progress';
import { pagesAhead } from './scheduler';

/** The store an import writes into. */
export interface ImportPlanStore {
  universeId: number | string;
  datastoreName: string;
  /**
   * The data stores API to list keys through (default v1, as the import's connection may speak only v1). Through v2
   * the listing leaves deleted keys out; through v1 each listed key the file names is checked one by one.
   */
  api?: ApiVersion;
}

/**
 * What the import would do with a line: write a key that has no live value (`create`), replace a live value
 * (`overwrite`), leave a live key alone in create-only mode (`skip`), or refuse the line (`invalid`).
 */
export type ImportAction = 'create' | 'overwrite' | 'skip' | 'invalid';

export interface ImportPlanAction {
  /** 1-based, as in the file (and in the import's failures file). */
  line: number;
  /** The line's scope and key; for an invalid line, what of them it holds ("" when none). */
  scope: string;
  key: string;
  action: ImportAction;
  /** The UTF-8 bytes of the value the line holds, as the import sends it; 0 for an invalid line. */
  bytes: number;
  /** `skip`: "exists"; `invalid`: the import's error for the line. */
  reason?: string;
}

export interface ImportPlanCounts {
  create: number;
  overwrite: number;
  skip: number;
  invalid: number;
  /** The bytes the import would write: the values of the lines to create or overwrite. */
  bytes: number;
}

export interface ImportPlan {
  mode: ImportMode;
  /** One per entry line, in file order; the export header and blank lines are no entries and have none. */
  actions: ImportPlanAction[];
  counts: ImportPlanCounts;
  /** The file's export header (where it was exported from), when it has one. */
  header?: ExportHeader;
  ms: number;
}

/** Keys per listing page: the most each API gives (export.ts asks the same). */
const PAGE = { v1: 100, v2: 256 };

/** A scope's listed keys; `unmarked`: listed through v1, so deleted keys are among them and look alike. */
interface ScopeKeys {
  keys: Set<string>;
  unmarked: boolean;
}

/** A line as read and looked up, before the plan decides what the import does with it in file order. */
type Looked =
  | { line: Line; header: ExportHeader }
  | { line: Line; error: string }
  | { line: Line; scope: string; key: string; bytes: number; live: boolean };

/**
 * What importDataStore(client, {...store, file, mode}) would do with each line of `file`, found by listing the keys
 * of each scope the file names; nothing is written. A key the plan creates counts as existing for later lines of the
 * same key, as it would in the import. Rejects when a listing fails, or with an AbortError when `opts.signal` aborts.
 */
export async function planImport(
  client: OpenApiClient,
  store: ImportPlanStore,
  file: string,
  mode: ImportMode,
  opts: BulkOptions<ImportPlanCounts> = {},
): Promise<ImportPlan> {
  return bulkRun(client, opts, async ({ signal, scheduler, map }) => {
    const { universeId, datastoreName } = store;
    const call = { signal };

    /** Every key the scope lists, page by page through the scheduler (one page asked for ahead). */
    const listScope = async (scope: string): Promise<ScopeKeys> => {
      const args = { universeId, datastoreName, scope };
      let first: Page<EntryKey> | undefined;
      if (store.api === 'v2') {
        first = await scheduler
          .run(() => client.datastoresV2.listEntries({ ...args, limit: PAGE.v2 }, call), V2_BUDGET.list)
          .catch((error: unknown) => {
            if (error instanceof NeedsV1Error) return undefined; // asked before anything was sent
            throw error;
          });
      }
      const unmarked = !first;
      first ??= await scheduler.run(() => client.datastores.listEntries({ ...args, limit: PAGE.v1 }, call));
      const keys = new Set<string>();
      for await (const items of pagesAhead(scheduler, first, unmarked ? undefined : V2_BUDGET.list)) {
        for (const k of items) keys.add(k.key);
      }
      return { keys, unmarked };
    };
    const scopes = new Map<string, Promise<ScopeKeys>>();
    const keysOf = (scope: string): Promise<ScopeKeys> => {
      let listed = scopes.get(scope);
      if (!listed) scopes.set(scope, (listed = listScope(scope)));
      return listed;
    };

    /** Whether a key v1 listed has a live value: its newest version is no deletion (none at all: purged since). */
    const isLive = async (scope: string, key: string): Promise<boolean> => {
      const [newest] = await scheduler.run(() =>
        newestVersions(client, { universeId, datastoreName, scope, key }, 1, undefined, call),
      );
      return newest !== undefined && !newest.deleted;
    };

    const look = async (line: Line): Promise<Looked> => {
      const read = readImportLine(line.text);
      if ('header' in read) return { line, header: read.header };
      if ('error' in read) return { line, error: read.error };
      const { scope, key, value } = read.entry;
      const listed = await keysOf(scope);
      const live = listed.keys.has(key) && (!listed.unmarked || (await isLive(scope, key)));
      return { line, scope, key, bytes: Buffer.byteLength(value), live };
    };

    const counts: ImportPlanCounts = { create: 0, overwrite: 0, skip: 0, invalid: 0, bytes: 0 };
    const progress = new Progress(counts, (c) => c.create + c.overwrite + c.skip + c.invalid, opts.onProgress);
    const actions: ImportPlanAction[] = [];
    /** Keys this plan creates: a later line of the same key finds it existing, as the import would. */
    const created = new Set<string>();
    let header: ExportHeader | undefined;
    for await (const run of map(linesFrom(readLines(file, signal), 1), look, { progress })) {
      for (const looked of run) {
        const { line } = looked;
        if ('header' in looked) {
          header ??= looked.header;
        } else if ('error' in looked) {
          actions.push({ line: line.number, ...namesIn(line.text), action: 'invalid', bytes: 0, reason: looked.error });
          counts.invalid++;
        } else {
          const { scope, key, bytes } = looked;
          const id = JSON.stringify([scope, key]);
          const exists = looked.live || created.has(id);
          const action = !exists ? 'create' : mode === 'overwrite' ? 'overwrite' : 'skip';
          if (action === 'skip') actions.push({ line: line.number, scope, key, action, bytes, reason: 'exists' });
          else {
            actions.push({ line: line.number, scope, key, action, bytes });
            counts.bytes += bytes;
          }
          if (action === 'create') created.add(id);
          counts[action]++;
        }
      }
    }
    return { mode, actions, counts, header, ms: progress.end() };
  });
}

/** The scope and key an invalid line names, as far as it is a JSON object that holds them as strings. */
function namesIn(text: string): { scope: string; key: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { scope: '', key: '' };
  }
  if (!isRecord(parsed)) return { scope: '', key: '' };
  const { scope = 'global', key } = parsed;
  return { scope: typeof scope === 'string' ? scope : '', key: typeof key === 'string' ? key : '' };
}
