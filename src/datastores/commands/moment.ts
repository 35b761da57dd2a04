// The moment a time-machine command looks at: a preset, a typed local or ISO time, or "just before" one of an
// entry's recent versions. The prompt says what the service keeps; a time it cannot show (older than what it keeps,
// or in the future) is refused with the reason, and the prompt asks again with that reason in its title.
import vscode = require('vscode');
import { KEEP_DAYS, momentBefore, readMoment, restorableSince, type EntryVersion, type MomentForm } from '../../api';
import { t } from '../../core/text';
import { localAndUtc, localTime } from '../../core/time';
import { required, type Meaning, type Ui } from '../../core/ui';
import type { EntryAddress } from '../editor/entryPath';
import type { TimeMachine } from '../timeMachine';
import { versionTime } from '../editor/uris';

const HOUR_MS = 3_600_000;

export interface MomentPrompt {
  /** The prompt's title: what the time is for. */
  title: string;
  /** With an entry, its recent versions are offered too ("Just before version of …"). */
  entry?: { timeMachine: TimeMachine; address: EntryAddress; signal: AbortSignal };
  /** The time "ago" counts from (default: this machine's clock). */
  now?: () => Date;
}

interface MomentItem extends vscode.QuickPickItem {
  time: () => Date;
}

/** Recent versions offered for an entry. */
const VERSIONS_OFFERED = 10;

/** What the service keeps, said before a time is chosen. */
export const retentionNote = (): string =>
  t`The service keeps one version per key per hour (the last write of each UTC hour) and superseded versions for ${KEEP_DAYS} days.`;

/** Why a time cannot be looked at (older than what the service keeps, or in the future); undefined when it can. */
export function momentRefusal(time: Date, now: Date): string | undefined {
  const since = restorableSince(now);
  if (time.getTime() < since.getTime())
    return t`${localAndUtc(time.getTime())} is more than ${KEEP_DAYS} days ago: the service keeps superseded versions for ${KEEP_DAYS} days, so the oldest time it can show is ${localTime(since.getTime())}`;
  if (time.getTime() > now.getTime()) return t`${localAndUtc(time.getTime())} is in the future`;
  return undefined;
}

function presets(now: () => Date): MomentItem[] {
  const ago = (hours: number) => () => new Date(now().getTime() - hours * HOUR_MS);
  return [
    { label: t`1 hour ago`, time: ago(1) },
    { label: t`24 hours ago`, time: ago(24) },
    { label: t`7 days ago`, time: ago(24 * 7) },
  ].map((p) => ({ ...p, description: localTime(p.time().getTime()) }));
}

function beforeVersions(versions: EntryVersion[]): MomentItem[] {
  return versions.map((v) => ({
    label: t`Just before version of ${versionTime(v.createdTime)}`,
    description: v.deleted ? t`the deletion` : undefined,
    time: () => momentBefore(v),
  }));
}

/** The forms a typed time may take, said under text that is none of them (the words first: the line is cut short). */
export const momentExamples = (): string =>
  t`Try: 3 hours ago, 2 days ago, yesterday 18:00, last Tuesday 18:00, today 09:30, yesterday (its start), 30m, 7d, 2024-01-15 10:00 (local), 2024-01-15T09:00:00Z`;

/**
 * What a typed time stands for, as the first item of the prompt shows it: the local and UTC time (with, for a day
 * named without a time, that it means the day's start), the reason the service cannot show it, or that the text is
 * not a time, with the forms that are.
 */
export function typedMeaning(read: { time: Date; form: MomentForm } | undefined, now: Date): Meaning {
  if (!read) return { problem: t`not a time this prompt understands`, detail: momentExamples() };
  const refused = momentRefusal(read.time, now);
  if (refused) return t`refused: ${refused}`;
  const value = localAndUtc(read.time.getTime(), { seconds: true });
  if (read.form !== 'day') return value;
  return {
    value,
    detail: t`The start of that day, 00:00 local time; add a time for another, e.g. yesterday 18:00`,
  };
}

/**
 * Asks for a moment until one the service can show is chosen; throws UserCancelled when the prompt is dismissed.
 * A typed time is shown with the local (and UTC) time it stands for, or with the reason it is refused.
 */
export async function askMoment(ui: Ui, prompt: MomentPrompt): Promise<Date> {
  const now = prompt.now ?? (() => new Date());
  const versions = prompt.entry
    ? await prompt.entry.timeMachine.recentVersions(prompt.entry.address, VERSIONS_OFFERED, prompt.entry.signal)
    : [];
  const items = [...presets(now), ...beforeVersions(versions)];
  const placeHolder = t`Pick a time, or type one: 3 hours ago, 2 days ago, yesterday 18:00, last Tuesday 18:00, a local time (2024-01-15 10:00) or an ISO time (2024-01-15T09:00:00Z). ${retentionNote()}`;
  const read = (text: string): { time: Date; form: MomentForm } | undefined => {
    try {
      return readMoment(text, { now: now() });
    } catch {
      return undefined;
    }
  };
  const meaning = (text: string): Meaning => typedMeaning(read(text), now());
  let title = prompt.title;
  for (;;) {
    const answer = required(await ui.pickOrType(items, { title, placeHolder }, meaning));
    const time = typeof answer === 'string' ? read(answer)?.time : answer.time();
    if (!time) {
      title = t`${prompt.title}: "${String(answer)}" is not a time`;
      continue;
    }
    const refused = momentRefusal(time, now());
    if (!refused) return time;
    title = t`${prompt.title}: ${refused}. Choose another time`;
  }
}
