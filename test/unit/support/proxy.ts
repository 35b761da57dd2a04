// A loopback proxy in front of the emulator that loses answers: it forwards a request, lets the emulator apply it,
// then closes the client's connection instead of answering, so the client's transport tries again.
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface LosingProxy {
  url: string;
  /** `METHOD path` of each request whose answer was lost. */
  lost: string[];
  close(): Promise<void>;
}

/** Loses the answer of the first request whose method is `method` and whose path includes `path`. */
export function firstOf(method: string, path: string): (method: string, path: string) => boolean {
  let used = false;
  return (m, p) => !used && m === method && p.includes(path) && (used = true);
}

/**
 * Starts a proxy to `target`. `lose(method, path)` picks the requests whose answer is lost; `beforeLoss` runs once
 * the emulator has answered such a request, before the connection is closed (e.g. another writer changes the entry).
 */
export async function startLosingProxy(
  target: string,
  lose: (method: string, path: string) => boolean,
  beforeLoss?: () => Promise<void>,
): Promise<LosingProxy> {
  const to = new URL(target);
  const lost: string[] = [];
  const server = createServer((req, res) => {
    const method = req.method ?? 'GET';
    const path = req.url ?? '/';
    const losing = lose(method, path.split('?')[0]);
    const upstream = request({ host: to.hostname, port: to.port, method, path, headers: req.headers }, (answer) => {
      const chunks: Buffer[] = [];
      answer.on('data', (c: Buffer) => chunks.push(c));
      answer.on('end', () => {
        if (!losing) {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          res.end(Buffer.concat(chunks));
          return;
        }
        lost.push(`${method} ${path.split('?')[0]}`);
        void (beforeLoss?.() ?? Promise.resolve()).then(() => req.socket.destroy());
      });
    });
    upstream.on('error', (err) => res.destroy(err));
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    lost,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
