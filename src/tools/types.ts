// What an agent tool is, for every face that offers it (the MCP server, VS Code's language model tools): its name,
// title, description, input schema (zod/mini, turned into JSON Schema by the face) and its run.
import * as z from 'zod/mini';
import {
  AuthError,
  checkMoment,
  isAbort,
  NetworkError,
  parseMoment,
  PermissionDeniedError,
  RateLimitedError,
  TimeoutError,
  type OpenApiClient,
} from '../api';
import type { UniverseIndex } from '../query';

/** What a tool gets from its face. */
export interface ToolContext {
  /** The connection's client for a universe (none: a call not tied to one, e.g. an asset). Throws a ToolError when the face refuses the universe. */
  client(universe?: string): Promise<OpenApiClient>;
  /** The universe's query index; throws a ToolError saying how to build one when there is none. */
  index(universe: string): Promise<UniverseIndex>;
  /** The folder plans (and full comparisons) are written in. */
  plansDir: string;
  signal: AbortSignal;
  /** Why apply_plan may not write to this universe (with what to do about it), or undefined when it may. */
  refuseApply(universe: string): Promise<string | undefined>;
  /** How far a long run is (MCP's progress notifications, which keep a client's time limit off); absent: untold. */
  progress?(done: number, total: number): void;
}

/** A failure in the tool's own words: what, why, what to do. Faces show its message as it is. */
export class ToolError extends Error {
  override name = 'ToolError';
}

export interface Tool<S extends z.ZodMiniObject = z.ZodMiniObject> {
  /** snake_case. */
  name: string;
  title: string;
  description: string;
  input: S;
  /** read: reads only; plan: writes a plan file on this machine, never to the service; apply: writes to the service. */
  kind: 'read' | 'plan' | 'apply';
  run(input: z.output<S>, ctx: ToolContext): Promise<object>;
}

/** A tool, typed by its schema (the list of tools holds them as Tool). */
export const tool = <S extends z.ZodMiniObject>(t: Tool<S>): Tool => t as unknown as Tool;

/** A field's description (the JSON Schema's `description`). */
export const about = <T extends z.ZodMiniType>(schema: T, text: string): T => schema.check(z.describe(text)) as T;

export const universeField = about(z.string().check(z.regex(/^\d{1,19}$/)), 'the universe id (digits), e.g. "123456"');
export const storeField = about(z.string().check(z.minLength(1)), 'the data store name (case-sensitive)');
export const scopeField = about(z.optional(z.string().check(z.minLength(1))), 'the scope (default "global")');
export const keyField = about(z.string().check(z.minLength(1)), 'the entry key');
export const timeField = (what: string) =>
  about(
    z.string().check(z.minLength(1)),
    `${what}: ISO 8601 (2024-01-15T10:00:00Z), "2024-01-15 10:00" (UTC when no zone is given), "3 hours ago", "24h" or "yesterday 18:00"; within the last 30 days`,
  );
export const limitField = (fallback: number, max: number) =>
  about(
    z.optional(z.number().check(z.int(), z.minimum(1), z.maximum(max))),
    `rows at most (default ${fallback}, at most ${max})`,
  );
export const userField = about(z.string().check(z.regex(/^\d{1,19}$/)), 'the user id (digits)');

/** At most `limit` items, and how many more there were. */
export function bounded<T>(items: T[], limit: number): { items: T[]; more: number } {
  return { items: items.slice(0, limit), more: Math.max(0, items.length - limit) };
}

/** A string cut to `max` characters with "…". */
export const cut = (text: string, max: number): string => (text.length > max ? `${text.slice(0, max)}…` : text);

/** A time input read as the editor reads one (a time without a zone is UTC), within the 30 days the service keeps. */
export function momentOf(text: string, field: string): Date {
  const now = new Date();
  try {
    const time = parseMoment(text, { now, zone: 0 });
    checkMoment(time, now);
    return time;
  } catch (error) {
    throw new ToolError(`${field}: ${(error as Error).message}`);
  }
}

/** `<what>: <reason>; <what to do>` for a failure of the service or the network; a ToolError or a stop as it is. */
export function failure(what: string, error: unknown): Error {
  if (error instanceof ToolError || isAbort(error)) return error as Error;
  const reason = error instanceof Error ? error.message : String(error);
  const todo =
    error instanceof AuthError
      ? "check the server's API key"
      : error instanceof PermissionDeniedError
        ? "check that the API key's scopes and universes allow this"
        : error instanceof NetworkError || error instanceof TimeoutError
          ? "check the server's --base-url and the network, then try again"
          : error instanceof RateLimitedError
            ? 'the rate limit held: try again later'
            : undefined;
  return new ToolError(`${what}: ${reason}${todo ? `; ${todo}` : ''}`, { cause: error });
}

/** Runs `work`, its failure named by `what`. */
export async function named<T>(what: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw failure(what, error);
  }
}
