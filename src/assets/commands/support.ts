// What the asset commands share: the node they run on, a fresh read of its asset, files to send, updates under
// progress, and how a result is announced.
import { basename } from 'node:path';
import { Readable } from 'node:stream';
import vscode = require('vscode');
import { mediaTypeFor, type Asset, type AssetFile, type UpdateAssetRequest } from '../../api';
import { reason } from '../../core/errors';
import { t } from '../../core/text';
import { AssetNode, AssetVersionNode } from '../tree';
import type { AssetsContext } from './context';

export function asAsset(node: unknown): AssetNode {
  if (!(node instanceof AssetNode)) throw new Error(t`choose an asset in the Universes view`);
  return node;
}

export function asAssetVersion(node: unknown): AssetVersionNode {
  if (!(node instanceof AssetVersionNode)) throw new Error(t`choose an asset version in the Universes view`);
  return node;
}

/** The asset node the command runs on and what the service says of it now (edits start from the current values). */
export async function currentAsset(ctx: AssetsContext, node: unknown): Promise<{ node: AssetNode; asset: Asset }> {
  const a = asAsset(node);
  const { asset, error } = await ctx.ui.progress(t`Reading ${a.displayName}…`, (signal) =>
    ctx.model.read(a.connectionId, a.assetId, signal),
  );
  if (!asset) throw error;
  return { node: a, asset };
}

/** A file on disk is streamed from its path; one from another file system is read through VS Code. */
export async function assetFile(uri: vscode.Uri): Promise<AssetFile> {
  if (uri.scheme === 'file') return { path: uri.fsPath };
  const bytes = await vscode.workspace.fs.readFile(uri);
  const contentType = mediaTypeFor(uri.path) ?? 'application/octet-stream';
  return {
    stream: Readable.from(Buffer.from(bytes)),
    contentType,
    filename: basename(uri.path),
    size: bytes.byteLength,
  };
}

/** Update Asset under a cancellable notification, following its operation; the tree shows the result. */
export function updateAsset(
  ctx: AssetsContext,
  node: AssetNode,
  title: string,
  args: { request: UpdateAssetRequest; updateMask?: string; file?: AssetFile },
): Promise<Asset> {
  return ctx.ui.progress(title, (signal, report) =>
    ctx.model.update(node.connectionId, node.assetId, args, signal, (what) => report(what)),
  );
}

/** "Uploaded …"/"Updated …" with Copy ID and Reveal; a moderation state other than Approved is shown as a warning. */
export function announceAsset(ctx: AssetsContext, connectionId: string, text: string, asset: Asset): void {
  const moderation = asset.moderationResult?.moderationState;
  const approved = !moderation || moderation === 'Approved';
  const message = approved ? text : t`${text}; moderation: ${moderation}`;
  ctx.log.info(message);
  const copyId = t`Copy ID`;
  const reveal = t`Reveal`;
  const shown = approved ? ctx.ui.info(message, copyId, reveal) : ctx.ui.warn(message, {}, copyId, reveal);
  void shown
    .then(async (choice) => {
      if (choice === copyId) await ctx.ui.copy(asset.assetId);
      if (choice === reveal) await ctx.reveal(connectionId, asset.assetId);
    })
    .catch((error) => {
      ctx.log.error(`Couldn't reveal asset ${asset.assetId}: ${reason(error)}`, error);
      void ctx.ui.error(t`Couldn't reveal asset ${asset.assetId}: ${reason(error)}`);
    });
}
