// JSON text tools for the entry editor. They keep every literal exactly as written (a big integer is never
// rounded by a parse and re-stringify) and report errors by line and column. No vscode import.
import { t } from '../../core/text';

export class JsonSyntaxError extends Error {
  override name = 'JsonSyntaxError';
  constructor(
    readonly detail: string,
    readonly line: number,
    readonly column: number,
  ) {
    super(t`Invalid JSON at line ${line}, column ${column}: ${detail}`);
  }
}

/**
 * Re-lays out JSON text: `indent` 0 gives the compact form. Throws JsonSyntaxError on invalid input. It accepts what
 * JSON.parse accepts, at any depth and with numbers of any length (containers are walked with a stack, not by
 * recursion).
 */
export function formatJson(text: string, indent = 2): string {
  const out: string[] = [];
  const s = new Scanner(text);
  /** The closing brackets of the containers open around the current value. */
  const open: string[] = [];
  const pad = (depth: number) => (indent ? '\n' + ' '.repeat(indent * depth) : '');
  s.skipSpace();
  for (;;) {
    // A value: a container opens (and its first member follows), or a scalar is written.
    const c = s.peek();
    if (c === '{' || c === '[') {
      const close = c === '{' ? '}' : ']';
      s.next();
      out.push(c);
      s.skipSpace();
      if (s.peek() === close) {
        s.next();
        out.push(close);
      } else {
        open.push(close);
        out.push(pad(open.length));
        if (close === '}') member(s, out, indent);
        continue;
      }
    } else if (c === '"') out.push(s.string());
    else if (c === '-' || (c >= '0' && c <= '9')) out.push(s.number());
    else out.push(s.word());
    // After a value: the next member of the innermost container, or its end (and so on outwards).
    for (;;) {
      const close = open.at(-1);
      s.skipSpace();
      if (close === undefined) {
        if (!s.done()) s.fail(t`Unexpected text after the JSON value`);
        return out.join('');
      }
      if (s.peek() === ',') {
        s.next();
        s.skipSpace();
        out.push(',', pad(open.length));
        if (close === '}') member(s, out, indent);
        break;
      }
      s.expect(close, t`Expected ',' or '${close}'`);
      open.pop();
      out.push(pad(open.length), close);
    }
  }
}

/** An object member's name and colon; its value follows. */
function member(s: Scanner, out: string[], indent: number): void {
  if (s.peek() !== '"') s.fail(t`Expected a property name in double quotes`);
  out.push(s.string());
  s.skipSpace();
  s.expect(':');
  out.push(indent ? ': ' : ':');
  s.skipSpace();
}

/** A JSON number at the scanner's position (sticky: it matches there or not at all). */
const NUMBER = /-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y;

class Scanner {
  private pos = 0;
  constructor(private readonly text: string) {}

  done(): boolean {
    return this.pos >= this.text.length;
  }

  peek(): string {
    return this.text[this.pos] ?? '';
  }

  next(): string {
    return this.text[this.pos++];
  }

  skipSpace(): void {
    while (/[ \t\n\r]/.test(this.peek()) && !this.done()) this.pos++;
  }

  expect(c: string, detail?: string): void {
    if (this.peek() !== c) this.fail(detail ?? t`Expected '${c}'`);
    this.pos++;
  }

  string(): string {
    const start = this.pos;
    this.pos++;
    for (;;) {
      if (this.done()) this.fail(t`Unterminated string`, start);
      const c = this.next();
      if (c === '"') return this.text.slice(start, this.pos);
      if (c === '\\') {
        const e = this.next();
        if (e === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(this.text.slice(this.pos, this.pos + 4)))
            this.fail(t`Bad \\u escape`, this.pos - 2);
          this.pos += 4;
        } else if (!'"\\/bfnrt'.includes(e ?? 'x')) this.fail(t`Bad escape in string`, this.pos - 2);
      } else if (c < ' ') this.fail(t`Control character in string (escape it)`, this.pos - 1);
    }
  }

  number(): string {
    NUMBER.lastIndex = this.pos;
    const m = NUMBER.exec(this.text);
    if (!m) this.fail(t`Invalid number`);
    this.pos += m[0].length;
    return m[0];
  }

  word(): string {
    for (const w of ['true', 'false', 'null']) {
      if (this.text.startsWith(w, this.pos)) {
        this.pos += w.length;
        return w;
      }
    }
    this.fail(this.done() ? t`Unexpected end of text` : t`Unexpected character '${this.peek()}'`);
  }

  fail(detail: string, at = this.pos): never {
    const before = this.text.slice(0, at);
    const line = before.split('\n').length;
    const column = at - before.lastIndexOf('\n');
    throw new JsonSyntaxError(detail, line, column);
  }
}
