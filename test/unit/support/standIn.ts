// A stand-in for endpoints the emulator does not serve yet: a loopback server that answers each request with the
// next of a list of answers (the last one again once they run out), or as a function decides, and what the client
// sent, read back. The answers are the reference's example bodies, written out in the tests.
import type { ServerResponse } from 'node:http';
import type { ClientOptions, OpenApiClient } from '../../../src/api';
import { makeClient } from './client';
import { startFixture, type SeenRequest } from './fixture';

/** Status, body (JSON, or a string sent as it is; none for an empty body) and headers. */
export type Answer = [status: number, body?: unknown, headers?: Record<string, string>];

export interface Sent {
  method: string;
  /** As sent, segments still percent-encoded. */
  path: string;
  query: Record<string, string>;
  /** Parsed JSON; undefined when the request had no body. */
  body: unknown;
  contentType?: string;
}

function reply(res: ServerResponse, [status, body, headers = {}]: Answer): void {
  if (body === undefined) {
    res.writeHead(status, headers);
    res.end();
    return;
  }
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

export function sent(req: SeenRequest): Sent {
  const url = new URL(req.url, 'http://stand-in');
  return {
    method: req.method,
    path: url.pathname,
    query: Object.fromEntries(url.searchParams),
    body: req.body.length ? JSON.parse(req.body.toString('utf8')) : undefined,
    contentType: req.headers['content-type'],
  };
}

/** Runs `fn` with a client on a stand-in answering `answers` in turn; both closed after. What the client sent. */
export async function withStandIn(
  answers: Answer[] | ((req: Sent, index: number) => Answer),
  fn: (client: OpenApiClient) => Promise<unknown>,
  overrides: Partial<ClientOptions> = {},
): Promise<Sent[]> {
  const route =
    typeof answers === 'function' ? answers : (_r: Sent, i: number) => answers[Math.min(i, answers.length - 1)];
  const fixture = await startFixture((req, res, i) => reply(res, route(sent(req), i)));
  const { client } = makeClient(fixture.url, overrides);
  try {
    await fn(client);
  } finally {
    await client.close();
    await fixture.close();
  }
  return fixture.seen.map(sent);
}

/** The v2 error body (open-api-ordered-memory.md §1.3). */
export const v2Error = (code: string, message: string) => ({ code, message, details: [] });

/** The gateway's error body: an unknown or retired route, a bad key. */
export const gatewayError = (message: string) => ({ errors: [{ code: 0, message }] });
