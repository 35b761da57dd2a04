// The parts of a request's address: path segments and query strings, encoded once and only once.
export type QueryValue = string | number | boolean | undefined;

/** Encodes one path segment; `.` and `..` are percent-encoded too, so a segment is never a literal dot segment. */
export function seg(value: string | number): string {
  const s = String(value);
  return s === '.' || s === '..' ? s.replace(/\./g, '%2E') : encode(s);
}

function encode(s: string): string {
  try {
    return encodeURIComponent(s);
  } catch {
    throw new TypeError(`Not valid Unicode (lone surrogate): ${JSON.stringify(s)}`);
  }
}

/** Query names as sent: a few fixed names, encoded once rather than on every request. */
const encodedNames = new Map<string, string>();

/** `?name=value&...` of the defined values; with `withValues` false, the names only (for logs). */
export function queryString(query: Record<string, QueryValue> | undefined, withValues: boolean): string {
  let out = '';
  for (const k in query) {
    const v = query[k];
    if (v === undefined) continue;
    let name = encodedNames.get(k);
    if (name === undefined) encodedNames.set(k, (name = encode(k)));
    out += `${out ? '&' : '?'}${name}${withValues ? `=${encode(String(v))}` : ''}`;
  }
  return out;
}

/** 127.0.0.0/8, ::1 and localhost: this machine, where plain http does not leave it. */
export function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(hostname);
}
