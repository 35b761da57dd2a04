import { confirmProductionWrite } from '../../core/confirmWrite';
import { validator } from '../../core/prompts';
import { t } from '../../core/text';
import { required } from '../../core/ui';
import { formatJson } from '../editor/json';
import { describeEntry } from '../editor/save';
import type { DataStoresCommand } from './context';
import { writableEntry } from './nodes';

function parseUserIds(text: string): number[] {
  const ids = text
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  if (ids.length > 4) throw new Error(t`At most 4 user ids.`);
  return ids.map((id) => {
    if (!/^\d{1,19}$/.test(id) || !Number.isSafeInteger(Number(id))) throw new Error(t`"${id}" is not a user id.`);
    return Number(id);
  });
}

function checkAttributes(text: string): void {
  formatJson(text);
  const value: unknown = JSON.parse(text);
  if (!value || typeof value !== 'object' || Array.isArray(value))
    throw new Error(t`Attributes are a JSON object, e.g. {"tag": "x"}.`);
  if (Buffer.byteLength(JSON.stringify(value)) > 300) throw new Error(t`Attributes take at most 300 bytes.`);
}

export const editMetadata: DataStoresCommand = {
  id: 'universeExplorer.editMetadata',
  get failure() {
    return t`edit attributes and user ids`;
  },
  async run(ctx, node: unknown) {
    const entry = writableEntry(node);
    const key = entry.entry.key;
    const current = await ctx.ui.progress(t`Reading ${key}…`, (signal) => ctx.model.read(entry.address, signal));
    const attributesText = required(
      await ctx.ui.input({
        title: t`Attributes of ${key}`,
        value: JSON.stringify(current.attributes),
        validateInput: validator(checkAttributes),
      }),
    );
    const userIdsText = required(
      await ctx.ui.input({
        title: t`User ids of ${key}`,
        value: current.userIds.join(', '),
        prompt: t`Up to 4 user ids separated by commas`,
        validateInput: validator(parseUserIds),
      }),
    );
    const metadata = {
      attributes: JSON.parse(attributesText) as Record<string, unknown>,
      userIds: parseUserIds(userIdsText),
    };
    await confirmProductionWrite(
      ctx.ui,
      entry.address,
      t`Save the attributes and user ids of ${describeEntry(entry.address)}?`,
      t`Save`,
    );
    return ctx.ui.progress(t`Saving the attributes and user ids of ${key}…`, (signal) =>
      ctx.model.setMetadata(entry.address, current, metadata, signal),
    );
  },
};
