// The page's buttons that act through other areas' commands, each run with a plain argument (areas never import
// each other): Build Query Index…, Restore This Player to a Time… (the data stores' per-player restore), Ban… and
// Unban… (the restrictions' commands) and Erase Player Data…. The page reads again once a command is done.
import vscode = require('vscode');
import { t } from '../core/text';
import { required } from '../core/ui';
import { assertWritable } from '../core/universe';
import type { PlayerDeps } from './deps';
import type { PlayerRef, PlayerState } from './protocol';

/** The page an action is pressed on (its host). */
export interface ActionPage {
  readonly ref: PlayerRef;
  readonly where: string;
  /** Every store of the universe, when listed. */
  readonly stores: readonly string[];
  readonly state: PlayerState;
  refresh(): Promise<void>;
  refreshRestrictions(): Promise<void>;
}

export interface PlayerActions {
  deps: PlayerDeps;
  panel: ActionPage;
}

export type ActionName = 'buildIndex' | 'restore' | 'erase' | 'ban' | 'unban';

export async function runAction(a: PlayerActions, action: ActionName, placeId?: number): Promise<unknown> {
  const { connectionId, universeId, userId } = a.panel.ref;
  const universe = { connectionId, universeId };
  switch (action) {
    case 'buildIndex':
      // Build Query Index… takes any row of a universe by its `ref`.
      await vscode.commands.executeCommand('universeExplorer.buildQueryIndex', { ref: universe });
      return a.panel.refresh();
    case 'restore': {
      assertWritable(universe);
      const datastoreName = await pickStore(a);
      await vscode.commands.executeCommand('universeExplorer.restoreToTime', { ...universe, datastoreName, userId });
      return a.panel.refresh();
    }
    case 'erase':
      assertWritable(universe);
      await vscode.commands.executeCommand('universeExplorer.erasePlayerData', { ...universe, userId });
      return a.panel.refresh();
    case 'ban':
    case 'unban': {
      assertWritable(universe);
      const id = action === 'ban' ? 'universeExplorer.banUser' : 'universeExplorer.unban';
      await vscode.commands.executeCommand(id, { ...universe, placeId, userId: String(userId) });
      return a.panel.refreshRestrictions();
    }
  }
}

/**
 * The store to restore: the stores the page lists entries of first, then the universe's others (the restore finds
 * the entries whose user ids include the player, now or at the time, so it may reach entries the index lacks).
 */
async function pickStore(a: PlayerActions): Promise<string> {
  const { ui } = a.deps;
  const rows = a.panel.state.entries.rows;
  const counts = new Map<string, number>();
  for (const r of rows) counts.set(r.store, (counts.get(r.store) ?? 0) + 1);
  const names = [...counts.keys(), ...a.panel.stores.filter((s) => !counts.has(s))];
  if (!names.length) {
    throw new Error(
      t`no data store of ${a.panel.where} is known to the page: press Refresh, or run Restore to Time… on a data store`,
    );
  }
  const items = names.map((name) => {
    const n = counts.get(name);
    return {
      label: name,
      description: n === undefined ? undefined : n === 1 ? t`1 entry listed` : t`${n} entries listed`,
      name,
    };
  });
  const picked = required(
    await ui.pick(items, {
      title: t`Restore user ${a.panel.ref.userId} to a time`,
      placeHolder: t`The data store: its entries whose user ids include ${a.panel.ref.userId} are restored`,
    }),
  );
  return picked.name;
}
