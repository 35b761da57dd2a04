// Assets v1 (docs/SERVICE.md, "Assets and operations"). Decisions where the documentation is silent:
// - Errors are {code, message} with the numeric gRPC code (see errors.ts).
// - Moderation is decided from the display name when a version is created: "[reject]" in it gives Rejected,
//   "[review]" gives Reviewing, anything else Approved. It lets the UI show every state.
// - Create and Update answer an Operation that stays {done:false} until operationDelayMs has passed; then it holds
//   the Asset (with "@type") or, when the file's bytes do not fit its content type, an error {code:3, message:
//   "InvalidImage: ..."} and nothing was created or changed. The asset exists as soon as Create answers.
// - Update takes a file part for any asset type (the spec limits content updates to Models; the emulator does not)
//   and then creates a new version. It needs a request part whose assetId matches the path. Without updateMask the
//   fields present in the request are changed; with one, exactly the named fields (absent ones are cleared).
//   creationContext.expectedPrice is accepted and ignored: uploads cost nothing here.
// - Get without readMask returns every field; with one, only the named fields (an unknown name is 400).
// - Archive of an archived asset and Restore of an active one are 400.
// - Rollback accepts JSON {assetVersion} or a multipart field, creates version n+1 with the target's content and
//   moderation, and answers that new AssetVersion.
// - List Versions: newest first, maxPageSize default 8, larger values clamped to 50, nextPageToken absent at the end.
// - Writes need asset:read and asset:write; reads asset:read. Assets are not tied to a universe.
import { randomUUID } from 'node:crypto';
import { ASSET_TYPES, contentProblem } from './asset-content';
import { iso } from './clock';
import { ApiError, invalid } from './errors';
import { isObject, readBody, readJson, sendJson, type Ctx, type Route } from './http';
import { isMultipart, readForm, type FilePart, type Form } from './multipart';
import { pageSize, pathId, text } from './params';
import { RATES } from './ratelimit';
import type { AssetMeta, AssetRec, AssetVersionRec, Creator, OperationRec } from './records';
import type { Fact } from './facts';

const READ = 'asset:read';
const WRITE = 'asset:write';
const ASSET_TYPE_URL = 'type.googleapis.com/roblox.open_cloud.assets.v1.Asset';
const FIRST_NEW_ID = 20_000_000_000;
const MAX_NAME = 50;
const MAX_DESCRIPTION = 1000;
const MAX_PREVIEWS = 10;
const MAX_SOCIAL_LINKS = 3;
const SOCIAL = ['facebook', 'twitter', 'youtube', 'twitch', 'discord', 'github', 'roblox', 'guilded', 'devForum'].map(
  (p) => `${p}SocialLink`,
);
const FIELDS = [
  'path',
  'revisionId',
  'revisionCreateTime',
  'assetId',
  'displayName',
  'description',
  'assetType',
  'creationContext',
  'moderationResult',
  'icon',
  'previews',
  'state',
  ...SOCIAL,
];
const UPDATABLE = ['displayName', 'description', 'icon', 'previews', 'creationContext.expectedPrice', ...SOCIAL];
const ASSET_PATH = /^assets\/[1-9]\d{0,15}$/;

export function moderationFor(displayName: string): AssetVersionRec['moderationState'] {
  if (displayName.includes('[reject]')) return 'Rejected';
  if (displayName.includes('[review]')) return 'Reviewing';
  return 'Approved';
}

function assetJson(a: AssetRec): Record<string, unknown> {
  const v = a.versions[a.versions.length - 1];
  return {
    path: `assets/${a.id}`,
    revisionId: String(v.n),
    revisionCreateTime: v.createTime,
    assetId: a.id,
    displayName: a.displayName,
    description: a.description,
    assetType: a.assetType,
    creationContext: { creator: a.creator },
    moderationResult: { moderationState: v.moderationState },
    ...(a.icon && { icon: a.icon }),
    previews: a.previews,
    state: a.state,
    ...a.links,
  };
}

const versionJson = (a: AssetRec, v: AssetVersionRec) => ({
  path: `assets/${a.id}/versions/${v.n}`,
  creationContext: { creator: v.creator },
  moderationResult: { moderationState: v.moderationState },
});

function operationJson(ctx: Ctx, op: OperationRec): Record<string, unknown> {
  const done = ctx.app.clock.now() >= op.doneAt;
  return {
    path: `operations/${op.id}`,
    operationId: op.id,
    done,
    ...(done && op.error && { error: op.error }),
    ...(done && op.response && { response: op.response }),
  };
}

function findAsset(ctx: Ctx): AssetRec {
  const id = String(pathId(ctx, 'assetId', 'asset ID'));
  const asset = ctx.app.store.assets.get(id);
  if (!asset) throw new ApiError(404, `Asset ${id} not found.`);
  return asset;
}

/** The JSON of the `request` part. */
function requestPart(form: Form): Record<string, unknown> {
  const raw = form.fields.get('request');
  if (raw === undefined) throw invalid("The multipart body has no 'request' part.");
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw invalid("The 'request' part is not valid JSON.");
  }
  if (!isObject(parsed)) throw invalid("The 'request' part must be a JSON object.");
  return parsed;
}

const numericId = (v: unknown): string | undefined =>
  (typeof v === 'number' && Number.isSafeInteger(v) && v > 0) || (typeof v === 'string' && /^[1-9]\d{0,18}$/.test(v))
    ? String(v)
    : undefined;

function string(v: unknown, name: string, max: number, required: boolean): string {
  if (v === undefined && !required) return '';
  if (typeof v !== 'string' || (required && v.trim() === ''))
    throw invalid(`${name} must be a${required ? ' non-empty' : ''} string.`);
  if ([...v].length > max) throw invalid(`${name} is longer than ${max} characters.`);
  return v;
}

function parseCreationContext(v: unknown): Creator {
  const creator = isObject(v) && isObject(v.creator) ? v.creator : undefined;
  const userId = numericId(creator?.userId);
  const groupId = numericId(creator?.groupId);
  if (!creator || (userId === undefined) === (groupId === undefined)) {
    throw invalid('creationContext.creator must hold exactly one of userId and groupId, a numeric id.');
  }
  const price = isObject(v) ? v.expectedPrice : undefined;
  if (price !== undefined && numericId(price) === undefined && price !== 0 && price !== '0') {
    throw invalid('creationContext.expectedPrice must be a whole number of at least 0.');
  }
  return userId !== undefined ? { userId } : { groupId };
}

function checkFileType(assetType: string, file: FilePart | undefined): FilePart {
  if (!file) throw invalid("The multipart body has no 'fileContent' file part.");
  const allowed = ASSET_TYPES[assetType].contentTypes;
  if (!allowed.includes(file.contentType)) {
    throw invalid(
      `The file's content type '${file.contentType}' does not fit assetType ${assetType}; expected one of ${allowed.join(', ')}.`,
    );
  }
  return file;
}

/**
 * Commits a create or update and its operation in one journal line. The operation fails (and nothing changes)
 * when the file's bytes do not fit its content type.
 */
function operation(
  ctx: Ctx,
  file: FilePart | undefined,
  assetType: string,
  change: () => { meta: AssetMeta; version?: AssetVersionRec },
): OperationRec {
  const op: OperationRec = { id: randomUUID(), doneAt: ctx.app.clock.now() + ctx.app.operationDelayMs };
  const problem = file && contentProblem(assetType, file.contentType, file.upload.head, file.upload.size);
  const facts: Fact[] = [];
  if (problem) {
    file.upload.discard();
    op.error = { code: 3, message: problem };
  } else {
    file?.upload.commit();
    const { meta, version } = change();
    const versions = [...(ctx.app.store.assets.get(meta.id)?.versions ?? []), ...(version ? [version] : [])];
    op.response = { '@type': ASSET_TYPE_URL, ...assetJson({ ...meta, versions }) };
    facts.push({ t: 'asset', a: meta });
    if (version) facts.push({ t: 'aver', id: meta.id, v: version });
  }
  ctx.app.store.commit([...facts, { t: 'op', op }]);
  return op;
}

function newVersion(ctx: Ctx, n: number, file: FilePart, displayName: string, creator: Creator): AssetVersionRec {
  return {
    n,
    createTime: iso(ctx.app.clock.now()),
    blob: file.upload.hash,
    size: file.upload.size,
    contentType: file.contentType,
    moderationState: moderationFor(displayName),
    creator,
  };
}

/** Runs `fn` on the form, removing its upload if `fn` refuses the request. */
async function withForm<T>(ctx: Ctx, fn: (form: Form) => T): Promise<T> {
  const form = await readForm(ctx, 'fileContent');
  try {
    return fn(form);
  } catch (err) {
    form.file?.upload.discard();
    throw err;
  }
}

async function create(ctx: Ctx): Promise<void> {
  const op = await withForm(ctx, (form) => {
    const req = requestPart(form);
    const assetType = req.assetType;
    if (typeof assetType !== 'string' || !ASSET_TYPES[assetType]) {
      throw invalid(`assetType must be one of ${Object.keys(ASSET_TYPES).join(', ')}.`);
    }
    const displayName = string(req.displayName, 'displayName', MAX_NAME, true);
    const description = string(req.description, 'description', MAX_DESCRIPTION, false);
    const creator = parseCreationContext(req.creationContext);
    const file = checkFileType(assetType, form.file);
    return operation(ctx, file, assetType, () => ({
      meta: {
        id: String(Math.max(ctx.app.store.lastAssetId, FIRST_NEW_ID) + 1),
        assetType,
        displayName,
        description,
        creator,
        state: 'Active',
        previews: [],
        links: {},
      },
      version: newVersion(ctx, 1, file, displayName, creator),
    }));
  });
  sendJson(ctx, 200, operationJson(ctx, op));
}

function parseMask(raw: string | undefined, allowed: string[], name: string): string[] | undefined {
  if (!raw) return undefined;
  const fields = raw.split(',').map((f) => f.trim());
  const unknown = fields.find((f) => !allowed.includes(f));
  if (unknown !== undefined) throw invalid(`${name} names an unknown or read-only field '${unknown}'.`);
  return fields;
}

/** The metadata after an update; `fields` are the ones to change, taken from `req` (absent = cleared). */
function updatedMeta(a: AssetRec, req: Record<string, unknown>, fields: string[]): AssetMeta {
  const { versions: _versions, ...meta } = a;
  const next: AssetMeta = { ...meta, previews: [...meta.previews], links: { ...meta.links } };
  for (const f of fields) {
    const v = req[f];
    if (f === 'displayName') next.displayName = string(v, f, MAX_NAME, true);
    else if (f === 'description') next.description = string(v, f, MAX_DESCRIPTION, false);
    else if (f === 'icon') {
      if (v !== undefined && v !== '' && (typeof v !== 'string' || !ASSET_PATH.test(v)))
        throw invalid('icon must be "assets/<id>".');
      next.icon = (v as string | undefined) || undefined;
    } else if (f === 'previews') {
      const ok = (p: unknown) =>
        isObject(p) &&
        typeof p.asset === 'string' &&
        ASSET_PATH.test(p.asset) &&
        (p.altText === undefined || typeof p.altText === 'string');
      if (v !== undefined && (!Array.isArray(v) || v.length > MAX_PREVIEWS || !v.every(ok))) {
        throw invalid(`previews must be a list of at most ${MAX_PREVIEWS} {asset: "assets/<id>", altText}.`);
      }
      next.previews = ((v ?? []) as { asset: string; altText?: string }[]).map((p) => ({
        asset: p.asset,
        altText: p.altText ?? '',
      }));
    } else if (SOCIAL.includes(f)) {
      if (v === undefined || v === null) delete next.links[f];
      else if (
        isObject(v) &&
        typeof v.uri === 'string' &&
        /^https?:\/\/\S+$/.test(v.uri) &&
        (v.title === undefined || typeof v.title === 'string')
      ) {
        next.links[f] = { ...(v.title !== undefined && { title: v.title }), uri: v.uri };
      } else throw invalid(`${f} must be {title?, uri} with an http(s) uri.`);
    }
  }
  if (Object.keys(next.links).length > MAX_SOCIAL_LINKS)
    throw invalid(`An asset can have at most ${MAX_SOCIAL_LINKS} social links.`);
  return next;
}

async function update(ctx: Ctx): Promise<void> {
  findAsset(ctx); // a 404 before the upload
  const mask = parseMask(text(ctx, 'updateMask', { allowEmpty: true }), UPDATABLE, 'updateMask');
  const op = await withForm(ctx, (form) => {
    const asset = findAsset(ctx);
    const req = requestPart(form);
    if (numericId(req.assetId) !== asset.id)
      throw invalid(`The request's assetId must be ${asset.id}, the asset in the path.`);
    const meta = updatedMeta(asset, req, mask ?? UPDATABLE.filter((f) => f in req));
    const file = form.file && checkFileType(asset.assetType, form.file);
    return operation(ctx, file, asset.assetType, () => ({
      meta,
      version: file && newVersion(ctx, asset.versions.length + 1, file, meta.displayName, asset.creator),
    }));
  });
  sendJson(ctx, 200, operationJson(ctx, op));
}

function get(ctx: Ctx): void {
  const asset = findAsset(ctx);
  const mask = parseMask(text(ctx, 'readMask', { allowEmpty: true }), FIELDS, 'readMask');
  const full = assetJson(asset);
  sendJson(ctx, 200, mask ? Object.fromEntries(Object.entries(full).filter(([k]) => mask.includes(k))) : full);
}

const setState = (state: AssetMeta['state']) =>
  async function (ctx: Ctx): Promise<void> {
    await readBody(ctx.req, 0);
    const asset = findAsset(ctx);
    if (asset.state === state)
      throw invalid(state === 'Archived' ? 'The asset is already archived.' : 'The asset is not archived.');
    const { versions: _versions, ...meta } = asset;
    ctx.app.store.commit([{ t: 'asset', a: { ...meta, state } }]);
    sendJson(ctx, 200, assetJson(ctx.app.store.assets.get(asset.id)!));
  };

function findVersion(a: AssetRec, n: number): AssetVersionRec {
  const v = a.versions[n - 1];
  if (!v) throw new ApiError(404, `Version ${n} of asset ${a.id} not found.`);
  return v;
}

function getVersion(ctx: Ctx): void {
  const asset = findAsset(ctx);
  sendJson(ctx, 200, versionJson(asset, findVersion(asset, pathId(ctx, 'versionNumber', 'version number'))));
}

function listVersions(ctx: Ctx): void {
  const asset = findAsset(ctx);
  const size = pageSize(ctx, 'maxPageSize', { fallback: 8, max: 50, zeroIsDefault: true });
  const token = text(ctx, 'pageToken', { allowEmpty: true });
  const before = token ? ctx.app.tokens.read(token, 'asset-versions', [asset.id]) : asset.versions.length + 1;
  if (typeof before !== 'number') throw invalid('Invalid pageToken.');
  const page = asset.versions.slice(Math.max(0, before - 1 - size), before - 1).reverse();
  const last = page[page.length - 1];
  sendJson(ctx, 200, {
    assetVersions: page.map((v) => versionJson(asset, v)),
    ...(last && last.n > 1 && { nextPageToken: ctx.app.tokens.issue('asset-versions', [asset.id], last.n) }),
  });
}

async function rollback(ctx: Ctx): Promise<void> {
  let target: unknown;
  if (isMultipart(ctx)) target = (await readForm(ctx)).fields.get('assetVersion');
  else {
    const body = await readJson(ctx, 64 * 1024);
    target = isObject(body) ? body.assetVersion : undefined;
  }
  const asset = findAsset(ctx);
  const m = typeof target === 'string' ? /^assets\/(\d+)\/versions\/([1-9]\d{0,8})$/.exec(target) : null;
  if (!m || m[1] !== asset.id) throw invalid(`assetVersion must be "assets/${asset.id}/versions/<number>".`);
  const from = findVersion(asset, Number(m[2]));
  const v: AssetVersionRec = {
    ...from,
    n: asset.versions.length + 1,
    createTime: iso(ctx.app.clock.now()),
  };
  ctx.app.store.commit([{ t: 'aver', id: asset.id, v }]);
  sendJson(ctx, 200, versionJson(asset, v));
}

function getOperation(ctx: Ctx): void {
  const op = ctx.app.store.operations.get(ctx.params.operationId);
  if (!op) throw new ApiError(404, `Operation ${ctx.params.operationId} not found.`);
  sendJson(ctx, 200, operationJson(ctx, op));
}

const route = (method: string, path: string, handle: Route['handle'], write: boolean, rate: Route['rate']): Route => ({
  method,
  path: `/assets/v1/${path}`,
  family: 'assets',
  scopes: write ? [READ, WRITE] : [READ],
  rate,
  handle,
});

export const assetRoutes: Route[] = [
  route('POST', 'assets', create, true, [RATES.assetMain]),
  route('GET', 'assets/{assetId}', get, false, [RATES.assetMain]),
  route('PATCH', 'assets/{assetId}', update, true, [RATES.assetMain]),
  route('POST', 'assets/{assetId}:archive', setState('Archived'), true, [RATES.assetMisc]),
  route('POST', 'assets/{assetId}:restore', setState('Active'), true, [RATES.assetMisc]),
  route('GET', 'assets/{assetId}/versions', listVersions, false, [RATES.assetMisc]),
  route('GET', 'assets/{assetId}/versions/{versionNumber}', getVersion, false, [RATES.assetMisc]),
  route('POST', 'assets/{assetId}/versions:rollback', rollback, true, [RATES.assetMisc]),
  route('GET', 'operations/{operationId}', getOperation, false, [RATES.assetOp]),
];
