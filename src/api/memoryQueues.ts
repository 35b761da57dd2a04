// Memory store queues through cloud v2 (open-api-ordered-memory.md §4, decisions of §9): add an item, read items (which
// hides them from every other reader, game servers included, for the invisibility window), discard what a read
// returned. There is no peek, so a read is a write: the write guard refuses it on a read-only universe. Add and Read
// are never repeated (a repeat would add twice, or hide and lose a second batch); Discard is (it deletes exactly
// that read's items, once). A read that finds nothing is an empty read, not an error (U2). A 429 is the universe's
// quota (QuotaExceededError).
import { writes } from './access';
import { NotFoundError } from './errors';
import { type CallOptions, type RequestSpec, type Transport } from './http';
import {
  asQuotaExceeded,
  duration,
  finite,
  jsonText,
  MEMORY_BUDGET,
  memoryPath,
  nameSegment,
  type MemoryStoreArgs,
} from './memoryWire';
import { QueueItemSchema, QueueReadSchema, type QueueItem } from './schemasMemory';

export interface QueueArgs extends MemoryStoreArgs {
  queueName: string;
}

export interface AddQueueItemArgs extends QueueArgs {
  /** Any JSON value but null. */
  data: unknown;
  /** Higher leaves first; default 0. */
  priority?: number;
  /** Whole seconds, 1 to 45 days; always sent (U6). */
  ttlSeconds: number;
}

export interface ReadQueueArgs extends QueueArgs {
  /** 1 to 200; default 1. */
  count?: number;
  /** Only all `count` items or none; default false (as many as are visible). */
  allOrNothing?: boolean;
  /** Whole seconds the items stay hidden from other readers, 1 to 45 days; default 30 (the service's default). */
  invisibilitySeconds?: number;
}

/** What a read returned; `readId` discards exactly these items. An empty read has no id. */
export interface QueueRead {
  readId?: string;
  items: QueueItem[];
}

export interface DiscardQueueItemsArgs extends QueueArgs {
  readId: string;
}

export const MAX_QUEUE_READ = 200;

const JSON_HEADERS = { 'content-type': 'application/json' };

function readCount(count: number | undefined): number {
  if (count === undefined) return 1;
  if (!Number.isInteger(count) || count < 1)
    throw new RangeError(`The count must be a whole number from 1, got ${count}`);
  return Math.min(count, MAX_QUEUE_READ);
}

export class QueuesApi {
  constructor(private readonly http: Transport) {}

  private itemsPath(args: QueueArgs): string {
    return memoryPath(args.universeId, `memory-store/queues/${nameSegment(args.queueName, 'queue name')}/items`);
  }

  /** Adds one item after those of its priority. Never repeated. */
  async addItem(args: AddQueueItemArgs, opts: CallOptions = {}): Promise<QueueItem> {
    const fields = [`"data":${jsonText(args.data, 'data')}`];
    if (args.priority !== undefined) fields.push(`"priority":${finite(args.priority, 'priority')}`);
    fields.push(`"ttl":"${duration(args.ttlSeconds, 'time to live')}"`);
    return this.http
      .json(
        {
          method: 'POST',
          access: writes(args.universeId),
          path: this.itemsPath(args),
          headers: JSON_HEADERS,
          body: Buffer.from(`{${fields.join(',')}}`, 'utf8'),
          retry: 'never',
          signal: opts.signal,
          budget: MEMORY_BUDGET,
        },
        QueueItemSchema,
      )
      .catch(asQuotaExceeded);
  }

  /**
   * Reads up to `count` items, highest priority first, hiding them for the window. Nothing visible (a 404 with the
   * service's NOT_FOUND body, a 204, an empty 200) is an empty read; a 404 of any other shape (an unknown route) is a
   * NotFoundError. Never repeated.
   */
  async readItems(args: ReadQueueArgs, opts: CallOptions = {}): Promise<QueueRead> {
    const spec: RequestSpec = {
      method: 'GET',
      access: writes(args.universeId),
      path: `${this.itemsPath(args)}:read`,
      query: {
        count: readCount(args.count),
        allOrNothing: args.allOrNothing ?? false,
        invisibilityWindow: duration(args.invisibilitySeconds ?? 30, 'invisibility window'),
      },
      retry: 'never',
      signal: opts.signal,
      budget: MEMORY_BUDGET,
    };
    const res = await this.http.request(spec).catch((error: unknown) => {
      if (error instanceof NotFoundError && error.code === 'NOT_FOUND') return undefined;
      return asQuotaExceeded(error);
    });
    if (!res || res.body.toString('utf8').trim() === '') return { items: [] };
    const read = this.http.parse(spec, res, QueueReadSchema);
    return read.items.length ? { readId: read.readId, items: read.items } : { items: [] };
  }

  /** Deletes the items a read returned, if their window is still open; after it, does nothing (U3). */
  async discardItems(args: DiscardQueueItemsArgs, opts: CallOptions = {}): Promise<void> {
    if (args.readId === '') throw new TypeError('The read id is empty');
    await this.http
      .request({
        method: 'POST',
        access: writes(args.universeId),
        path: `${this.itemsPath(args)}:discard`,
        headers: JSON_HEADERS,
        body: Buffer.from(JSON.stringify({ readId: args.readId }), 'utf8'),
        retry: 'idempotent',
        signal: opts.signal,
        budget: MEMORY_BUDGET,
      })
      .catch(asQuotaExceeded);
  }
}
