// Review Plan File…: a restore-format plan made elsewhere (the command line's `restore`, an agent's plan tool) opened
// in the review panel as a Recent Operation of its own, so it is applied only by a person's Apply, with the usual
// conditioned writes, audit and Undo. The file is copied into the operation's folder; the original is left as it is.
import fs = require('node:fs');
import path = require('node:path');
import { estimateMs, readPlanHeader, undoRecordOf, type RestorePlanHeader } from '../../api';
import type { Connection } from '../../core/connections';
import { t } from '../../core/text';
import { localTime } from '../../core/time';
import { assertWritable } from '../../core/universe';
import { localPath } from '../commands/bulk';
import type { DataStoresCommand, DataStoresContext } from '../commands/context';
import { whereOf } from '../commands/restorePlan';
import { planItems } from './planReview';
import { planAndReview, type OperationReview } from './reviewFlow';

/** What a plan names, read before anything is copied: a damaged or foreign file is refused with its reason. */
async function headerOf(file: string): Promise<RestorePlanHeader> {
  try {
    return await readPlanHeader(file);
  } catch (error) {
    throw new Error(
      t`${path.basename(file)} is not a restore plan (${(error as Error).message}): choose a plan the command line's restore or an agent wrote`,
      { cause: error },
    );
  }
}

/** The connection that lists the plan's universe; asked when more than one does. */
async function connectionFor(
  ctx: DataStoresContext,
  universeId: number,
  file: string,
): Promise<Connection | undefined> {
  const listing = ctx.connections.list().filter((c) => c.universes.some((u) => u.id === universeId));
  if (!listing.length) {
    throw new Error(
      t`${path.basename(file)} writes to universe ${universeId}, which no connection lists: add the universe to a connection, then review the plan again`,
    );
  }
  if (listing.length === 1) return listing[0];
  const picked = await ctx.ui.pick(
    listing.map((c) => ({ label: c.name, connection: c })),
    { title: t`Which connection applies the plan to universe ${universeId}?` },
  );
  return picked?.connection;
}

/** The copy of `file` at `planFile`, its header's undo record naming the copy's audit file. */
async function copyPlan(file: string, planFile: string): Promise<void> {
  const text = await fs.promises.readFile(file, 'utf8');
  const end = text.indexOf('\n');
  const header = JSON.parse(end < 0 ? text : text.slice(0, end)) as RestorePlanHeader;
  if (header.undoRecord) header.undoRecord = undoRecordOf(planFile);
  await fs.promises.writeFile(planFile, `${JSON.stringify(header)}${end < 0 ? '\n' : text.slice(end)}`);
}

/**
 * Opens the plan in `file` in the review panel (nothing is written until Apply). `connectionId` names the connection
 * when the caller knows it.
 */
export async function reviewPlanFile(
  ctx: DataStoresContext,
  file: string,
  connectionId?: string,
): Promise<OperationReview | undefined> {
  const header = await headerOf(file);
  const universeId = Number(header.universeId);
  const connection = connectionId ? ctx.connections.get(connectionId) : await connectionFor(ctx, universeId, file);
  if (!connection) return undefined;
  assertWritable({ connectionId: connection.id, universeId });
  const ref = { connectionId: connection.id, universeId, datastoreName: header.datastoreName };
  const what = t`${header.datastoreName} (${whereOf(header.selection)})`;
  const copyOf = header.copyOf && ('file' in header.copyOf ? header.copyOf.file : header.copyOf.datastoreName);
  const when = header.time && localTime(header.time, { seconds: true });
  return planAndReview(
    ctx,
    { kind: copyOf ? 'copy' : 'restore', ...ref, what, copyOf, when, planOf: path.basename(file) },
    t`Reading the plan ${path.basename(file)}`,
    async (planFile, signal) => {
      await copyPlan(file, planFile);
      const items = await planItems(planFile, signal);
      const n = (action: string) => items.filter((i) => i.action === action).length;
      const bytes = items.reduce((sum, i) => sum + (i.bytes ?? 0), 0);
      const writes = items.length;
      const reads = 2 * n('delete');
      return {
        planFile,
        write: n('write'),
        recreate: n('recreate'),
        delete: n('delete'),
        unchanged: 0,
        gone: [],
        bytes,
        writes,
        reads,
        estimateMs: estimateMs({ writes, reads, bytes }),
        ms: 0,
      };
    },
  );
}

export const reviewPlanFileCommand: DataStoresCommand = {
  id: 'universeExplorer.reviewPlanFile',
  get failure() {
    return t`review the plan file`;
  },
  async run(ctx, uri?: unknown) {
    const chosen =
      uri instanceof Object && 'fsPath' in uri
        ? [uri as Parameters<typeof localPath>[0]]
        : await ctx.ui.openDialog({
            title: t`Review Plan File`,
            openLabel: t`Review`,
            canSelectMany: false,
            filters: { [t`Restore plans`]: ['ndjson'] },
          });
    if (!chosen?.length) return undefined;
    return reviewPlanFile(ctx, localPath(chosen[0]));
  },
};
