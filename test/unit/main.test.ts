// The extension's entry (src/main.ts): the bundle compiled with a V8 code cache kept between starts.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { loadBundle, requireOnce } from '../../src/main';

/** A folder with a CommonJS bundle that requires a file beside it, and an empty cache folder. */
function bundleFolder(body = 'exports.twice = (n) => helper.double(n);exports.x=1;') {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ue-main-'));
  fs.writeFileSync(path.join(dir, 'helper.js'), 'exports.double = (n) => n * 2;\n');
  const file = path.join(dir, 'bundle.js');
  const write = (text: string) =>
    fs.writeFileSync(file, `'use strict';\nconst helper = require('./helper.js');\n${text}\n`);
  write(body);
  const cache = path.join(dir, 'storage');
  const caches = () => (fs.existsSync(cache) ? fs.readdirSync(cache) : []);
  const load = () => loadBundle(file, cache, createRequire(file));
  return { dir, file, cache, caches, load, write };
}

test('the first start compiles and leaves a cache; the next start takes it', async (t) => {
  const b = bundleFolder();
  t.after(() => fs.rmSync(b.dir, { recursive: true, force: true }));
  const first = b.load();
  assert.equal((first.exports as { twice(n: number): number }).twice(21), 42);
  assert.ok(first.keep, 'no cache yet, so one is to be written');
  assert.deepEqual(b.caches(), []);
  await first.keep();
  assert.equal(b.caches().length, 1);
  assert.match(b.caches()[0], /^code-cache-[0-9a-f]{32}\.bin$/);

  const second = b.load();
  assert.equal(second.keep, undefined, 'the cache was taken');
  assert.equal((second.exports as { twice(n: number): number }).twice(5), 10);
});

test('a damaged cache is never handed to V8: the bundle compiles as without one, and a good cache replaces it', async (t) => {
  const b = bundleFolder();
  t.after(() => fs.rmSync(b.dir, { recursive: true, force: true }));
  await b.load().keep!();
  const [name] = b.caches();
  const bytes = fs.readFileSync(path.join(b.cache, name));
  bytes[bytes.length - 8] ^= 0xff;
  fs.writeFileSync(path.join(b.cache, name), bytes);

  const damaged = b.load();
  assert.ok(damaged.keep, 'the damaged cache was not taken');
  assert.equal((damaged.exports as { twice(n: number): number }).twice(1), 2);
  await damaged.keep();
  assert.equal(b.load().keep, undefined, 'the rewritten cache is taken');
});

test('a changed bundle gets a cache of its own, and the old one is deleted when it is written', async (t) => {
  const b = bundleFolder();
  t.after(() => fs.rmSync(b.dir, { recursive: true, force: true }));
  await b.load().keep!();
  const [old] = b.caches();
  // The same length as before: V8's own check of a cache against its source looks only at the length.
  // The change is in top-level code, which the cache holds compiled (a function's body is compiled when first run).
  b.write('exports.twice = (n) => helper.double(n);exports.x=2;');
  const changed = b.load();
  assert.equal((changed.exports as { x: number }).x, 2, 'the new source ran');
  assert.ok(changed.keep);
  await changed.keep();
  assert.equal(b.caches().length, 1);
  assert.notEqual(b.caches()[0], old);
});

test("the bundle's lines stay its own in stack traces (its source map applies)", (t) => {
  const b = bundleFolder('exports.fail = () => {\n  throw new Error("here");\n};');
  t.after(() => fs.rmSync(b.dir, { recursive: true, force: true }));
  const loaded = b.load();
  try {
    (loaded.exports as { fail(): void }).fail();
    assert.fail('no throw');
  } catch (e) {
    // Line 4 of bundle.js, column 9: `  throw new Error`.
    assert.match((e as Error).stack ?? '', new RegExp(`${b.file.replace(/[.\\/]/g, '\\$&')}:4:9`));
  }
});

test('a folder the cache cannot be written to leaves no cache and no error; without a folder it is a plain require', async (t) => {
  const b = bundleFolder();
  t.after(() => fs.rmSync(b.dir, { recursive: true, force: true }));
  fs.writeFileSync(b.cache, 'a file where the folder should be');
  const loaded = b.load();
  await loaded.keep!();
  assert.equal(fs.readFileSync(b.cache, 'utf8'), 'a file where the folder should be');
  assert.deepEqual(
    fs.readdirSync(b.dir).sort(),
    ['bundle.js', 'helper.js', 'storage'],
    'no temporary file left behind',
  );

  const plain = loadBundle(b.file, undefined, createRequire(b.file));
  assert.equal(plain.keep, undefined);
  assert.equal((plain.exports as { twice(n: number): number }).twice(2), 4);
});

test('the bundle asks for each module once, whatever the number of modules naming it', (t) => {
  const b = bundleFolder('exports.a = require("./helper.js").double(1) + require("./helper.js").double(2);');
  t.after(() => fs.rmSync(b.dir, { recursive: true, force: true }));
  const plain = createRequire(b.file);
  const asked: string[] = [];
  const counting = Object.assign((id: string): unknown => (asked.push(id), plain(id)), plain) as NodeJS.Require;
  const loaded = loadBundle(b.file, b.cache, requireOnce(counting));
  assert.equal((loaded.exports as { a: number }).a, 6);
  assert.deepEqual(asked, ['./helper.js']);
});

test('a bundle with characters beyond ASCII reads as UTF-8, from a cache or without one', async (t) => {
  const b = bundleFolder('exports.said = "Loading… é 日本 🎉";');
  t.after(() => fs.rmSync(b.dir, { recursive: true, force: true }));
  const first = b.load();
  assert.equal((first.exports as { said: string }).said, 'Loading… é 日本 🎉');
  await first.keep!();
  const second = b.load();
  assert.equal(second.keep, undefined);
  assert.equal((second.exports as { said: string }).said, 'Loading… é 日本 🎉');
});
