// What the asset commands share: the node they run on, a fresh read of its asset, files to send, the question a write
// asks first when the connection has a production universe, updates under progress, and how a result is announced.
import { basename } from 'node:path';
import { Readable } from 'node:stream';
import vscode = require('vscode');
import { mediaTypeFor, type Asset, type AssetFile, type UpdateAssetRequest } from '../../api';
import { askingWords, confirmProductionWrite } from '../../core/confirmWrite';
import { reason } from '../../core/errors';
import { t } from '../../core/text';
import { roleOf, type UniverseAddress } from '../../core/universe';
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

/**
 * Assets are the connection's, shared by all its universes: a write asks first when any of them is production. The
 * production universe it names and the words that say assets are shared; undefined when none is production.
 */
function productionOf(ctx: AssetsContext, connectionId: string): { u: UniverseAddress; shared: string } | undefined {
  const connection = ctx.connections.get(connectionId);
  const found = connection?.universes.find((u) => roleOf({ connectionId, universeId: u.id }) === 'production');
  if (!connection || !found) return undefined;
  const shared = t`Assets are shared by every universe of "${connection.name}".`;
  return { u: { connectionId, universeId: found.id }, shared };
}

/** The words of an asset write's modal question (for a command that asks anyway): production-marked as it applies. */
export function assetAskingWords(
  ctx: AssetsContext,
  connectionId: string,
  question: string,
  detail?: string,
): { question: string; detail?: string } {
  const production = productionOf(ctx, connectionId);
  if (!production) return { question, detail };
  return askingWords(production.u, question, [production.shared, detail].filter(Boolean).join(' '));
}

/** Asks `question` first when the connection has a production universe (declined: a cancel); else returns at once. */
export async function confirmAssetWrite(
  ctx: AssetsContext,
  connectionId: string,
  question: string,
  button: string,
): Promise<void> {
  const production = productionOf(ctx, connectionId);
  if (production) await confirmProductionWrite(ctx.ui, production.u, question, button, production.shared);
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

/**
 * Update Asset under a cancellable notification, following its operation; the tree shows the result. Asks `ask`
 * first when the connection has a production universe.
 */
export async function updateAsset(
  ctx: AssetsContext,
  node: AssetNode,
  title: string,
  ask: { question: string; button: string },
  args: { request: UpdateAssetRequest; updateMask?: string; file?: AssetFile },
): Promise<Asset> {
  await confirmAssetWrite(ctx, node.connectionId, ask.question, ask.button);
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
