// Following a long-running operation (an asset's upload or update, a memory store flush) to its end.
import { OperationFailedError, OperationTimeoutError } from './errors';
import { sleep, type CallOptions, type Transport } from './http';
import type { OperationStatus } from './schemas';

export interface FollowOptions<Op> extends CallOptions {
  /** Default 5 minutes. */
  timeoutMs?: number;
  /** First pause between polls, doubled after each poll. Default 500 ms. */
  initialDelayMs?: number;
  /** Cap of the pause between polls. Default 8 s. */
  maxDelayMs?: number;
  onProgress?: (op: Op, attempt: number) => void;
}

interface OperationLike {
  path: string;
  done: boolean;
  error?: OperationStatus;
}

/**
 * Polls (`poll`, given the signal to pass on) until the operation is done, starting from `known` when there is one,
 * pausing `initialDelayMs` and doubling up to `maxDelayMs`. Rejects with OperationFailedError when it finished with
 * an error (its status cleaned of secrets and cut), OperationTimeoutError after `timeoutMs` (naming `fallbackPath`
 * when no poll answered).
 */
export async function followOperation<Op extends OperationLike>(
  http: Transport,
  known: Op | undefined,
  fallbackPath: string,
  poll: (signal: AbortSignal) => Promise<Op>,
  options: FollowOptions<Op> = {},
): Promise<Op> {
  const { signal, timeoutMs = 300_000, initialDelayMs = 500, maxDelayMs = 8_000, onProgress } = options;
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), timeoutMs);
  const until = signal ? AbortSignal.any([signal, deadline.signal]) : deadline.signal;
  let attempt = 0;
  let op = known;
  const next = async (): Promise<Op> => {
    op = await poll(until);
    onProgress?.(op, ++attempt);
    return op;
  };
  try {
    let current = op ?? (await next());
    for (let delay = initialDelayMs; !current.done; delay = Math.min(delay * 2, maxDelayMs)) {
      await sleep(delay, until);
      current = await next();
    }
    if (current.error) throw new OperationFailedError(current.path, cleanStatus(http, current.error));
    return current;
  } catch (err) {
    if (deadline.signal.aborted && !signal?.aborted)
      throw new OperationTimeoutError(op?.path ?? fallbackPath, timeoutMs, op);
    throw err;
  } finally {
    clearTimeout(timer);
  }
}

/** An operation's error status as the service sent it, with secrets hidden and its texts cut. */
function cleanStatus(http: Transport, status: OperationStatus): OperationStatus {
  const { code, message } = status;
  return {
    ...http.redact(status),
    code: typeof code === 'string' ? http.serviceText(code, 100) : code,
    message: http.serviceText(message),
  };
}
