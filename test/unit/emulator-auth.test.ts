import * as assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { RunningEmulator } from '../../src/emulator/server';
import {
  assetError,
  call,
  DS,
  dsError,
  entry,
  ENTRY,
  gatewayError,
  start,
  U,
  v2Error,
} from './fixtures/emulator/harness';

const DSS = 'universe-datastores.';
let emu: RunningEmulator;
before(async () => {
  emu = await start({
    apiKeys: [
      { key: 'all' },
      {
        key: 'reader',
        scopes: [`${DSS}objects:read`, `${DSS}objects:list`, 'universe.user-restriction:read', 'asset:read'],
      },
      { key: 'updater', scopes: [`${DSS}objects:update`, `${DSS}objects:read`] },
      { key: 'creator', scopes: [`${DSS}objects:create`] },
      { key: 'store-creator', scopes: [`${DSS}objects:create`, `${DSS}control:create`] },
      { key: 'writer-only', scopes: ['asset:write'] },
      { key: 'one-universe', universes: [U] },
    ],
  });
  await call(emu.url, 'POST', ENTRY, { key: 'all', query: entry('Auth', 'exists'), body: '1' });
});
after(() => emu.close());

describe('API keys', () => {
  it('401 with the gateway body for a missing or unknown key, in every area', async () => {
    for (const key of [null, 'wrong', '']) {
      for (const [method, path] of [
        ['GET', `${ENTRY}?datastoreName=Auth&entryKey=exists`],
        ['GET', `/cloud/v2/universes/${U}/user-restrictions/1`],
        ['POST', '/assets/v1/assets'],
        ['GET', '/assets/v1/operations/x'],
      ]) {
        const r = await call(emu.url, method, path, { key });
        gatewayError(r, 401);
        assert.deepEqual(r.json, { errors: [{ code: 0, message: 'Invalid API Key' }] });
      }
    }
  });

  it('404 for an unknown path and 405 with allow for a wrong method, before the key is checked', async () => {
    gatewayError(await call(emu.url, 'GET', '/nope', { key: null }), 404);
    gatewayError(await call(emu.url, 'GET', `${DS()}/datastore`, { key: 'all' }), 404);
    gatewayError(await call(emu.url, 'GET', `${DS()}/`, { key: 'all' }), 404);
    const r = await call(emu.url, 'PUT', ENTRY, { key: null });
    gatewayError(r, 405);
    assert.equal(r.headers.get('allow'), 'GET, POST, DELETE');
  });
});

describe('scopes', () => {
  it('data stores: 403 INSUFFICIENT_SCOPE / InsufficientScope for each missing scope', async () => {
    const check = async (key: string, method: string, path: string, query: Record<string, string>, status: number) => {
      const r = await call(emu.url, method, path, { key, query, body: method === 'POST' ? '2' : undefined });
      if (status === 403) {
        dsError(r, 403, 'InsufficientScope');
        assert.equal(r.json.error, 'INSUFFICIENT_SCOPE');
      } else assert.equal(r.status, status, `${key} ${method} ${path}: ${r.text}`);
    };
    const q = entry('Auth', 'exists') as Record<string, string>;
    await check('reader', 'GET', ENTRY, q, 200);
    await check('reader', 'GET', `${DS()}/datastore/entries`, { datastoreName: 'Auth' }, 200);
    await check('reader', 'GET', DS(), {}, 403); // control:list
    await check('reader', 'POST', ENTRY, q, 403);
    await check('reader', 'DELETE', ENTRY, q, 403);
    await check('reader', 'GET', `${ENTRY}/versions`, q, 403); // versions:list
    await check('reader', 'GET', `${ENTRY}/versions/version`, { ...q, versionId: 'x' }, 403); // versions:read
    await check('updater', 'POST', ENTRY, q, 200); // update of a live key
    await check('updater', 'POST', ENTRY, entry('Auth', 'new') as Record<string, string>, 403); // needs objects:create
    await check('updater', 'POST', `${ENTRY}/increment`, q, 200);
    await check('creator', 'POST', ENTRY, q, 403); // needs objects:update
    await check('creator', 'POST', ENTRY, entry('Auth', 'new') as Record<string, string>, 200);
    await check('creator', 'POST', ENTRY, entry('NewStore', 'k') as Record<string, string>, 403); // needs control:create
    await check('store-creator', 'POST', ENTRY, entry('NewStore', 'k') as Record<string, string>, 200);
  });

  it('user restrictions: 403 PERMISSION_DENIED without the write scope', async () => {
    const path = `/cloud/v2/universes/${U}/user-restrictions/5`;
    assert.equal((await call(emu.url, 'GET', path, { key: 'reader' })).status, 200);
    const r = await call(emu.url, 'PATCH', path, {
      key: 'reader',
      body: JSON.stringify({ gameJoinRestriction: { active: true } }),
    });
    v2Error(r, 403, 'PERMISSION_DENIED');
    assert.deepEqual(r.json.details, []);
    v2Error(await call(emu.url, 'GET', path, { key: 'updater' }), 403, 'PERMISSION_DENIED');
  });

  it('assets: 403 {code: 7} without asset:write, or without asset:read', async () => {
    assetError(await call(emu.url, 'POST', '/assets/v1/assets', { key: 'reader', body: new FormData() }), 403, 7);
    assetError(await call(emu.url, 'POST', '/assets/v1/assets/1:archive', { key: 'reader' }), 403, 7);
    assetError(await call(emu.url, 'GET', '/assets/v1/assets/1', { key: 'writer-only' }), 403, 7);
    assetError(await call(emu.url, 'GET', '/assets/v1/assets/1', { key: 'reader' }), 404, 5);
  });
});

describe('universes', () => {
  it('403 for a universe the key is not limited to, in each family', async () => {
    const other = U + 1;
    assert.equal(
      (await call(emu.url, 'GET', ENTRY, { key: 'one-universe', query: entry('Auth', 'exists') })).status,
      200,
    );
    const ds = await call(emu.url, 'GET', `${DS(other)}/datastore/entries/entry`, {
      key: 'one-universe',
      query: entry('Auth', 'exists'),
    });
    dsError(ds, 403, 'Forbidden');
    v2Error(
      await call(emu.url, 'GET', `/cloud/v2/universes/${other}/user-restrictions`, { key: 'one-universe' }),
      403,
      'PERMISSION_DENIED',
    );
    assert.equal(
      (await call(emu.url, 'GET', `/cloud/v2/universes/${U}/user-restrictions`, { key: 'one-universe' })).status,
      200,
    );
  });

  it('accepts only the sandbox key when none is configured', async () => {
    const sandbox = await start();
    try {
      assert.equal((await call(sandbox.url, 'GET', DS(42), { key: 'sandbox' })).status, 200);
      gatewayError(await call(sandbox.url, 'GET', DS(42), { key: 'all' }), 401);
    } finally {
      await sandbox.close();
    }
  });
});
