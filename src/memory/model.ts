// The memory stores model: the sorted maps and queues each universe remembers (the service cannot list them), every
// read and write through the client, and the events the tree follows. Every write checks the universe first.
import vscode = require('vscode');
import type { MemoryOperation, OpenApiClient, QueueItem, QueueRead, SortedMapItem } from '../api';
import type { Connections } from '../core/connections';
import type { RememberedNames } from '../core/rememberedNames';
import { settings } from '../core/settings';
import type { Page } from '../core/tree/pager';
import { assertWritable, sameUniverse, type UniverseAddress } from '../core/universe';

export type MemoryKind = 'sortedMap' | 'queue';

/** `map` absent: the universe's lists of names changed (or everything, after a flush); present: that map's items. */
export interface MemoryChange {
  universe: UniverseAddress;
  map?: string;
}

/** An item as it is written: value, sort key (none when absent) and seconds to live. */
export interface ItemWrite {
  value: unknown;
  sortKey?: number | string;
  ttlSeconds: number;
}

export class MemoryModel implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<MemoryChange>();
  readonly onDidChange = this.changed.event;
  private readonly following: vscode.Disposable;

  constructor(
    private readonly connections: Connections,
    private readonly remembered: RememberedNames,
  ) {
    this.following = remembered.onDidChange(({ universe, kind }) => {
      if (kind === 'sortedMap' || kind === 'queue') this.changed.fire({ universe });
    });
  }

  names(u: UniverseAddress, kind: MemoryKind): string[] {
    return this.remembered.list(u, kind);
  }

  remember(u: UniverseAddress, kind: MemoryKind, name: string): Promise<void> {
    return this.remembered.add(u, kind, name);
  }

  forget(u: UniverseAddress, kind: MemoryKind, name: string): Promise<void> {
    return this.remembered.forget(u, kind, name);
  }

  /** Names the universe is known to hold (the Local Sandbox's demo), once. */
  introduce(u: UniverseAddress, kind: MemoryKind, names: readonly string[]): Promise<void> {
    return this.remembered.introduce(u, kind, names);
  }

  /** One page of the map's items, in map order. */
  async listItems(
    u: UniverseAddress,
    mapName: string,
    cursor: string | undefined,
    signal?: AbortSignal,
  ): Promise<Page<SortedMapItem>> {
    const client = await this.client(u);
    const page = await client.sortedMaps.listItems(
      { universeId: u.universeId, mapName, limit: Math.min(100, settings().pageSize), cursor },
      { signal },
    );
    return { items: page.items, next: page.next };
  }

  /** NotFoundError when the item is missing or has expired. */
  async getItem(u: UniverseAddress, mapName: string, key: string, signal?: AbortSignal): Promise<SortedMapItem> {
    const client = await this.client(u);
    return client.sortedMaps.getItem({ universeId: u.universeId, mapName, key }, { signal });
  }

  /** AlreadyExistsError when the key is there. */
  async createItem(u: UniverseAddress, mapName: string, key: string, write: ItemWrite): Promise<SortedMapItem> {
    assertWritable(u);
    const client = await this.client(u);
    const item = await client.sortedMaps.createItem({ universeId: u.universeId, mapName, key, ...write });
    this.changed.fire({ universe: u, map: mapName });
    return item;
  }

  /** Conditioned on `etag` when given (EtagMismatchError); NotFoundError when the item is gone. */
  async updateItem(
    u: UniverseAddress,
    mapName: string,
    key: string,
    write: ItemWrite,
    etag: string | undefined,
  ): Promise<SortedMapItem> {
    assertWritable(u);
    const client = await this.client(u);
    const item = await client.sortedMaps.updateItem({ universeId: u.universeId, mapName, key, ...write, etag });
    this.changed.fire({ universe: u, map: mapName });
    return item;
  }

  async deleteItem(u: UniverseAddress, mapName: string, key: string, etag?: string): Promise<void> {
    assertWritable(u);
    const client = await this.client(u);
    await client.sortedMaps.deleteItem({ universeId: u.universeId, mapName, key, etag });
    this.changed.fire({ universe: u, map: mapName });
  }

  async addQueueItem(
    u: UniverseAddress,
    queueName: string,
    item: { data: unknown; priority: number; ttlSeconds: number },
  ): Promise<QueueItem> {
    assertWritable(u);
    const client = await this.client(u);
    return client.queues.addItem({ universeId: u.universeId, queueName, ...item });
  }

  /** Hides what it reads from every other reader for the window: a write, refused on a read-only universe. */
  async readQueue(
    u: UniverseAddress,
    queueName: string,
    count: number,
    invisibilitySeconds: number,
    signal?: AbortSignal,
  ): Promise<QueueRead> {
    assertWritable(u);
    const client = await this.client(u);
    return client.queues.readItems({ universeId: u.universeId, queueName, count, invisibilitySeconds }, { signal });
  }

  async discard(u: UniverseAddress, queueName: string, readId: string): Promise<void> {
    assertWritable(u);
    const client = await this.client(u);
    await client.queues.discardItems({ universeId: u.universeId, queueName, readId });
  }

  /** Starts the flush; `follow` polls it to its end (stopping the poll leaves the flush going). */
  async flush(u: UniverseAddress): Promise<MemoryOperation> {
    assertWritable(u);
    const client = await this.client(u);
    return client.memoryStores.flush({ universeId: u.universeId });
  }

  async follow(
    u: UniverseAddress,
    operation: MemoryOperation,
    signal: AbortSignal,
    onProgress: (op: MemoryOperation) => void,
  ): Promise<MemoryOperation> {
    const client = await this.client(u);
    try {
      return await client.memoryStores.waitForFlush(
        { universeId: u.universeId, operation },
        { signal, onProgress, initialDelayMs: 250, maxDelayMs: 2000 },
      );
    } finally {
      this.changed.fire({ universe: u });
    }
  }

  /** Whether the change concerns what a node of universe `u` (and map `map`, when given) shows. */
  static touches(change: MemoryChange, u: UniverseAddress, map?: string): boolean {
    if (!sameUniverse(change.universe, u)) return false;
    return change.map === undefined || map === undefined || change.map === map;
  }

  dispose(): void {
    this.following.dispose();
    this.changed.dispose();
  }

  private client(u: UniverseAddress): Promise<OpenApiClient> {
    return this.connections.client(u.connectionId);
  }
}
