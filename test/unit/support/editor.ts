// The entry editor room in plain Node, on the real model, connections and client, against an emulator: a Memento
// in memory, a Ui whose modal choices a test scripts, and a log that keeps its lines.
import type * as vscode from 'vscode';
import './vscode';
import { Connections } from '../../../src/core/connections';
import { Log } from '../../../src/core/log';
import type { Ui } from '../../../src/core/ui';
import { EntryEditor } from '../../../src/datastores/editor/entryEditor';
import { EntrySaver } from '../../../src/datastores/editor/save';
import { DataStoresModel } from '../../../src/datastores/model';
import { API_KEY } from './client';
import type { TestEmulator } from './emulator';

/** workspaceState as VS Code keeps it: what one window wrote, the next reads. */
export class MemoryMemento implements vscode.Memento {
  readonly values = new Map<string, unknown>();
  keys(): readonly string[] {
    return [...this.values.keys()];
  }
  get<T>(key: string, fallback?: T): T | undefined {
    return this.values.has(key) ? (this.values.get(key) as T) : fallback;
  }
  update(key: string, value: unknown): Thenable<void> {
    if (value === undefined) this.values.delete(key);
    else this.values.set(key, value);
    return Promise.resolve();
  }
}

/** Answers each modal warning with the choice scripted for it (none: dismissed), and keeps what was asked. */
export class ChoosingUi {
  readonly asked: { message: string; actions: string[] }[] = [];
  private readonly answers: { match: RegExp; choice: string }[] = [];

  choose(match: RegExp, choice: string): this {
    this.answers.push({ match, choice });
    return this;
  }

  warn(message: string, _options: unknown, ...actions: string[]): Promise<string | undefined> {
    this.asked.push({ message, actions });
    const i = this.answers.findIndex((a) => a.match.test(message));
    const choice = i < 0 ? undefined : this.answers.splice(i, 1)[0].choice;
    return Promise.resolve(choice);
  }
}

/** The extension's own log, which keeps recent lines. */
export const log = new Log();

/** A connection to the emulator, through the extension's own Connections (API key in a secret store in memory). */
export async function connect(emulator: TestEmulator, universeId: number): Promise<Connections> {
  const secrets = new Map<string, string>();
  const context = {
    secrets: {
      get: (k: string) => Promise.resolve(secrets.get(k)),
      store: (k: string, v: string) => Promise.resolve(void secrets.set(k, v)),
      delete: (k: string) => Promise.resolve(void secrets.delete(k)),
    },
  } as unknown as Pick<vscode.ExtensionContext, 'secrets'>;
  const connections = new Connections(context, new MemoryMemento(), log);
  await connections.add(
    { name: 'Editor tests', baseUrl: emulator.url, entryHeaderPrefix: 'platform', universes: [{ id: universeId }] },
    API_KEY,
  );
  return connections;
}

/** One window's editor room: a new one on the same workspaceState is the window after a reload. */
export function editorRoom(connections: Connections, workspaceState: vscode.Memento, ui: ChoosingUi) {
  const model = new DataStoresModel(connections, new MemoryMemento());
  const editor = new EntryEditor(model, workspaceState);
  const saver = new EntrySaver(editor, ui as unknown as Ui, log);
  return { model, editor, saver };
}
