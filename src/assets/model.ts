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
import { t } from '../core/text';
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

/** An upload the service answered but whose operation was not followed to its end (cancelled, timed out, cut off). */
export interface PendingUpload {
  /** The operation's path, `operations/<id>`. */
  operation: string;
  /** The file it was made from, as the user named it. */
  file: string;
  displayName: string;
  /** ms since the epoch. */
  since: number;
}

const pendingKey = (connectionId: string) => `universeExplorer.pendingUploads.${connectionId}`;
const introducedKey = (connectionId: string) => `universeExplorer.assetsIntroduced.${connectionId}`;

/** `assetId` absent: the connection's list changed; present: that asset was read again. */
export interface AssetsChange {
  connectionId: string;
  assetId?: string;
}

const detailsKey = (connectionId: string, assetId: string) => `${connectionId}/${assetId}`;

/** The service finished an operation with an error: nothing was made. */
export class UploadFailedError extends Error {
  override name = 'UploadFailedError';
}

export class AssetsModel implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<AssetsChange>();
  readonly onDidChange = this.changed.event;
  private readonly known: AssetList;
  private readonly details = new Map<string, AssetDetails>();
  private readonly introduced = new Map<string, Promise<void>>();
  private readonly removal: vscode.Disposable;

  constructor(
    private readonly connections: Connections,
    private readonly state: vscode.Memento,
  ) {
    this.known = new AssetList(state);
    this.removal = connections.onDidRemove((id) => {
      void this.known.forgetConnection(id);
      void state.update(pendingKey(id), undefined);
    });
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

  /**
   * Adds assets the connection is known to hold (the Local Sandbox's demo), once per connection: what the user
   * removes from the list later stays removed.
   */
  introduce(connectionId: string, assets: readonly KnownAsset[]): Promise<void> {
    let done = this.introduced.get(connectionId);
    if (!done) {
      const key = introducedKey(connectionId);
      done = this.state.get<boolean>(key)
        ? Promise.resolve()
        : this.known.addAll(connectionId, assets).then(async () => {
            await this.state.update(key, true);
            this.changed.fire({ connectionId });
          });
      this.introduced.set(connectionId, done);
    }
    return done;
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

  /**
   * Reads every known asset of the connection, a few at a time, after asking about pending uploads; returns them in
   * list order.
   */
  async readAll(connectionId: string, signal?: AbortSignal): Promise<KnownAsset[]> {
    await this.checkPending(connectionId, signal, false).catch(() => undefined);
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

  /**
   * Follows an upload's operation to its asset, which joins the list. The upload is recorded as pending before the
   * first poll: if following stops (cancel, timeout, a lost connection) the asset the service may still make is
   * found later (checkPending), never uploaded twice by accident.
   */
  async uploaded(
    connectionId: string,
    op: Operation,
    file: string,
    displayName: string,
    signal: AbortSignal,
  ): Promise<Asset> {
    await this.setPending(connectionId, [
      ...this.pending(connectionId),
      { operation: op.path, file, displayName, since: Date.now() },
    ]);
    let done: Operation;
    try {
      done = await this.follow(connectionId, op, signal);
    } catch (error) {
      // The service said the upload failed: nothing will come of it.
      if (error instanceof UploadFailedError) await this.dropPending(connectionId, op.path);
      throw error;
    }
    await this.dropPending(connectionId, op.path);
    const asset = done.response;
    if (!asset) throw new Error(t`the finished operation holds no asset`);
    await this.add(connectionId, { id: asset.assetId, displayName: asset.displayName, assetType: asset.assetType });
    return asset;
  }

  /** Uploads of the connection whose outcome is not known yet. */
  pending(connectionId: string): PendingUpload[] {
    return this.state.get<PendingUpload[]>(pendingKey(connectionId), []);
  }

  /**
   * Asks the service once about each pending upload: a finished one joins the list, a failed one is dropped (and
   * reported in the result), one still running stays pending.
   */
  async checkPending(
    connectionId: string,
    signal?: AbortSignal,
    notify = true,
  ): Promise<{ added: Asset[]; failed: PendingUpload[] }> {
    const added: Asset[] = [];
    const failed: PendingUpload[] = [];
    const list = this.pending(connectionId);
    if (!list.length) return { added, failed };
    const client = await this.client(connectionId);
    for (const p of list) {
      const op = await client.assets.getOperation(
        { operationId: p.operation },
        { signal: signal ?? this.connections.signal(connectionId) },
      );
      if (!op.done) continue;
      await this.dropPending(connectionId, p.operation);
      if (op.response) {
        const asset = op.response;
        await this.known.add(connectionId, {
          id: asset.assetId,
          displayName: asset.displayName,
          assetType: asset.assetType,
        });
        added.push(asset);
      } else failed.push(p);
    }
    if (notify) this.changed.fire({ connectionId });
    return { added, failed };
  }

  /** Forgets a pending upload (the user gave up on it). */
  async forgetPending(connectionId: string, operation: string): Promise<void> {
    await this.dropPending(connectionId, operation);
    this.changed.fire({ connectionId });
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
    step(args.file ? t`uploading…` : t`saving…`);
    const op = await client.assets.update({ assetId, ...args }, { signal });
    step(t`processing…`);
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
          t`the service had not finished after ${seconds} s (setting universeExplorer.operationTimeoutSeconds); it may still finish, so it is listed under Assets as pending and checked again when the list loads`,
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

  private async dropPending(connectionId: string, operation: string): Promise<void> {
    await this.setPending(
      connectionId,
      this.pending(connectionId).filter((p) => p.operation !== operation),
    );
  }

  private async setPending(connectionId: string, list: PendingUpload[]): Promise<void> {
    await this.state.update(pendingKey(connectionId), list.length ? list : undefined);
  }

  private client(connectionId: string): Promise<OpenApiClient> {
    return this.connections.client(connectionId);
  }
}
