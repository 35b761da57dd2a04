// Flushing a universe's memory stores through cloud v2 (open-api-ordered-memory.md §5, U14): every sorted map and
// queue of the chosen scope (and the engine's hash maps) is removed by a long-running operation, followed here as
// assets' operations are (assets.ts, waitForOperation). The operation is polled by the id at the end of its path at
// `memory-store/operations/{id}`; when that route is unknown (a 404 in the gateway's shape), at the universe's
// `operations/{id}`, the form of the 2024 path, for the rest of the wait. Neither is pasted from the returned path.
import { writes } from './access';
import { NotFoundError } from './errors';
import { seg, type CallOptions, type RequestSpec, type Transport } from './http';
import { asQuotaExceeded, MEMORY_BUDGET, memoryPath, type MemoryStoreArgs } from './memoryWire';
import { followOperation, type FollowOptions } from './operations';
import { lastSegment, MemoryOperationSchema, type MemoryOperation } from './schemasMemory';

/** LIVE: the game's data; TEST: Studio's copy, kept apart. */
export type MemoryStoreScope = 'LIVE' | 'TEST';

export interface FlushArgs extends MemoryStoreArgs {
  /** Default LIVE. */
  scope?: MemoryStoreScope;
}

export interface FlushOperationArgs extends FlushArgs {
  /** The operation's id, or its whole returned path. */
  operationId: string;
}

export type FlushWaitOptions = FollowOptions<MemoryOperation>;

/** The two routes an operation is polled at, in the order tried. */
const POLL_ROUTES = ['memory-store/operations', 'operations'] as const;

export class MemoryStoresApi {
  constructor(private readonly http: Transport) {}

  /**
   * Starts the flush and gives its operation (usually not done yet). Universe-wide and irreversible. Repeated only
   * when the service says it did not apply an attempt: a repeat would also remove what was written in between.
   */
  async flush(args: FlushArgs, opts: CallOptions = {}): Promise<MemoryOperation> {
    return this.http
      .json(
        {
          method: 'POST',
          access: writes(args.universeId),
          path: memoryPath(args.universeId, 'memory-store:flush'),
          query: { scope: args.scope ?? 'LIVE' },
          retry: 'unapplied',
          signal: opts.signal,
          budget: MEMORY_BUDGET,
        },
        MemoryOperationSchema,
      )
      .catch(asQuotaExceeded);
  }

  /** The operation as it is now. */
  async getFlushOperation(args: FlushOperationArgs, opts: CallOptions = {}): Promise<MemoryOperation> {
    return (await this.poll(args, 0, opts)).op;
  }

  /** Starts the flush and follows it to its end (see waitForFlush). */
  async flushAndWait(args: FlushArgs, options: FlushWaitOptions = {}): Promise<MemoryOperation> {
    const started = await this.flush(args, options);
    return this.waitForFlush({ ...args, operation: started }, options);
  }

  /**
   * Polls until the operation is done, pausing `initialDelayMs` and doubling up to `maxDelayMs`. Rejects with
   * OperationFailedError when it finished with an error, OperationTimeoutError after `timeoutMs`.
   */
  async waitForFlush(
    args: FlushArgs & { operation: MemoryOperation | string },
    options: FlushWaitOptions = {},
  ): Promise<MemoryOperation> {
    const operationId = typeof args.operation === 'string' ? lastSegment(args.operation) : args.operation.operationId;
    const known = typeof args.operation === 'string' ? undefined : args.operation;
    // The route that answered is kept for the next poll.
    let route = 0;
    return followOperation(
      this.http,
      known,
      `operations/${operationId}`,
      async (signal) => {
        const polled = await this.poll({ ...args, operationId }, route, { signal });
        route = polled.route;
        return polled.op;
      },
      options,
    );
  }

  /** One poll from route `from` on: the next route only after a gateway-shaped 404 (the service's is NOT_FOUND). */
  private async poll(
    args: FlushOperationArgs,
    from: number,
    opts: CallOptions,
  ): Promise<{ op: MemoryOperation; route: number }> {
    const id = lastSegment(args.operationId);
    if (id === '') throw new TypeError('The operation id is empty');
    for (let route = from; ; route++) {
      const spec: RequestSpec = {
        method: 'GET',
        access: 'read',
        path: memoryPath(args.universeId, `${POLL_ROUTES[route]}/${seg(id)}`),
        query: { scope: args.scope ?? 'LIVE' },
        retry: 'idempotent',
        signal: opts.signal,
        budget: MEMORY_BUDGET,
      };
      try {
        return { op: await this.http.json(spec, MemoryOperationSchema), route };
      } catch (error) {
        const unknownRoute = error instanceof NotFoundError && error.code !== 'NOT_FOUND';
        if (!unknownRoute || route + 1 >= POLL_ROUTES.length) return asQuotaExceeded(error);
      }
    }
  }

  /** An operation's error as an error message may show it: the API key hidden, its text on one line and short. */
}
