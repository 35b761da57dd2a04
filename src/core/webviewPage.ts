// The shell every webview page of ours shares: a strict Content Security Policy (scripts only with this page's
// nonce, styles and images only from the extension), the display language, the shared stylesheet and the page's
// own, and its script. The body is static markup: values reach the page by message and are set as text.
import { randomBytes } from 'node:crypto';
import vscode = require('vscode');
import { isCancel } from './errors';
import type { Log } from './log';

/** Translations and titles are text: escaped, so none can add markup. */
export const escapeHtml = (words: string): string => words.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

/** `media`: the page's folder under the extension's `media/` (main.js, style.css); `body`: its static markup. */
export function pageHtml(webview: vscode.Webview, media: vscode.Uri, title: string, body: string): string {
  const nonce = randomBytes(18).toString('base64');
  const uri = (file: vscode.Uri) => webview.asWebviewUri(file).toString();
  const shared = uri(vscode.Uri.joinPath(media, '..', 'webview.css'));
  const csp = [
    `default-src 'none'`,
    `script-src 'nonce-${nonce}'`,
    `style-src ${webview.cspSource}`,
    `img-src ${webview.cspSource}`,
  ].join('; ');
  // English unless the display language's bundle was loaded.
  const lang = vscode.l10n.uri ? vscode.env.language : 'en';
  return `<!DOCTYPE html>
<html lang="${escapeHtml(lang)}">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${shared}">
<link rel="stylesheet" href="${uri(vscode.Uri.joinPath(media, 'style.css'))}">
<title>${escapeHtml(title)}</title>
</head>
<body>
${body}
<script nonce="${nonce}" src="${uri(vscode.Uri.joinPath(media, 'main.js'))}"></script>
</body>
</html>`;
}

/**
 * One message from a page (any value: `read` checks it first, and one that is not of the protocol is logged and
 * dropped), handled; a failure other than a cancel goes to `failed` (the panel shows it). Resolves when the work is
 * done, with what `handle` returned.
 */
/** Hands a page that said `ready` the translated strings (none when VS Code runs in English). */
export function sendTexts(webview: vscode.Webview): void {
  const bundle = vscode.l10n.bundle;
  if (bundle) void webview.postMessage({ type: 'texts', bundle });
}

export async function receiveFromPage<M>(
  message: unknown,
  page: { name: string; log: Log },
  read: (message: unknown) => M | undefined,
  handle: (message: M) => Promise<unknown>,
  failed: (error: unknown) => void,
): Promise<unknown> {
  const m = read(message);
  if (!m) {
    page.log.warn(`${page.name}: ignored an unknown message from the page`);
    return undefined;
  }
  try {
    return await handle(m);
  } catch (error) {
    if (!isCancel(error)) failed(error);
    return undefined;
  }
}
