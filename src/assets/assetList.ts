import type * as vscode from 'vscode';
import type { Creator } from '../api';

/** What the Assets group remembers of an asset: its id and what to show while the service is not asked. */
export interface KnownAsset {
  id: string;
  displayName: string;
  assetType?: string;
}

const listKey = (connectionId: string) => `universeExplorer.assets.${connectionId}`;
const creatorKey = (connectionId: string) => `universeExplorer.assetCreator.${connectionId}`;

/**
 * The assets each connection knows (there is no call that lists a creator's assets) and the creator last used for
 * an upload, kept in globalState. Ids and display data only; never a key.
 *
 * A list or creator, once read, is kept in memory and written through: globalState can answer with an older value
 * for a moment after two quick updates (two uploads finishing together), which lost the first asset.
 */
export class AssetList {
  private readonly lists = new Map<string, KnownAsset[]>();
  private readonly creators = new Map<string, Creator | undefined>();

  constructor(private readonly state: vscode.Memento) {}

  list(connectionId: string): KnownAsset[] {
    let list = this.lists.get(connectionId);
    if (!list) this.lists.set(connectionId, (list = this.state.get<KnownAsset[]>(listKey(connectionId), [])));
    return [...list];
  }

  get(connectionId: string, id: string): KnownAsset | undefined {
    return this.list(connectionId).find((a) => a.id === id);
  }

  /** Adds the asset at the top of the list, or updates its display data where it is. */
  async add(connectionId: string, asset: KnownAsset): Promise<void> {
    const all = this.list(connectionId);
    const at = all.findIndex((a) => a.id === asset.id);
    const list = all.filter((a) => a.id !== asset.id);
    list.splice(Math.max(at, 0), 0, shown(asset));
    await this.save(connectionId, list);
  }

  /** Updates the display data of a listed asset; one removed meanwhile stays removed. */
  async update(connectionId: string, asset: KnownAsset): Promise<void> {
    const list = this.list(connectionId);
    const at = list.findIndex((a) => a.id === asset.id);
    if (at < 0 || JSON.stringify(list[at]) === JSON.stringify(shown(asset))) return;
    list[at] = shown(asset);
    await this.save(connectionId, list);
  }

  /** Drops everything kept for a connection (it was removed). */
  async forgetConnection(connectionId: string): Promise<void> {
    this.lists.delete(connectionId);
    this.creators.delete(connectionId);
    // Both start at once: globalState answers with the new values from the moment an update starts.
    await Promise.all([
      this.state.update(listKey(connectionId), undefined),
      this.state.update(creatorKey(connectionId), undefined),
    ]);
  }

  async forget(connectionId: string, id: string): Promise<void> {
    await this.save(
      connectionId,
      this.list(connectionId).filter((a) => a.id !== id),
    );
  }

  private async save(connectionId: string, list: KnownAsset[]): Promise<void> {
    this.lists.set(connectionId, list);
    await this.state.update(listKey(connectionId), list);
  }

  creator(connectionId: string): Creator | undefined {
    if (!this.creators.has(connectionId))
      this.creators.set(connectionId, this.state.get<Creator>(creatorKey(connectionId)));
    return this.creators.get(connectionId);
  }

  async setCreator(connectionId: string, creator: Creator): Promise<void> {
    this.creators.set(connectionId, creator);
    await this.state.update(creatorKey(connectionId), creator);
  }

  /** Adds assets not listed yet, at the end, in one write. */
  async addAll(connectionId: string, assets: readonly KnownAsset[]): Promise<void> {
    const list = this.list(connectionId);
    const added = assets.filter((a) => !list.some((b) => b.id === a.id)).map(shown);
    if (added.length) await this.save(connectionId, [...list, ...added]);
  }
}

/** Only the fields the list keeps (an Asset from the service has many more). */
function shown(asset: KnownAsset): KnownAsset {
  return asset.assetType
    ? { id: asset.id, displayName: asset.displayName, assetType: asset.assetType }
    : { id: asset.id, displayName: asset.displayName };
}
