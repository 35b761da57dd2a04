// A tiny throwaway HTTP server for transport tests (faults the emulator cannot produce).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SeenRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
  /** Bytes received (the body is not kept when the fixture discards bodies). */
  size: number;
  at: number;
}

export interface Fixture {
  url: string;
  seen: SeenRequest[];
  close(): Promise<void>;
}

/** Starts a server on a free loopback port; `handler` answers each request after its body has been read. */
export async function startFixture(
  handler: (req: SeenRequest, res: ServerResponse, index: number) => void | Promise<void>,
  opts: { discardBody?: boolean } = {},
): Promise<Fixture> {
  const seen: SeenRequest[] = [];
  const server = createServer((req, res) => {
    const at = Date.now();
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (!opts.discardBody) chunks.push(c);
    });
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const entry = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body, size, at };
      seen.push(entry);
      void handler(entry, res, seen.length - 1);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Answers with JSON. */
export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}
