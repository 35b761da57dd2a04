// The emulator's clock: every time it writes or reports (entry versions, restrictions and their logs, asset versions
// and operations, idempotency keys, version retention) comes from here. It runs forward in real time from where it
// was started (`--clock`, the real time by default) and a test moves it forward (`POST /_emulator/clock`). It never
// moves back, except that a control reset, which wipes every record, puts it back where it started. Rate-limit
// windows and the holders' timers keep real time: they are about the process, not the data.
export class Clock {
  private offset: number;
  private readonly startOffset: number;

  /** `start`: epoch milliseconds the clock shows now; absent = the real time. */
  constructor(start?: number) {
    this.offset = this.startOffset = start === undefined ? 0 : start - Date.now();
  }

  now(): number {
    return Date.now() + this.offset;
  }

  advance(ms: number): void {
    if (!(ms >= 0 && Number.isFinite(ms))) throw new RangeError('the clock only moves forward');
    this.offset += ms;
  }

  set(ms: number): void {
    this.advance(ms - this.now());
  }

  restart(): void {
    this.offset = this.startOffset;
  }
}

/** A time as every answer gives it: RFC 3339 in Z with milliseconds. */
export const iso = (ms: number): string => new Date(ms).toISOString();

const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d{1,9})?([Zz]|[+-]\d{2}:\d{2})$/;

/** An RFC 3339 / ISO 8601 date-time, as epoch milliseconds; undefined when it is not one. */
export function parseTime(v: string): number | undefined {
  const ms = RFC3339.test(v) ? Date.parse(v.replace(' ', 'T')) : NaN;
  return Number.isNaN(ms) ? undefined : ms;
}

/** An RFC 3339 date-time with its offset (or epoch milliseconds) as epoch milliseconds; undefined if it is not one. */
export function parseClock(v: string | number): number | undefined {
  const ms = typeof v === 'number' ? v : parseTime(v);
  return ms !== undefined && Number.isFinite(ms) ? ms : undefined;
}
