import vscode = require('vscode');
import { isCancel, reason } from './errors';
import type { Log } from './log';
import { t } from './text';
import type { Ui } from './ui';

/** One command: its id, how its failure reads, and a handler that receives the area's context. */
export interface CommandDef<C> {
  id: string;
  /** Completes "Failed to …", e.g. "add connection"; a getter, so it is translated when read (after activate). */
  failure: string;
  // Handlers take the tree node or URI that VS Code passes, so the arguments are untyped here.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  run(ctx: C, ...args: any[]): unknown;
}

/** What the wrapper needs of every area's context. */
export interface CommandBase {
  ui: Ui;
  log: Log;
}

/** Registers each command through one wrapper that logs, stays silent on cancel and shows failures. */
export function registerCommands<C extends CommandBase>(ctx: C, defs: readonly CommandDef<C>[]): vscode.Disposable[] {
  return defs.map((def) => vscode.commands.registerCommand(def.id, (...args: unknown[]) => runCommand(ctx, def, args)));
}

export async function runCommand<C extends CommandBase>(ctx: C, def: CommandDef<C>, args: unknown[]): Promise<unknown> {
  const started = Date.now();
  ctx.log.info(`${def.id} started`);
  try {
    const result = await def.run(ctx, ...args);
    ctx.log.info(`${def.id} finished in ${Date.now() - started}ms`);
    return result;
  } catch (error) {
    if (isCancel(error)) {
      ctx.log.info(`${def.id} cancelled`);
      return undefined;
    }
    const message = t`Failed to ${def.failure}: ${reason(error)}`;
    const showLog = t`Show Log`;
    ctx.log.error(message, error);
    void ctx.ui.error(message, showLog).then((choice) => {
      if (choice === showLog) ctx.log.show();
    });
    return undefined;
  }
}

/**
 * Work started from a message's button after a command ended (Copy Differences…, Undo): run as a command is, logged
 * under `id`, silent on cancel, a failure shown as "Failed to <failure>: <reason>" with Show Log.
 */
export function runFollowUp<C extends CommandBase>(ctx: C, id: string, failure: string, work: () => Promise<unknown>) {
  return runCommand(ctx, { id, failure, run: work }, []);
}
