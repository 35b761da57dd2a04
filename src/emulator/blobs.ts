import { createHash, randomBytes } from 'node:crypto';
import fs = require('node:fs');
import os = require('node:os');
import path = require('node:path');
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
 * Files stored by the SHA-256 of their content: asset files under `<data>/blobs/` (or a temporary folder removed on
 * close when there is no data dir) and entry values under `<data>/values/`. A file appears under its hash only whole
 * (written to a temporary name, then renamed). Uploads are streamed to disk while hashed: an upload is never held in
 * memory.
 */
export class Blobs {
  private constructor(
    private readonly dir: string,
    private readonly temporary: boolean,
  ) {}

  /** The folder `<dataDir>/<folder>`, with temporary files a crash left behind removed. */
  static create(dataDir?: string, folder = 'blobs'): Blobs {
    if (!dataDir) return new Blobs(fs.mkdtempSync(path.join(os.tmpdir(), 'universe-emulator-')), true);
    const dir = path.join(dataDir, folder);
    fs.mkdirSync(dir, { recursive: true });
    for (const name of fs.readdirSync(dir)) if (name.startsWith('.')) fs.rmSync(path.join(dir, name), { force: true });
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

  /** Stores a buffer (an entry value, demo data). Throws as the file system does (ENOSPC), leaving nothing behind. */
  put(data: Buffer): { hash: string; size: number } {
    const hash = createHash('sha256').update(data).digest('hex');
    const file = path.join(this.dir, hash);
    if (!fs.existsSync(file)) {
      const tmp = path.join(this.dir, `.put-${randomBytes(8).toString('hex')}`);
      try {
        fs.writeFileSync(tmp, data);
        fs.renameSync(tmp, file);
      } catch (err) {
        fs.rmSync(tmp, { force: true });
        throw err;
      }
    }
    return { hash, size: data.length };
  }

  read(hash: string): Buffer {
    return fs.readFileSync(path.join(this.dir, hash));
  }

  remove(hash: string): void {
    fs.rmSync(path.join(this.dir, hash), { force: true });
  }

  /** The hashes stored. */
  list(): string[] {
    return fs.readdirSync(this.dir).filter((name) => !name.startsWith('.'));
  }

  wipe(): void {
    for (const name of this.list()) this.remove(name);
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
