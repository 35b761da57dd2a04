import * as assert from 'node:assert/strict';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, it } from 'node:test';
import { ApiError } from '../../src/emulator/errors';
import { sendJson, type App, type Ctx, type Route } from '../../src/emulator/http';
import { compile, dispatch, type Dispatcher } from '../../src/emulator/router';

interface Answer {
  status?: number;
  headers?: Record<string, string>;
  body?: unknown;
}

/** Dispatches one request without a server; resolves with what was answered. */
function request(d: Dispatcher, method: string, url: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve) => {
    const answer: Answer = {};
    const res = {
      headersSent: false,
      writeHead(status: number, h: Record<string, string>) {
        answer.status = status;
        answer.headers = h;
      },
      end(body?: string | Buffer) {
        answer.body = body === undefined ? undefined : JSON.parse(body.toString());
        resolve(answer);
      },
    } as unknown as ServerResponse;
    const req = { method, headers } as unknown as IncomingMessage;
    const q = url.indexOf('?');
    dispatch(d, req, res, q < 0 ? url : url.slice(0, q), q < 0 ? '' : url.slice(q + 1));
  });
}

const echo = (ctx: Ctx): void =>
  sendJson(ctx, 200, { params: ctx.params, universeId: ctx.universeId, q: ctx.query.get('q') ?? null });

const routes: Route[] = [
  { method: 'GET', path: '/u/{universeId}/things/{thing}', family: 'v2', handle: echo },
  { method: 'POST', path: '/u/{universeId}/things/{thing}', family: 'v2', scopes: ['things:write'], handle: echo },
  {
    method: 'GET',
    path: '/fails',
    family: 'v2',
    handle: () => Promise.reject(new ApiError(409, 'Taken.')),
  },
];

function dispatcher(logged: string[] = []): Dispatcher {
  return {
    paths: compile(routes),
    app: {} as App,
    keys: new Map([
      ['all', { key: 'all' }],
      ['narrow', { key: 'narrow', scopes: ['things:read'], universes: [7] }],
    ]),
    log: (line) => logged.push(line),
  };
}

describe('request dispatch', () => {
  it('hands the decoded path parameters, the universe and the query to the handler', async () => {
    const a = await request(dispatcher(), 'GET', '/u/7/things/a%20b?q=x', { 'x-api-key': 'all' });
    assert.equal(a.status, 200);
    assert.deepEqual(a.body, { params: { universeId: '7', thing: 'a b' }, universeId: 7, q: 'x' });
  });

  it('answers 404 and 405 (with allow) in the gateway body before looking at the key', async () => {
    const missing = await request(dispatcher(), 'GET', '/nowhere');
    assert.equal(missing.status, 404);
    assert.deepEqual(missing.body, { errors: [{ code: 0, message: 'Not found.' }] });
    const wrong = await request(dispatcher(), 'DELETE', '/u/7/things/a');
    assert.equal(wrong.status, 405);
    assert.equal(wrong.headers?.allow, 'GET, POST');
  });

  it('refuses a missing key (401), another universe and a missing scope (403 in the route family)', async () => {
    const d = dispatcher();
    assert.equal((await request(d, 'GET', '/u/7/things/a')).status, 401);
    assert.equal((await request(d, 'GET', '/u/7/things/a', { 'x-api-key': 'nope' })).status, 401);
    const other = await request(d, 'GET', '/u/8/things/a', { 'x-api-key': 'narrow' });
    assert.equal(other.status, 403);
    assert.equal((other.body as { code: string }).code, 'PERMISSION_DENIED');
    assert.equal((await request(d, 'POST', '/u/7/things/a', { 'x-api-key': 'narrow' })).status, 403);
    assert.equal((await request(d, 'GET', '/u/7/things/a', { 'x-api-key': 'narrow' })).status, 200);
  });

  it('answers a malformed path parameter 400 and a rejected handler in its family', async () => {
    const d = dispatcher();
    assert.equal((await request(d, 'GET', '/u/7/things/%E0', { 'x-api-key': 'all' })).status, 400);
    const failed = await request(d, 'GET', '/fails', { 'x-api-key': 'all' });
    assert.equal(failed.status, 409);
    assert.deepEqual(failed.body, { code: 'ABORTED', message: 'Taken.', details: [] });
  });
});
