// An append-only file of JSON lines, one per commit. Decisions:
// - `append` writes synchronously, so a write answered 2xx is in the file (the OS page cache) before the answer
//   leaves: it survives the process being killed. No fsync: a power cut may lose the tail, fine for an emulator.
// - Nothing is acknowledged that a restart would not replay. An append that fails part way (a full disk) is cut back
//   to the length before it, so the next line does not land on a torn one; if even that fails the journal is broken
//   and refuses every later append until a restart (which drops the torn tail).
// - It is read as bytes in fixed-size chunks, line by line, never as one string. A torn last line (a crash in the
//   middle of an append) or a corrupt line is reported and skipped, and a torn tail is cut off before appending.
// - Compaction writes a new journal beside the old one in slices (a few milliseconds each, the server answering
//   in between) from a generator that never holds the whole state as text. Lines appended meanwhile still go to the
//   old journal and are kept to be written after the snapshot, so the new journal may hold a record twice: replay
//   must be idempotent. The new file replaces the old only if the caller still holds the data folder's lock.
import fs = require('node:fs');
import path = require('node:path');
import { setImmediate as nextTurn } from 'node:timers/promises';

/** Test only: called before each append and each cut back; an error it returns fails that operation. */
export type JournalFault = (op: 'append' | 'truncate') => Error | undefined;

/** The journal refuses appends: a failed append could not be cut back. */
export class JournalBroken extends Error {}

const CHUNK_BYTES = 1024 * 1024;
/** Longer lines are corrupt (a value is at most 4 MiB, under 6 MiB as base64 in the oldest format). */
const MAX_LINE_BYTES = 64 * 1024 * 1024;
const SLICE_MS = 8;
const BATCH_BYTES = 256 * 1024;

interface Compaction {
  fd: number;
  tmp: string;
  tail: Buffer[];
  cancelled: boolean;
}

export class Journal {
  private broken: Error | undefined;
  private compaction: Compaction | undefined;
  /** Bytes after the last compaction (or the start). */
  compactedSize: number;

  private constructor(
    private readonly file: string,
    private fd: number,
    /** Bytes of complete lines in the file. */
    public size: number,
    private readonly fault: JournalFault | undefined,
  ) {
    this.compactedSize = size;
  }

  /** Reads the journal, handing each parsed line to `onLine`, then opens it for appending. */
  static async open(
    file: string,
    warn: (line: string) => void,
    onLine: (value: unknown, n: number) => void,
    fault?: JournalFault,
  ): Promise<Journal> {
    const name = path.basename(file);
    let complete = 0; // bytes up to the end of the last complete line
    let total = 0;
    let n = 0;
    const line = (bytes: Buffer): void => {
      n++;
      if (bytes.length === 0) return;
      let value: unknown;
      try {
        value = JSON.parse(bytes.toString('utf8'));
      } catch {
        return warn(`journal ${name}: skipped unreadable line ${n}`);
      }
      onLine(value, n);
    };
    if (fs.existsSync(file)) {
      let pending: Buffer[] = [];
      let pendingBytes = 0;
      for await (const chunk of fs.createReadStream(file, { highWaterMark: CHUNK_BYTES }) as AsyncIterable<Buffer>) {
        let start = 0;
        for (let nl = chunk.indexOf(10); nl >= 0; nl = chunk.indexOf(10, start)) {
          if (pendingBytes > MAX_LINE_BYTES) {
            n++;
            warn(`journal ${name}: skipped unreadable line ${n} (longer than ${MAX_LINE_BYTES} bytes)`);
          } else
            line(pending.length ? Buffer.concat([...pending, chunk.subarray(start, nl)]) : chunk.subarray(start, nl));
          pending = [];
          pendingBytes = 0;
          complete = total + nl + 1;
          start = nl + 1;
        }
        total += chunk.length;
        pendingBytes += chunk.length - start;
        // Past the limit the rest of the line is counted but not kept.
        if (pendingBytes <= MAX_LINE_BYTES && start < chunk.length) pending.push(chunk.subarray(start));
        else pending = [];
      }
      if (total > complete) {
        warn(`journal ${name}: skipped unreadable line ${n + 1} (torn at the end); it is cut off`);
        fs.truncateSync(file, complete);
      }
    }
    return new Journal(file, fs.openSync(file, 'a'), complete, fault);
  }

  /** Appends one line; throws (ENOSPC, JournalBroken, ...) with nothing of it left in the file. */
  append(line: string): void {
    if (this.broken) throw new JournalBroken(this.broken.message);
    const bytes = Buffer.from(line + '\n', 'utf8');
    try {
      const injected = this.fault?.('append');
      if (injected) {
        writeAll(this.fd, bytes.subarray(0, bytes.length >> 1)); // as a full disk does: part of it, then the error
        throw injected;
      }
      writeAll(this.fd, bytes);
    } catch (err) {
      this.cutBack(err as Error);
      throw err;
    }
    this.size += bytes.length;
    this.compaction?.tail.push(bytes);
  }

  private cutBack(cause: Error): void {
    try {
      const injected = this.fault?.('truncate');
      if (injected) throw injected;
      fs.ftruncateSync(this.fd, this.size);
    } catch (err) {
      this.broken = new Error(
        `a failed append (${(cause as NodeJS.ErrnoException).code ?? cause.message}) could not be cut back (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`,
      );
      if (this.compaction) this.cancel(this.compaction);
      throw new JournalBroken(this.broken.message);
    }
  }

  get isBroken(): boolean {
    return this.broken !== undefined;
  }

  get compacting(): boolean {
    return this.compaction !== undefined;
  }

  /**
   * Replaces the journal with `lines` (a snapshot of the state; see the top of the file), if `mayReplace()` still
   * says so at the end. Resolves false when it was cancelled or not allowed; throws when writing failed.
   */
  async compact(lines: Iterable<string>, mayReplace: () => boolean): Promise<boolean> {
    if (this.compaction || this.broken) return false;
    const tmp = `${this.file}.tmp`;
    const job: Compaction = { fd: fs.openSync(tmp, 'w'), tmp, tail: [], cancelled: false };
    this.compaction = job;
    try {
      let batch: string[] = [];
      let batchBytes = 0;
      let sliceStart = performance.now();
      for (const line of lines) {
        batch.push(line, '\n');
        batchBytes += line.length + 1;
        if (batchBytes < BATCH_BYTES) continue;
        writeAll(job.fd, Buffer.from(batch.join(''), 'utf8'));
        batch = [];
        batchBytes = 0;
        if (performance.now() - sliceStart > SLICE_MS) {
          await nextTurn();
          if (job.cancelled) return false;
          sliceStart = performance.now();
        }
      }
      writeAll(job.fd, Buffer.from(batch.join(''), 'utf8'));
      for (const bytes of job.tail) writeAll(job.fd, bytes);
      if (!mayReplace()) {
        this.cancel(job);
        return false;
      }
      fs.closeSync(job.fd);
      fs.closeSync(this.fd); // Windows renames over a closed file only
      try {
        fs.renameSync(tmp, this.file);
      } finally {
        this.fd = fs.openSync(this.file, 'a');
      }
      this.size = this.compactedSize = fs.fstatSync(this.fd).size;
      this.compaction = undefined;
      return true;
    } catch (err) {
      if (!job.cancelled) this.cancel(job);
      throw err;
    } finally {
      if (this.compaction === job) this.compaction = undefined;
    }
  }

  private cancel(job: Compaction): void {
    job.cancelled = true;
    try {
      fs.closeSync(job.fd);
    } catch {
      // already closed
    }
    fs.rmSync(job.tmp, { force: true });
    if (this.compaction === job) this.compaction = undefined;
  }

  /** Empties the journal (control reset); a compaction under way is dropped. */
  clear(): void {
    if (this.compaction) this.cancel(this.compaction);
    fs.ftruncateSync(this.fd, 0);
    this.size = this.compactedSize = 0;
    this.broken = undefined;
  }

  close(): void {
    if (this.compaction) this.cancel(this.compaction);
    fs.closeSync(this.fd);
  }
}

function writeAll(fd: number, buf: Buffer): void {
  let off = 0;
  while (off < buf.length) off += fs.writeSync(fd, buf, off, buf.length - off);
}
