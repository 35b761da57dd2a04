// Durations (of restrictions): what a moderator types (`90m`, `12h`, `3d`, `1h30m`) read by the client's parser and
// its problems said in the user's language, the service's `<n>s` form, and how much of a timed ban is left. Pure: no
// vscode import, so plain unit tests cover it.

import {
  describeDuration as describeServiceDuration,
  DurationError,
  MAX_DURATION_SECONDS,
  formatDuration,
  fromServiceDuration,
  parseDuration as parseDurationText,
  type DurationProblem,
} from '../api';
import { t } from './text';

export { formatDuration, fromServiceDuration, MAX_DURATION_SECONDS };

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

export const durationHint = (): string => t`a number and a unit (s, m, h, d, w), e.g. 90m, 12h, 3d or 1h30m`;

/** Whole seconds from text such as `90m`, `12h`, `3d`, `1h30m` or `2w 3d`; throws an Error saying what is wrong. */
export function parseDuration(text: string): number {
  try {
    return parseDurationText(text);
  } catch (error) {
    if (!(error instanceof DurationError)) throw error;
    throw new Error(sayProblem(error.problem), { cause: error });
  }
}

function sayProblem(p: DurationProblem): string {
  switch (p.kind) {
    case 'empty':
      return t`Enter ${durationHint()}.`;
    case 'syntax':
      return t`"${p.part}" is not a duration: use ${durationHint()}.`;
    case 'fraction':
      return t`Use whole numbers: "${p.part}" has a fraction (try 1h30m for 1.5h).`;
    case 'noUnit':
      return t`"${p.part}" has no unit: add s, m, h, d or w.`;
    case 'unit':
      return t`"${p.part}" is not a unit: use s, m, h, d or w.`;
    case 'tooShort':
      return t`A duration is at least 1 second.`;
    case 'tooLong':
      return t`A duration is at most ${MAX_DURATION_SECONDS} seconds (10,000 years).`;
  }
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

/** How a service duration reads: `7d`, `1h 30m`, `permanent` when there is none, or as sent when unreadable. */
export function describeDuration(duration: string | undefined): string {
  return duration === undefined ? t`permanent` : describeServiceDuration(duration);
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
