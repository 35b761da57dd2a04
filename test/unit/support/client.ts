// A client for tests: a recognisable API key, fast backoff, and every log line kept.
import { inspect } from 'node:util';
import { OpenApiClient, type ClientOptions, type LogEvent } from '../../../src/api';

export const API_KEY = 'test-secret-key-7f3a9c';

export function makeClient(
  baseUrl: string,
  overrides: Partial<ClientOptions> = {},
): { client: OpenApiClient; logs: LogEvent[] } {
  const logs: LogEvent[] = [];
  const client = new OpenApiClient({
    baseUrl,
    apiKey: API_KEY,
    retry: { maxAttempts: 4, baseDelayMs: 10, maxDelayMs: 50 },
    log: (e) => logs.push(e),
    ...overrides,
  });
  return { client, logs };
}

/** Everything an error exposes (message, stack, own properties, cause), as one string. */
export function everything(value: unknown): string {
  return inspect(value, { depth: 10, showHidden: true }) + JSON.stringify(value ?? null);
}

/** Runs `fn` and returns what it rejected with; fails if it resolved. */
export async function rejection(fn: () => Promise<unknown>): Promise<Error> {
  try {
    await fn();
  } catch (err) {
    return err as Error;
  }
  throw new Error('expected a rejection');
}

/** Waits until `check` holds, looking every 10 ms; fails after `ms`. */
export async function until(check: () => boolean, ms = 5_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
