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
const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?\s*(Z|[+-]\d{2}:?\d{2})?$/i;

const FORMS =
  'use a time with its zone (2024-01-15T10:00:00Z or 2024-01-15T11:00+01:00), a local time (2024-01-15 10:00), ' +
  'or a time ago (1h, 24h, 30m, 7d)';

/**
 * Reads a moment: a time ago (`1h`, `24h`, `30m`, `7d`, optionally followed by "ago"), an RFC 3339 time with its
 * zone, or a local "YYYY-MM-DD HH:mm" (seconds optional; a date alone is its midnight) in `opts.zone`. Throws an
 * Error naming the accepted forms when the text is none of them. Does not check the range (see `checkMoment`).
 */
export function parseMoment(text: string, opts: MomentOptions): Date {
  const input = text.trim();
  const ago = AGO.exec(input);
  if (ago) return new Date(opts.now.getTime() - Number(ago[1]) * UNIT_MS[ago[2].toLowerCase()]);
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
  const zone = m[8];
  if (zone !== undefined) {
    const offset = zoneMinutes(zone);
    if (offset === undefined) throw new Error(`${JSON.stringify(text)} has no valid zone offset: ${FORMS}`);
    return new Date(wall - offset * MINUTE_MS);
  }
  const local = opts.zone ?? 'local';
  if (local !== 'local') return new Date(wall - local * MINUTE_MS);
  return new Date(year, month - 1, day, hour, minute, second, ms);
}

/** `Z`, `+01:00`, `-0530` as minutes east of UTC; undefined beyond ±14:00 or with 60 minutes or more. */
function zoneMinutes(zone: string): number | undefined {
  if (zone.toUpperCase() === 'Z') return 0;
  const digits = zone.replace(':', '');
  const [hours, mins] = [Number(digits.slice(1, 3)), Number(digits.slice(3, 5))];
  if (mins > 59 || hours * 60 + mins > 14 * 60) return undefined;
  return zone.startsWith('-') ? -(hours * 60 + mins) : hours * 60 + mins;
}
