// The questions of Ban User… and Edit Restriction: duration, both reasons and alt accounts. Each answer is
// checked in its prompt and again before anything is sent.
import type { GameJoinRestriction, GameJoinRestrictionInput } from '../../api';
import { t } from '../../core/text';
import {
  checkDuration,
  describeDuration,
  durationHint,
  durationPresets,
  formatDuration,
  fromServiceDuration,
  parseDuration,
  toServiceDuration,
} from '../../core/duration';
import { required, type Ui } from '../../core/ui';

export const MAX_DISPLAY_REASON = 400;
export const MAX_PRIVATE_REASON = 1000;

/** Counted in characters (code points), as the service counts them. */
export function checkReason(text: string, max: number): string | undefined {
  const length = [...text].length;
  return length > max ? t`${length} characters: at most ${max} (remove ${length - max}).` : undefined;
}

/** The service's `<n>s`, or undefined for permanent. */
async function askDuration(ui: Ui, who: string, current?: GameJoinRestriction): Promise<string | undefined> {
  type Item = { label: string; description: string; duration?: string; typed?: boolean };
  const items: Item[] = [
    ...(current
      ? [
          {
            label: t`Keep ${describeDuration(current.duration)}`,
            description: t`the current duration`,
            duration: current.duration,
          },
        ]
      : []),
    ...durationPresets().map((p) => ({
      label: p.label,
      description: p.seconds === undefined ? t`no end` : toServiceDuration(p.seconds),
      duration: p.seconds === undefined ? undefined : toServiceDuration(p.seconds),
    })),
    { label: t`Type a duration…`, description: t`e.g. 90m, 12h, 3d, 1h30m`, typed: true },
  ];
  const picked = required(
    await ui.pickOrType(
      items,
      { title: t`Duration of the restriction of ${who}`, placeHolder: t`Pick one, or type ${durationHint()}` },
      (text) => {
        if (checkDuration(text)) return undefined;
        const duration = toServiceDuration(parseDuration(text));
        return t`typed: ${describeDuration(duration)} (${duration})`;
      },
    ),
  );
  if (typeof picked === 'string') return toServiceDuration(parseDuration(picked));
  if (!picked.typed) return picked.duration;
  const seconds = fromServiceDuration(current?.duration);
  const text = required(
    await ui.input({
      title: t`Duration of the restriction of ${who}`,
      prompt: t`Whole seconds are sent; type ${durationHint()}`,
      value: seconds === undefined ? '' : formatDuration(seconds),
      validateInput: checkDuration,
    }),
  );
  return toServiceDuration(parseDuration(text));
}

async function askReason(ui: Ui, title: string, prompt: string, max: number, value = ''): Promise<string> {
  const text = required(
    await ui.input({
      title,
      prompt: t`${prompt} (at most ${max} characters)`,
      value,
      validateInput: (v) => checkReason(v, max),
    }),
  );
  const problem = checkReason(text, max);
  if (problem) throw new Error(t`${title} is too long: ${problem}`);
  return text;
}

/** Each choice says what happens; the value sent is the service's `excludeAltAccounts`. */
async function askExcludeAlts(ui: Ui, who: string, current = false): Promise<boolean> {
  const items = [
    { label: t`Also ban alt accounts`, description: t`alt accounts of this user are restricted too`, exclude: false },
    { label: t`Ban only this account`, description: t`alt accounts of this user are not restricted`, exclude: true },
  ].sort((a, b) => Number(b.exclude === current) - Number(a.exclude === current));
  const picked = required(
    await ui.pick(items, {
      title: t`Alt accounts of ${who}`,
      placeHolder: t`Currently: ${items[0].label}`,
    }),
  );
  return picked.exclude;
}

/** Everything but `active`, prefilled from `current` when editing. */
export async function askRestriction(
  ui: Ui,
  who: string,
  current?: GameJoinRestriction,
): Promise<Omit<GameJoinRestrictionInput, 'active'>> {
  const duration = await askDuration(ui, who, current);
  const displayReason = await askReason(
    ui,
    t`Display reason for ${who}`,
    t`Shown to the user`,
    MAX_DISPLAY_REASON,
    current?.displayReason,
  );
  const privateReason = await askReason(
    ui,
    t`Private reason for ${who}`,
    t`Seen by moderators only, kept in the restriction log`,
    MAX_PRIVATE_REASON,
    current?.privateReason,
  );
  const excludeAltAccounts = await askExcludeAlts(ui, who, current?.excludeAltAccounts);
  return { duration, displayReason, privateReason, excludeAltAccounts };
}

export async function askUnbanNote(ui: Ui, who: string): Promise<string> {
  return askReason(
    ui,
    t`Private reason for lifting the restriction of ${who}`,
    t`Optional, kept in the restriction log`,
    MAX_PRIVATE_REASON,
  );
}
