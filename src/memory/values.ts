// What the memory store prompts read and the rows show: times to live, sort keys, JSON values, and how long an item
// has left. No vscode import.
import { MAX_MEMORY_STORE_SECONDS } from '../api';
import { formatDuration, parseDuration } from '../core/duration';
import { t } from '../core/text';

/** Whole seconds, or a duration such as 90m, 12h, 3d; from 1 second to 45 days. Throws with the reason. */
export function parseTtl(text: string): number {
  const typed = text.trim();
  const seconds = /^\d+$/.test(typed) ? Number(typed) : parseDuration(typed);
  if (seconds < 1 || seconds > MAX_MEMORY_STORE_SECONDS) {
    throw new Error(t`Give from 1 second to 45 days (${MAX_MEMORY_STORE_SECONDS} seconds).`);
  }
  return seconds;
}

/** Empty: none; a number: a numeric sort key; anything else (or text in double quotes) a text one. */
export function parseSortKey(text: string): number | string | undefined {
  const typed = text.trim();
  if (typed === '') return undefined;
  if (/^-?\d+(\.\d+)?([eE][-+]?\d+)?$/.test(typed) && Number.isFinite(Number(typed))) return Number(typed);
  if (/^".*"$/.test(typed)) return typed.slice(1, -1);
  return typed;
}

/** A sort key as it is typed back: a number as it is, text that reads as a number in quotes. */
export function sortKeyText(sortKey: number | string | undefined): string {
  if (sortKey === undefined) return '';
  if (typeof sortKey === 'number') return String(sortKey);
  return parseSortKey(sortKey) === sortKey ? sortKey : `"${sortKey}"`;
}

/** A JSON value other than null. Throws with the reason. */
export function parseValue(text: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new Error(t`Not JSON (${(error as Error).message}): put text in quotes ("hello"), objects in braces.`, {
      cause: error,
    });
  }
  if (value === null) throw new Error(t`null cannot be stored: give another JSON value.`);
  return value;
}

/** Seconds left until `expireTime`, from `nowMs`; undefined when it has none. */
export function secondsLeft(expireTime: string | undefined, nowMs: number): number | undefined {
  const at = Date.parse(expireTime ?? '');
  return Number.isNaN(at) ? undefined : Math.ceil((at - nowMs) / 1000);
}

/** `expires in 4m 10s`, `expired`, or '' when the service gave no time. */
export function describeExpiry(expireTime: string | undefined, nowMs: number): string {
  const left = secondsLeft(expireTime, nowMs);
  if (left === undefined) return '';
  return left > 0 ? t`expires in ${formatDuration(left, 2)}` : t`expired`;
}

/** A time to live kept within what the service takes. */
export const clampTtl = (seconds: number): number =>
  Math.min(MAX_MEMORY_STORE_SECONDS, Math.max(1, Math.round(seconds)));
