// The data folder belongs to one emulator at a time: `<data>/emulator.lock`, linked into place from a file that holds
// {"pid"} already, so only one process can make it and nobody reads it empty; it holds {"pid","url"} once the emulator
// listens (written whole to a temporary file and renamed over the lock). Decisions:
// - A lock whose pid is not a live process (process.kill(pid, 0) fails with ESRCH) is stale and taken over. It is
//   first renamed aside, so of two emulators taking over the same stale lock only one gets it; a live lock moved aside
//   by mistake (its owner replaced the stale one in between) is linked back and the folder reported as in use.
// - A lock that cannot be read yet (just created, its pid not written) is read again for up to half a second, then
//   counts as stale.
// - The lock is removed on a clean stop, and only if it is still this process's.
import fs = require('node:fs');
import path = require('node:path');
import { setTimeout as sleep } from 'node:timers/promises';

interface LockContent {
  pid: number;
  url?: string;
}

export class DataFolderInUse extends Error {
  constructor(dir: string, pid: number, url: string | undefined) {
    super(`the data folder ${dir} is in use by the emulator with pid ${pid} (${url ?? 'not listening yet'})`);
  }
}

/** Whether a process with this id runs (EPERM: it does, as another user's). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

const UNREADABLE_RETRIES = 10;
const RETRY_MS = 50;

export class FolderLock {
  private constructor(private readonly file: string) {}

  /** Takes the lock of `dir`, or throws DataFolderInUse. */
  static async acquire(dir: string, log: (line: string) => void): Promise<FolderLock> {
    const file = path.join(dir, 'emulator.lock');
    let unreadable = 0;
    let tookOver: string | undefined; // said once the lock is ours: another emulator may still win it
    for (let attempt = 0; attempt < 100; attempt++) {
      if (create(file)) {
        if (tookOver) log(tookOver);
        return new FolderLock(file);
      }
      const holder = read(file);
      if (holder === 'gone') continue;
      if (holder && alive(holder.pid)) throw new DataFolderInUse(dir, holder.pid, holder.url);
      if (!holder && ++unreadable < UNREADABLE_RETRIES) {
        await sleep(RETRY_MS);
        continue;
      }
      const aside = `${file}.stale-${process.pid}`;
      try {
        fs.renameSync(file, aside);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue;
        throw err;
      }
      const moved = read(aside);
      if (moved && moved !== 'gone' && alive(moved.pid)) {
        try {
          fs.linkSync(aside, file);
        } catch {
          // someone made a new lock meanwhile: the next attempt reads that one
        }
        fs.rmSync(aside, { force: true });
        continue;
      }
      fs.rmSync(aside, { force: true });
      tookOver = holder
        ? `took over the data folder from the emulator with pid ${holder.pid}, which is no longer running`
        : 'took over the data folder: its lock file was unreadable';
    }
    throw new Error(`could not lock the data folder ${dir}`);
  }

  /** Adds the address once listening, atomically. */
  setUrl(url: string): void {
    const tmp = `${this.file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, JSON.stringify({ pid: process.pid, url } satisfies LockContent));
    fs.renameSync(tmp, this.file);
  }

  /** Whether the lock is still this process's (checked before the journal is replaced). */
  held(): boolean {
    const content = read(this.file);
    return !!content && content !== 'gone' && content.pid === process.pid;
  }

  release(): void {
    if (this.held()) fs.rmSync(this.file, { force: true });
  }
}

/**
 * Makes the lock with this process's pid already in it, or returns false when there is one: the content is written to
 * a file of its own and linked to the lock's name, which fails if that exists. A lock opened and then written could
 * be read empty in between, taken for stale and replaced under its maker, and two emulators would share the folder.
 */
function create(file: string): boolean {
  const tmp = `${file}.${process.pid}.new`;
  fs.writeFileSync(tmp, JSON.stringify({ pid: process.pid } satisfies LockContent));
  try {
    fs.linkSync(tmp, file);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    return false;
  } finally {
    fs.rmSync(tmp, { force: true });
  }
}

/** The lock's content; undefined when it cannot be parsed, 'gone' when there is no file. */
function read(file: string): LockContent | undefined | 'gone' {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 'gone';
    throw err;
  }
  try {
    const content = JSON.parse(text) as LockContent;
    return Number.isSafeInteger(content?.pid) && content.pid > 0 ? content : undefined;
  } catch {
    return undefined;
  }
}
