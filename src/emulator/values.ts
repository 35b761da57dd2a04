// Entry values too large to stay inline in their journal line: files under `<data>/values/` named by their SHA-256,
// so versions with the same value share one. Each file counts the versions that refer to it and is removed when the
// last one goes, except while the journal is replayed: a later line may name it again, and what is left over is
// removed after the load (removeUnreferenced).
import { Blobs } from './blobs';

/** Larger entry values go to files; smaller ones (most, counters and tombstones among them) stay inline. */
export const INLINE_MAX_BYTES = 1024;

export class ValueFiles {
  /** How many versions refer to each file. */
  private readonly refs = new Map<string, number>();
  /** Set while the journal is replayed: a file no version refers to is kept. */
  keepUnreferenced = false;

  private constructor(private readonly files: Blobs) {}

  static open(dataDir: string): ValueFiles {
    return new ValueFiles(Blobs.create(dataDir, 'values'));
  }

  /** Writes the file (before the journal line that names it); returns its hash. Throws as the file system does. */
  put(value: Buffer): string {
    return this.files.put(value).hash;
  }

  read(hash: string): Buffer {
    return this.files.read(hash);
  }

  ref(hash: string): void {
    this.refs.set(hash, (this.refs.get(hash) ?? 0) + 1);
  }

  unref(hash: string): void {
    const n = (this.refs.get(hash) ?? 0) - 1;
    if (n > 0) return void this.refs.set(hash, n);
    this.refs.delete(hash);
    if (!this.keepUnreferenced) this.files.remove(hash);
  }

  /** Removes a file put for a write that was refused, unless a version refers to it. */
  discard(hash: string): void {
    if (!this.refs.has(hash)) this.files.remove(hash);
  }

  removeUnreferenced(): void {
    for (const hash of this.files.list()) if (!this.refs.has(hash)) this.files.remove(hash);
  }

  /** Forgets every file and removes it. */
  clear(): void {
    this.refs.clear();
    this.files.wipe();
  }
}
