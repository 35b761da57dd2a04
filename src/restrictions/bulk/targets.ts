// Where a bulk ban goes: the universe, some of its places (those shown under it, and any typed), and other universes
// of the same connection. The universe the command started from is picked already.
import vscode = require('vscode');
import type { BanTarget } from '../../api';
import type { Connections } from '../../core/connections';
import { t } from '../../core/text';
import { required, type Ui } from '../../core/ui';
import { assertWritable, type UniverseAddress } from '../../core/universe';

/** A target in words: `universe 123 (Demo Universe)`, `place 1234 of universe 123`. */
export function describeBanTarget(connections: Connections, connectionId: string, target: BanTarget): string {
  const name = connections.get(connectionId)?.universes.find((u) => u.id === target.universeId)?.name;
  const universe = name ? t`universe ${target.universeId} (${name})` : t`universe ${target.universeId}`;
  return target.placeId === undefined ? universe : t`place ${target.placeId} of ${universe}`;
}

/** Ids typed, separated by spaces or commas; a problem names the first that is not one. */
function readIds(text: string): number[] | string {
  const parts = text.split(/[\s,;]+/).filter(Boolean);
  const bad = parts.find((p) => !/^[1-9]\d{0,15}$/.test(p) || !Number.isSafeInteger(Number(p)));
  return bad === undefined ? parts.map(Number) : t`${bad} is not a place id`;
}

export async function pickTargets(
  ui: Ui,
  connections: Connections,
  u: UniverseAddress,
  places: readonly number[],
  title: string,
): Promise<BanTarget[]> {
  type Item = vscode.QuickPickItem & { target?: BanTarget; typePlaces?: boolean };
  const others = (connections.get(u.connectionId)?.universes ?? []).filter((x) => x.id !== u.universeId);
  const items: Item[] = [
    {
      label: describeBanTarget(connections, u.connectionId, { universeId: u.universeId }),
      description: t`every place of the universe`,
      target: { universeId: u.universeId },
      picked: true,
    },
    ...places.map((placeId) => ({
      label: describeBanTarget(connections, u.connectionId, { universeId: u.universeId, placeId }),
      description: t`shown under User Restrictions`,
      target: { universeId: u.universeId, placeId },
    })),
    {
      label: t`Other places of universe ${u.universeId}…`,
      description: t`type their ids`,
      typePlaces: true,
    },
    ...others.map((x) => ({
      label: describeBanTarget(connections, u.connectionId, { universeId: x.id }),
      description: t`another universe of this connection`,
      target: { universeId: x.id },
    })),
  ];
  const picked = required(
    await ui.pickMany(items, { title, placeHolder: t`Where: the universe, its places, other universes` }),
  );
  const targets = picked.flatMap((p) => (p.target ? [p.target] : []));
  if (picked.some((p) => p.typePlaces)) {
    const text = required(
      await ui.input({
        title: t`Places of universe ${u.universeId}`,
        prompt: t`Place ids, separated by spaces or commas`,
        validateInput: (v) => {
          const ids = readIds(v);
          return typeof ids === 'string' ? ids : ids.length ? undefined : t`Type at least one place id.`;
        },
      }),
    );
    const ids = readIds(text);
    if (typeof ids === 'string') throw new Error(ids);
    for (const placeId of ids)
      if (!targets.some((x) => x.placeId === placeId)) targets.push({ universeId: u.universeId, placeId });
  }
  if (!targets.length) throw new Error(t`no target was chosen: pick the universe, a place or another universe`);
  for (const x of targets) assertWritable({ connectionId: u.connectionId, universeId: x.universeId });
  return targets;
}
