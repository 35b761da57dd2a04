import { createHash, randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** Bytes kept from the start of an upload, enough to check a file signature. */
const HEAD_BYTES = 64;

export interface Upload {
  hash: string;
  size: number;
  head: Buffer;
  /** Keeps the file under its hash. */
  commit(): void;
  discard(): void;
}

/**
 * Asset file contents, stored by SHA-256 under `<data>/blobs/` (or a temporary folder removed on close when there
 * is no data dir). Uploads are streamed to disk while hashed: an upload is never held in memory.
 */
export class Blobs {
  private constructor(
    private readonly dir: string,
    private readonly temporary: boolean,
  ) {}

  static create(dataDir?: string): Blobs {
    if (!dataDir) return new Blobs(fs.mkdtempSync(path.join(os.tmpdir(), 'universe-emulator-')), true);
    const dir = path.join(dataDir, 'blobs');
    fs.mkdirSync(dir, { recursive: true });
    return new Blobs(dir, false);
  }

  async receive(stream: Readable): Promise<Upload> {
    const tmp = path.join(this.dir, `.upload-${randomBytes(8).toString('hex')}`);
    const hash = createHash('sha256');
    let size = 0;
    let head = Buffer.alloc(0);
    const tap = new Transform({
      transform(chunk: Buffer, _enc, done) {
        hash.update(chunk);
        size += chunk.length;
        if (head.length < HEAD_BYTES) head = Buffer.concat([head, chunk.subarray(0, HEAD_BYTES - head.length)]);
        done(null, chunk);
      },
    });
    try {
      await pipeline(stream, tap, fs.createWriteStream(tmp));
    } catch (err) {
      fs.rmSync(tmp, { force: true });
      throw err;
    }
    const digest = hash.digest('hex');
    return {
      hash: digest,
      size,
      head,
      commit: () => this.keep(tmp, digest),
      discard: () => fs.rmSync(tmp, { force: true }),
    };
  }

  /** Stores a small buffer (demo data). */
  put(data: Buffer): { hash: string; size: number } {
    const hash = createHash('sha256').update(data).digest('hex');
    const file = path.join(this.dir, hash);
    if (!fs.existsSync(file)) fs.writeFileSync(file, data);
    return { hash, size: data.length };
  }

  wipe(): void {
    for (const name of fs.readdirSync(this.dir))
      if (!name.startsWith('.upload-')) fs.rmSync(path.join(this.dir, name), { force: true });
  }

  close(): void {
    if (this.temporary) fs.rmSync(this.dir, { recursive: true, force: true });
  }

  private keep(tmp: string, hash: string): void {
    const file = path.join(this.dir, hash);
    if (fs.existsSync(file)) fs.rmSync(tmp, { force: true });
    else fs.renameSync(tmp, file);
  }
}
