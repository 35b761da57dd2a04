// universe-explorer assets upload: a file as a new asset, or as a new version of an asset, waiting for the
// service's operation to finish (its state on stderr while it runs).
import fs = require('node:fs');
import path = require('node:path');
import { assetTypesFor, MEDIA_TYPES, mediaTypeFor, type Asset, type CreateAssetRequest } from '../../api';
import type { Command } from '../command';
import { clientOf, failure } from '../connect';
import { CONNECTION, OUTPUT, text, whole, type Options, type Values } from '../options';
import { EXIT, UsageError } from '../output';

/** The connection options but the universe: an asset belongs to a user or a group. */
const ACCOUNT: Options = Object.fromEntries(Object.entries(CONNECTION).filter(([name]) => name !== 'universe'));

const idOf = (values: Values, name: string): string | undefined => {
  const v = text(values, name);
  if (v !== undefined && !/^\d{1,19}$/.test(v)) throw new UsageError(`--${name}: ${JSON.stringify(v)} is not an id`);
  return v;
};

/** The file named by the one positional argument, which must be a readable file. */
function fileOf(positionals: string[]): string {
  const file = positionals[0];
  if (file === undefined) throw new UsageError('no file: name the file to upload, e.g. assets upload sword.png');
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new UsageError(`cannot read ${file} (${code}): check the path`);
  }
  if (!stat.isFile()) throw new UsageError(`${file} is not a file`);
  if (!mediaTypeFor(file)) {
    throw new UsageError(`${path.basename(file)}: the service takes no file of this kind (see --help for the kinds)`);
  }
  return file;
}

/** --type when given (one the file can be), else the one type the file can be. */
function typeOf(values: Values, file: string): string {
  const types = assetTypesFor(file);
  const given = text(values, 'type');
  if (given !== undefined) {
    const match = types.find((t) => t.toLowerCase() === given.toLowerCase());
    if (!match) throw new UsageError(`--type: ${path.basename(file)} can be uploaded as ${types.join(' or ')}`);
    return match;
  }
  if (types.length > 1) throw new UsageError(`--type is missing: ${path.basename(file)} can be ${types.join(' or ')}`);
  return types[0];
}

export const assetsUpload: Command = {
  name: 'assets upload',
  summary: 'upload a file as a new asset, or as a new version of one, and wait until the service has it',
  usage: [
    '<file> (--creator-user <id> | --creator-group <id>) [--type <type>] [--name <text>] [--description <text>] [options]',
    '<file> --asset <id> [options]',
  ],
  about:
    'Uploads the file and waits for the operation the service starts to finish (at most --timeout seconds, default ' +
    '300). A new asset needs its creator (a user or a group) and a type when the file can be more than one (an ' +
    'image: Decal or Image); its name is the file name without its extension unless --name is given. With --asset ' +
    `the file becomes a new version of that asset. Files: ${Object.keys(MEDIA_TYPES)
      .map((e) => `.${e}`)
      .join(' ')}.`,
  positionals: 1,
  options: [
    ['Connection', ACCOUNT],
    [
      'Asset',
      {
        'creator-user': { type: 'string', value: '<id>', help: 'the user who owns the new asset' },
        'creator-group': { type: 'string', value: '<id>', help: 'the group that owns the new asset' },
        type: { type: 'string', value: '<type>', help: 'Image, Decal, Audio, Model, Animation or Video' },
        name: { type: 'string', value: '<text>', help: 'the display name (default: the file name)' },
        description: { type: 'string', value: '<text>', help: 'the description (default none)' },
        asset: { type: 'string', value: '<id>', help: 'upload a new version of this asset instead' },
        timeout: { type: 'string', value: '<seconds>', help: 'how long to wait for the operation (default 300)' },
      },
    ],
    ['Output', OUTPUT],
  ],
  json:
    '  {"command":"assets upload","exitCode":0,"file":"sword.png","asset":"123","version":"2" (when known),\n' +
    '   "type":"Image","name":"sword","operation":"operations/…"}',
  examples: [
    'universe-explorer assets upload art/sword.png --creator-group 42 --type Decal',
    'universe-explorer assets upload art/sword.png --asset 1234567',
  ],
  async run(ctx) {
    const file = fileOf(ctx.positionals);
    const assetId = idOf(ctx.values, 'asset');
    const user = idOf(ctx.values, 'creator-user');
    const group = idOf(ctx.values, 'creator-group');
    const timeout = whole(ctx.values, 'timeout', 1, 3600) ?? 300;
    let request: CreateAssetRequest | undefined;
    if (assetId === undefined) {
      if ((user === undefined) === (group === undefined)) {
        throw new UsageError('give the creator of the new asset: one of --creator-user or --creator-group');
      }
      request = {
        assetType: typeOf(ctx.values, file),
        displayName: text(ctx.values, 'name') ?? path.basename(file, path.extname(file)),
        description: text(ctx.values, 'description') ?? '',
        creationContext: { creator: user !== undefined ? { userId: user } : { groupId: group } },
      };
    } else if (user !== undefined || group !== undefined || ctx.values.type !== undefined) {
      throw new UsageError('--asset uploads a new version: the creator and type are the asset’s own, leave them out');
    }
    const client = await clientOf(ctx);
    const what = assetId === undefined ? `${path.basename(file)} as a new asset` : `a new version of asset ${assetId}`;
    let asset: Asset | undefined;
    let operation: string;
    try {
      ctx.out.progress(`Uploading ${what}`);
      const started = request
        ? await client.assets.create({ request, file: { path: file } }, { signal: ctx.signal })
        : await client.assets.update({ assetId: assetId!, request: {}, file: { path: file } }, { signal: ctx.signal });
      const done = await client.assets.waitForOperation(started, {
        signal: ctx.signal,
        timeoutMs: timeout * 1000,
        onProgress: (_op, attempt) => ctx.out.progress(`Waiting for the service to take ${what} (check ${attempt})`),
      });
      operation = done.path;
      // A new version's operation may answer without the asset: read it for the version number.
      asset = done.response ?? (assetId ? await client.assets.get({ assetId }, { signal: ctx.signal }) : undefined);
    } catch (error) {
      throw failure(`cannot upload ${what}`, error);
    }
    const id = asset?.assetId ?? assetId;
    const version = asset?.revisionId;
    ctx.out.say(
      `Uploaded ${path.basename(file)}: asset ${id ?? '(the service named none)'}` +
        `${version ? `, version ${version}` : ''}${asset?.displayName ? ` (${asset.displayName})` : ''}.`,
    );
    return ctx.out.finish(
      {
        file,
        ...(id ? { asset: id } : {}),
        ...(version ? { version } : {}),
        ...(asset?.assetType ? { type: asset.assetType } : request ? { type: request.assetType } : {}),
        ...(asset?.displayName ? { name: asset.displayName } : {}),
        operation,
      },
      EXIT.done,
    );
  },
};
