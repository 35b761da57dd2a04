// A small stand-in for the `vscode` module, so code that imports it runs in plain Node: importing this file makes
// require('vscode') answer it. Only what the entry editor room touches: events, URIs, file system errors, settings,
// and recorders for commands and the status bar. Import it before anything that imports vscode.
import Module = require('node:module');

export class Disposable {
  constructor(private readonly onDispose: () => void = () => undefined) {}
  dispose(): void {
    this.onDispose();
  }
}

export class EventEmitter<T> {
  private listeners: ((e: T) => unknown)[] = [];
  readonly event = (listener: (e: T) => unknown): Disposable => {
    this.listeners.push(listener);
    return new Disposable(() => (this.listeners = this.listeners.filter((l) => l !== listener)));
  };
  fire(e: T): void {
    for (const l of [...this.listeners]) l(e);
  }
  dispose(): void {
    this.listeners = [];
  }
}

export class Uri {
  private constructor(
    readonly scheme: string,
    readonly authority: string,
    readonly path: string,
    readonly query: string,
  ) {}
  static from(c: { scheme: string; authority?: string; path?: string; query?: string }): Uri {
    return new Uri(c.scheme, c.authority ?? '', c.path ?? '', c.query ?? '');
  }
  toString(): string {
    return `${this.scheme}://${this.authority}${this.path}${this.query ? `?${this.query}` : ''}`;
  }
}

export class FileSystemError extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
  static FileNotFound(what?: unknown) {
    return new FileSystemError(String(what), 'FileNotFound');
  }
  static NoPermissions(what?: unknown) {
    return new FileSystemError(String(what), 'NoPermissions');
  }
  static Unavailable(what?: unknown) {
    return new FileSystemError(String(what), 'Unavailable');
  }
}

export class CancellationError extends Error {}
export class TabInputTextDiff {}

export enum FileType {
  File = 1,
  Directory = 2,
}
export enum FilePermission {
  Readonly = 1,
}
export enum FileChangeType {
  Changed = 1,
  Created = 2,
  Deleted = 3,
}

/** The `universeExplorer.*` settings as the user's own (global) values; a test sets and clears them. */
export const userSettings = new Map<string, unknown>();

/** Every executeCommand call, in order. */
export const executed: { command: string; args: unknown[] }[] = [];

const saved = new EventEmitter<unknown>();

export const workspace = {
  getConfiguration: (section: string) => ({
    get: <T>(key: string, fallback?: T): T | undefined =>
      section === 'universeExplorer' && userSettings.has(key) ? (userSettings.get(key) as T) : fallback,
    inspect: <T>(key: string) =>
      section === 'universeExplorer' && userSettings.has(key) ? { globalValue: userSettings.get(key) as T } : undefined,
  }),
  onDidSaveTextDocument: saved.event,
  textDocuments: [] as unknown[],
};

/** An output channel that keeps nothing: the extension's Log keeps its own recent lines. */
const outputChannel = { info() {}, warn() {}, error() {}, show() {}, dispose() {} };

export const window = {
  createOutputChannel: () => outputChannel,
  setStatusBarMessage: () => new Disposable(),
  tabGroups: { all: [] as unknown[] },
};

export const commands = {
  executeCommand: (command: string, ...args: unknown[]): Promise<undefined> => {
    executed.push({ command, args });
    return Promise.resolve(undefined);
  },
};

export const l10n = {
  t: (message: string, ...args: string[]) => message.replace(/\{(\d+)\}/g, (w, i: string) => args[Number(i)] ?? w),
};

type Resolve = (request: string, ...rest: unknown[]) => string;
const loader = Module as unknown as { _resolveFilename: Resolve };
const resolve = loader._resolveFilename;
loader._resolveFilename = function (this: unknown, request, ...rest) {
  return request === 'vscode' ? __filename : resolve.call(this, request, ...rest);
};
