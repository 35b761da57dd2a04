// Memory-store sorted maps (open-api-ordered-memory.md, section 3, decisions of section 9):
// - Map order: items with a numeric sort key (by number), then a string one (UTF-8 byte order), then none; equal sort
//   keys, and items without one, by id. Descending is the exact reverse. orderBy: empty, asc, desc, id or sortKey,
//   optionally followed by asc or desc, in any case (U9); the order is the map order whatever the field.
// - filter: `id` and `sortKey` against a double-quoted string or a number, with `<`, `>` and `&&`, each bound at most
//   once; bounds are exclusive. A side (lower or upper) holding both fields is one bound on (sort key, id) in map
//   order; `sortKey` alone compares sort keys in map order (numbers < strings < none); `id` alone compares ids (U8).
// - maxPageSize defaults to 1 (as the service does), at most 100; 0 is the default, negative 400. A token holds the
//   last item's position, so it stays valid while items change, and is bound to the map, order, filter and size.
//   An empty page leaves `items` out.
// - Create on a live id: 409 ALREADY_EXISTS (U10). Update replaces the item: a sort key left out is cleared, a ttl
//   left out is 45 days (U6, U7); without allowMissing a missing item is 404. Delete of a missing item: 200 (U11). An
//   etag (`?etag=`, or `etag` in an Update body) that is not the item's, or given for a missing item, is 409 ABORTED.
// - etag: a per-map counter, a decimal string, new on every write (U12). Expired items are gone from every call.
// - Get's path says `memory-stores` (U13), unless the setting memoryWire is `spec`.
import { iso } from './clock';
import { ApiError, invalid } from './errors';
import { send, sendJson, type Ctx, type Route } from './http';
import {
  itemPath,
  jsonText,
  MAX_KEY_CHARS,
  MAX_SECONDS,
  memoryOf,
  memoryRoute,
  parseDuration,
  readFields,
  SCOPES,
  structureName,
} from './memory-common';
import { checkMapWrite } from './memory-quota';
import type { MapItem } from './memory-records';
import { flag, pageSize, text } from './params';
import { compareKeys } from './records';

type SortKey = number | string | undefined;

const rank = (k: SortKey): number => (typeof k === 'number' ? 0 : typeof k === 'string' ? 1 : 2);

function compareSortKeys(a: SortKey, b: SortKey): number {
  const d = rank(a) - rank(b);
  if (d !== 0) return d;
  if (typeof a === 'number') return Math.sign(a - (b as number));
  return typeof a === 'string' ? compareKeys(a, b as string) : 0;
}

/** Where an item stands in map order: its sort key, then its id. */
interface Position {
  sortKey?: number | string;
  id: string;
}

const compareItems = (a: Position, b: Position): number =>
  compareSortKeys(a.sortKey, b.sortKey) || compareKeys(a.id, b.id);

interface Side {
  id?: string;
  sortKey?: number | string;
  /** Whether `sortKey` was given (a bound may be any sort key). */
  hasSortKey: boolean;
}

/** The filter's lower (`>`) and upper (`<`) sides. */
function parseFilter(filter: string): { lower: Side; upper: Side } {
  const lower: Side = { hasSortKey: false };
  const upper: Side = { hasSortKey: false };
  const bad = (): never => {
    throw invalid('The filter is invalid: use id or sortKey with < or > and a "string" or a number, joined by &&.');
  };
  const clause = /\s*(id|sortKey)\s*([<>])\s*("(?:[^"\\]|\\.)*"|-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)\s*(&&|$)/y;
  for (let at = 0, more = true; more;) {
    clause.lastIndex = at;
    const m = clause.exec(filter) ?? bad();
    const [, field, op, literal, join] = m;
    at = clause.lastIndex;
    more = join === '&&';
    let value: number | string;
    try {
      value = JSON.parse(literal) as number | string;
    } catch {
      return bad();
    }
    const side = op === '>' ? lower : upper;
    if (field === 'id') {
      if (typeof value !== 'string' || side.id !== undefined) bad();
      side.id = value as string;
    } else {
      if (side.hasSortKey || (typeof value === 'number' && !Number.isFinite(value))) bad();
      side.sortKey = value;
      side.hasSortKey = true;
    }
  }
  return { lower, upper };
}

/** Where `item` stands against a side: its sign is the item's place relative to the bound. */
function against(item: MapItem, side: Side): number | undefined {
  if (side.hasSortKey && side.id !== undefined) return compareItems(item, { sortKey: side.sortKey, id: side.id });
  if (side.hasSortKey) return compareSortKeys(item.sortKey, side.sortKey);
  if (side.id !== undefined) return compareKeys(item.id, side.id);
  return undefined;
}

function descending(ctx: Ctx): boolean {
  const orderBy = text(ctx, 'orderBy', { allowEmpty: true, aliases: ['order_by'] }) ?? '';
  const m = /^\s*(?:(?:id|sortkey)(?:\s+(asc|desc))?|(asc|desc))?\s*$/i.exec(orderBy);
  if (!m) throw invalid('orderBy must be empty, "asc", "desc", or "id" or "sortKey" followed by asc or desc.');
  return (m[1] ?? m[2] ?? '').toLowerCase() === 'desc';
}

function render(ctx: Ctx, map: string, item: MapItem, plural = false): Record<string, unknown> {
  return {
    path: itemPath(ctx.universeId, 'sorted-maps', map, item.id, plural),
    value: JSON.parse(item.value),
    etag: String(item.etag),
    expireTime: iso(item.expireAt),
    id: item.id,
    ...(typeof item.sortKey === 'number' && { numericSortKey: item.sortKey }),
    ...(typeof item.sortKey === 'string' && { stringSortKey: item.sortKey }),
  };
}

function list(ctx: Ctx): void {
  const name = structureName(ctx, 'map', 'sorted map name');
  const size = pageSize(ctx, 'maxPageSize', { fallback: 1, max: 100, zeroIsDefault: true, aliases: ['max_page_size'] });
  const desc = descending(ctx);
  const filter = text(ctx, 'filter', { allowEmpty: true }) ?? '';
  const { lower, upper } = filter.trim() === '' ? { lower: undefined, upper: undefined } : parseFilter(filter);
  const binding = [ctx.universeId, name, desc, filter, size];
  const token = text(ctx, 'pageToken', { allowEmpty: true, aliases: ['page_token'] });
  let after: Position | undefined;
  if (token) {
    after = ctx.app.tokens.read(token, 'sorted-map', binding) as Position | undefined;
    if (!after) throw invalid('The page token is invalid, or was issued for other parameters.');
  }
  const items = [...(memoryOf(ctx).maps.get(name)?.items.values() ?? [])]
    .filter(
      (item) =>
        (!lower || (against(item, lower) ?? 1) > 0) &&
        (!upper || (against(item, upper) ?? -1) < 0) &&
        (!after || (desc ? compareItems(item, after) < 0 : compareItems(item, after) > 0)),
    )
    .sort((a, b) => (desc ? compareItems(b, a) : compareItems(a, b)));
  const page = items.slice(0, size);
  const last = page[page.length - 1];
  sendJson(ctx, 200, {
    ...(page.length > 0 && { items: page.map((item) => render(ctx, name, item)) }),
    ...(items.length > size && {
      nextPageToken: ctx.app.tokens.issue('sorted-map', binding, { sortKey: last.sortKey, id: last.id }),
    }),
  });
}

function checkId(id: string): string {
  const chars = [...id].length;
  if (chars < 1 || chars > MAX_KEY_CHARS) throw invalid(`The item id must be 1 to ${MAX_KEY_CHARS} characters long.`);
  return id;
}

const pathId = (ctx: Ctx): string => checkId(structureName(ctx, 'item', 'item id'));

interface ItemWrite {
  value: string;
  sortKey: SortKey;
  ttlMs: number;
  etag?: string;
}

function parseItem(field: (name: string) => unknown): ItemWrite {
  const value = field('value');
  if (value === undefined) throw invalid('value is required.');
  const numeric = field('numericSortKey') ?? undefined;
  const word = field('stringSortKey') ?? undefined;
  if (numeric !== undefined && word !== undefined)
    throw invalid('Give at most one sort key: numericSortKey or stringSortKey.');
  if (numeric !== undefined && !(typeof numeric === 'number' && Number.isFinite(numeric)))
    throw invalid('numericSortKey must be a number.');
  if (word !== undefined && !(typeof word === 'string' && [...word].length <= MAX_KEY_CHARS))
    throw invalid(`stringSortKey must be a string of at most ${MAX_KEY_CHARS} characters.`);
  const ttl = field('ttl');
  const etag = field('etag') ?? undefined;
  if (etag !== undefined && typeof etag !== 'string') throw invalid('etag must be a string.');
  return {
    value: jsonText(value, 'value'),
    sortKey: (numeric ?? word) as SortKey,
    ttlMs: ttl === undefined ? MAX_SECONDS * 1000 : parseDuration(ttl, 'ttl'),
    etag,
  };
}

/** Writes the item, charging the quota; returns what is stored. */
function write(ctx: Ctx, name: string, id: string, w: ItemWrite, before: MapItem | undefined): MapItem {
  const map = memoryOf(ctx).maps.get(name);
  const item: MapItem = {
    id,
    value: w.value,
    ...(w.sortKey !== undefined && { sortKey: w.sortKey }),
    expireAt: ctx.app.clock.now() + w.ttlMs,
    etag: (map?.etag ?? 0) + 1,
  };
  checkMapWrite(ctx, map?.items.values() ?? [], before, item);
  ctx.app.store.commit([{ t: 'mi', u: ctx.universeId, map: name, id, item }]);
  return item;
}

const notFound = (): ApiError => new ApiError(404, 'Sorted map item not found.');

/** 409 ABORTED when an etag was given and the item is missing or has another one (U11). */
function checkEtag(etag: string | undefined, item: MapItem | undefined): void {
  if (etag !== undefined && etag !== String(item?.etag))
    throw new ApiError(409, 'The item has been changed or removed since that etag; read it again.');
}

async function create(ctx: Ctx): Promise<void> {
  const name = structureName(ctx, 'map', 'sorted map name');
  const field = await readFields(ctx);
  const given = text(ctx, 'id', {}) ?? field('id');
  if (typeof given !== 'string') throw invalid("Query parameter 'id' is required.");
  const id = checkId(given);
  const w = parseItem(field);
  if (memoryOf(ctx).maps.get(name)?.items.has(id)) {
    const err = new ApiError(409, 'Item already exists.');
    err.v2Code = 'ALREADY_EXISTS';
    throw err;
  }
  sendJson(ctx, 200, render(ctx, name, write(ctx, name, id, w, undefined)));
}

function get(ctx: Ctx): void {
  const name = structureName(ctx, 'map', 'sorted map name');
  const item = memoryOf(ctx).maps.get(name)?.items.get(pathId(ctx));
  if (!item) throw notFound();
  sendJson(ctx, 200, render(ctx, name, item, ctx.app.memoryWire !== 'spec'));
}

async function update(ctx: Ctx): Promise<void> {
  const name = structureName(ctx, 'map', 'sorted map name');
  const id = pathId(ctx);
  const allowMissing = flag(ctx, 'allowMissing', { aliases: ['allow_missing'] });
  const w = parseItem(await readFields(ctx));
  const before = memoryOf(ctx).maps.get(name)?.items.get(id);
  checkEtag(text(ctx, 'etag', {}) ?? w.etag, before);
  if (!before && !allowMissing) throw notFound();
  sendJson(ctx, 200, render(ctx, name, write(ctx, name, id, w, before)));
}

function remove(ctx: Ctx): void {
  const name = structureName(ctx, 'map', 'sorted map name');
  const id = pathId(ctx);
  const before = memoryOf(ctx).maps.get(name)?.items.get(id);
  checkEtag(text(ctx, 'etag', {}), before);
  if (before) ctx.app.store.commit([{ t: 'mi', u: ctx.universeId, map: name, id }]);
  send(ctx, 200, { 'content-length': '0' });
}

const ITEMS = 'memory-store/sorted-maps/{map+}/items';

export const sortedMapRoutes: Route[] = [
  memoryRoute('GET', ITEMS, list, SCOPES.mapRead),
  memoryRoute('POST', ITEMS, create, SCOPES.mapWrite),
  memoryRoute('GET', `${ITEMS}/{item+}`, get, SCOPES.mapRead),
  memoryRoute('PATCH', `${ITEMS}/{item+}`, update, SCOPES.mapWrite),
  memoryRoute('DELETE', `${ITEMS}/{item+}`, remove, SCOPES.mapWrite),
];
