// The Local Sandbox: the emulator with demo data, run for this editor, and its commands.
import type vscode = require('vscode');
import { registerCommands } from '../core/commands';
import { SANDBOX_ID, type Connections } from '../core/connections';
import type { Log } from '../core/log';
import type { StatusBar } from '../core/statusBar';
import { reason } from '../core/errors';
import { settings } from '../core/settings';
import type { Ui } from '../core/ui';
import { copySandboxAddress } from './commands/copySandboxAddress';
import { resetSandbox } from './commands/resetSandbox';
import { startSandbox } from './commands/startSandbox';
import { stopSandbox } from './commands/stopSandbox';
import { Sandbox } from './sandbox';

export function activateSandbox(deps: {
  context: vscode.ExtensionContext;
  /** globalState, written one update at a time (core/state.ts). */
  state: vscode.Memento;
  connections: Connections;
  ui: Ui;
  log: Log;
  status: StatusBar;
}) {
  const { context, state, connections, ui, log, status } = deps;
  const sandbox = new Sandbox(context, state, connections, log, status);
  // Tabs and panels of the sandbox restored after a window reload start it when they need it.
  const startOnDemand = (allowed: boolean) =>
    connections.startOnDemand(SANDBOX_ID, allowed ? () => sandbox.start() : undefined);
  startOnDemand(true);
  if (settings().sandboxAutoStart) {
    sandbox.start().catch((error: unknown) => log.error(`Local Sandbox did not start: ${reason(error)}`, error));
  }
  return {
    sandbox,
    disposables: [
      sandbox,
      ...registerCommands({ ui, log, sandbox, startOnDemand }, [
        startSandbox,
        stopSandbox,
        resetSandbox,
        copySandboxAddress,
      ]),
    ],
  };
}
