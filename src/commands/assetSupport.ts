// What the asset commands share: following an operation, updating an asset under progress, and finding the
// Assets groups of a connection in the tree (to redraw them, or to reveal an asset).
import { basename } from 'node:path';
import { Readable } from 'node:stream';
import vscode = require('vscode');
import {
  mediaTypeFor,
  OperationFailedError,
  OperationTimeoutError,
  type Asset,
  type AssetFile,
  type OpenApiClient,
  type Operation,
  type UpdateAssetRequest,
} from '../api';
import { reason } from '../errors';
import { settings } from '../settings';
import { AssetNode } from '../tree/assetNode';
import { AssetsGroupNode } from '../tree/assetsGroupNode';
import { ConnectionNode } from '../tree/connectionNode';
import { UniverseNode } from '../tree/universeNode';
import type { CommandContext } from './context';

/**
 * Polls the operation (with the client's backoff) until done, within universeExplorer.operationTimeoutSeconds.
 * A failed operation becomes an Error with the service's message; a cancel stays a cancel.
 */
export async function follow(client: OpenApiClient, op: Operation, signal: AbortSignal): Promise<Operation> {
  const seconds = settings().operationTimeoutSeconds;
  try {
    return await client.assets.waitForOperation(op, { signal, timeoutMs: seconds * 1000 });
  } catch (error) {
    if (error instanceof OperationFailedError) throw new Error(error.operationStatus.message || error.message);
    if (error instanceof OperationTimeoutError) {
      throw new Error(`the service had not finished after ${seconds} s (setting universeExplorer.operationTimeoutSeconds); it may still finish (${op.path})`);
    }
    throw error;
  }
}

/** A file on disk is streamed from its path; one from another file system is read through VS Code. */
export async function assetFile(uri: vscode.Uri): Promise<AssetFile> {
  if (uri.scheme === 'file') return { path: uri.fsPath };
  const bytes = await vscode.workspace.fs.readFile(uri);
  const contentType = mediaTypeFor(uri.path) ?? 'application/octet-stream';
  return { stream: Readable.from(Buffer.from(bytes)), contentType, filename: basename(uri.path), size: bytes.byteLength };
}

/** Update Asset under a cancellable notification, following its operation; the tree shows the result. */
export async function updateAsset(
  ctx: CommandContext,
  node: AssetNode,
  title: string,
  args: { request: UpdateAssetRequest; updateMask?: string; file?: AssetFile },
): Promise<Asset> {
  const client = await ctx.connections.client(node.connectionId);
  const done = await ctx.progress(title, async (signal, report) => {
    report(args.file ? 'uploading…' : 'saving…');
    const op = await client.assets.update({ assetId: node.assetId, ...args }, { signal });
    report('processing…');
    return follow(client, op, signal);
  });
  const asset = done.response ?? (await client.assets.get({ assetId: node.assetId }));
  await changed(ctx, node.connectionId, asset);
  return asset;
}

/** After a change: the list keeps the new display data and every Assets group of the connection redraws. */
export async function changed(ctx: CommandContext, connectionId: string, asset: Asset): Promise<void> {
  await ctx.assets.update(connectionId, { ...asset, id: asset.assetId });
  await refreshAssets(ctx, connectionId);
}

/** Every universe's Assets group of the connection (they all show the same list). */
export async function assetGroups(ctx: CommandContext, connectionId: string): Promise<AssetsGroupNode[]> {
  const roots = await ctx.tree.getChildren();
  const connection = roots.find((n) => n instanceof ConnectionNode && n.connection.id === connectionId);
  if (!connection) return [];
  const universes = (await ctx.tree.getChildren(connection)).filter((n) => n instanceof UniverseNode);
  const groups = await Promise.all(universes.map((u) => ctx.tree.getChildren(u)));
  return groups.flat().filter((n): n is AssetsGroupNode => n instanceof AssetsGroupNode);
}

/** Reloads the connection's Assets groups, so a change shows wherever the list is shown. */
export async function refreshAssets(ctx: CommandContext, connectionId: string): Promise<void> {
  for (const group of await assetGroups(ctx, connectionId)) ctx.tree.refresh(group);
}

/** Selects the asset in the first universe's Assets group. */
export async function revealAsset(ctx: CommandContext, connectionId: string, assetId: string): Promise<AssetNode> {
  const [group] = await assetGroups(ctx, connectionId);
  if (!group) throw new Error('the connection has no universe, so there is no Assets group to show it in; add a universe');
  const find = async () =>
    (await ctx.tree.getChildren(group)).find((n): n is AssetNode => n instanceof AssetNode && n.assetId === assetId);
  let node = await find();
  if (!node) {
    ctx.tree.refresh(group); // loaded before the asset was added
    node = await find();
  }
  if (!node) throw new Error(`asset ${assetId} is not in the list`);
  await ctx.view.reveal(node, { select: true, focus: true, expand: false });
  return node;
}

/** "Uploaded …"/"Updated …" with Copy ID and Reveal; a moderation state other than Approved is shown as a warning. */
export function announceAsset(ctx: CommandContext, connectionId: string, text: string, asset: Asset): void {
  const moderation = asset.moderationResult?.moderationState;
  const approved = !moderation || moderation === 'Approved';
  const message = approved ? text : `${text}; moderation: ${moderation}`;
  ctx.log.info(message);
  const shown = approved ? ctx.ui.info(message, 'Copy ID', 'Reveal') : ctx.ui.warn(message, {}, 'Copy ID', 'Reveal');
  void shown
    .then(async (choice) => {
      if (choice === 'Copy ID') await ctx.ui.copy(asset.assetId);
      if (choice === 'Reveal') await revealAsset(ctx, connectionId, asset.assetId);
    })
    .catch((error) => {
      ctx.log.error(`Couldn't reveal asset ${asset.assetId}: ${reason(error)}`);
      void ctx.ui.error(`Couldn't reveal asset ${asset.assetId}: ${reason(error)}`);
    });
}
