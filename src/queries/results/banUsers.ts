// Ban Users… and Unban Users Everywhere… of the results panel: the user ids of a column, over every row the host
// holds, handed to the restrictions area's commands by id (areas never import each other).
import vscode = require('vscode');
import { t } from '../../core/text';
import { required, type Ui } from '../../core/ui';
import type { UniverseAddress } from '../../core/universe';
import type { QueryResult } from '../../query';
import { leftOut, userColumns, usersOf } from './users';

export type BanKind = 'ban' | 'unban';

const COMMANDS: Record<BanKind, string> = {
  ban: 'universeExplorer.banUsersFromList',
  unban: 'universeExplorer.unbanEverywhere',
};

/**
 * Plans a ban (or an unban everywhere) of the users of a result: the column that holds user ids (asked when several
 * do), its distinct ids over every row. Returns what the command returns (its review panel).
 */
export async function banResultUsers(
  ui: Ui,
  kind: BanKind,
  shown: { universe: UniverseAddress; result: QueryResult; document: string },
): Promise<unknown> {
  const { columns, rows, truncated } = shown.result;
  const found = userColumns(columns, rows);
  if (!found.length) {
    const names = columns.map((c) => c.name).join(', ') || t`none`;
    throw new Error(
      t`no column of the results holds user ids (columns: ${names}); select one named like userId, player or user_ids, of whole numbers`,
    );
  }
  const title = kind === 'ban' ? t`Ban the users of the query results` : t`Unban the users of the query results`;
  const column =
    found.length === 1
      ? found[0]
      : required(
          await ui.pick(
            found.map((i) => ({ label: columns[i].name, description: columns[i].type, i })),
            { title, placeHolder: t`Which column holds the users?` },
          ),
        ).i;
  const { name, type } = columns[column];
  const users = usersOf(rows, column, type, name);
  if (!users.userIds.length) throw new Error(t`column ${name} holds no user id (whole numbers from 1)`);
  const documentName = vscode.Uri.parse(shown.document).path.split('/').pop();
  const skipped = leftOut(users);
  const source = skipped
    ? t`the ${name} column of the results of ${documentName} (${skipped.slice(0, -1)})`
    : t`the ${name} column of the results of ${documentName}`;
  if (skipped || truncated) {
    const more = truncated ? t`The query gave more rows than the panel holds: only ${rows.length} rows count.` : '';
    void ui.info([t`Column ${name}:`, skipped, more].filter(Boolean).join(' '));
  }
  return vscode.commands.executeCommand(COMMANDS[kind], { ...shown.universe, userIds: users.userIds, source });
}
