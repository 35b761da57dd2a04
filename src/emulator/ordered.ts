// Cloud v2 ordered data stores (open-api-ordered-memory.md, section 2, decisions of section 9): entries holding one
// integer each, no versions, metadata or etags, at `ordered-data-stores/{store}/scopes/{scope}/entries`.
// - Store, scope and entry id: 1 to 50 UTF-8 bytes (U20), each path segment percent-decoded once.
// - Values are kept as integers of any size. A written value is rounded half away from zero and must be within
//   +-2^53 (else 400); an increment adds integers only (else 400) and stores the exact sum, answering it clamped to
//   +-2^53 (U19). Increment without `amount` adds 1 and creates a missing entry (U22).
// - Create on an existing id: 400 "Entry already exists."; Get, Update without allowMissing (or allow_missing, U24)
//   and Delete of a missing id: 404 (U21). Delete answers {}.
// - List: by value, ascending unless orderBy is "value desc" (also empty, asc, desc, value, value asc, any case, U9);
//   equal values by id, reversed for desc (U23). maxPageSize default 10, at most 100, 0 the default, negative 400
//   (U26). filter: `entry >= N`, `entry <= N` or both joined by ` && `, one space between tokens, integer bounds,
//   inclusive, min not above max; anything else 400. A page token holds the last entry's place and is bound to the
//   other parameters.
import { invalid, ApiError } from './errors';
import { readObject } from './datastores-v2-shapes';
import { sendJson, type Ctx, type Route } from './http';
import { flag, pageSize, text } from './params';
import { RATES, type RateRule } from './ratelimit';
import { compareKeys } from './records';

const ENTRIES = '/cloud/v2/universes/{universeId}/ordered-data-stores/{store+}/scopes/{scope+}/entries';
const SCOPE = 'universe.ordered-data-store.scope.entry:';
const NAME_MAX_BYTES = 50;
const LIMIT = 2n ** 53n;

interface Where {
  store: string;
  scope: string;
}

function segment(ctx: Ctx, param: string, what: string): string {
  let v: string;
  try {
    v = decodeURIComponent(ctx.rawParams[param]);
  } catch {
    throw invalid(`The ${what} in the path is not correctly percent-encoded.`);
  }
  return checkName(v, what);
}

function checkName(v: string, what: string): string {
  if (v === '' || Buffer.byteLength(v) > NAME_MAX_BYTES)
    throw invalid(`The ${what} must be 1 to ${NAME_MAX_BYTES} bytes long.`);
  return v;
}

const where = (ctx: Ctx): Where => ({
  store: segment(ctx, 'store', 'ordered data store name'),
  scope: segment(ctx, 'scope', 'scope'),
});

const entriesOf = (ctx: Ctx, w: Where): Map<string, bigint> | undefined =>
  ctx.app.store.universes.get(ctx.universeId)?.ordered.get(w.store)?.get(w.scope);

const clamp = (v: bigint): number => Number(v > LIMIT ? LIMIT : v < -LIMIT ? -LIMIT : v);

const render = (ctx: Ctx, w: Where, id: string, v: bigint): Record<string, unknown> => ({
  path: `universes/${ctx.universeId}/ordered-data-stores/${w.store}/scopes/${w.scope}/entries/${id}`,
  value: clamp(v),
  id,
});

/** A written value: a number rounded half away from zero, within +-2^53. */
function parseValue(v: unknown): bigint {
  if (typeof v !== 'number' || !Number.isFinite(v)) throw invalid('value is required and must be a number.');
  const rounded = Math.sign(v) * Math.round(Math.abs(v));
  if (Math.abs(rounded) > Number(LIMIT)) throw invalid('value must be within -2^53 and 2^53.');
  return BigInt(rounded);
}

function put(ctx: Ctx, w: Where, key: string, v: bigint | undefined): void {
  ctx.app.store.commit([{ t: 'od', u: ctx.universeId, ...w, key, v: v?.toString() }]);
}

const notFound = (): ApiError => new ApiError(404, 'Entry not found.');

interface Bounds {
  min?: bigint;
  max?: bigint;
}

function parseFilter(filter: string): Bounds {
  const bounds: Bounds = {};
  if (filter === '') return bounds;
  const bad = (): never => {
    throw invalid('The filter is invalid: use "entry >= N", "entry <= N" or both joined by " && ", N an integer.');
  };
  const parts = filter.split(' && ');
  if (parts.length > 2) bad();
  for (const part of parts) {
    const m = /^entry (<=|>=) (-?\d{1,30})$/.exec(part) ?? bad();
    const side = m[1] === '>=' ? 'min' : 'max';
    if (bounds[side] !== undefined) bad();
    bounds[side] = BigInt(m[2]);
  }
  if (bounds.min !== undefined && bounds.max !== undefined && bounds.min > bounds.max)
    throw invalid('The filter is invalid: its minimum is above its maximum.');
  return bounds;
}

function descending(ctx: Ctx): boolean {
  const orderBy = text(ctx, 'orderBy', { allowEmpty: true, aliases: ['order_by'] }) ?? '';
  const m = /^\s*(?:value(?:\s+(asc|desc))?|(asc|desc))?\s*$/i.exec(orderBy);
  if (!m) throw invalid('orderBy must be empty, "value" or "value desc".');
  return (m[1] ?? m[2] ?? '').toLowerCase() === 'desc';
}

type Place = [id: string, v: bigint];

const compare = (a: Place, b: Place): number => (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : compareKeys(a[0], b[0]));

function list(ctx: Ctx): void {
  const w = where(ctx);
  const size = pageSize(ctx, 'maxPageSize', {
    fallback: 10,
    max: 100,
    zeroIsDefault: true,
    aliases: ['max_page_size'],
  });
  const desc = descending(ctx);
  const filter = text(ctx, 'filter', { allowEmpty: true }) ?? '';
  const { min, max } = parseFilter(filter);
  const binding = [ctx.universeId, w.store, w.scope, desc, filter, size];
  const token = text(ctx, 'pageToken', { allowEmpty: true, aliases: ['page_token'] });
  let after: Place | undefined;
  if (token) {
    const p = ctx.app.tokens.read(token, 'ordered', binding) as [string, string] | undefined;
    if (!p) throw invalid('The page token is invalid, or was issued for other parameters.');
    after = [p[0], BigInt(p[1])];
  }
  const places = [...(entriesOf(ctx, w) ?? [])]
    .filter(
      (p) =>
        (min === undefined || p[1] >= min) &&
        (max === undefined || p[1] <= max) &&
        (!after || (desc ? compare(p, after) < 0 : compare(p, after) > 0)),
    )
    .sort((a, b) => (desc ? compare(b, a) : compare(a, b)));
  const page = places.slice(0, size);
  const last = page[page.length - 1];
  sendJson(ctx, 200, {
    orderedDataStoreEntries: page.map(([id, v]) => render(ctx, w, id, v)),
    ...(places.length > size && {
      nextPageToken: ctx.app.tokens.issue('ordered', binding, [last[0], last[1].toString()]),
    }),
  });
}

async function create(ctx: Ctx): Promise<void> {
  const w = where(ctx);
  const id = checkName(text(ctx, 'id', { required: true })!, 'entry id');
  const value = parseValue((await readObject(ctx)).value);
  if (entriesOf(ctx, w)?.has(id)) throw invalid('Entry already exists.');
  put(ctx, w, id, value);
  sendJson(ctx, 200, render(ctx, w, id, value));
}

const entryId = (ctx: Ctx): string => segment(ctx, 'entry', 'entry id');

function get(ctx: Ctx): void {
  const w = where(ctx);
  const id = entryId(ctx);
  const v = entriesOf(ctx, w)?.get(id);
  if (v === undefined) throw notFound();
  sendJson(ctx, 200, render(ctx, w, id, v));
}

async function update(ctx: Ctx): Promise<void> {
  const w = where(ctx);
  const id = entryId(ctx);
  const allowMissing = flag(ctx, 'allowMissing', { aliases: ['allow_missing'] });
  const value = parseValue((await readObject(ctx)).value);
  if (!allowMissing && !entriesOf(ctx, w)?.has(id)) throw notFound();
  put(ctx, w, id, value);
  sendJson(ctx, 200, render(ctx, w, id, value));
}

async function increment(ctx: Ctx): Promise<void> {
  const w = where(ctx);
  const id = entryId(ctx);
  const amount = (await readObject(ctx)).amount ?? 1;
  if (!Number.isInteger(amount) || Math.abs(amount as number) > Number(LIMIT))
    throw invalid('amount must be a whole number within -2^53 and 2^53.');
  const value = (entriesOf(ctx, w)?.get(id) ?? 0n) + BigInt(amount as number);
  put(ctx, w, id, value);
  sendJson(ctx, 200, render(ctx, w, id, value));
}

function remove(ctx: Ctx): void {
  const w = where(ctx);
  const id = entryId(ctx);
  if (!entriesOf(ctx, w)?.has(id)) throw notFound();
  put(ctx, w, id, undefined);
  sendJson(ctx, 200, {});
}

const route = (method: string, path: string, handle: Route['handle'], rate: RateRule, access: string): Route => ({
  method,
  path: ENTRIES + path,
  family: 'v2',
  scopes: [SCOPE + access],
  rate: [rate],
  handle,
});

/** Increment first, so that `k:increment` is not read as an id. */
export const orderedRoutes: Route[] = [
  route('POST', '/{entry+}:increment', increment, RATES.odWrite, 'write'),
  route('GET', '/{entry+}', get, RATES.odRead, 'read'),
  route('PATCH', '/{entry+}', update, RATES.odWrite, 'write'),
  route('DELETE', '/{entry+}', remove, RATES.odRemove, 'write'),
  route('GET', '', list, RATES.odList, 'read'),
  route('POST', '', create, RATES.odWrite, 'write'),
];
