import type * as vscode from 'vscode';
import type { Connections } from '../connections';
import type { EntryFileSystem } from '../fs/entryFileSystem';
import type { Log } from '../log';
import type { Sandbox } from '../sandbox';
import type { UniverseTree } from '../tree/provider';
import type { Ui } from '../ui';

/** What every command handler receives. `ui` is replaceable, so tests can answer prompts. */
export interface CommandContext {
  ui: Ui;
  log: Log;
  connections: Connections;
  tree: UniverseTree;
  sandbox: Sandbox;
  entries: EntryFileSystem;
  extension: vscode.ExtensionContext;
}

export interface CommandDef {
  id: string;
  /** Completes "Failed to …", e.g. "add connection". */
  failure: string;
  // Handlers take the tree node or URI that VS Code passes, so the arguments are untyped here.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  run(ctx: CommandContext, ...args: any[]): unknown;
}
