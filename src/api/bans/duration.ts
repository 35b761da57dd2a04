// Restriction durations as people write them (`90m`, `12h`, `7d`, `1h30m`, `2w 3d`) read as whole seconds, for every
// face: the editor's prompts (which say the problem in the user's language), the command line, the agent tools and
// ban lists.

/** The service's limit: 10,000 years of whole seconds. */
export const MAX_DURATION_SECONDS = 315_576_000_000;

const MINUTE = 60;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

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

/** What is wrong with a duration; `part` is the piece at fault, as typed. */
export type DurationProblem =
  | { kind: 'empty' }
  | { kind: 'syntax'; part: string }
  | { kind: 'fraction'; part: string }
  | { kind: 'noUnit'; part: string }
  | { kind: 'unit'; part: string }
  | { kind: 'tooShort' }
  | { kind: 'tooLong' };

export class DurationError extends Error {
  override name = 'DurationError';
  constructor(readonly problem: DurationProblem) {
    super(englishOf(problem));
  }
}

function englishOf(p: DurationProblem): string {
  const use = 'use a number and a unit (s, m, h, d, w), e.g. 90m, 12h, 7d or 1h30m';
  switch (p.kind) {
    case 'empty':
      return `no duration: ${use}`;
    case 'syntax':
      return `"${p.part}" is not a duration: ${use}`;
    case 'fraction':
      return `use whole numbers: "${p.part}" has a fraction (try 1h30m for 1.5h)`;
    case 'noUnit':
      return `"${p.part}" has no unit: add s, m, h, d or w`;
    case 'unit':
      return `"${p.part}" is not a unit: use s, m, h, d or w`;
    case 'tooShort':
      return 'a duration is at least 1 second';
    case 'tooLong':
      return 'a duration is at most 10,000 years';
  }
}

/** Whole seconds of `90m`, `12h`, `3d`, `1h30m` or `2w 3d`; throws a DurationError saying what is wrong. */
export function parseDuration(text: string): number {
  const input = text.trim().toLowerCase();
  if (!input) throw new DurationError({ kind: 'empty' });
  const part = /\s*(\d+(?:[.,]\d+)?)\s*([a-z]*)\s*/y;
  let total = 0;
  let pos = 0;
  while (pos < input.length) {
    part.lastIndex = pos;
    const m = part.exec(input);
    if (!m) throw new DurationError({ kind: 'syntax', part: input.slice(pos).trim() });
    const [, amount, unit] = m;
    if (/[.,]/.test(amount)) throw new DurationError({ kind: 'fraction', part: `${amount}${unit}` });
    if (!unit) throw new DurationError({ kind: 'noUnit', part: amount });
    if (!(unit in UNITS)) throw new DurationError({ kind: 'unit', part: unit });
    total += Number(amount) * UNITS[unit];
    pos = part.lastIndex;
  }
  if (total < 1) throw new DurationError({ kind: 'tooShort' });
  if (total > MAX_DURATION_SECONDS) throw new DurationError({ kind: 'tooLong' });
  return total;
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

/** How a service duration reads, in English: `7d`, `1h 30m`, `permanent` when there is none, or as sent when unreadable. */
export function describeDuration(duration: string | undefined): string {
  if (duration === undefined) return 'permanent';
  const seconds = fromServiceDuration(duration);
  return seconds === undefined ? duration : formatDuration(seconds);
}
