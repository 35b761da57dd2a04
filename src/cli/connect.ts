// The connection of a command: the universe, the service's address, and the API key, which comes only from the
// UE_API_KEY environment variable or a file (--api-key-file), and is hidden in everything the command writes.
import fsp = require('node:fs/promises');
import {
  AuthError,
  checkMoment,
  isAbort,
  NetworkError,
  OpenApiClient,
  parseMoment,
  PermissionDeniedError,
  RateLimitedError,
  TimeoutError,
  type ClientOptions,
} from '../api';
import type { Context } from './command';
import { DEFAULT_BASE_URL, flag, required, text, type Values } from './options';
import { UsageError } from './output';

/** The universe id of --universe: digits only. */
export function universeOf(values: Values): string {
  const universe = required(values, 'universe', 'the universe id, e.g. --universe 123456');
  if (!/^\d{1,19}$/.test(universe)) {
    throw new UsageError(`--universe: ${JSON.stringify(universe)} is not a universe id (a number, e.g. 123456)`);
  }
  return universe;
}

/** The API key: --api-key-file's content (trimmed) when given, else UE_API_KEY. */
async function apiKey(values: Values, env: NodeJS.ProcessEnv): Promise<string> {
  const file = text(values, 'api-key-file');
  if (file !== undefined) {
    let key: string;
    try {
      key = (await fsp.readFile(file, 'utf8')).trim();
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? 'unreadable';
      throw new UsageError(`cannot read the API key file ${file} (${code}): check the path given to --api-key-file`);
    }
    if (!key) throw new UsageError(`the API key file ${file} is empty: put the key in it`);
    if (/\s/.test(key)) throw new UsageError(`the API key file ${file} holds more than one word: keep only the key`);
    return key;
  }
  const key = env.UE_API_KEY?.trim();
  if (!key) {
    throw new UsageError(
      'no API key: set the UE_API_KEY environment variable, or name a file holding the key with --api-key-file',
    );
  }
  return key;
}

/** The connection's options, checked: the key (hidden in the command's output from now on), address and prefix. */
export async function clientOptions(ctx: Context): Promise<ClientOptions> {
  const key = await apiKey(ctx.values, ctx.env);
  ctx.out.hide(key);
  const prefix = text(ctx.values, 'entry-header-prefix');
  if (prefix !== undefined && !/^[A-Za-z0-9]+$/.test(prefix)) {
    throw new UsageError(`--entry-header-prefix: ${JSON.stringify(prefix)} is not a word of letters and digits`);
  }
  return {
    baseUrl: text(ctx.values, 'base-url') ?? DEFAULT_BASE_URL,
    apiKey: key,
    entryHeaderPrefix: prefix,
    allowInsecureHttp: flag(ctx.values, 'allow-insecure-http'),
    userAgent: 'universe-explorer-cli',
  };
}

/** A client of `options`; an address it refuses is a UsageError. */
export function openClient(options: ClientOptions): OpenApiClient {
  try {
    return new OpenApiClient(options);
  } catch (error) {
    const reason = error instanceof TypeError && /Invalid URL/.test(error.message) ? 'not an address' : '';
    throw new UsageError(
      reason ? `--base-url: ${JSON.stringify(options.baseUrl)} is ${reason}` : (error as Error).message,
    );
  }
}

/**
 * A client for the command's connection; the key is hidden in the command's output and the client closed at its end.
 * `named`: the universe a file names (a plan), which --universe may repeat but not contradict.
 */
export async function connect(ctx: Context, named?: string): Promise<{ client: OpenApiClient; universe: string }> {
  const universe = named === undefined || ctx.values.universe !== undefined ? universeOf(ctx.values) : named;
  if (named !== undefined && universe !== named) {
    throw new UsageError(`--universe ${universe} is not the universe the file names (${named}): leave --universe out`);
  }
  return { client: await clientOf(ctx), universe };
}

/** A client for the command's connection without a universe (assets belong to a user or a group). */
export async function clientOf(ctx: Context): Promise<OpenApiClient> {
  const client = openClient(await clientOptions(ctx));
  ctx.onClose(() => client.close());
  return client;
}

/** Refuses a store the universe does not have (a typo would otherwise read as an empty store). */
export async function requireStore(
  client: OpenApiClient,
  universe: string,
  store: string,
  signal: AbortSignal,
): Promise<void> {
  for await (const s of client.datastores.listDataStores({ universeId: universe, prefix: store }, { signal })) {
    if (s.name === store) return;
  }
  throw new UsageError(
    `universe ${universe} has no data store named ${JSON.stringify(store)}: check --store (names are case-sensitive)`,
  );
}

export interface StoreChoice {
  store: string;
  scope?: string;
  allScopes?: true;
}

/** --store with --scope or --all-scopes (not both). */
export function storeOf(values: Values): StoreChoice {
  const store = required(values, 'store', 'the data store, e.g. --store PlayerData');
  const scope = text(values, 'scope');
  if (flag(values, 'all-scopes')) {
    if (scope !== undefined) throw new UsageError('--scope and --all-scopes go apart: give one of them');
    return { store, allScopes: true };
  }
  return { store, scope: scope ?? 'global' };
}

/** `PlayerData (scope global)`, `PlayerData (all scopes)`. */
export const describeStore = (s: StoreChoice): string =>
  `${s.store} (${s.allScopes ? 'all scopes' : `scope ${s.scope ?? 'global'}`})`;

/** A time option read as the editor reads one (ISO, `2024-01-15 10:00`, `3 hours ago`), within what is kept. */
export function momentOf(values: Values, name: string): Date {
  const typed = required(values, name, 'a time, e.g. "3 hours ago" or 2024-01-15T10:00:00Z');
  const now = new Date();
  try {
    const time = parseMoment(typed, { now });
    checkMoment(time, now);
    return time;
  } catch (error) {
    throw new UsageError(`--${name}: ${(error as Error).message}`);
  }
}

/** What to do about a failure the service or the network answered. */
function hint(error: unknown): string | undefined {
  if (error instanceof AuthError) return 'check the API key in UE_API_KEY or the --api-key-file';
  if (error instanceof PermissionDeniedError) {
    return "check that the API key's scopes and universes allow this";
  }
  if (error instanceof NetworkError || error instanceof TimeoutError) {
    return 'check --base-url and the network, then run the command again';
  }
  if (error instanceof RateLimitedError) return 'the rate limit held: run the command again later';
  return undefined;
}

/** `<what>: <reason>; <what to do>` for a failure that is not a usage error (those are thrown as they are). */
export function failure(what: string, error: unknown): Error {
  if (error instanceof UsageError || isAbort(error)) return error as Error;
  const reason = error instanceof Error ? error.message : String(error);
  const todo = hint(error);
  return new Error(`${what}: ${reason}${todo ? `; ${todo}` : ''}`, { cause: error });
}
