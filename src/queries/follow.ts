// Keeps each universe's query index current with what the editor reads and writes (the wiring hands the data stores'
// entries over): rows of indexed stores are updated in batches, one transaction a batch; a bulk run marks its store
// as written since the index read it. Nothing is done for a universe that has no index: none is made and DuckDB is
// not loaded for it.
import fs = require('node:fs');
import type { Log } from '../core/log';
import { universeKey, type UniverseAddress } from '../core/universe';
import type { RowUpdate } from '../query';
import type { QueryIndexes } from './indexes';

/** An entry the editor read, wrote or found deleted, in its universe. */
export interface SeenRow extends RowUpdate {
  universe: UniverseAddress;
}

export class IndexFollower {
  /** Per universe, the rows waiting for the next batch (a key seen twice keeps its last state). */
  private readonly queued = new Map<string, { universe: UniverseAddress; rows: Map<string, RowUpdate> }>();
  private draining?: Promise<void>;
  /** Bulk marks being kept, one after the other. */
  private marking: Promise<void> = Promise.resolve();

  constructor(
    private readonly indexes: QueryIndexes,
    private readonly log: Log,
  ) {}

  /** Queues the row when the universe has an index (or one being built): a batch applies it soon. */
  seen({ universe, ...row }: SeenRow): void {
    const index = this.indexes.index(universe);
    if (!index.isBuilding(row.store) && !fs.existsSync(index.file)) return;
    const key = universeKey(universe);
    let batch = this.queued.get(key);
    if (!batch) this.queued.set(key, (batch = { universe, rows: new Map() }));
    batch.rows.set(JSON.stringify([row.store, row.scope, row.key]), row);
    this.drain();
  }

  /** A bulk run (restore, import) wrote the store: an index holding it says so until the store is read again. */
  writtenInBulk(universe: UniverseAddress, store: string): void {
    if (!fs.existsSync(this.indexes.index(universe).file)) return;
    this.marking = this.marking.then(() =>
      this.indexes.writtenInBulk(universe, store).catch((error: unknown) => this.failed(universe, error)),
    );
  }

  /** Resolves when every row and bulk write seen so far is applied (or left out). */
  async settled(): Promise<void> {
    while (this.draining) await this.draining;
    await this.marking;
  }

  private drain(): void {
    this.draining ??= (async () => {
      // What the same turn of events sees joins one batch.
      await new Promise((resolve) => setImmediate(resolve));
      for (const [key, { universe, rows }] of this.queued) {
        this.queued.delete(key);
        await this.apply(universe, [...rows.values()]);
      }
    })().finally(() => {
      this.draining = undefined;
      if (this.queued.size) this.drain();
    });
  }

  private async apply(universe: UniverseAddress, rows: RowUpdate[]): Promise<void> {
    const index = this.indexes.index(universe);
    try {
      const parts = fs.existsSync(index.file) ? await this.indexes.covered(universe) : [];
      const held = rows.filter(
        (r) => index.isBuilding(r.store) || parts.some((p) => p.store === r.store && (p.scope ?? r.scope) === r.scope),
      );
      if (held.length && (await index.updateEntries(held))) await this.indexes.reload(universe);
    } catch (error) {
      this.failed(universe, error);
    }
  }

  private failed(u: UniverseAddress, error: unknown): void {
    const reason = error instanceof Error ? error.message : String(error);
    const where = this.indexes.connections.get(u.connectionId)?.name ?? u.connectionId;
    this.log.warn(`The query index of universe ${u.universeId} on ${where} did not follow the editor: ${reason}`);
  }
}
