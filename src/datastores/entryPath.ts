// Where an entry lives, as a URI path that round-trips any key. VS Code decodes %XX in paths, so our own
// escape is `~XX` (hex of the UTF-8 byte) for the characters that would change the path's meaning.
// No vscode import, so plain unit tests cover it.

export interface EntryAddress {
  connectionId: string;
  universeId: number;
  datastoreName: string;
  scope: string;
  key: string;
}

const suffix = '.json';

export function escapeSegment(text: string): string {
  let out = '';
  for (const ch of text) {
    const risky = '~/\\%?#'.includes(ch) || ch.charCodeAt(0) < 0x20 || ch === '\u007f';
    out += risky ? [...Buffer.from(ch)].map((b) => '~' + b.toString(16).toUpperCase().padStart(2, '0')).join('') : ch;
  }
  // A segment of dots would be read as "this" or "parent" folder.
  return /^\.*$/.test(out) ? out.replace(/\./g, '~2E') : out;
}

export function unescapeSegment(text: string): string {
  if (!/^(?:[^~]|~[0-9A-F]{2})*$/.test(text)) throw new Error(`Bad escape in "${text}"`);
  const bytes: number[] = [];
  const parts: string[] = [];
  const flush = () => {
    if (bytes.length) parts.push(Buffer.from(bytes.splice(0)).toString('utf8'));
  };
  for (let i = 0; i < text.length;) {
    if (text[i] === '~') {
      bytes.push(parseInt(text.slice(i + 1, i + 3), 16));
      i += 3;
    } else {
      flush();
      const cp = text.codePointAt(i)!;
      parts.push(String.fromCodePoint(cp));
      i += cp > 0xffff ? 2 : 1;
    }
  }
  flush();
  return parts.join('');
}

/** The fields the client's entry calls take. */
export function entryRequest(a: EntryAddress) {
  return { universeId: a.universeId, datastoreName: a.datastoreName, scope: a.scope, entryKey: a.key };
}

/** `/<universe>/<store>/<scope>/<key>.json`; the connection id goes in the URI's authority. */
export function entryPath(a: Omit<EntryAddress, 'connectionId'>): string {
  return `/${a.universeId}/${escapeSegment(a.datastoreName)}/${escapeSegment(a.scope)}/${escapeSegment(a.key)}${suffix}`;
}

export function parseEntryPath(connectionId: string, path: string): EntryAddress {
  const parts = path.split('/');
  if (parts.length !== 5 || parts[0] !== '' || !parts[4].endsWith(suffix) || !/^\d+$/.test(parts[1])) {
    throw new Error(`Not an entry path: ${path}`);
  }
  return {
    connectionId,
    universeId: Number(parts[1]),
    datastoreName: unescapeSegment(parts[2]),
    scope: unescapeSegment(parts[3]),
    key: unescapeSegment(parts[4].slice(0, -suffix.length)),
  };
}
