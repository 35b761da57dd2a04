// Undo a Restore… (the command palette, or a data store row): a restore or copy from Recent Operations, or the audit
// file of one exported or made by an earlier version; then the undo's plan in a review panel.
import path = require('node:path');
import { auditFileFor } from '../../api';
import vscode = require('vscode');
import { t } from '../../core/text';
import { localTime } from '../../core/time';
import { required } from '../../core/ui';
import type { StoreRef } from '../listState';
import { localPath } from './bulk';
import type { DataStoresCommand } from './context';
import { writableStore } from './nodes';
import { auditHeader, planHeader, whereOf } from './restorePlan';
import { startUndo } from '../operations/reviewFlow';

export const undoRestore: DataStoresCommand = {
  id: 'universeExplorer.undoRestore',
  get failure() {
    return t`undo the restore`;
  },
  async run(ctx, node?: unknown) {
    const store = node === undefined ? undefined : writableStore(node);
    const undoable = ctx.operations
      .list(store?.ref)
      .filter((op) => (op.kind === 'restore' || op.kind === 'copy') && op.state !== 'planned' && !op.undoneBy)
      .filter((op) => !store || op.datastoreName === store.ref.datastoreName);
    const picked = required(
      await ctx.ui.pick(
        [
          ...undoable.map((op) => ({
            label: op.kind === 'copy' ? t`Copy to ${op.what}` : t`Restore of ${op.what} to ${op.when ?? ''}`,
            description: t`${localTime(op.applied ?? op.planned)}, universe ${op.universeId}`,
            op,
          })),
          {
            label: t`An audit file…`,
            description: t`a restore's *.audit.ndjson exported or kept by hand`,
            op: undefined,
          },
        ],
        { title: store ? t`Undo which restore of ${store.store.name}?` : t`Undo which restore?` },
      ),
    );
    if (picked.op) {
      const op = picked.op;
      return startUndo(ctx, op, auditFileFor(ctx.operations.planFile(op)));
    }
    const [uri] = required(
      await ctx.ui.openDialog({
        title: store
          ? t`Undo a restore of ${store.store.name}: choose its audit file (*.audit.ndjson)`
          : t`Undo a restore: choose its audit file (*.audit.ndjson)`,
        openLabel: t`Undo`,
        canSelectMany: false,
        filters: { [t`Restore audit (*.audit.ndjson)`]: ['ndjson'], [t`All files`]: ['*'] },
        defaultUri: vscode.workspace.workspaceFolders?.[0]?.uri,
      }),
    );
    const auditFile = localPath(uri);
    const file = path.basename(auditFile);
    const header = auditHeader(auditFile);
    if (!header)
      throw new Error(t`${file} is not the audit file of a restore: its first line is no restoreAudit header`);
    const universeId = Number(header.universeId);
    const name = header.datastoreName;
    let ref: StoreRef;
    if (store) {
      if (store.ref.universeId !== universeId || store.ref.datastoreName !== name)
        throw new Error(
          t`${file} is the audit of a restore of ${name} in universe ${universeId}, not of ${store.store.name} in universe ${store.ref.universeId}`,
        );
      ref = store.ref;
    } else {
      const connections = ctx.timeMachine.universeConnections(universeId);
      if (!connections.length)
        throw new Error(
          t`no connection shows universe ${universeId}, whose ${name} ${file} restored: add it to one first`,
        );
      const chosen =
        connections.length === 1
          ? connections[0]
          : required(
              await ctx.ui.pick(
                connections.map((c) => ({ ...c, label: c.name })),
                { title: t`Undo the restore of ${name} (universe ${universeId}) through which connection?` },
              ),
            );
      ref = { connectionId: chosen.connectionId, universeId, datastoreName: name };
    }
    const plan = header.plan ? planHeader(header.plan) : undefined;
    const what = plan
      ? plan.time
        ? t`${name} (${whereOf(plan.selection)}) to ${localTime(plan.time, { seconds: true })}`
        : t`${name} (${whereOf(plan.selection)})`
      : name;
    return startUndo(ctx, { ...ref, what }, auditFile);
  },
};
