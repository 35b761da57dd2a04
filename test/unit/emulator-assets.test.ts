import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import { after, before, describe, it } from 'node:test';
import type { RunningEmulator } from '../../src/emulator/server';
import { assetError, call, start } from './fixtures/emulator/harness';

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
const RBXM = Buffer.from('<roblox!model');
const request = (over: Record<string, unknown> = {}) => ({
  assetType: 'Decal',
  displayName: 'Logo',
  description: 'A logo',
  creationContext: { creator: { userId: 1001 } },
  ...over,
});

function form(req: unknown, file?: { bytes: Buffer; type: string; name?: string }): FormData {
  const f = new FormData();
  if (req !== undefined) f.append('request', typeof req === 'string' ? req : JSON.stringify(req));
  if (file)
    f.append('fileContent', new Blob([new Uint8Array(file.bytes)], { type: file.type }), file.name ?? 'file.bin');
  return f;
}

let emu: RunningEmulator;
before(async () => {
  emu = await start();
});
after(() => emu.close());

const A = '/assets/v1';
const post = (path: string, body?: FormData | string, headers?: Record<string, string>) =>
  call(emu.url, 'POST', A + path, { body, headers });
const get = (path: string, query?: Record<string, string | number>) => call(emu.url, 'GET', A + path, { query });
const patch = (path: string, body: FormData, query?: Record<string, string>) =>
  call(emu.url, 'PATCH', A + path, { body, query });

async function create(over: Record<string, unknown> = {}, file = { bytes: PNG, type: 'image/png' }): Promise<string> {
  const r = await post('/assets', form(request(over), file));
  assert.equal(r.status, 200, r.text);
  assert.equal(r.json.done, true);
  return r.json.response.assetId;
}

describe('create and operations', () => {
  it('answers an Operation that holds the new Asset', async () => {
    const r = await post('/assets', form(request(), { bytes: PNG, type: 'image/png', name: 'logo.png' }));
    assert.equal(r.status, 200, r.text);
    assert.match(r.json.path, /^operations\/[\w-]+$/);
    assert.equal(r.json.done, true);
    const asset = r.json.response;
    assert.equal(asset['@type'], 'type.googleapis.com/roblox.open_cloud.assets.v1.Asset');
    assert.match(asset.assetId, /^\d+$/);
    assert.equal(asset.path, `assets/${asset.assetId}`);
    assert.equal(asset.revisionId, '1');
    assert.deepEqual(asset.creationContext, { creator: { userId: '1001' } });
    assert.deepEqual(asset.moderationResult, { moderationState: 'Approved' });
    assert.equal(asset.state, 'Active');
    const op = await get(`/${r.json.path}`);
    assert.deepEqual(op.json, r.json);
    const fetched = await get(`/assets/${asset.assetId}`);
    const { '@type': _type, ...plain } = asset;
    assert.deepEqual(fetched.json, plain);
  });

  it('keeps an operation pending for operationDelayMs', async () => {
    const slow = await start({ operationDelayMs: 300 });
    try {
      const r = await call(slow.url, 'POST', `${A}/assets`, {
        body: form(request(), { bytes: PNG, type: 'image/png' }),
      });
      assert.deepEqual(Object.keys(r.json).sort(), ['done', 'operationId', 'path']);
      assert.equal(r.json.done, false);
      assert.equal((await call(slow.url, 'GET', `${A}/${r.json.path}`)).json.done, false);
      await new Promise((res) => setTimeout(res, 350));
      const done = await call(slow.url, 'GET', `${A}/${r.json.path}`);
      assert.equal(done.json.done, true);
      assert.equal(done.json.response.displayName, 'Logo');
    } finally {
      await slow.close();
    }
  });

  it('fails the operation (code 3) when the bytes do not fit the content type, and creates nothing', async () => {
    for (const [bytes, type, message] of [
      [Buffer.from('not a png'), 'image/png', /^InvalidImage: /],
      [Buffer.alloc(0), 'image/png', /^InvalidImage: .*empty/],
      [Buffer.from('text'), 'audio/mpeg', /^InvalidAudio: /],
      [Buffer.from('text'), 'model/gltf-binary', /^InvalidModel: /],
    ] as const) {
      const assetType = type.startsWith('audio') ? 'Audio' : type.startsWith('model') ? 'Model' : 'Decal';
      const r = await post('/assets', form(request({ assetType }), { bytes, type }));
      assert.equal(r.status, 200, r.text);
      assert.equal(r.json.done, true);
      assert.equal(r.json.error.code, 3);
      assert.match(r.json.error.message, message);
      assert.equal(r.json.response, undefined);
    }
  });

  it('400s bad requests with {code: 3, message}', async () => {
    const bad = async (body: FormData | string, headers?: Record<string, string>) =>
      assetError(await post('/assets', body, headers), 400, 3);
    await bad(form(request(), { bytes: PNG, type: 'audio/mpeg' })); // content type does not fit Decal
    await bad(form(request({ assetType: 'Spaceship' }), { bytes: PNG, type: 'image/png' }));
    await bad(form(request({ assetType: 'ASSET_TYPE_DECAL' }), { bytes: PNG, type: 'image/png' }));
    await bad(form(request({ displayName: '' }), { bytes: PNG, type: 'image/png' }));
    await bad(form(request({ displayName: 'x'.repeat(51) }), { bytes: PNG, type: 'image/png' }));
    await bad(form(request({ description: 'x'.repeat(1001) }), { bytes: PNG, type: 'image/png' }));
    await bad(form(request({ creationContext: {} }), { bytes: PNG, type: 'image/png' }));
    await bad(
      form(request({ creationContext: { creator: { userId: 1, groupId: 2 } } }), { bytes: PNG, type: 'image/png' }),
    );
    await bad(form(request({ creationContext: { creator: { userId: 'me' } } }), { bytes: PNG, type: 'image/png' }));
    await bad(form('{not json', { bytes: PNG, type: 'image/png' }));
    await bad(form('[]', { bytes: PNG, type: 'image/png' }));
    await bad(form(request())); // no file
    await bad(form(undefined, { bytes: PNG, type: 'image/png' })); // no request
    await bad(JSON.stringify(request()), { 'content-type': 'application/json' });
    await bad('--x\r\nbroken', { 'content-type': 'multipart/form-data; boundary=x' });
    await bad('whatever', { 'content-type': 'multipart/form-data' }); // no boundary
    const twoFiles = form(request(), { bytes: PNG, type: 'image/png' });
    twoFiles.append('fileContent', new Blob([new Uint8Array(PNG)], { type: 'image/png' }), 'again.png');
    await bad(twoFiles);
  });

  it('decides moderation from the display name', async () => {
    assert.equal(
      (await get(`/assets/${await create({ displayName: 'Art [review]' })}`)).json.moderationResult.moderationState,
      'Reviewing',
    );
    assert.equal(
      (await get(`/assets/${await create({ displayName: 'Art [reject]' })}`)).json.moderationResult.moderationState,
      'Rejected',
    );
  });

  it('404s unknown assets, versions and operations', async () => {
    assetError(await get('/assets/99999'), 404, 5);
    assetError(await get('/operations/nope'), 404, 5);
    const id = await create();
    assetError(await get(`/assets/${id}/versions/2`), 404, 5);
    assetError(await get(`/assets/${id}/versions/x`), 400, 3);
    assetError(await get('/assets/abc'), 400, 3);
  });

  it('streams a large upload without trouble', async () => {
    const big = Buffer.alloc(40 * 1024 * 1024, 7);
    PNG.copy(big);
    const id = await create({ assetType: 'Image' }, { bytes: big, type: 'image/png' });
    assert.equal((await get(`/assets/${id}`)).json.assetType, 'Image');
  });

  it('cleans up when the client goes away in the middle of an upload', async () => {
    const url = new URL(`${emu.url}${A}/assets`);
    await new Promise<void>((resolve) => {
      const r = http.request({
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        headers: {
          'x-api-key': 'sandbox',
          'content-type': 'multipart/form-data; boundary=b',
          'content-length': '100000',
        },
      });
      r.on('error', () => resolve());
      r.write(
        '--b\r\nContent-Disposition: form-data; name="fileContent"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n',
      );
      r.write(PNG);
      setTimeout(() => {
        r.destroy();
        resolve();
      }, 50);
    });
    assert.equal((await get('/assets/99999')).status, 404); // still serving
  });
});

describe('get, update, archive', () => {
  it('honours readMask and refuses unknown fields', async () => {
    const id = await create();
    assert.deepEqual((await get(`/assets/${id}`, { readMask: 'displayName,description' })).json, {
      displayName: 'Logo',
      description: 'A logo',
    });
    assert.deepEqual(Object.keys((await get(`/assets/${id}`, { readMask: 'assetId, state' })).json), [
      'assetId',
      'state',
    ]);
    assetError(await get(`/assets/${id}`, { readMask: 'displayName,secret' }), 400, 3);
  });

  it('updates metadata by mask or by the fields present, and content as a new version', async () => {
    const id = await create({ assetType: 'Model' }, { bytes: RBXM, type: 'model/x-rbxm' });
    const update = (
      req: Record<string, unknown>,
      query?: Record<string, string>,
      file?: { bytes: Buffer; type: string },
    ) => patch(`/assets/${id}`, form({ assetId: id, ...req }, file), query);
    const r = await update({ displayName: 'Tree', description: 'Green' }, { updateMask: 'description,displayName' });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json.done, true);
    assert.equal(r.json.response.displayName, 'Tree');
    assert.equal(r.json.response.revisionId, '1');
    const links = await update(
      {
        twitchSocialLink: { title: 'Stream', uri: 'https://twitch.tv/x' },
        githubSocialLink: { uri: 'https://github.com/x' },
      },
      { updateMask: 'twitchSocialLink,githubSocialLink' },
    );
    assert.deepEqual(links.json.response.twitchSocialLink, { title: 'Stream', uri: 'https://twitch.tv/x' });
    const removed = await update({}, { updateMask: 'githubSocialLink' });
    assert.equal(removed.json.response.githubSocialLink, undefined);
    assert.ok(removed.json.response.twitchSocialLink);
    const previews = await update({ previews: [{ asset: 'assets/1', altText: 'one' }] });
    assert.deepEqual(previews.json.response.previews, [{ asset: 'assets/1', altText: 'one' }]);
    const content = await update({}, undefined, { bytes: Buffer.from('<roblox!v2'), type: 'model/x-rbxm' });
    assert.equal(content.json.response.revisionId, '2');
    assert.equal(content.json.response.displayName, 'Tree');
    const failed = await update({ displayName: 'Never' }, undefined, {
      bytes: Buffer.from('nope'),
      type: 'model/x-rbxm',
    });
    assert.match(failed.json.error.message, /^InvalidModel/);
    const now = await get(`/assets/${id}`);
    assert.equal(now.json.revisionId, '2');
    assert.equal(now.json.displayName, 'Tree');
    for (const [req, query] of [
      [{ assetId: '1', displayName: 'x' }, undefined],
      [{ displayName: 'x' }, { updateMask: 'assetType' }],
      [{ displayName: '' }, undefined],
      [{ previews: 'x' }, undefined],
      [{ icon: 'http://x' }, undefined],
      [{ twitchSocialLink: { uri: 'ftp://x' } }, undefined],
    ] as const) {
      assetError(
        await patch(
          `/assets/${id}`,
          form(Object.assign({ assetId: id }, req)),
          query as Record<string, string> | undefined,
        ),
        400,
        3,
      );
    }
    assetError(await patch(`/assets/${id}`, form({ assetId: id }, { bytes: PNG, type: 'image/png' })), 400, 3);
    assetError(await patch('/assets/424242', form({ assetId: '424242' })), 404, 5);
  });

  it('archives and restores, refusing to repeat either', async () => {
    const id = await create();
    const archived = await post(`/assets/${id}:archive`, '', { 'content-type': 'application/json' });
    assert.equal(archived.status, 200);
    assert.equal(archived.json.state, 'Archived');
    assetError(await post(`/assets/${id}:archive`), 400, 3);
    assert.equal((await get(`/assets/${id}`)).json.state, 'Archived');
    assert.equal((await post(`/assets/${id}:restore`)).json.state, 'Active');
    assetError(await post(`/assets/${id}:restore`), 400, 3);
    assetError(await post('/assets/424242:archive'), 404, 5);
    assert.equal((await post(`/assets/${id}:explode`)).status, 404);
  });
});

describe('versions and rollback', () => {
  it('lists versions newest first with paging, and rolls back as a new version (JSON or multipart)', async () => {
    const id = await create();
    for (let n = 2; n <= 10; n++) {
      const bytes = Buffer.concat([PNG, Buffer.from(`v${n}`)]);
      await patch(
        `/assets/${id}`,
        form({ assetId: id, displayName: n === 5 ? 'Logo [review]' : 'Logo' }, { bytes, type: 'image/png' }),
      );
    }
    const page = await get(`/assets/${id}/versions`);
    assert.deepEqual(
      page.json.assetVersions.map((v: { path: string }) => v.path.split('/').pop()),
      ['10', '9', '8', '7', '6', '5', '4', '3'],
    );
    assert.deepEqual(page.json.assetVersions[0], {
      path: `assets/${id}/versions/10`,
      creationContext: { creator: { userId: '1001' } },
      moderationResult: { moderationState: 'Approved' },
    });
    const rest = await get(`/assets/${id}/versions`, { pageToken: page.json.nextPageToken });
    assert.deepEqual(
      rest.json.assetVersions.map((v: { path: string }) => v.path.split('/').pop()),
      ['2', '1'],
    );
    assert.equal('nextPageToken' in rest.json, false);
    assert.equal((await get(`/assets/${id}/versions`, { maxPageSize: 500 })).json.assetVersions.length, 10);
    assetError(await get(`/assets/${id}/versions`, { pageToken: 'bad' }), 400, 3);
    assetError(await get(`/assets/${id}/versions`, { maxPageSize: -3 }), 400, 3);
    assert.equal((await get(`/assets/${id}/versions/5`)).json.moderationResult.moderationState, 'Reviewing');

    const json = await post(
      `/assets/${id}/versions:rollback`,
      JSON.stringify({ assetVersion: `assets/${id}/versions/5` }),
      {
        'content-type': 'application/json',
      },
    );
    assert.equal(json.status, 200, json.text);
    assert.equal(json.json.path, `assets/${id}/versions/11`);
    assert.equal(json.json.moderationResult.moderationState, 'Reviewing');
    assert.equal((await get(`/assets/${id}`)).json.revisionId, '11');
    const multipart = new FormData();
    multipart.append('assetVersion', `assets/${id}/versions/1`);
    assert.equal((await post(`/assets/${id}/versions:rollback`, multipart)).json.path, `assets/${id}/versions/12`);
    assetError(
      await post(`/assets/${id}/versions:rollback`, JSON.stringify({ assetVersion: `assets/${id}/versions/99` })),
      404,
      5,
    );
    for (const bad of [{ assetVersion: 'assets/1/versions/1' }, { assetVersion: 'v1' }, {}, []]) {
      assetError(await post(`/assets/${id}/versions:rollback`, JSON.stringify(bad)), 400, 3);
    }
    assetError(await post(`/assets/${id}/versions:rollback`, '{nope'), 400, 3);
  });
});
