// How times read wherever they are shown: local time in one fixed form, `24 Nov 2026, 14:05`, and in tooltips UTC
// beside it. The form never holds a "/" (a tab title is the last "/" part of its label). Exports keep ISO UTC.
// Pure: no vscode import, so plain unit tests cover it and the restriction log page bundles it.

export interface TimeOptions {
  /** Seconds too, where two times in the same minute must be told apart (entry versions). */
  seconds?: boolean;
  /** An IANA time zone instead of the local one. */
  timeZone?: string;
}

const formats = new Map<string, Intl.DateTimeFormat>();

function partsOf(ms: number, { seconds = false, timeZone }: TimeOptions): Record<string, string> {
  const key = `${seconds}|${timeZone ?? ''}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      year: 'numeric',
      month: 'short',
      day: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      second: seconds ? '2-digit' : undefined,
      hourCycle: 'h23',
      timeZone,
    });
    formats.set(key, format);
  }
  return Object.fromEntries(format.formatToParts(ms).map((p) => [p.type, p.value]));
}

/** Milliseconds, or NaN for what is not a time. */
function msOf(when: string | number | undefined): number {
  return new Date(when ?? '').getTime();
}

/** `24 Nov 2026, 14:05` (`14:05:07` with seconds) in the local time zone; what is not a time shows as it is. */
export function localTime(when: string | number | undefined, options: TimeOptions = {}): string {
  const ms = msOf(when);
  if (Number.isNaN(ms)) return String(when ?? '');
  const p = partsOf(ms, options);
  return `${p.day} ${p.month} ${p.year}, ${p.hour}:${p.minute}${options.seconds ? `:${p.second}` : ''}`;
}

/** `14:05`, the local time of day: for something just done. */
export function timeOfDay(when: string | number | undefined, options: TimeOptions = {}): string {
  const ms = msOf(when);
  if (Number.isNaN(ms)) return String(when ?? '');
  const p = partsOf(ms, options);
  return `${p.hour}:${p.minute}`;
}

/** `2026-11-24 13:05:00`. */
export function utcTime(when: string | number | undefined): string {
  const ms = msOf(when);
  return Number.isNaN(ms) ? String(when ?? '') : new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
}

/** For tooltips: `24 Nov 2026, 14:05 (UTC 2026-11-24 13:05:00)`. */
export function localAndUtc(when: string | number | undefined, options: TimeOptions = {}): string {
  return Number.isNaN(msOf(when)) ? String(when ?? '') : `${localTime(when, options)} (UTC ${utcTime(when)})`;
}
