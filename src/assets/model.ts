// The assets model: the assets each connection knows (the API cannot list a creator's assets), what Get Asset last
// said of each, every write through the client (operations followed to their end), and the events views follow.
import vscode = require('vscode');
import {
  OperationFailedError,
  OperationTimeoutError,
  type Asset,
  type AssetFile,
  type AssetVersion,
  type CreateAssetRequest,
  type Creator,
  type OpenApiClient,
  type Operation,
  type Page,
  type UpdateAssetRequest,
} from '../api';
import type { Connections } from '../core/connections';
import { settings } from '../core/settings';
import { AssetList, type KnownAsset } from './assetList';

/** Get Asset shares a per-minute limit with uploads: a long list is read a few assets at a time. */
const PARALLEL_READS = 6;

/** The service's list size limit for asset versions. */
const MAX_VERSIONS_PAGE = 50;

/** What Get Asset said of an asset, or why it could not say. */
export interface AssetDetails {
  asset?: Asset;
  error?: unknown;
}

/** `assetId` absent: the connection's list changed; present: that asset was read again. */
export interface AssetsChange {
  connectionId: string;
  assetId?: string;
}

const detailsKey = (connectionId: string, assetId: string) => `${connectionId}/${assetId}`;

export class AssetsModel implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<AssetsChange>();
  readonly onDidChange = this.changed.event;
  private readonly known: AssetList;
  private readonly details = new Map<string, AssetDetails>();
  private readonly removal: vscode.Disposable;

  constructor(
    private readonly connections: Connections,
    state: vscode.Memento,
  ) {
    this.known = new AssetList(state);
    this.removal = connections.onDidRemove((id) => void this.known.forgetConnection(id));
  }

  // The known list.

  list(connectionId: string): KnownAsset[] {
    return this.known.list(connectionId);
  }

  get(connectionId: string, assetId: string): KnownAsset | undefined {
    return this.known.get(connectionId, assetId);
  }

  async add(connectionId: string, asset: KnownAsset): Promise<void> {
    await this.known.add(connectionId, asset);
    this.changed.fire({ connectionId });
  }

  /** Forgets the asset in this list only; the service is not asked. */
  async forget(connectionId: string, assetId: string): Promise<void> {
    await this.known.forget(connectionId, assetId);
    this.details.delete(detailsKey(connectionId, assetId));
    this.changed.fire({ connectionId });
  }

  /** The creator this connection last uploaded as. */
  creator(connectionId: string): Creator | undefined {
    return this.known.creator(connectionId);
  }

  setCreator(connectionId: string, creator: Creator): Promise<void> {
    return this.known.setCreator(connectionId, creator);
  }

  // What the service says of each.

  /** What the last read of the asset gave. */
  detailsOf(connectionId: string, assetId: string): AssetDetails {
    return this.details.get(detailsKey(connectionId, assetId)) ?? {};
  }

  /** Reads the asset (Get Asset); a failure is kept, so the asset stays listed and says why. */
  async read(connectionId: string, assetId: string, signal?: AbortSignal): Promise<AssetDetails> {
    let details: AssetDetails;
    try {
      const client = await this.client(connectionId);
      const asset = await client.assets.get({ assetId }, { signal: signal ?? this.connections.signal(connectionId) });
      details = { asset };
      await this.known.update(connectionId, { ...asset, id: assetId });
    } catch (error) {
      details = { error };
    }
    this.details.set(detailsKey(connectionId, assetId), details);
    return details;
  }

  /** Reads every known asset of the connection, a few at a time; returns them in list order. */
  async readAll(connectionId: string, signal?: AbortSignal): Promise<KnownAsset[]> {
    const list = this.list(connectionId);
    for (let i = 0; i < list.length; i += PARALLEL_READS) {
      await Promise.all(list.slice(i, i + PARALLEL_READS).map((a) => this.read(connectionId, a.id, signal)));
    }
    return list;
  }

  /** Reads one asset again and tells the views. */
  async reread(connectionId: string, assetId: string): Promise<void> {
    await this.read(connectionId, assetId);
    this.changed.fire({ connectionId, assetId });
  }

  async listVersions(
    connectionId: string,
    assetId: string,
    pageToken: string | undefined,
    signal: AbortSignal,
  ): Promise<Page<AssetVersion>> {
    const client = await this.client(connectionId);
    return client.assets.listVersions(
      { assetId, maxPageSize: Math.min(settings().pageSize, MAX_VERSIONS_PAGE), pageToken },
      { signal },
    );
  }

  /** Checks the id with the service (Get Asset) and adds the asset to the list. */
  async addById(connectionId: string, assetId: string, signal: AbortSignal): Promise<Asset> {
    const client = await this.client(connectionId);
    const asset = await client.assets.get({ assetId }, { signal });
    await this.add(connectionId, { id: asset.assetId, displayName: asset.displayName, assetType: asset.assetType });
    return asset;
  }

  // Writes.

  /** Sends the file; resolves with the operation to follow (the upload is never repeated). */
  async upload(
    connectionId: string,
    request: CreateAssetRequest,
    file: AssetFile,
    signal: AbortSignal,
  ): Promise<Operation> {
    return (await this.client(connectionId)).assets.create({ request, file }, { signal });
  }

  /** Follows an upload's operation to its asset, which joins the list. */
  async uploaded(connectionId: string, op: Operation, signal: AbortSignal): Promise<Asset> {
    const done = await this.follow(connectionId, op, signal);
    const asset = done.response;
    if (!asset) throw new Error('the finished operation holds no asset');
    await this.add(connectionId, { id: asset.assetId, displayName: asset.displayName, assetType: asset.assetType });
    return asset;
  }

  /** Update Asset, following its operation; `step` tells when the request is answered and processing starts. */
  async update(
    connectionId: string,
    assetId: string,
    args: { request: UpdateAssetRequest; updateMask?: string; file?: AssetFile },
    signal: AbortSignal,
    step: (what: string) => void = () => undefined,
  ): Promise<Asset> {
    const client = await this.client(connectionId);
    step(args.file ? 'uploading…' : 'saving…');
    const op = await client.assets.update({ assetId, ...args }, { signal });
    step('processing…');
    const done = await this.follow(connectionId, op, signal);
    return this.changedAsset(connectionId, done.response ?? (await client.assets.get({ assetId }, { signal })));
  }

  async archive(connectionId: string, assetId: string, signal: AbortSignal): Promise<Asset> {
    return this.changedAsset(
      connectionId,
      await (await this.client(connectionId)).assets.archive({ assetId }, { signal }),
    );
  }

  async restore(connectionId: string, assetId: string, signal: AbortSignal): Promise<Asset> {
    return this.changedAsset(
      connectionId,
      await (await this.client(connectionId)).assets.restore({ assetId }, { signal }),
    );
  }

  /** Makes a new version with an old version's content. */
  async rollback(
    connectionId: string,
    assetId: string,
    versionNumber: string,
    signal: AbortSignal,
  ): Promise<AssetVersion> {
    const made = await (await this.client(connectionId)).assets.rollback({ assetId, versionNumber }, { signal });
    this.changed.fire({ connectionId });
    return made;
  }

  dispose(): void {
    this.removal.dispose();
    this.changed.dispose();
  }

  /**
   * Polls the operation (with the client's backoff) until done, within universeExplorer.operationTimeoutSeconds.
   * A failed operation becomes an Error with the service's message; a cancel stays a cancel.
   */
  private async follow(connectionId: string, op: Operation, signal: AbortSignal): Promise<Operation> {
    const seconds = settings().operationTimeoutSeconds;
    const client = await this.client(connectionId);
    try {
      return await client.assets.waitForOperation(op, { signal, timeoutMs: seconds * 1000 });
    } catch (error) {
      if (error instanceof OperationFailedError)
        throw new Error(error.operationStatus.message || error.message, { cause: error });
      if (error instanceof OperationTimeoutError) {
        throw new Error(
          `the service had not finished after ${seconds} s (setting universeExplorer.operationTimeoutSeconds); it may still finish (${op.path})`,
          { cause: error },
        );
      }
      throw error;
    }
  }

  /** After a change: the list keeps the new display data and every view of the connection's list reloads. */
  private async changedAsset(connectionId: string, asset: Asset): Promise<Asset> {
    await this.known.update(connectionId, { ...asset, id: asset.assetId });
    this.changed.fire({ connectionId });
    return asset;
  }

  private client(connectionId: string): Promise<OpenApiClient> {
    return this.connections.client(connectionId);
  }
}
