// Reading and checking query and path parameters. Every failure is a 400 naming the parameter; `code` is the
// datastoreErrorCode used when the route is a data store one (the other families ignore it).
import { parseTime } from './clock';
import { invalid } from './errors';
import type { Ctx } from './http';

interface Common {
  code?: string;
  /** Other spellings accepted for the same parameter (e.g. AllScopes). */
  aliases?: string[];
}

function raw(ctx: Ctx, name: string, opts: Common): string | undefined {
  for (const n of [name, ...(opts.aliases ?? [])]) {
    const v = ctx.query.get(n);
    if (v === null) throw invalid(`Query parameter '${n}' is not correctly percent-encoded.`, opts.code);
    if (v !== undefined) return v;
  }
  return undefined;
}

/**
 * A string parameter; `maxBytes` counts UTF-8 bytes. Absent gives `fallback` (or a 400 when `required`); empty is a
 * 400 unless `allowEmpty`.
 */
export function text(
  ctx: Ctx,
  name: string,
  opts: Common & { required?: boolean; allowEmpty?: boolean; fallback?: string; maxBytes?: number },
): string | undefined {
  const v = raw(ctx, name, opts);
  if (v === undefined) {
    if (opts.required) throw invalid(`Query parameter '${name}' is required.`, opts.code);
    return opts.fallback;
  }
  if (v === '' && !opts.allowEmpty) throw invalid(`Query parameter '${name}' must not be empty.`, opts.code);
  if (opts.maxBytes !== undefined && Buffer.byteLength(v) > opts.maxBytes) {
    throw invalid(`Query parameter '${name}' is longer than ${opts.maxBytes} bytes.`, opts.code);
  }
  return v;
}

/**
 * A page size: absent or empty gives `fallback`; a whole number from 1 is clamped to `max` (`zeroIsDefault`: 0
 * also gives `fallback`, as cloud v2 does); anything else is a 400.
 */
export function pageSize(
  ctx: Ctx,
  name: string,
  opts: Common & { fallback: number; max: number; zeroIsDefault?: boolean },
): number {
  const v = raw(ctx, name, opts);
  if (v === undefined || v === '') return opts.fallback;
  const n = /^\d{1,10}$/.test(v) ? Number(v) : NaN;
  if (n === 0 && opts.zeroIsDefault) return opts.fallback;
  if (!(n >= 1)) throw invalid(`Query parameter '${name}' must be a whole number from 1 to ${opts.max}.`, opts.code);
  return Math.min(n, opts.max);
}

/** `true` / `false` (any case); absent or empty is false. */
export function flag(ctx: Ctx, name: string, opts: Common = {}): boolean {
  const v = raw(ctx, name, opts)?.toLowerCase();
  if (v === undefined || v === '' || v === 'false') return false;
  if (v === 'true') return true;
  throw invalid(`Query parameter '${name}' must be true or false.`, opts.code);
}

export function oneOf<T extends string>(
  ctx: Ctx,
  name: string,
  values: readonly T[],
  fallback: T,
  opts: Common = {},
): T {
  const v = raw(ctx, name, opts);
  if (v === undefined || v === '') return fallback;
  if (!(values as readonly string[]).includes(v))
    throw invalid(`Query parameter '${name}' must be one of ${values.join(', ')}.`, opts.code);
  return v as T;
}

/** An RFC 3339 / ISO 8601 date-time, as epoch milliseconds; undefined when absent or empty. */
export function time(ctx: Ctx, name: string, opts: Common = {}): number | undefined {
  const v = raw(ctx, name, opts);
  if (v === undefined || v === '') return undefined;
  const ms = parseTime(v);
  if (ms === undefined) throw invalid(`Query parameter '${name}' is not an RFC 3339 date-time.`, opts.code);
  return ms;
}

/** A positive whole-number id from the path (universe, place, user, asset, version). */
export function pathId(ctx: Ctx, name: string, what: string, code?: string): number {
  const v = ctx.params[name];
  const n = /^[1-9]\d{0,15}$/.test(v) ? Number(v) : NaN;
  if (!Number.isSafeInteger(n)) throw invalid(`Invalid ${what} in the request.`, code);
  return n;
}
