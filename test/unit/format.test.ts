import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkBaseUrl, formatBytes, formatUniverses, parseUniverses } from '../../src/core/format';

test('parseUniverses reads ids with optional names and drops duplicates', () => {
  assert.deepEqual(parseUniverses('123456 = My Game, 789,  , 123456'), [{ id: 123456, name: 'My Game' }, { id: 789 }]);
  assert.deepEqual(parseUniverses(''), []);
});

test('parseUniverses names the part it cannot read', () => {
  assert.throws(() => parseUniverses('12, abc'), /"abc" is not a universe id/);
  assert.throws(() => parseUniverses('0'), /not a valid universe id/);
  assert.throws(() => parseUniverses('99999999999999999999'), /not a universe id/);
});

test('formatUniverses is the inverse of parseUniverses', () => {
  const universes = [{ id: 1, name: 'One, two' }, { id: 2 }];
  assert.equal(formatUniverses([{ id: 1, name: 'A' }, { id: 2 }]), '1 = A, 2');
  assert.deepEqual(parseUniverses(formatUniverses([universes[1]])), [universes[1]]);
});

test('checkBaseUrl accepts http(s) origins and explains what it refuses', () => {
  assert.equal(checkBaseUrl('https://apis.example.com'), undefined);
  assert.equal(checkBaseUrl('http://127.0.0.1:8787/'), undefined);
  assert.match(checkBaseUrl('ftp://x') ?? '', /http/);
  assert.match(checkBaseUrl('https://user:pw@x') ?? '', /credentials/);
  assert.match(checkBaseUrl('https://x/?key=1') ?? '', /query/);
  assert.match(checkBaseUrl('not a url') ?? '', /full URL/);
  // Plain http:// stays on this machine: elsewhere the API key would travel unencrypted.
  for (const local of ['http://localhost:8787', 'http://127.5.0.1', 'http://[::1]:80', 'http://sandbox.localhost']) {
    assert.equal(checkBaseUrl(local), undefined, local);
  }
  assert.match(checkBaseUrl('http://apis.example.com') ?? '', /unencrypted/);
  assert.match(checkBaseUrl('http://10.0.0.2:8787') ?? '', /allowInsecureHttp/);
  assert.equal(checkBaseUrl('http://apis.example.com', true), undefined);
});

test('formatBytes', () => {
  assert.equal(formatBytes(10), '10 B');
  assert.equal(formatBytes(2048), '2.0 KiB');
  assert.equal(formatBytes(4 * 1024 * 1024), '4.0 MiB');
});
