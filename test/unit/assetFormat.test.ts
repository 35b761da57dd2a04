import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  checkName,
  checkSocialUri,
  defaultName,
  extensionsFor,
  formatCreator,
  formatPreviews,
  parseAssetId,
  parseCreator,
  parsePreviews,
  SOCIAL_LINKS,
  supportedTypes,
} from '../../src/assets/assetFormat';

const [twitch, github] = SOCIAL_LINKS;

test('parseCreator reads a bare or "user" id as a user and "group <id>" as a group', () => {
  assert.deepEqual(parseCreator('1001'), { userId: '1001' });
  assert.deepEqual(parseCreator(' user 1001 '), { userId: '1001' });
  assert.deepEqual(parseCreator('Group: 55'), { groupId: '55' });
  assert.throws(() => parseCreator('group'), /user id/);
  assert.throws(() => parseCreator('0'), /user id/);
  assert.throws(() => parseCreator('team 5'), /user id/);
});

test('formatCreator is the inverse of parseCreator, and empty without a creator', () => {
  assert.equal(formatCreator({ groupId: '55' }), 'group 55');
  assert.deepEqual(parseCreator(formatCreator({ userId: 7 })), { userId: '7' });
  assert.equal(formatCreator(undefined), '');
});

test('parsePreviews reads ids with optional alt text separated by ";", and refuses more than 10', () => {
  assert.deepEqual(parsePreviews('123 = Front view, lit; assets/456 ;'), [
    { asset: 'assets/123', altText: 'Front view, lit' },
    { asset: 'assets/456' },
  ]);
  assert.deepEqual(parsePreviews('  '), []);
  assert.throws(() => parsePreviews('12; abc'), /"abc" is not an image asset id/);
  assert.throws(() => parsePreviews(Array.from({ length: 11 }, (_, i) => i + 1).join(';')), /at most 10/);
  assert.equal(formatPreviews([{ asset: 'assets/1', altText: 'A' }, { asset: 'assets/2' }]), '1 = A; 2');
  assert.equal(formatPreviews(undefined), '');
});

test("checkSocialUri wants an https address on the link's own site; empty removes the link", () => {
  assert.equal(checkSocialUri(twitch, 'https://www.twitch.tv/someone'), undefined);
  assert.equal(checkSocialUri(github, 'https://github.com/org/repo'), undefined);
  assert.equal(checkSocialUri(github, ''), undefined);
  assert.match(checkSocialUri(github, 'http://github.com/x') ?? '', /https/);
  assert.match(checkSocialUri(github, 'https://twitch.tv/x') ?? '', /github\.com/);
  assert.match(checkSocialUri(twitch, 'https://twitch.tv.evil.example/x') ?? '', /twitch\.tv/);
  assert.match(checkSocialUri(twitch, 'twitch.tv/x') ?? '', /full address/);
});

test('names: the default is the file name without its extension, at most 50 characters', () => {
  assert.equal(defaultName('/ws/assets/My Logo.final.png'), 'My Logo.final');
  assert.equal(defaultName(`/${'x'.repeat(60)}.png`).length, 50);
  assert.match(checkName('  ') ?? '', /Enter a name/);
  assert.match(checkName('y'.repeat(51)) ?? '', /at most 50/);
  assert.equal(checkName('Logo'), undefined);
});

test('asset ids, supported types and the extensions each asset type takes', () => {
  assert.equal(parseAssetId(' assets/2205400862 '), '2205400862');
  assert.throws(() => parseAssetId('12a'), /asset id/);
  assert.match(supportedTypes(), /^\.png, .*\.mov$/);
  assert.deepEqual(extensionsFor('Audio'), ['mp3', 'ogg', 'wav', 'flac']);
  assert.deepEqual(extensionsFor('Animation'), ['rbxm', 'rbxmx']);
  assert.ok(extensionsFor('Decal').includes('png'));
});
