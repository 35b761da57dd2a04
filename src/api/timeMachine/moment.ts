// The moment a time-machine command looks at: parsed from what a person types, and checked against what the service
// keeps (docs/SERVICE.md, "Versions and deletion": the last write of each UTC hour is kept, and a superseded version
// for 30 days after it was superseded). Pure: "now" is always passed in.

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

/** How long the service keeps a superseded version. */
export const KEEP_DAYS = 30;

/** What the service keeps, for the UI to say before a time is chosen. */
export const RETENTION_NOTE =
  'The service keeps one version per key per hour (the last write of each UTC hour) and keeps a superseded ' +
  `version for ${KEEP_DAYS} days, so a store can be seen as it was, to the hour, back to ${KEEP_DAYS} days ago.`;

/** The presets a command offers, as `parseMoment` reads them. */
export const MOMENT_PRESETS = ['1h', '24h'] as const;

export interface MomentOptions {
  /** The time "ago" counts back from. */
  now: Date;
  /**
   * The zone of a time typed without one: minutes east of UTC (CET is 60), or "local" for this machine's zone with
   * its daylight-saving rules. Default "local".
   */
  zone?: number | 'local';
}

/** The oldest moment a store can be restored to: superseded versions are kept 30 days. */
export function restorableSince(now: Date): Date {
  return new Date(now.getTime() - KEEP_DAYS * DAY_MS);
}

/** Throws an Error saying why `time` cannot be looked at: older than what the service keeps, or in the future. */
export function checkMoment(time: Date, now: Date): void {
  const since = restorableSince(now);
  if (time.getTime() < since.getTime()) {
    throw new Error(
      `${time.toISOString()} is too long ago: the service keeps superseded versions for ${KEEP_DAYS} days, ` +
        `so the oldest time that can be restored is ${since.toISOString()}`,
    );
  }
  if (time.getTime() > now.getTime()) throw new Error(`${time.toISOString()} is in the future`);
}

/** The moment just before a version was written (its creation time less one millisecond). */
export function momentBefore(version: { createdTime: string }): Date {
  const ms = Date.parse(version.createdTime);
  if (Number.isNaN(ms))
    throw new Error(`The version's creation time ${JSON.stringify(version.createdTime)} is not a time`);
  return new Date(ms - 1);
}

const AGO = /^(\d{1,6})\s*(m|min|h|d|w)(?:\s+ago)?$/i;
const UNIT_MS: Record<string, number> = { m: MINUTE_MS, min: MINUTE_MS, h: HOUR_MS, d: DAY_MS, w: 7 * DAY_MS };
/** "2 days ago", "an hour ago": a unit in words needs "ago", so "1 hour" alone stays a question, not a time. */
const WORDS_AGO = /^(\d{1,6}|an?)\s+(minute|min|hour|hr|day|week)s?\s+ago$/i;
const WORD_UNIT_MS: Record<string, number> = {
  minute: MINUTE_MS,
  min: MINUTE_MS,
  hour: HOUR_MS,
  hr: HOUR_MS,
  day: DAY_MS,
  week: 7 * DAY_MS,
};
/** "today", "yesterday 18:00", "last Tuesday 9:30", "tuesday": a day by name, and a time of day or its start. */
const NAMED_DAY =
  /^(today|yesterday|(?:last\s+)?(sun|mon|tue|wed|thu|fri|sat)[a-z]*)(?:\s+(?:at\s+)?(\d{1,2}):(\d{2})(?::(\d{2}))?)?$/i;
const WEEKDAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];
const DAY_NAMES = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];
const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?\s*(Z|[+-]\d{2}:?\d{2})?$/i;

const FORMS =
  'use a time with its zone (2024-01-15T10:00:00Z or 2024-01-15T11:00+01:00), a local time (2024-01-15 10:00), ' +
  'a time ago (1h, 24h, 30m, 7d, 3 hours ago, 2 days ago) or a day by name (today 09:30, yesterday, ' +
  'last Tuesday 18:00)';

/**
 * How a moment was read: `ago` counts back from now, `time` is a date with a time of day, `day` is a day named or
 * dated without a time, which stands for its start (00:00 in the zone), so "yesterday" is the start of yesterday.
 */
export type MomentForm = 'ago' | 'time' | 'day';

/**
 * Reads a moment: a time ago (`1h`, `24h`, `30m`, `7d`, optionally followed by "ago", or in words: "3 hours ago",
 * "2 days ago", "an hour ago"), a day by name with an optional time of day in `opts.zone` ("today 09:30",
 * "yesterday", "yesterday 18:00", "last Tuesday 18:00", "tuesday": the latest such day before today; a day without
 * a time is its start), an RFC 3339 time with its zone, or a local "YYYY-MM-DD HH:mm" (seconds optional; a date
 * alone is its midnight) in `opts.zone`. Throws an Error naming the accepted forms when the text is none of them.
 * Does not check the range (see `checkMoment`).
 */
export function parseMoment(text: string, opts: MomentOptions): Date {
  return readMoment(text, opts).time;
}

/** `parseMoment`, also saying which form the text was read as. */
export function readMoment(text: string, opts: MomentOptions): { time: Date; form: MomentForm } {
  const input = text.trim().replace(/\s+/g, ' ');
  const ago = AGO.exec(input);
  if (ago) return { time: new Date(opts.now.getTime() - Number(ago[1]) * UNIT_MS[ago[2].toLowerCase()]), form: 'ago' };
  const words = WORDS_AGO.exec(input);
  if (words) {
    const count = /^an?$/i.test(words[1]) ? 1 : Number(words[1]);
    return { time: new Date(opts.now.getTime() - count * WORD_UNIT_MS[words[2].toLowerCase()]), form: 'ago' };
  }
  const named = NAMED_DAY.exec(input);
  if (named) return namedDay(text, named, opts);
  const m = DATE_TIME.exec(input);
  if (!m) throw new Error(`${JSON.stringify(text)} is not a time: ${FORMS}`);
  const [year, month, day, hour = 0, minute = 0, second = 0] = m.slice(1, 7).map((s) => (s === undefined ? 0 : +s));
  const ms = m[7] === undefined ? 0 : Math.floor(Number(`0.${m[7]}`) * 1000);
  const wall = Date.UTC(year, month - 1, day, hour, minute, second, ms);
  const check = new Date(wall);
  if (
    check.getUTCFullYear() !== year ||
    check.getUTCMonth() !== month - 1 ||
    check.getUTCDate() !== day ||
    hour > 23 ||
    minute > 59 ||
    second > 59
  ) {
    throw new Error(`${JSON.stringify(text)} is not a valid date and time: ${FORMS}`);
  }
  const form: MomentForm = m[4] === undefined ? 'day' : 'time';
  const zone = m[8];
  if (zone !== undefined) {
    const offset = zoneMinutes(zone);
    if (offset === undefined) throw new Error(`${JSON.stringify(text)} has no valid zone offset: ${FORMS}`);
    return { time: new Date(wall - offset * MINUTE_MS), form };
  }
  return { time: wallTime(opts.zone ?? 'local', year, month - 1, day, hour, minute, second, ms), form };
}

/** A wall-clock time in a zone (minutes east of UTC, or this machine's zone with its daylight-saving rules). */
function wallTime(zone: number | 'local', ...[y, mo, d, h, mi, s, ms]: number[]): Date {
  if (zone === 'local') return new Date(y, mo, d, h, mi, s, ms);
  return new Date(Date.UTC(y, mo, d, h, mi, s, ms) - zone * MINUTE_MS);
}

/** Today, yesterday or the latest named weekday before today, in the zone's calendar, at a time of day or 00:00. */
function namedDay(text: string, m: RegExpExecArray, opts: MomentOptions): { time: Date; form: MomentForm } {
  const [, name, weekday, hh, mm, ss] = m;
  const zone = opts.zone ?? 'local';
  if (weekday !== undefined && !DAY_NAMES.some((d) => d.startsWith(name.replace(/^last\s+/i, '').toLowerCase()))) {
    throw new Error(`${JSON.stringify(text)} is not a time: ${FORMS}`);
  }
  const [hour, minute, second] = [hh, mm, ss].map((v) => (v === undefined ? 0 : Number(v)));
  if (hour > 23 || minute > 59 || second > 59) {
    throw new Error(`${JSON.stringify(text)} is not a valid time of day: ${FORMS}`);
  }
  // Today's date in the zone's calendar, as a UTC date to count days on.
  const shifted = zone === 'local' ? undefined : new Date(opts.now.getTime() + zone * MINUTE_MS);
  const [year, month, date, todayWeekday] = shifted
    ? [shifted.getUTCFullYear(), shifted.getUTCMonth(), shifted.getUTCDate(), shifted.getUTCDay()]
    : [opts.now.getFullYear(), opts.now.getMonth(), opts.now.getDate(), opts.now.getDay()];
  let back = 0;
  if (/^yesterday$/i.test(name)) back = 1;
  else if (weekday !== undefined) back = (todayWeekday - WEEKDAYS.indexOf(weekday.toLowerCase()) + 7) % 7 || 7;
  // Date.UTC and the local Date constructor both carry a day count below 1 into the month before.
  return {
    time: wallTime(zone, year, month, date - back, hour, minute, second, 0),
    form: hh === undefined ? 'day' : 'time',
  };
}

/** `Z`, `+01:00`, `-0530` as minutes east of UTC; undefined beyond ±14:00 or with 60 minutes or more. */
function zoneMinutes(zone: string): number | undefined {
  if (zone.toUpperCase() === 'Z') return 0;
  const digits = zone.replace(':', '');
  const [hours, mins] = [Number(digits.slice(1, 3)), Number(digits.slice(3, 5))];
  if (mins > 59 || hours * 60 + mins > 14 * 60) return undefined;
  return zone.startsWith('-') ? -(hours * 60 + mins) : hours * 60 + mins;
}
