import type * as vscode from 'vscode';

/**
 * The extension's globalState, for every part of it, written one update at a time.
 *
 * VS Code keeps an extension's globalState as one object in the extension host: update() changes that object at once
 * and sends the whole of it to the workbench a moment later (one send for the updates of the same tick), and the
 * workbench echoes every stored value back, whole, replacing the extension host's object (microsoft/vscode#137132).
 * So an update made after one send and before that send's echo is undone by the echo; when its own send leaves after
 * the echo (a busy extension host), the stale object is what gets stored, and the update is lost for good. That is how
 * a connection added while the Local Sandbox's first start wrote its demo assets vanished from the Universes view
 * (the first suite of a CI run on a loaded machine).
 *
 * The echo of a send reaches the extension host before the answer to it, so an update handed to VS Code only once the
 * one before it was answered is never overtaken by an older echo. Until its turn, a queued value is what get() and
 * keys() answer, as globalState answers an update at once.
 */
export class SerialMemento implements vscode.Memento {
  /** Values given to update() that VS Code has not been handed yet; undefined removes the key. */
  private readonly queued = new Map<string, unknown>();
  private last: Promise<unknown> = Promise.resolve();

  constructor(private readonly state: vscode.Memento) {}

  keys(): readonly string[] {
    const keys = new Set(this.state.keys());
    for (const [key, value] of this.queued) {
      if (value === undefined) keys.delete(key);
      else keys.add(key);
    }
    return [...keys];
  }

  get<T>(key: string): T | undefined;
  get<T>(key: string, defaultValue: T): T;
  get<T>(key: string, defaultValue?: T): T | undefined {
    if (!this.queued.has(key)) return this.state.get<T | undefined>(key, defaultValue);
    const value = this.queued.get(key) as T | undefined;
    return value === undefined ? defaultValue : value;
  }

  /** Resolves once VS Code stored this value (or a later one of the same key). */
  update(key: string, value: unknown): Promise<void> {
    // As globalState does: what is kept is a copy, so the caller changing its object later changes nothing kept.
    this.queued.set(key, value !== null && typeof value === 'object' ? JSON.parse(JSON.stringify(value)) : value);
    const turn = this.last.then(async () => {
      if (!this.queued.has(key)) return; // an earlier turn of this key already handed VS Code this value
      const next = this.queued.get(key);
      const stored = this.state.update(key, next); // from here the state itself answers with it
      this.queued.delete(key);
      await stored;
    });
    this.last = turn.catch(() => undefined);
    return turn;
  }
}
