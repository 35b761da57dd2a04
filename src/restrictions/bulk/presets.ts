// Reason presets for bans of many users, kept per workspace in `.vscode/universe-explorer.bans.json` (a file a team
// commits, so every moderator bans for "Exploiting" the same way). Each preset fills the duration and both reasons.
// The file is read when a ban is planned; one that cannot be read is said, never guessed at.
import vscode = require('vscode');
import {
  formatDuration,
  fromServiceDuration,
  MAX_DISPLAY_REASON,
  MAX_PRIVATE_REASON,
  parseDuration,
  type BanDefaults,
} from '../../api';
import { t } from '../../core/text';
import { required, UserCancelled, type Ui } from '../../core/ui';
import { askRestriction } from '../commands/restrictionPrompts';

export const PRESETS_FILE = '.vscode/universe-explorer.bans.json';

export interface BanPreset extends BanDefaults {
  name: string;
}

const EXAMPLE = {
  presets: [
    {
      name: 'Exploiting',
      duration: '7d',
      displayReason: 'Exploiting is against the rules of this game.',
      privateReason: 'Exploit wave',
      excludeAltAccounts: false,
    },
    { name: 'Raid', duration: 'permanent', displayReason: 'Raiding', privateReason: 'Raid', excludeAltAccounts: false },
  ],
};

/** The presets file of the first workspace folder, or undefined without a folder. */
export function presetsUri(): vscode.Uri | undefined {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  return folder && vscode.Uri.joinPath(folder, PRESETS_FILE);
}

/** One preset as written in the file (any value can be there): the preset, or why it cannot be used. */
export function readPreset(value: unknown, n: number): BanPreset | string {
  const p = value as Record<string, unknown> | null;
  const name = typeof p?.name === 'string' ? p.name.trim() : '';
  if (!name) return t`preset ${n} has no name`;
  const text = (field: string, most: number): string | undefined => {
    const v = p?.[field] ?? '';
    return typeof v === 'string' && [...v].length <= most ? v : undefined;
  };
  const displayReason = text('displayReason', MAX_DISPLAY_REASON);
  const privateReason = text('privateReason', MAX_PRIVATE_REASON);
  if (displayReason === undefined) return t`preset "${name}": displayReason is not a text of at most 400 characters`;
  if (privateReason === undefined) return t`preset "${name}": privateReason is not a text of at most 1000 characters`;
  let durationSeconds: number | null = null;
  const duration = p?.duration ?? 'permanent';
  if (duration !== 'permanent') {
    try {
      durationSeconds = parseDuration(String(duration));
    } catch (error) {
      return t`preset "${name}": duration ${String(duration)}: ${(error as Error).message}`;
    }
  }
  const excludeAltAccounts = p?.excludeAltAccounts ?? false;
  if (typeof excludeAltAccounts !== 'boolean') return t`preset "${name}": excludeAltAccounts is not true or false`;
  return { name, durationSeconds, displayReason, privateReason, excludeAltAccounts };
}

/** The presets of the workspace; a file that is not there has none; one that cannot be read throws, saying why. */
export async function readPresets(uri = presetsUri()): Promise<BanPreset[]> {
  if (!uri) return [];
  let text: string;
  try {
    text = new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
  } catch {
    return [];
  }
  let json: { presets?: unknown };
  try {
    json = JSON.parse(text) as { presets?: unknown };
  } catch (error) {
    throw new Error(t`${PRESETS_FILE} is not JSON (${(error as Error).message}): fix it, or remove it`, {
      cause: error,
    });
  }
  if (!Array.isArray(json?.presets)) throw new Error(t`${PRESETS_FILE} has no "presets" list: fix it, or remove it`);
  const presets: BanPreset[] = [];
  json.presets.forEach((value, i) => {
    const read = readPreset(value, i + 1);
    if (typeof read === 'string') throw new Error(t`${PRESETS_FILE}: ${read}`);
    presets.push(read);
  });
  return presets;
}

/** Opens the presets file, made with two examples when there is none. */
export async function editPresets(ui: Ui): Promise<void> {
  const uri = presetsUri();
  if (!uri) throw new Error(t`open a folder first: the presets are kept in its ${PRESETS_FILE}`);
  try {
    await vscode.workspace.fs.stat(uri);
  } catch {
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(`${JSON.stringify(EXAMPLE, null, 2)}\n`));
    void ui.info(t`Made ${PRESETS_FILE} with two examples: edit them, save, and ban again.`);
  }
  await vscode.window.showTextDocument(uri, { preview: false });
}

/** What the bans of the list use where a line says nothing: a preset, or what the user types. */
export async function askDefaults(ui: Ui, who: string): Promise<BanDefaults & { preset?: string }> {
  const presets = await readPresets();
  type Item = vscode.QuickPickItem & { preset?: BanPreset; edit?: boolean };
  const items: Item[] = [
    ...presets.map((preset) => ({
      label: preset.name,
      description: preset.durationSeconds === null ? t`permanent` : t`for ${formatDuration(preset.durationSeconds)}`,
      detail: [preset.displayReason, preset.privateReason].filter(Boolean).join(' · '),
      preset,
    })),
    { label: t`Type the duration and reasons…`, description: t`for this run only` },
    {
      label: presets.length ? t`Edit Presets…` : t`Make Presets…`,
      description: PRESETS_FILE,
      detail: t`Presets are kept in the workspace, so a team can commit them.`,
      edit: true,
    },
  ];
  const picked = required(
    await ui.pick(items, { title: t`Reasons and duration for ${who}`, placeHolder: t`A preset, or type them` }),
  );
  if (picked.edit) {
    await editPresets(ui);
    throw new UserCancelled();
  }
  if (picked.preset) {
    const { name, ...defaults } = picked.preset;
    return { ...defaults, preset: name };
  }
  const typed = await askRestriction(ui, who);
  const d = typed.duration;
  const seconds = typeof d === 'number' ? d : typeof d === 'string' ? fromServiceDuration(d) : null;
  return {
    durationSeconds: seconds ?? null,
    displayReason: typed.displayReason ?? '',
    privateReason: typed.privateReason ?? '',
    excludeAltAccounts: typed.excludeAltAccounts ?? false,
  };
}
