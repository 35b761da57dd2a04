// What an index keeps on disk beside its database: the names of its folder and build files, a live build's start
// time (so a resumed build keeps the as-of time of its first part), and the header of an export file to index.
import fsp = require('node:fs/promises');
import { parseHeaderLine, type ExportHeader } from '../api';

/**
 * A name made of letters, digits, `-`, `_` and `%XX` for every other byte (`.` too): any universe key or store name
 * is a folder or file name on every system, and two names never make the same one (but for letter case).
 */
export function fileSafe(name: string): string {
  if (!name) throw new Error('A name for the index folder is empty');
  let out = '';
  for (const byte of Buffer.from(name, 'utf8')) {
    const c = String.fromCharCode(byte);
    out += /[A-Za-z0-9_-]/.test(c) ? c : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** When the live build whose file is there started (its sidecar), or undefined when there is none to go on from. */
export async function startedAt(sidecar: string): Promise<string | undefined> {
  try {
    const { startedAt } = JSON.parse(await fsp.readFile(sidecar, 'utf8')) as { startedAt?: unknown };
    return typeof startedAt === 'string' && !Number.isNaN(Date.parse(startedAt)) ? startedAt : undefined;
  } catch {
    return undefined;
  }
}

/** The export header on the first line of `file`; an Error naming the file when it has none. */
export async function headerOf(file: string): Promise<ExportHeader> {
  const handle = await fsp.open(file, 'r');
  let first: string;
  try {
    const buf = Buffer.alloc(64 * 1024);
    const { bytesRead } = await handle.read(buf, 0, buf.length, 0);
    const text = buf.toString('utf8', 0, bytesRead).replace(/^\uFEFF/, '');
    first = text.slice(0, text.indexOf('\n') < 0 ? text.length : text.indexOf('\n'));
  } finally {
    await handle.close();
  }
  const header = parseHeaderLine(first);
  if (!header) {
    throw new Error(
      `${file} does not start with an export header ({"export":{…}}), so which store it holds is unknown; ` +
        'export the store again to index it',
    );
  }
  return header;
}
