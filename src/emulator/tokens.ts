import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import fs = require('node:fs');
import path = require('node:path');

/**
 * Page cursors and page tokens: `<base64url position JSON>.<base64url HMAC>`. The MAC covers the kind of list and
 * the request's identifying parameters (store, scope, prefix, filter...) as well as the position, so a forged or
 * edited token, or one replayed against another query, fails to verify. The secret lives in `<data>/secret` when
 * there is a data dir (tokens survive restarts), otherwise it is random per process. It is written whole (a
 * temporary file renamed into place, readable by this user only), so a crash never leaves half a secret.
 */
export class Tokens {
  private constructor(private readonly secret: Buffer) {}

  static create(dataDir?: string): Tokens {
    if (!dataDir) return new Tokens(randomBytes(32));
    const file = path.join(dataDir, 'secret');
    const saved = fs.existsSync(file) ? Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'hex') : Buffer.alloc(0);
    if (saved.length === 32) return new Tokens(saved);
    const secret = randomBytes(32);
    const tmp = `${file}.${process.pid}.tmp`;
    fs.rmSync(tmp, { force: true }); // a leftover would keep its own mode
    fs.writeFileSync(tmp, secret.toString('hex'), { mode: 0o600 });
    fs.renameSync(tmp, file);
    return new Tokens(secret);
  }

  issue(kind: string, binding: readonly unknown[], position: unknown): string {
    const body = Buffer.from(JSON.stringify(position)).toString('base64url');
    return `${body}.${this.mac(kind, binding, body).toString('base64url')}`;
  }

  /** The position, or undefined when the token is not one this emulator issued for this kind and binding. */
  read(token: string, kind: string, binding: readonly unknown[]): unknown {
    const dot = token.indexOf('.');
    if (dot < 0 || token.length > 4096) return undefined;
    const body = token.slice(0, dot);
    const mac = token.slice(dot + 1);
    const given = Buffer.from(mac, 'base64url');
    const expected = this.mac(kind, binding, body);
    // Decoding skips stray characters, so the MAC must also read back as it was written.
    if (given.length !== expected.length || !timingSafeEqual(given, expected) || given.toString('base64url') !== mac)
      return undefined;
    try {
      return JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
    } catch {
      return undefined;
    }
  }

  private mac(kind: string, binding: readonly unknown[], body: string): Buffer {
    return createHmac('sha256', this.secret)
      .update(JSON.stringify([kind, binding, body]))
      .digest()
      .subarray(0, 18);
  }
}
