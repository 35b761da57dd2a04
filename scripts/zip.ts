// Reads a .vsix, which is a zip: the entries its central directory names, and one entry's bytes. Enough for the
// checks of scripts/package.ts and its tests, without a zip library: stored and deflated entries only, and no
// zip64 (a .vsix stays far under 4 GB and 65,535 entries; one that does not is refused, not misread).
import * as fs from 'node:fs';
import * as zlib from 'node:zlib';

export interface ZipEntry {
  name: string; // path inside the zip, "/"-separated
  size: number; // uncompressed bytes
  method: number; // 0 stored, 8 deflated
  compressedSize: number;
  localHeader: number; // offset of the entry's local header
}

export interface Zip {
  entries: ZipEntry[];
  read(entry: ZipEntry): Buffer;
}

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;

export function readZip(file: string): Zip {
  const buf = fs.readFileSync(file);
  let eocd = -1;
  // The end record is the last 22 bytes unless the zip has a comment (at most 65,535 bytes).
  for (let i = buf.length - 22; i >= Math.max(0, buf.length - 22 - 0xffff); i--)
    if (buf.readUInt32LE(i) === EOCD) {
      eocd = i;
      break;
    }
  if (eocd < 0) throw new Error(`${file}: not a zip (no end of central directory)`);
  const count = buf.readUInt16LE(eocd + 10);
  let at = buf.readUInt32LE(eocd + 16);
  if (count === 0xffff || at === 0xffffffff) throw new Error(`${file}: a zip64 archive, which this reader refuses`);
  const entries: ZipEntry[] = [];
  for (let i = 0; i < count; i++) {
    if (buf.readUInt32LE(at) !== CENTRAL) throw new Error(`${file}: central directory entry ${i} is damaged`);
    const nameLength = buf.readUInt16LE(at + 28);
    entries.push({
      method: buf.readUInt16LE(at + 10),
      compressedSize: buf.readUInt32LE(at + 20),
      size: buf.readUInt32LE(at + 24),
      localHeader: buf.readUInt32LE(at + 42),
      name: buf.toString('utf8', at + 46, at + 46 + nameLength),
    });
    at += 46 + nameLength + buf.readUInt16LE(at + 30) + buf.readUInt16LE(at + 32);
  }
  const read = (entry: ZipEntry): Buffer => {
    const h = entry.localHeader;
    if (buf.readUInt32LE(h) !== LOCAL) throw new Error(`${file}: ${entry.name}: local header is damaged`);
    const start = h + 30 + buf.readUInt16LE(h + 26) + buf.readUInt16LE(h + 28);
    const data = buf.subarray(start, start + entry.compressedSize);
    if (entry.method === 0) return Buffer.from(data);
    if (entry.method === 8) return zlib.inflateRawSync(data);
    throw new Error(`${file}: ${entry.name}: compression method ${entry.method} is not read here`);
  };
  return { entries, read };
}
