// Answers a hostile service might send: bodies without end, and bodies one byte at a time.
import type { ServerResponse } from 'node:http';

/**
 * Sends `total` bytes of `fill`, written only as fast as the client reads them (a full socket buffer waits for
 * drain). Resolves with the bytes handed to the socket when the client stops reading or everything was sent.
 */
export function sendLazily(
  res: ServerResponse,
  total: number,
  headers: Record<string, string>,
  fill = 'x',
): Promise<number> {
  const chunk = Buffer.alloc(64 * 1024, fill);
  let sent = 0;
  res.writeHead(200, headers);
  return new Promise((resolve) => {
    const done = (): void => resolve(sent);
    res.on('close', done);
    const pump = (): void => {
      while (sent < total && !res.destroyed) {
        const piece = chunk.subarray(0, Math.min(chunk.length, total - sent));
        sent += piece.length;
        if (!res.write(piece)) return void res.once('drain', pump);
      }
      if (sent >= total) res.end();
    };
    pump();
  });
}

/** Sends `body` one byte every `everyMs`, until it is all sent or the client goes away. */
export function drip(res: ServerResponse, body: string, headers: Record<string, string>, everyMs: number): void {
  res.writeHead(200, { ...headers, 'content-length': String(Buffer.byteLength(body)) });
  let i = 0;
  const timer = setInterval(() => {
    if (res.destroyed || i >= body.length) {
      clearInterval(timer);
      if (!res.destroyed) res.end();
      return;
    }
    res.write(body[i++]);
  }, everyMs);
  res.on('close', () => clearInterval(timer));
}
