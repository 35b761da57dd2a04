// Durations (of restrictions): what a moderator types (`90m`, `12h`, `3d`, `1h30m`) as whole seconds, the service's
// `<n>s` form, and how much of a timed ban is left. Pure: no vscode import, so plain unit tests cover it.

import { t } from './text';

/** The service's limit: 10,000 years of whole seconds. */
export const MAX_DURATION_SECONDS = 315_576_000_000;

const MINUTE = 60;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

export interface DurationPreset {
  label: string;
  /** Absent: permanent. */
  seconds?: number;
}

export const durationPresets = (): DurationPreset[] => [
  { label: t`1 hour`, seconds: HOUR },
  { label: t`1 day`, seconds: DAY },
  { label: t`7 days`, seconds: 7 * DAY },
  { label: t`30 days`, seconds: 30 * DAY },
  { label: t`Permanent` },
];

const UNITS: Record<string, number> = {
  s: 1,
  sec: 1,
  secs: 1,
  second: 1,
  seconds: 1,
  m: MINUTE,
  min: MINUTE,
  mins: MINUTE,
  minute: MINUTE,
  minutes: MINUTE,
  h: HOUR,
  hr: HOUR,
  hrs: HOUR,
  hour: HOUR,
  hours: HOUR,
  d: DAY,
  day: DAY,
  days: DAY,
  w: 7 * DAY,
  week: 7 * DAY,
  weeks: 7 * DAY,
};

export const durationHint = (): string => t`a number and a unit (s, m, h, d, w), e.g. 90m, 12h, 3d or 1h30m`;

/** Whole seconds from text such as `90m`, `12h`, `3d`, `1h30m` or `2w 3d`; throws an Error saying what is wrong. */
export function parseDuration(text: string): number {
  const input = text.trim().toLowerCase();
  if (!input) throw new Error(t`Enter ${durationHint()}.`);
  const part = /\s*(\d+(?:[.,]\d+)?)\s*([a-z]*)\s*/y;
  let total = 0;
  let pos = 0;
  while (pos < input.length) {
    part.lastIndex = pos;
    const m = part.exec(input);
    if (!m) throw new Error(t`"${input.slice(pos).trim()}" is not a duration: use ${durationHint()}.`);
    const [, amount, unit] = m;
    if (/[.,]/.test(amount))
      throw new Error(t`Use whole numbers: "${amount}${unit}" has a fraction (try 1h30m for 1.5h).`);
    if (!unit) throw new Error(t`"${amount}" has no unit: add s, m, h, d or w.`);
    if (!(unit in UNITS)) throw new Error(t`"${unit}" is not a unit: use s, m, h, d or w.`);
    total += Number(amount) * UNITS[unit];
    pos = part.lastIndex;
  }
  if (total < 1) throw new Error(t`A duration is at least 1 second.`);
  if (total > MAX_DURATION_SECONDS)
    throw new Error(t`A duration is at most ${MAX_DURATION_SECONDS} seconds (10,000 years).`);
  return total;
}

/** For an input box: undefined when the text parses, else the reason. */
export function checkDuration(text: string): string | undefined {
  try {
    parseDuration(text);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

/** The service's form: `3600s`. */
export function toServiceDuration(seconds: number): string {
  return `${seconds}s`;
}

/** Seconds of a service duration (`3600s`, `3600.5s`); undefined when absent or unreadable. */
export function fromServiceDuration(duration: string | undefined): number | undefined {
  const m = duration === undefined ? null : /^(\d+(?:\.\d+)?)s$/.exec(duration.trim());
  return m ? Number(m[1]) : undefined;
}

/**
 * `1d 2h 3m 4s`, largest units first, zero parts left out. With `units`, an approximation: only that many units
 * from the largest one used (`1d 0h 5m` with 2 units reads `1d`). The units are the ones parseDuration reads, so
 * they are not translated.
 */
export function formatDuration(seconds: number, units = Infinity): string {
  let rest = Math.max(0, Math.round(seconds));
  if (rest === 0) return '0s';
  const out: string[] = [];
  let used = 0;
  for (const [unit, size] of [
    ['d', DAY],
    ['h', HOUR],
    ['m', MINUTE],
    ['s', 1],
  ] as const) {
    const n = Math.floor(rest / size);
    rest -= n * size;
    if (n > 0 || used > 0) used++;
    if (n > 0) out.push(`${n}${unit}`);
    if (used >= units) break;
  }
  return out.join(' ');
}

/** How a service duration reads: `7d`, `1h 30m`, or `permanent` when there is none. */
export function describeDuration(duration: string | undefined): string {
  const seconds = fromServiceDuration(duration);
  return seconds === undefined ? t`permanent` : formatDuration(seconds);
}

/**
 * What is left of a restriction: `permanent`, `6d 23h left`, `expired`, or the whole duration when it has not
 * started (no startTime).
 */
export function formatTimeLeft(startTime: string | undefined, duration: string | undefined, nowMs: number): string {
  const seconds = fromServiceDuration(duration);
  if (seconds === undefined) return t`permanent`;
  const start = startTime === undefined ? NaN : Date.parse(startTime);
  if (Number.isNaN(start)) return formatDuration(seconds, 2);
  const left = Math.ceil((start + seconds * 1000 - nowMs) / 1000);
  return left > 0 ? t`${formatDuration(left, 2)} left` : t`expired`;
}
