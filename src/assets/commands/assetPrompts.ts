import { basename } from 'node:path';
import { assetTypesFor, type AssetType, type Creator } from '../../api';
import { validator } from '../../core/prompts';
import { t } from '../../core/text';
import { required, type Ui } from '../../core/ui';
import { checkDescription, checkName, formatCreator, parseCreator } from '../assetFormat';
import type { AssetsContext } from './context';

const typeHints = (): Partial<Record<AssetType, string>> => ({
  Decal: t`an image to put on surfaces in an experience`,
  Image: t`an image for interfaces, thumbnails, icons and previews`,
  Model: t`a 3D model, imported as a package`,
  Animation: t`an animation made in Studio`,
});

/** The asset type of each file: the one that fits, or the user's pick where several fit (one pick per kind of file). */
export async function askAssetTypes(ui: Ui, paths: readonly string[]): Promise<Map<string, AssetType>> {
  const types = new Map<string, AssetType>();
  const byChoice = new Map<string, string[]>();
  for (const p of paths) {
    const fits = assetTypesFor(p);
    if (fits.length === 1) types.set(p, fits[0]);
    else byChoice.set(fits.join(','), [...(byChoice.get(fits.join(',')) ?? []), p]);
  }
  const hints = typeHints();
  for (const [choice, group] of byChoice) {
    const names =
      group.length === 1 ? basename(group[0]) : t`${group.length} files (${group.map((p) => basename(p)).join(', ')})`;
    const picked = await ui.pick(
      (choice.split(',') as AssetType[]).map((type) => ({ label: type, description: hints[type] })),
      { title: t`Upload ${names} as`, placeHolder: t`Asset type` },
    );
    for (const p of group) types.set(p, required(picked).label);
  }
  return types;
}

export async function askName(ui: Ui, title: string, value: string): Promise<string> {
  return required(
    await ui.input({ title, value, prompt: t`Display name, at most 50 characters`, validateInput: checkName }),
  ).trim();
}

export async function askDescription(ui: Ui, title: string, value = ''): Promise<string> {
  return required(
    await ui.input({ title, value, prompt: t`At most 1000 characters; may be empty`, validateInput: checkDescription }),
  );
}

/** Who owns the Local Sandbox's demo assets: the creator an upload there starts from. */
const SANDBOX_CREATOR: Creator = { userId: '1001' };

/** The creator to upload as; the answer is remembered for the connection. */
export async function askCreator(ctx: AssetsContext, connectionId: string): Promise<Creator> {
  const sandbox = ctx.connections.get(connectionId)?.sandbox;
  const text = await ctx.ui.input({
    title: t`Creator`,
    value: formatCreator(ctx.model.creator(connectionId) ?? (sandbox ? SANDBOX_CREATOR : undefined)),
    prompt: t`The user id to upload as (e.g. 1001), or "group <id>" for a group; remembered for this connection`,
    validateInput: validator(parseCreator),
  });
  const creator = parseCreator(required(text));
  await ctx.model.setCreator(connectionId, creator);
  return creator;
}
