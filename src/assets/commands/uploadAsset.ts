import { basename } from 'node:path';
import vscode = require('vscode');
import { MEDIA_TYPES, mediaTypeFor, type Asset, type CreateAssetRequest } from '../../api';
import { isCancel, reason } from '../../core/errors';
import { pickConnection } from '../../core/prompts';
import { t } from '../../core/text';
import { stepDone } from '../../core/walkthrough';
import { required } from '../../core/ui';
import { defaultName, supportedTypes } from '../assetFormat';
import { AssetsGroupNode } from '../tree';
import { askAssetTypes, askCreator, askDescription, askName } from './assetPrompts';
import type { AssetsCommand, AssetsContext } from './context';
import { announceAsset, assetFile, confirmAssetWrite } from './support';

interface Upload {
  uri: vscode.Uri;
  name: string;
  request: CreateAssetRequest;
}

export interface UploadResult {
  file: string;
  asset?: Asset;
  error?: string;
  cancelled?: boolean;
}

/** The files VS Code passed: the clicked one, or the whole multi-selection (uri, uris). */
function filesFrom(arg: unknown, selection: unknown): vscode.Uri[] {
  if (Array.isArray(selection) && selection.length > 0 && selection.every((u) => u instanceof vscode.Uri))
    return selection;
  return arg instanceof vscode.Uri ? [arg] : [];
}

/** Refuses the batch before any prompt or request when a file cannot be an asset. */
function checkTypes(uris: readonly vscode.Uri[]): void {
  const refused = uris.filter((u) => !mediaTypeFor(u.path)).map((u) => basename(u.path));
  if (refused.length === 0) return;
  throw new Error(
    refused.length === 1
      ? t`${refused[0]} is not a file type that can be uploaded; supported types: ${supportedTypes()}`
      : t`${refused.join(', ')} are not file types that can be uploaded; supported types: ${supportedTypes()}`,
  );
}

export const uploadAsset: AssetsCommand = {
  id: 'universeExplorer.uploadAsset',
  get failure() {
    return t`upload as an asset`;
  },
  async run(ctx, arg?: unknown, selection?: unknown): Promise<UploadResult[]> {
    let uris = filesFrom(arg, selection);
    if (uris.length === 0) {
      uris = required(
        await ctx.ui.openDialog({
          title: t`Upload as Asset`,
          openLabel: t`Upload`,
          canSelectMany: true,
          filters: { [t`Asset files`]: Object.keys(MEDIA_TYPES) },
        }),
      );
    }
    checkTypes(uris);
    const connectionId =
      arg instanceof AssetsGroupNode ? arg.connectionId : (await pickConnection(ctx.ui, ctx.connections)).id;
    const types = await askAssetTypes(
      ctx.ui,
      uris.map((u) => u.path),
    );
    const names: string[] = [];
    for (const u of uris)
      names.push(await askName(ctx.ui, t`Display name for ${basename(u.path)}`, defaultName(u.path)));
    const description = await askDescription(
      ctx.ui,
      uris.length === 1 ? t`Description` : t`Description for the ${uris.length} assets`,
    );
    const creator = await askCreator(ctx, connectionId);
    await confirmAssetWrite(
      ctx,
      connectionId,
      uris.length === 1 ? t`Upload the file as an asset?` : t`Upload ${uris.length} files as assets?`,
      t`Upload`,
    );
    const uploads = uris.map((uri, i) => ({
      uri,
      name: basename(uri.path),
      request: { assetType: types.get(uri.path)!, displayName: names[i], description, creationContext: { creator } },
    }));
    return uploadBatch(ctx, connectionId, uploads);
  },
};

/**
 * One notification for the batch: files are sent one after another, and each operation is followed as soon as
 * its upload is answered. A cancel stops sending and polling, silently.
 */
async function uploadBatch(ctx: AssetsContext, connectionId: string, uploads: Upload[]): Promise<UploadResult[]> {
  const total = uploads.length;
  const title = total === 1 ? t`Uploading ${uploads[0].name} as an asset` : t`Uploading ${total} files as assets`;
  const results = await ctx.ui.progress(title, (signal, report) => {
    ctx.log.info(`Upload batch: ${total} file(s) to ${ctx.connections.get(connectionId)?.name ?? connectionId}`);
    let finished = 0;
    const step = (u: Upload, what: string, end = false) => {
      if (end) finished++;
      report(t`${u.name}: ${what} (${finished} of ${total} done)`, end ? 100 / total : undefined);
    };
    let queue: Promise<unknown> = Promise.resolve();
    return Promise.all(
      uploads.map((u) => {
        const created = queue.then(async () => {
          signal.throwIfAborted();
          step(u, t`uploading`);
          return ctx.model.upload(connectionId, u.request, await assetFile(u.uri), signal);
        });
        queue = created.catch(() => undefined);
        return created
          .then((op) => {
            step(u, t`processing`);
            ctx.log.info(`${u.name}: following ${op.path}`);
            return ctx.model.uploaded(connectionId, op, u.name, u.request.displayName, signal);
          })
          .then((asset): UploadResult => {
            step(u, t`done`, true);
            stepDone('assetUploaded');
            announceAsset(ctx, connectionId, t`Uploaded ${u.name} as asset ${asset.assetId}`, asset);
            return { file: u.name, asset };
          })
          .catch((error): UploadResult => {
            if (signal.aborted || isCancel(error)) return { file: u.name, cancelled: true };
            step(u, t`failed`, true);
            ctx.log.error(`Couldn't upload ${u.name}: ${reason(error)}`, error);
            void ctx.ui
              .error(t`Couldn't upload ${u.name}: ${reason(error)}`, t`Show Log`)
              .then((c) => c && ctx.log.show());
            return { file: u.name, error: reason(error) };
          });
      }),
    );
  });
  const stopped = results.filter((r) => r.cancelled).map((r) => r.file);
  if (stopped.length) {
    ctx.log.info(`Upload cancelled: stopped sending or following ${stopped.join(', ')}`);
    if (ctx.model.pending(connectionId).length) {
      ctx.log.info(
        'Uploads the service had answered stay listed under Assets as pending, checked again when the list loads',
      );
    }
  }
  return results;
}
