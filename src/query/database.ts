// An index's database over its life: opened on first use (loading DuckDB then, through engine.ts), its tables made
// or made anew, one writer at a time, and let go after a while unused so that another process (another VS Code
// window) can open the file, which DuckDB locks for one process.
import fsp = require('node:fs/promises');
import path = require('node:path');
import type { Engine, Statement } from './engine';
import { CREATE_TABLES, LAYOUT, LAYOUT_QUERY } from './sql';

export interface DatabaseOptions {
  /** The DuckDB file; its folder also gets `tmp/`, where DuckDB spills what does not fit in memory. */
  file: string;
  /** How messages name the index, e.g. its universe key. */
  name: string;
  threads?: number;
  /** DuckDB's memory_limit (default "1GB"). */
  memoryLimit?: string;
  /** Let go this long after the last use (default 30 s). */
  idleCloseMs?: number;
  /**
   * How long to wait for another process to let go of the file (default 5 s): a window being reloaded or closed
   * lets go of it a moment after the next one starts.
   */
  lockWaitMs?: number;
  /** Told when the file is held by another process and the open waits for it. */
  onLockWait?: () => void;
}

const LOCK_RETRY_MS = 200;

export class IndexDatabase {
  private engine?: Promise<Engine>;
  private users = 0;
  private idle?: NodeJS.Timeout;
  /** Called when the last user is done. */
  private drained: (() => void)[] = [];
  /** Writes, one at a time (a build's load, an entry update, a Parquet copy). */
  private writes: Promise<unknown> = Promise.resolve();

  constructor(private readonly opts: DatabaseOptions) {}

  /** Runs `fn` on the database, opened when needed. */
  async use<T>(fn: (engine: Engine) => Promise<T>): Promise<T> {
    this.users++;
    clearTimeout(this.idle);
    try {
      this.engine ??= this.open().catch((error: unknown) => {
        this.engine = undefined;
        throw error;
      });
      return await fn(await this.engine);
    } finally {
      if (--this.users === 0) {
        for (const done of this.drained.splice(0)) done();
        this.idle = setTimeout(() => void this.closeIfIdle(), this.opts.idleCloseMs ?? 30_000);
        this.idle.unref();
      }
    }
  }

  /** Runs `fn` after every write before it: the database takes one writer at a time. */
  exclusive<T>(fn: (engine: Engine) => Promise<T>): Promise<T> {
    const run = this.writes.then(() => this.use(fn));
    this.writes = run.catch(() => undefined);
    return run;
  }

  /** Lets go of the database once what runs on it is done (it opens again on the next use). */
  async close(): Promise<void> {
    clearTimeout(this.idle);
    while (this.users > 0) await new Promise<void>((resolve) => this.drained.push(resolve));
    const engine = this.engine;
    this.engine = undefined;
    if (engine) (await engine.catch(() => undefined))?.close();
  }

  private async closeIfIdle(): Promise<void> {
    if (this.users === 0) await this.close();
  }

  private async open(): Promise<Engine> {
    const folder = path.dirname(this.opts.file);
    await fsp.mkdir(folder, { recursive: true });
    // Loaded here, not at the top: nothing loads DuckDB until an index is used (dist/query.js in the bundle).
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { openEngine } = require('./engine') as typeof import('./engine');
    const options = {
      threads: this.opts.threads,
      memoryLimit: this.opts.memoryLimit ?? '1GB',
      tempDirectory: path.join(folder, 'tmp'),
    };
    const giveUpAt = Date.now() + (this.opts.lockWaitMs ?? 5_000);
    let engine: Engine;
    for (;;) {
      try {
        engine = await openEngine(this.opts.file, options);
        break;
      } catch (error) {
        const message = (error as Error).message;
        if (!/Could not set lock/i.test(message)) throw error;
        if (Date.now() >= giveUpAt)
          throw new Error(
            `The query index of ${this.opts.name} is open in another window or process, which lets it go after a ` +
              `while unused; try again then (${message})`,
            { cause: error },
          );
        this.opts.onLockWait?.();
        await new Promise((resolve) => setTimeout(resolve, LOCK_RETRY_MS));
      }
    }
    try {
      await ensureLayout(engine);
    } catch (error) {
      engine.close();
      throw error;
    }
    return engine;
  }
}

/** Makes the tables; an index of another layout (another version made it) is emptied and made anew. */
async function ensureLayout(engine: Engine): Promise<void> {
  const { rows } = await engine.read(LAYOUT_QUERY, { limit: 1000 });
  const found = rows.map((r) => r[0] as string);
  if (found.join(', ') === LAYOUT.join(', ')) return;
  const statements: Statement[] = found.length
    ? [{ sql: 'DROP TABLE IF EXISTS entries' }, { sql: 'DROP TABLE IF EXISTS index_info' }]
    : [];
  await engine.write([...statements, ...CREATE_TABLES.map((sql) => ({ sql }))]);
}
