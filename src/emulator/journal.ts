import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * An append-only file of JSON lines. `append` uses a synchronous write, so a write that has been answered 2xx is in
 * the file (the OS page cache) before the response leaves: it survives the process being killed. There is no fsync,
 * so a power cut may lose the tail; that is fine for an emulator.
 */
export class Journal {
  private fd: number;

  constructor(private readonly file: string) {
    this.fd = fs.openSync(file, 'a');
  }

  /** Every complete line parsed. A torn or corrupt line (a crash in the middle of a write) is reported and skipped. */
  static read(file: string, warn: (line: string) => void): unknown[] {
    let text: string;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw err;
    }
    const out: unknown[] = [];
    const lines = text.split('\n');
    lines.forEach((line, i) => {
      if (!line) return;
      try {
        out.push(JSON.parse(line));
      } catch {
        warn(`journal ${path.basename(file)}: skipped unreadable line ${i + 1}`);
      }
    });
    return out;
  }

  append(line: string): void {
    writeAll(this.fd, Buffer.from(line + '\n', 'utf8'));
  }

  /** Replaces the whole file (compaction, reset) through a temporary file and a rename. */
  rewrite(lines: Iterable<string>): void {
    const tmp = `${this.file}.tmp`;
    const fd = fs.openSync(tmp, 'w');
    try {
      for (const line of lines) writeAll(fd, Buffer.from(line + '\n', 'utf8'));
    } finally {
      fs.closeSync(fd);
    }
    fs.closeSync(this.fd);
    fs.renameSync(tmp, this.file);
    this.fd = fs.openSync(this.file, 'a');
  }

  close(): void {
    fs.closeSync(this.fd);
  }
}

function writeAll(fd: number, buf: Buffer): void {
  let off = 0;
  while (off < buf.length) off += fs.writeSync(fd, buf, off, buf.length - off);
}
