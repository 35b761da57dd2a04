// What the client lets through of text the service sent: the API key hidden first, then control characters replaced
// and the length cut, so an error message or a log line shows neither the key nor a forged line.

/** A run of this many characters of the key (or of one of its encoded forms) is taken for a piece of it. */
const FRAGMENT = 8;
/** Keys shorter than this are not looked for: hiding every 3-letter run would wreck the text. */
const SHORTEST_KEY = 4;
/** Longest service text kept in an error message. */
export const MAX_SERVICE_TEXT = 300;

// Control characters (newlines included), line and paragraph separators and bidirectional overrides.
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** One line of at most `max` characters: unsafe characters become spaces, and a longer text is cut with "…". */
export function oneLine(text: string, max = MAX_SERVICE_TEXT): string {
  const clean = text.replace(UNSAFE, ' ');
  if (clean.length <= max) return clean;
  const code = clean.charCodeAt(max - 1);
  return `${clean.slice(0, code >= 0xd800 && code <= 0xdbff ? max - 1 : max)}…`;
}

function percentEncoded(key: string): string {
  try {
    return encodeURIComponent(key);
  } catch {
    return key;
  }
}

/** Hides an API key in text: the key, its percent-encoded and JSON-escaped forms, and any piece of them. */
export class Redactor {
  /** Every run of `size` characters of every form of the key. */
  private readonly pieces = new Set<string>();
  /** The characters those runs hold: a position whose character is not one of them starts no piece. */
  private readonly chars = new Uint8Array(0x10000);
  private readonly size: number;

  constructor(key: string) {
    this.size = key.length < SHORTEST_KEY ? 0 : Math.min(FRAGMENT, key.length);
    if (!this.size) return;
    for (const form of new Set([key, percentEncoded(key), JSON.stringify(key).slice(1, -1)])) {
      for (let i = 0; i + this.size <= form.length; i++) this.pieces.add(form.slice(i, i + this.size));
      for (let i = 0; i < form.length; i++) this.chars[form.charCodeAt(i)] = 1;
    }
  }

  /** `text` with every run made of pieces of the key replaced by "***". */
  text(text: string): string {
    const n = this.size;
    if (!n || text.length < n) return text;
    let out = '';
    let kept = 0;
    for (let i = 0; i + n <= text.length;) {
      // A character that is in no piece rules out every run through it: skip past it.
      if (!this.chars[text.charCodeAt(i + n - 1)]) {
        i += n;
        continue;
      }
      if (!this.pieces.has(text.slice(i, i + n))) {
        i++;
        continue;
      }
      let end = i + n;
      while (end < text.length && this.pieces.has(text.slice(end - n + 1, end + 1))) end++;
      out += `${text.slice(kept, i)}***`;
      kept = i = end;
    }
    return kept ? out + text.slice(kept) : text;
  }

  /** A copy of a JSON-like value with the key hidden in every string, property names included. */
  value<T>(value: T): T {
    if (!this.size) return value;
    const walk = (v: unknown): unknown => {
      if (typeof v === 'string') return this.text(v);
      if (Array.isArray(v)) return v.map(walk);
      if (typeof v !== 'object' || v === null) return v;
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [this.text(k), walk(x)]));
    };
    return walk(value) as T;
  }
}
