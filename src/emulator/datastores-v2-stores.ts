// Cloud v2 data stores as a whole (docs/SERVICE.md, "Cloud v2 differences"): List Data Stores, Delete, Undelete and
// Snapshot.
// - Delete marks the store DELETED with expireTime 30 days on (the emulator's clock); deleting it again returns it
//   unchanged. Its entries stay stored but every entry call of v1 and v2 is 404 until Undelete; at expireTime the
//   store and its entries are purged and the name is free again. Undelete of an active store is a no-op; of a
//   purged or unknown one 404 (U18).
// - List Data Stores hides deleted stores unless showDeleted=true; without it a page examines at most 512 stores
//   and may come back short or empty with a token (docs/SERVICE.md, "Paging cursors").
// - Snapshot: at most one per UTC day per universe; a second call that day answers newSnapshotTaken false and the
//   earlier time. What was current at a snapshot survives the hourly thinning (retention.ts).
import {
  idPrefix,
  MAX_SCAN,
  maxPageSize,
  readObject,
  readPageToken,
  renderStore,
  showDeleted,
  storeName,
  V2_BASE,
  V2_SCOPE,
} from './datastores-v2-shapes';
import { iso } from './clock';
import { ApiError } from './errors';
import { sendJson, type Ctx, type Route } from './http';
import { RATES, type RateRule } from './ratelimit';
import { compareKeys, lowerBound, type StoreRec } from './records';
import { KEEP_MS } from './retention';

const DAY_MS = 24 * 60 * 60 * 1000;

function listStores(ctx: Ctx): void {
  const prefix = idPrefix(ctx);
  const deleted = showDeleted(ctx);
  const size = maxPageSize(ctx, 100);
  const binding = [ctx.universeId, prefix, deleted, size];
  const after = readPageToken(ctx, 'v2stores', binding) as string | undefined;
  const u = ctx.app.store.universes.get(ctx.universeId);
  const names = u?.storeNames ?? [];
  const now = ctx.app.clock.now();
  let i = lowerBound(names, after !== undefined && compareKeys(after, prefix) >= 0 ? after : prefix);
  if (names[i] === after) i++;
  const page: StoreRec[] = [];
  let last: string | undefined;
  let more = false;
  for (let scanned = 0; i < names.length && names[i].startsWith(prefix); i++) {
    if (page.length === size || (!deleted && scanned === MAX_SCAN)) {
      more = true;
      break;
    }
    scanned++;
    last = names[i];
    const store = u!.stores.get(names[i])!;
    // A store past its expireTime is gone, even before sweep() has purged it.
    if (store.deletedAt === undefined || (deleted && now - store.deletedAt < KEEP_MS)) page.push(store);
  }
  sendJson(ctx, 200, {
    dataStores: page.map((s) => renderStore(ctx.universeId, s)),
    ...(more && { nextPageToken: ctx.app.tokens.issue('v2stores', binding, last) }),
  });
}

/** The store named in the path, deleted or not; 404 when there is none (or it was purged). */
function existing(ctx: Ctx): StoreRec {
  const store = ctx.app.store.dataStore(ctx.universeId, storeName(ctx));
  if (!store) throw new ApiError(404, 'Data store not found.');
  return store;
}

function deleteStore(ctx: Ctx): void {
  const store = existing(ctx);
  if (store.deletedAt === undefined) {
    const deletedAt = ctx.app.clock.now();
    ctx.app.store.commit([{ t: 'dstate', u: ctx.universeId, store: store.name, deletedAt }]);
  }
  sendJson(ctx, 200, renderStore(ctx.universeId, store));
}

async function undeleteStore(ctx: Ctx): Promise<void> {
  const store = existing(ctx);
  await readObject(ctx);
  if (store.deletedAt !== undefined) ctx.app.store.commit([{ t: 'dstate', u: ctx.universeId, store: store.name }]);
  sendJson(ctx, 200, renderStore(ctx.universeId, store));
}

async function snapshot(ctx: Ctx): Promise<void> {
  await readObject(ctx);
  const now = ctx.app.clock.now();
  const snapshots = ctx.app.store.universes.get(ctx.universeId)?.snapshots ?? [];
  const latest = snapshots[snapshots.length - 1];
  const taken = latest === undefined || Math.floor(latest.at / DAY_MS) !== Math.floor(now / DAY_MS);
  if (taken) {
    ctx.app.store.commit([{ t: 'snapshot', u: ctx.universeId, snap: { at: now, seq: ctx.app.store.seq } }]);
  }
  sendJson(ctx, 200, {
    newSnapshotTaken: taken,
    latestSnapshotTime: iso(taken ? now : latest.at),
  });
}

const route = (method: string, path: string, handle: Route['handle'], rate: RateRule, scope: string): Route => ({
  method,
  path: V2_BASE + path,
  family: 'ds2',
  scopes: [V2_SCOPE + scope],
  rate: [rate],
  handle,
});

export const v2StoreRoutes: Route[] = [
  route('GET', '', listStores, RATES.v2List, 'control:list'),
  route('POST', ':snapshot', snapshot, RATES.v2Snapshot, 'control:snapshot'),
  route('POST', '/{ds+}:undelete', undeleteStore, RATES.v2Remove, 'control:delete'),
  route('DELETE', '/{ds+}', deleteStore, RATES.v2Remove, 'control:delete'),
];
