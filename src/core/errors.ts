import vscode = require('vscode');
import { UserCancelled } from './ui';

/** True for a cancel by the user or by a CancellationToken: never shown as an error. */
export function isCancel(error: unknown): boolean {
  return (
    error instanceof UserCancelled ||
    error instanceof vscode.CancellationError ||
    (error instanceof Error && error.name === 'AbortError')
  );
}

/** A one-line reason for a message or a tree node. */
export function reason(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}

/** How deep a chain of causes is followed in the log. */
const MAX_CAUSES = 8;

/**
 * What the log keeps of a failure under its one-line message: the error's stack, then each cause's, for debugging.
 * Errors that are not Error objects give their text.
 */
export function failureDetail(error: unknown): string {
  const parts: string[] = [];
  const seen = new Set<unknown>();
  for (let e = error, depth = 0; e !== undefined && !seen.has(e) && depth <= MAX_CAUSES; depth++) {
    seen.add(e);
    const text = e instanceof Error ? (e.stack ?? `${e.name}: ${e.message}`) : String(e);
    parts.push(depth === 0 ? text : `Caused by: ${text}`);
    e = e instanceof Error ? e.cause : undefined;
  }
  return parts.join('\n');
}
