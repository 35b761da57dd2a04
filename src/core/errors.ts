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
