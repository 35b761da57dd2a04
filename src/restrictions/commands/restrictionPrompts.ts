// The questions of Ban User… and Edit Restriction: duration, both reasons and alt accounts. Each answer is
// checked in its prompt and again before anything is sent.
import type { GameJoinRestriction, GameJoinRestrictionInput } from '../../api';
import {
  DURATION_HINT,
  DURATION_PRESETS,
  checkDuration,
  describeDuration,
  formatDuration,
  fromServiceDuration,
  parseDuration,
  toServiceDuration,
} from '../duration';
import { required, type Ui } from '../../core/ui';

export const MAX_DISPLAY_REASON = 400;
export const MAX_PRIVATE_REASON = 1000;

/** Counted in characters (code points), as the service counts them. */
export function checkReason(text: string, max: number): string | undefined {
  const length = [...text].length;
  return length > max ? `${length} characters: at most ${max} (remove ${length - max}).` : undefined;
}

/** The service's `<n>s`, or undefined for permanent. */
async function askDuration(ui: Ui, who: string, current?: GameJoinRestriction): Promise<string | undefined> {
  type Item = { label: string; description: string; duration?: string; typed?: boolean };
  const items: Item[] = [
    ...(current
      ? [
          {
            label: `Keep ${describeDuration(current.duration)}`,
            description: 'the current duration',
            duration: current.duration,
          },
        ]
      : []),
    ...DURATION_PRESETS.map((p) => ({
      label: p.label,
      description: p.seconds === undefined ? 'no end' : toServiceDuration(p.seconds),
      duration: p.seconds === undefined ? undefined : toServiceDuration(p.seconds),
    })),
    { label: 'Type a duration…', description: 'e.g. 90m, 12h, 3d, 1h30m', typed: true },
  ];
  const picked = required(
    await ui.pickOrType(
      items,
      { title: `Duration of the restriction of ${who}`, placeHolder: `Pick one, or type ${DURATION_HINT}` },
      (text) => {
        if (checkDuration(text)) return undefined;
        const duration = toServiceDuration(parseDuration(text));
        return `typed: ${describeDuration(duration)} (${duration})`;
      },
    ),
  );
  if (typeof picked === 'string') return toServiceDuration(parseDuration(picked));
  if (!picked.typed) return picked.duration;
  const seconds = fromServiceDuration(current?.duration);
  const text = required(
    await ui.input({
      title: `Duration of the restriction of ${who}`,
      prompt: `Whole seconds are sent; type ${DURATION_HINT}`,
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
      prompt: `${prompt} (at most ${max} characters)`,
      value,
      validateInput: (v) => checkReason(v, max),
    }),
  );
  const problem = checkReason(text, max);
  if (problem) throw new Error(`${title} is too long: ${problem}`);
  return text;
}

async function askExcludeAlts(ui: Ui, who: string, current = false): Promise<boolean> {
  const items = [
    { label: 'No', description: 'alt accounts of this user are restricted too', exclude: false },
    { label: 'Yes', description: 'restrict this account only', exclude: true },
  ].sort((a, b) => Number(b.exclude === current) - Number(a.exclude === current));
  const picked = required(
    await ui.pick(items, {
      title: `Exclude alt accounts of ${who}?`,
      placeHolder: `Currently: ${current ? 'Yes' : 'No'}`,
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
    `Display reason for ${who}`,
    'Shown to the user',
    MAX_DISPLAY_REASON,
    current?.displayReason,
  );
  const privateReason = await askReason(
    ui,
    `Private reason for ${who}`,
    'Seen by moderators only, kept in the restriction log',
    MAX_PRIVATE_REASON,
    current?.privateReason,
  );
  const excludeAltAccounts = await askExcludeAlts(ui, who, current?.excludeAltAccounts);
  return { duration, displayReason, privateReason, excludeAltAccounts };
}

export async function askUnbanNote(ui: Ui, who: string): Promise<string> {
  return askReason(
    ui,
    `Private reason for lifting the restriction of ${who}`,
    'Optional, kept in the restriction log',
    MAX_PRIVATE_REASON,
  );
}
