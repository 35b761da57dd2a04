// The extension's entry (package.json main, bundled alone to dist/main.js). It compiles the extension's bundle,
// dist/extension.js, with a V8 code cache kept in the extension's global storage: the first window after an install
// or update parses and compiles the whole bundle and leaves the cache; every later one starts from it. Nothing else is
// imported here, so the entry stays a few KB and no module of the bundle is loaded twice.
import { isAscii } from 'node:buffer';
import { createHash } from 'node:crypto';
import fs = require('node:fs');
import path = require('node:path');
import vm = require('node:vm');
import zlib = require('node:zlib');
import type * as vscode from 'vscode';

interface Extension {
  activate(context: vscode.ExtensionContext): unknown;
  deactivate?(): unknown;
}

/**
 * How long after activation the cache is written: the functions the first views ran are in it by then. A window
 * closed sooner writes it when the extension is deactivated.
 */
const KEEP_AFTER_MS = 1_000;
const PREFIX = 'code-cache-';
/**
 * The cache file starts with a CRC-32 of what follows, so a damaged file is never handed to V8 (it finds damage; it is
 * no defence against a writer who could change the bundle itself, and needs none).
 */
const DIGEST_BYTES = 4;

let extension: Extension | undefined;
let keepCache: (() => Promise<void>) | undefined;

export function activate(context: vscode.ExtensionContext): unknown {
  const storage = context.globalStorageUri.scheme === 'file' ? context.globalStorageUri.fsPath : undefined;
  const loaded = loadBundle(path.join(__dirname, 'extension.js'), storage, requireOnce(require));
  extension = loaded.exports as Extension;
  keepCache = loaded.keep;
  if (keepCache) setTimeout(() => void keepNow(), KEEP_AFTER_MS).unref();
  return extension.activate(context);
}

export function deactivate(): unknown {
  return Promise.all([keepNow(), extension?.deactivate?.()]);
}

async function keepNow(): Promise<void> {
  const keep = keepCache;
  keepCache = undefined;
  await keep?.();
}

/**
 * `requireFn` remembering what it returned: the bundle names `vscode` once per module (78 times), and each call
 * goes through VS Code's module interceptor, which looks up the calling extension by path on every call.
 */
export function requireOnce(requireFn: NodeJS.Require): NodeJS.Require {
  const loaded = new Map<string, unknown>();
  const once = (id: string): unknown => {
    if (!loaded.has(id)) loaded.set(id, requireFn(id));
    return loaded.get(id);
  };
  return Object.assign(once, {
    resolve: requireFn.resolve,
    cache: requireFn.cache,
    main: requireFn.main,
  }) as NodeJS.Require;
}

export interface Loaded {
  exports: unknown;
  /** Set when there was no usable cache: writes one for the next start (never throws). */
  keep?: () => Promise<void>;
}

/**
 * Runs the CommonJS file `file` as Node would, with `requireFn` as its `require`, compiled from the cache in
 * `cacheDir` when one is there for exactly this source, this V8 and this CPU. Without a `cacheDir` it is a plain
 * require.
 */
export function loadBundle(file: string, cacheDir: string | undefined, requireFn: NodeJS.Require): Loaded {
  if (!cacheDir) return { exports: requireFn(file) as unknown };
  // The cache's name tells bundles apart by their CRC-32 and length (a SHA of the bundle took longer than the rest of
  // the read), and V8s and CPUs by name. esbuild.js leaves the bundle ASCII: decoded as Latin-1 it is a copy.
  const bytes = fs.readFileSync(file);
  const key = `${process.versions.v8} ${process.arch} ${bytes.length} ${zlib.crc32(bytes)}`;
  const name = `${PREFIX}${createHash('sha1').update(key).digest('hex').slice(0, 32)}.bin`;
  const source = bytes.toString(isAscii(bytes) ? 'latin1' : 'utf8');
  const cacheFile = path.join(cacheDir, name);
  const cached = readCache(cacheFile);
  // The wrapper's head on a line of its own, and lineOffset -1, keep the bundle's lines and columns (its source map).
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {\n${source}\n})`, {
    filename: file,
    lineOffset: -1,
    cachedData: cached,
  });
  const module = { exports: {} as unknown };
  const run = script.runInThisContext() as (...args: unknown[]) => void;
  run.call(module.exports, module.exports, requireFn, module, file, path.dirname(file));
  const usable = cached && !script.cachedDataRejected;
  return { exports: module.exports, keep: usable ? undefined : () => writeCache(script, cacheDir, name) };
}

function readCache(file: string): Buffer | undefined {
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(file);
  } catch {
    return undefined;
  }
  const data = bytes.subarray(DIGEST_BYTES);
  return digest(data).equals(bytes.subarray(0, DIGEST_BYTES)) ? data : undefined;
}

function digest(data: Buffer): Buffer {
  const crc = Buffer.alloc(DIGEST_BYTES);
  crc.writeUInt32BE(zlib.crc32(data));
  return crc;
}

/** Writes the cache beside a temporary name and renames it (two windows may write at once), then drops older caches. */
async function writeCache(script: vm.Script, dir: string, name: string): Promise<void> {
  const temporary = path.join(dir, `${name}.${process.pid}.tmp`);
  try {
    const data = script.createCachedData();
    await fs.promises.mkdir(dir, { recursive: true });
    await fs.promises.writeFile(temporary, Buffer.concat([digest(data), data]));
    await fs.promises.rename(temporary, path.join(dir, name));
    for (const other of await fs.promises.readdir(dir))
      if (other.startsWith(PREFIX) && !other.startsWith(name))
        await fs.promises.rm(path.join(dir, other), { force: true });
  } catch {
    // No cache (a full disk, a read-only folder): the next start compiles the bundle again, as without one.
    await fs.promises.rm(temporary, { force: true }).catch(() => undefined);
  }
}
