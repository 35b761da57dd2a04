// Assets (v1): create and update by multipart upload, read, archive, versions and long-running operations.
import { createReadStream, promises as fsp } from 'node:fs';
import { basename, extname } from 'node:path';
import { PassThrough, type Readable } from 'node:stream';
import type FormDataType from 'form-data';
import { ApiError } from './errors';
import { ASSETS } from './access';
import { jsonBody, seg, type CallOptions, type RequestSpec, type StreamBody, type Transport } from './http';
import { followOperation, type FollowOptions } from './operations';
import { pagePromise, type PagePromise } from './paging';
import {
  AssetSchema,
  assetSchemaFor,
  AssetVersionSchema,
  ListAssetVersionsSchema,
  OperationSchema,
  updateAssetResultSchema,
  type Asset,
  type AssetVersion,
  type Operation,
} from './schemas';

export type AssetType = 'Audio' | 'Decal' | 'Image' | 'Model' | 'Animation' | 'Video';

/** Media type of `fileContent` by file extension (docs/SERVICE.md, "Assets and operations"). */
export const MEDIA_TYPES: Readonly<Record<string, string>> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  bmp: 'image/bmp',
  tga: 'image/tga',
  mp3: 'audio/mpeg',
  ogg: 'audio/ogg',
  wav: 'audio/wav',
  flac: 'audio/flac',
  fbx: 'model/fbx',
  gltf: 'model/gltf+json',
  glb: 'model/gltf-binary',
  rbxm: 'model/x-rbxm',
  rbxmx: 'model/x-rbxm',
  mp4: 'video/mp4',
  mov: 'video/mov',
};

const ASSET_TYPES_BY_MEDIA_TYPE: Readonly<Record<string, readonly AssetType[]>> = {
  image: ['Decal', 'Image'],
  audio: ['Audio'],
  video: ['Video'],
  'model/x-rbxm': ['Model', 'Animation'],
  model: ['Model'],
};

function extensionOf(fileName: string): string {
  return extname(fileName).slice(1).toLowerCase();
}

/** The media type for a file name, from its extension; undefined when the extension is not uploadable. */
export function mediaTypeFor(fileName: string): string | undefined {
  return MEDIA_TYPES[extensionOf(fileName)];
}

/** The asset types a file can be uploaded as (an image can be a Decal or an Image); empty when none. */
export function assetTypesFor(fileName: string): AssetType[] {
  const mediaType = mediaTypeFor(fileName);
  if (!mediaType) return [];
  const types = ASSET_TYPES_BY_MEDIA_TYPE[mediaType] ?? ASSET_TYPES_BY_MEDIA_TYPE[mediaType.split('/')[0]];
  return [...(types ?? [])];
}

export interface Creator {
  userId?: string | number;
  groupId?: string | number;
}

export interface CreateAssetRequest {
  assetType: AssetType | string;
  displayName: string;
  description: string;
  creationContext: { creator: Creator; expectedPrice?: number };
}

export interface UpdateAssetRequest {
  displayName?: string;
  description?: string;
  icon?: string;
  previews?: { asset: string; altText?: string }[];
  creationContext?: { expectedPrice?: number };
  /** `twitchSocialLink`, `githubSocialLink`, ... */
  [socialLink: `${string}SocialLink`]: { title?: string; uri: string } | undefined;
}

/** A file from disk (streamed, exact content-length), or a stream the caller owns. */
export type AssetFile =
  | { path: string; contentType?: string; filename?: string }
  | { stream: Readable; contentType: string; filename: string; size?: number };

export type WaitOptions = FollowOptions<Operation>;

/** A multipart body with a JSON `request` part and a streamed `fileContent` part; the file is never read whole. */
async function multipart(request: object, file: AssetFile | undefined): Promise<StreamBody> {
  // Required on first upload, so activating the extension does not load form-data and its dependencies.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const FormData = require('form-data') as typeof FormDataType;
  const form = new FormData();
  form.append('request', JSON.stringify(request));
  let source: Readable | undefined;
  let knownLength = true;
  if (file && 'path' in file) {
    const { size } = await fsp.stat(file.path);
    source = createReadStream(file.path);
    form.append('fileContent', source, {
      filename: file.filename ?? basename(file.path),
      contentType: file.contentType ?? mediaTypeFor(file.path) ?? 'application/octet-stream',
      knownLength: size,
    });
  } else if (file) {
    source = file.stream;
    knownLength = file.size !== undefined;
    form.append('fileContent', source, {
      filename: file.filename,
      contentType: file.contentType,
      knownLength: file.size,
    });
  }
  const headers: Record<string, string> = { ...form.getHeaders() };
  if (knownLength) headers['content-length'] = String(form.getLengthSync());
  const stream = new PassThrough();
  form.on('error', (err: Error) => stream.destroy(err));
  form.pipe(stream);
  return { stream, headers, dispose: () => source?.destroy() };
}

function operationIdOf(pathOrId: string): string {
  return pathOrId.split('/').pop() ?? pathOrId;
}

export class AssetsApi {
  constructor(private readonly http: Transport) {}

  private assetPath(assetId: string | number, rest = ''): string {
    return `/assets/v1/assets/${seg(assetId)}${rest}`;
  }

  /** Never retried: a repeat would upload a second asset. */
  async create(args: { request: CreateAssetRequest; file: AssetFile }, opts: CallOptions = {}): Promise<Operation> {
    return this.http.json(
      {
        method: 'POST',
        access: ASSETS,
        path: '/assets/v1/assets',
        body: () => multipart(args.request, args.file),
        retry: 'never',
        signal: opts.signal,
      },
      OperationSchema,
    );
  }

  /** With a readMask the service may answer with just those fields; assetId is filled in from the request. */
  async get(args: { assetId: string | number; readMask?: string }, opts: CallOptions = {}): Promise<Asset> {
    return this.http.json(
      {
        method: 'GET',
        access: 'read',
        path: this.assetPath(args.assetId),
        query: { readMask: args.readMask },
        retry: 'idempotent',
        signal: opts.signal,
      },
      assetSchemaFor(String(args.assetId)),
    );
  }

  /** Metadata-only updates are retried; a content update (with a file) is not. A bare-asset answer comes back as a done Operation. */
  async update(
    args: { assetId: string | number; request: UpdateAssetRequest; updateMask?: string; file?: AssetFile },
    opts: CallOptions = {},
  ): Promise<Operation> {
    const assetId = String(args.assetId);
    const spec: RequestSpec = {
      method: 'PATCH',
      access: ASSETS,
      path: this.assetPath(assetId),
      query: { updateMask: args.updateMask },
      body: () => multipart({ ...args.request, assetId }, args.file),
      retry: args.file === undefined ? 'idempotent' : 'never',
      signal: opts.signal,
    };
    const res = await this.http.request(spec);
    return this.http.parse(spec, res, updateAssetResultSchema(assetId));
  }

  async archive(args: { assetId: string | number }, opts: CallOptions = {}): Promise<Asset> {
    return this.stateChange(args.assetId, ':archive', 'Archived', opts);
  }

  async restore(args: { assetId: string | number }, opts: CallOptions = {}): Promise<Asset> {
    return this.stateChange(args.assetId, ':restore', 'Active', opts);
  }

  /**
   * Archive or Restore. When a retry is refused after an attempt whose answer was lost, and the asset now is in the
   * state asked for, that attempt did it: the asset is returned as it is now.
   */
  private async stateChange(assetId: string | number, verb: string, state: string, opts: CallOptions): Promise<Asset> {
    try {
      return await this.http.json(
        {
          method: 'POST',
          access: ASSETS,
          path: this.assetPath(assetId, verb),
          headers: { 'content-type': 'application/json' },
          body: Buffer.alloc(0),
          retry: 'idempotent',
          signal: opts.signal,
        },
        AssetSchema,
      );
    } catch (error) {
      const refused = error instanceof ApiError && error.afterLostAnswer && [400, 409, 412].includes(error.status ?? 0);
      if (!refused) throw error;
      const asset = await this.get({ assetId }, opts);
      if (asset.state !== state) throw error;
      return asset;
    }
  }

  async getVersion(
    args: { assetId: string | number; versionNumber: string | number },
    opts: CallOptions = {},
  ): Promise<AssetVersion> {
    return this.http.json(
      {
        method: 'GET',
        access: 'read',
        path: this.assetPath(args.assetId, `/versions/${seg(args.versionNumber)}`),
        retry: 'idempotent',
        signal: opts.signal,
      },
      AssetVersionSchema,
    );
  }

  listVersions(
    args: { assetId: string | number; maxPageSize?: number; pageToken?: string },
    opts: CallOptions = {},
  ): PagePromise<AssetVersion> {
    return pagePromise(async (pageToken) => {
      const page = await this.http.json(
        {
          method: 'GET',
          access: 'read',
          path: this.assetPath(args.assetId, '/versions'),
          query: { maxPageSize: args.maxPageSize, pageToken },
          retry: 'idempotent',
          signal: opts.signal,
        },
        ListAssetVersionsSchema,
      );
      return { items: page.assetVersions, next: page.nextPageToken };
    }, args.pageToken);
  }

  /** Each rollback adds a version, so it is sent again only after an answer that says it was not applied. */
  async rollback(
    args: { assetId: string | number; versionNumber: string | number },
    opts: CallOptions = {},
  ): Promise<AssetVersion> {
    return this.http.json(
      {
        method: 'POST',
        access: ASSETS,
        path: this.assetPath(args.assetId, '/versions:rollback'),
        ...jsonBody({ assetVersion: `assets/${args.assetId}/versions/${args.versionNumber}` }),
        retry: 'unapplied',
        signal: opts.signal,
      },
      AssetVersionSchema,
    );
  }

  /** An operation's error as an error message may show it: the API key hidden, its text on one line and short. */
  /** `operationId` may be the bare id or the Operation's `path` (`operations/<id>`). */
  async getOperation(args: { operationId: string }, opts: CallOptions = {}): Promise<Operation> {
    return this.http.json(
      {
        method: 'GET',
        access: 'read',
        path: `/assets/v1/operations/${seg(operationIdOf(args.operationId))}`,
        retry: 'idempotent',
        signal: opts.signal,
      },
      OperationSchema,
    );
  }

  /**
   * Polls until the operation is done, pausing `initialDelayMs` and doubling up to `maxDelayMs`.
   * Rejects with OperationFailedError when it finished with an error, OperationTimeoutError after `timeoutMs`.
   */
  async waitForOperation(operationOrId: Operation | string, options: WaitOptions = {}): Promise<Operation> {
    const id = typeof operationOrId === 'string' ? operationIdOf(operationOrId) : operationOrId.operationId;
    const known = typeof operationOrId === 'string' ? undefined : operationOrId;
    return followOperation(
      this.http,
      known,
      `operations/${id}`,
      (signal) => this.getOperation({ operationId: id }, { signal }),
      options,
    );
  }
}
