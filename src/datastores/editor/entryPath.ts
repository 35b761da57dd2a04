// Where an entry lives, as a URI path that round-trips any key and reads as the key: `/Data Stores/<universe>/
// <store>/<scope>/<key>.json`. A "/" in a name shows as "∕" (U+2215); `~XX` (hex of a UTF-8 byte) escapes what
// would otherwise be misread: control characters, "\", a real "∕", and a "~" or "%" that is followed by two hex
// digits (VS Code may decode %XX in a path). A segment of dots is escaped too. No vscode import.
import { t } from '../../core/text';

export interface EntryAddress {
  connectionId: string;
  universeId: number;
  datastoreName: string;
  scope: string;
  key: string;
}

const suffix = '.json';

/** The first path segment of every entry: the entry language's file pattern and the label formatter rely on it. */
export const entryRoot = 'Data Stores';

const slash = '\u2215';

function escapeChar(ch: string): string {
  return [...Buffer.from(ch)].map((b) => '~' + b.toString(16).toUpperCase().padStart(2, '0')).join('');
}

export function escapeSegment(text: string): string {
  let out = '';
  const chars = [...text];
  chars.forEach((ch, i) => {
    const next2 = (chars[i + 1] ?? '') + (chars[i + 2] ?? '');
    if (ch === '/') out += slash;
    else if (
      ch === slash ||
      ch === '\\' ||
      ch.charCodeAt(0) < 0x20 ||
      ch === '\u007f' ||
      (ch === '~' && /^[0-9A-F]{2}$/.test(next2)) ||
      (ch === '%' && /^[0-9A-Fa-f]{2}$/.test(next2))
    ) {
      out += escapeChar(ch);
    } else out += ch;
  });
  // A segment of dots would be read as "this" or "parent" folder.
  return /^\.*$/.test(out) ? out.replace(/\./g, '~2E') : out;
}

export function unescapeSegment(text: string): string {
  if ([...text].some((ch) => ch === '/' || ch === '\\' || ch < ' ' || ch === '\u007f'))
    throw new Error(t`Bad escape in "${text}"`);
  const bytes: number[] = [];
  const parts: string[] = [];
  const flush = () => {
    if (bytes.length) parts.push(Buffer.from(bytes.splice(0)).toString('utf8'));
  };
  for (let i = 0; i < text.length;) {
    if (text[i] === '~' && /^[0-9A-F]{2}$/.test(text.slice(i + 1, i + 3))) {
      bytes.push(parseInt(text.slice(i + 1, i + 3), 16));
      i += 3;
    } else {
      flush();
      const cp = text.codePointAt(i)!;
      const ch = String.fromCodePoint(cp);
      parts.push(ch === slash ? '/' : ch);
      i += ch.length;
    }
  }
  flush();
  return parts.join('');
}

/** The fields the client's entry calls take. */
export function entryRequest(a: EntryAddress) {
  return { universeId: a.universeId, datastoreName: a.datastoreName, scope: a.scope, entryKey: a.key };
}

/** `/Data Stores/<universe>/<store>/<scope>/<key>.json`; the connection id goes in the URI's authority. */
export function entryPath(a: Omit<EntryAddress, 'connectionId'>): string {
  const names = [a.datastoreName, a.scope, a.key].map(escapeSegment);
  return `/${entryRoot}/${a.universeId}/${names.join('/')}${suffix}`;
}

export function parseEntryPath(connectionId: string, path: string): EntryAddress {
  const parts = path.split('/');
  if (
    parts.length !== 6 ||
    parts[0] !== '' ||
    parts[1] !== entryRoot ||
    !parts[5].endsWith(suffix) ||
    !/^\d+$/.test(parts[2])
  ) {
    throw new Error(t`Not an entry path: ${path}`);
  }
  return {
    connectionId,
    universeId: Number(parts[2]),
    datastoreName: unescapeSegment(parts[3]),
    scope: unescapeSegment(parts[4]),
    key: unescapeSegment(parts[5].slice(0, -suffix.length)),
  };
}
