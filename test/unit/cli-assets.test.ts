// `universe-explorer assets upload` (dist/cli.js) against the emulator over loopback HTTP: a new asset, a new version,
// and the input it refuses before anything is sent.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { API_KEY } from './support/client';
import { buildCli, cli, CLI_KEY } from './support/cli';
import { sharedEmulator } from './support/emulator';

const shared = sharedEmulator({ apiKeys: [{ key: CLI_KEY }, { key: API_KEY }] });
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ue-cli-assets-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));
before(() => buildCli());
const PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.alloc(64, 1)]);
const file = (name: string, bytes: Buffer | string) => {
  const p = path.join(dir, name);
  fs.writeFileSync(p, bytes);
  return p;
};
const connection = () => ['--base-url', shared.emulator.url];

describe('universe-explorer assets upload', () => {
  it('uploads a new asset, waits for its operation, then a new version of it', async () => {
    const sword = file('sword.png', PNG);
    const first = await cli(['assets', 'upload', sword, ...connection(), '--creator-group', '42', '--type', 'decal']);
    assert.equal(first.code, 0, first.stderr);
    const id = /asset (\d+)/.exec(first.stdout)?.[1];
    assert.ok(id, first.stdout);
    assert.match(first.stdout, /\(sword\)/);
    const asset = await shared.client.assets.get({ assetId: id });
    assert.equal(asset.displayName, 'sword');
    assert.equal(asset.assetType, 'Decal');
    assert.equal(asset.creationContext?.creator?.groupId, '42');

    const next = await cli(['assets', 'upload', sword, ...connection(), '--asset', id, '--json']);
    assert.equal(next.code, 0, next.stderr);
    const json = next.json();
    assert.equal(json.command, 'assets upload');
    assert.equal(json.asset, id);
    assert.equal(json.version, (await shared.client.assets.get({ assetId: id })).revisionId);
    assert.notEqual(json.version, asset.revisionId, 'a new version');
    assert.match(json.operation as string, /^operations\//);
    for (const out of [first.stdout, first.stderr, next.stdout, next.stderr]) assert.ok(!out.includes(CLI_KEY));
  });

  it('refuses what it cannot upload before anything is sent, with exit code 2', async () => {
    const png = file('logo.png', PNG);
    const cases: [string[], RegExp][] = [
      [[png, '--creator-user', '7'], /--type is missing: logo\.png can be Decal or Image/],
      [[png, '--creator-user', '7', '--type', 'Audio'], /--type: logo\.png can be uploaded as Decal or Image/],
      [[png, '--type', 'Decal'], /give the creator of the new asset/],
      [[png, '--creator-user', '7', '--creator-group', '8', '--type', 'Decal'], /give the creator/],
      [[png, '--asset', '1', '--type', 'Decal'], /--asset uploads a new version/],
      [[path.join(dir, 'missing.png'), '--asset', '1'], /cannot read .*missing\.png \(ENOENT\)/],
      [[file('notes.txt', 'hello'), '--asset', '1'], /notes\.txt: the service takes no file of this kind/],
      [['--asset', '1'], /no file: name the file to upload/],
    ];
    for (const [args, message] of cases) {
      const ran = await cli(['assets', 'upload', ...args, ...connection()]);
      assert.equal(ran.code, 2, `${args.join(' ')}: ${ran.stderr}`);
      assert.match(ran.stderr, message);
    }
  });

  it('names the asset and the reason when the service refuses, with exit code 1', async () => {
    const ran = await cli(['assets', 'upload', file('again.png', PNG), ...connection(), '--asset', '999999999']);
    assert.equal(ran.code, 1, ran.stderr);
    assert.match(ran.stderr, /cannot upload a new version of asset 999999999: /);
  });
});
