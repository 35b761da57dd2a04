// The plain-Node half of benchmark 6, run by extension.ts (bundled to JavaScript, so no TypeScript loader hooks
// `require`) in a fresh process per run: `node activate-node.js <dist/main.js> <storage>`. It puts a minimal stand-in
// for the `vscode` module in the require cache (fine for a timing; it proves nothing about behaviour), counts every
// socket, listen and DNS lookup, then loads the entry and calls activate(). Prints one line:
// ACTIVATE {loadMs, activateMs, network, cached}.
import * as fs from 'node:fs';
import Module from 'node:module';
import * as net from 'node:net';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');

/** A `vscode` stand-in: any member is a callable, constructible stand-in; the few values activation reads are real. */
function vscodeStub(): unknown {
  const disposable = { dispose() {} };
  const cache = new Map<PropertyKey, unknown>();
  const any: object = new Proxy(function () {}, {
    get: (_t, key) => {
      if (key === Symbol.toPrimitive) return () => ''; // a stand-in shown in text (a status bar label) reads as ''
      if (key === Symbol.iterator) return function* () {}; // a stand-in list (the open documents) is empty
      if (key === 'then' || typeof key === 'symbol') return undefined;
      if (!cache.has(key)) cache.set(key, key === 'dispose' ? () => undefined : any);
      return cache.get(key);
    },
    set: () => true, // an assignment (a status bar item's name) is taken and forgotten
    apply: () => any,
    construct: () => any,
  });
  const uri = (p: string) => ({
    scheme: 'file',
    fsPath: p,
    path: p,
    toString: () => `file://${p}`,
    with: () => uri(p),
  });
  const overrides: Record<string, unknown> = {
    Uri: {
      file: uri,
      parse: (s: string) => uri(s),
      joinPath: (u: { fsPath: string }, ...p: string[]) => uri(path.join(u.fsPath, ...p)),
    },
    EventEmitter: class {
      event = () => disposable;
      fire() {}
      dispose() {}
    },
    Disposable: class {
      static from = () => disposable;
      dispose() {}
    },
    workspace: new Proxy(
      {
        getConfiguration: () => ({
          get: (_k: string, d: unknown) => d,
          has: () => false,
          inspect: () => undefined,
          update: async () => undefined,
        }),
      },
      { get: (t, k) => (k in t ? t[k as 'getConfiguration'] : (any as Record<PropertyKey, unknown>)[k]) },
    ),
  };
  // A bundle copies the module's own properties (esbuild's CommonJS interop), so every namespace and class the
  // extension names is an own property; whatever they lead to is the catch-all stand-in.
  const names =
    'window commands workspace env languages extensions l10n authentication lm McpStdioServerDefinition LanguageModelToolResult LanguageModelTextPart TreeItem ThemeIcon ThemeColor TreeItemCollapsibleState FileSystemError FileType FileChangeType FilePermission WorkspaceEdit ViewColumn Range Position ProgressLocation CancellationError ConfigurationTarget MarkdownString TabInputText TabInputTextDiff StatusBarAlignment';
  return Object.assign(Object.fromEntries(names.split(' ').map((n) => [n, any])), overrides);
}

function context(dir: string, root: string): unknown {
  const memento = {
    get: (_k: string, d: unknown) => d,
    update: async () => undefined,
    keys: () => [],
    setKeysForSync() {},
  };
  const uri = (p: string) => ({ scheme: 'file', fsPath: p, path: p, toString: () => `file://${p}` });
  return {
    subscriptions: [],
    globalState: memento,
    workspaceState: memento,
    secrets: {
      get: async () => undefined,
      store: async () => undefined,
      delete: async () => undefined,
      onDidChange: () => ({ dispose() {} }),
    },
    extensionPath: root,
    extensionUri: uri(root),
    extension: { packageJSON: JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as unknown },
    globalStorageUri: uri(dir),
    storageUri: uri(dir),
    logUri: uri(dir),
    asAbsolutePath: (p: string) => path.join(root, p),
  };
}

/** One fresh-process measurement: load (require) and activate() of `entry` (dist/main.js), with `storage` as its global storage. */
async function measure(entry: string, storage: string, root: string): Promise<void> {
  const network: string[] = [];
  const count = (what: string) => network.push(what);
  const connect = net.Socket.prototype.connect;
  net.Socket.prototype.connect = function (this: net.Socket, ...args: unknown[]) {
    count('connect');
    return (connect as (...a: unknown[]) => net.Socket).apply(this, args);
  } as typeof connect;
  const listen = net.Server.prototype.listen;
  net.Server.prototype.listen = function (this: net.Server, ...args: unknown[]) {
    count('listen');
    return (listen as (...a: unknown[]) => net.Server).apply(this, args);
  } as typeof listen;
  const dns = require('node:dns') as { lookup: (...args: unknown[]) => unknown }; // the module object, to patch it
  const lookup = dns.lookup;
  dns.lookup = (...args: unknown[]) => {
    count('dns');
    return lookup(...args);
  };
  const stub = vscodeStub();
  const resolve = (Module as unknown as { _resolveFilename: (r: string, ...rest: unknown[]) => string })
    ._resolveFilename;
  (Module as unknown as { _resolveFilename: unknown })._resolveFilename = function (
    this: unknown,
    request: string,
    ...rest: unknown[]
  ) {
    return request === 'vscode' ? 'vscode' : resolve.call(this, request, ...rest);
  };
  require.cache.vscode = { id: 'vscode', filename: 'vscode', loaded: true, exports: stub } as NodeJS.Module;

  // The extension's global storage, shared by the runs: the first leaves the code cache there for the others.
  const hadCache = fs.existsSync(storage) && fs.readdirSync(storage).some((f) => f.startsWith('code-cache-'));
  const ctx = context(storage, root);
  const t0 = performance.now();
  const ext = require(entry) as { activate(ctx: unknown): unknown };
  const t1 = performance.now();
  ext.activate(ctx);
  const t2 = performance.now();
  // Anything activate() started (a timer, a promise) gets a moment to reach the network before the count.
  await new Promise((r) => setTimeout(r, 200));
  // A first start writes the code cache a moment after activation; the next process is to find it.
  for (let waited = 0; !hadCache && waited < 20_000; waited += 100) {
    if (fs.existsSync(storage) && fs.readdirSync(storage).some((f) => /^code-cache-[0-9a-f]+\.bin$/.test(f))) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  console.log(`ACTIVATE ${JSON.stringify({ loadMs: t1 - t0, activateMs: t2 - t1, network, cached: hadCache })}`);
}

void measure(process.argv[2], process.argv[3], process.argv[4] ?? ROOT);
