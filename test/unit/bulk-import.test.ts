// Import against the real emulator over loopback: create-only and overwrite, the failures file, and 429s that
// slow the import down instead of failing entries.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { failuresFileFor, importDataStore } from '../../src/api';
import { rejection } from './support/client';
import { sharedEmulator } from './support/emulator';

const U = 7171;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ue-bulk-import-'));
const shared = sharedEmulator();
after(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

const at = (key: string, scope = 'global') => ({ universeId: U, datastoreName: 'Store', scope, entryKey: key });
const line = (o: object) => JSON.stringify(o);

function input(name: string, lines: string[]): string {
  const f = path.join(dir, name);
  fs.writeFileSync(f, lines.join('\n') + '\n');
  return f;
}

describe('import', () => {
  it('"create only" skips existing keys and counts them; "overwrite" replaces values, attributes and user ids', async () => {
    await shared.client.datastores.setEntry({ ...at('exists'), value: 'original', attributes: { keep: true } });
    const f = input('create-only.ndjson', [
      line({ scope: 'global', key: 'exists', value: 'imported', attributes: { by: 'import' }, userIds: [5] }),
      line({ scope: 'global', key: 'new', value: { n: 1 }, attributes: { by: 'import' }, userIds: [5] }),
      '',
      line({ scope: 'other', key: 'exists', value: 2, attributes: {}, userIds: [] }),
    ]);
    const created = await importDataStore(shared.client, {
      universeId: U,
      datastoreName: 'Store',
      file: f,
      mode: 'createOnly',
    });
    assert.deepEqual([created.written, created.skipped, created.failed, created.failuresFile], [2, 1, 0, undefined]);
    const kept = await shared.client.datastores.getEntry(at('exists'));
    assert.equal(kept.raw.toString(), '"original"');
    assert.deepEqual(kept.attributes, { keep: true });
    const made = await shared.client.datastores.getEntry(at('new'));
    assert.deepEqual([made.value, made.attributes, made.userIds], [{ n: 1 }, { by: 'import' }, [5]]);
    assert.equal(
      (await shared.client.datastores.getEntry(at('exists', 'other'))).value,
      2,
      'each line names its scope',
    );

    const again = await importDataStore(shared.client, {
      universeId: U,
      datastoreName: 'Store',
      file: f,
      mode: 'createOnly',
    });
    assert.deepEqual([again.written, again.skipped], [0, 3]);

    const overwritten = await importDataStore(shared.client, {
      universeId: U,
      datastoreName: 'Store',
      file: f,
      mode: 'overwrite',
    });
    assert.deepEqual([overwritten.written, overwritten.skipped, overwritten.failed], [3, 0, 0]);
    const replaced = await shared.client.datastores.getEntry(at('exists'));
    assert.deepEqual(
      [replaced.raw.toString(), replaced.attributes, replaced.userIds],
      ['"imported"', { by: 'import' }, [5]],
    );
  });

  it('failing lines land in <input>.failures.ndjson with their line number and error, and the rest is written', async () => {
    const big = `"${'x'.repeat(4 * 1024 * 1024)}"`;
    const f = input('mixed.ndjson', [
      line({ key: 'good1', value: 1 }),
      '{"key": "broken", "value": ',
      line({ key: 'novalue' }),
      `{"scope":"global","key":"huge","value":${big},"attributes":{},"userIds":[]}`,
      line({ key: 'x'.repeat(51), value: 1 }),
      line({ key: 'good2', value: [1, 2] }),
    ]);
    const result = await importDataStore(shared.client, {
      universeId: U,
      datastoreName: 'Store',
      file: f,
      mode: 'createOnly',
    });
    assert.deepEqual([result.written, result.skipped, result.failed], [2, 0, 4]);
    assert.equal(result.failuresFile, failuresFileFor(f));
    assert.equal(result.failuresFile, `${f}.failures.ndjson`);
    const failures = fs
      .readFileSync(result.failuresFile!, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l));
    assert.deepEqual(
      failures.map((x) => x.line),
      [2, 3, 4, 5],
    );
    assert.match(failures[0].error, /not valid JSON/);
    assert.equal(failures[0].text, '{"key": "broken", "value": ');
    assert.match(failures[1].error, /"value" is missing/);
    assert.equal(failures[1].key, 'novalue', 'a JSON line is kept whole, so it can be fixed and imported again');
    assert.match(failures[2].error, /ContentTooBig/);
    assert.equal(failures[2].value.length, 4 * 1024 * 1024);
    assert.match(failures[3].error, /InvalidEntryKey/);
    assert.deepEqual((await shared.client.datastores.getEntry(at('good2'))).value, [1, 2]);
  });

  it('a 429 on a create-only set slows the import down instead of failing the entry', async () => {
    await shared.emulator.fault({
      method: 'POST',
      path: '/entries/entry',
      status: 429,
      headers: { 'retry-after': '1' },
      times: 3,
    });
    const f = input(
      'limited.ndjson',
      Array.from({ length: 10 }, (_, i) => line({ key: `k${i}`, value: i })),
    );
    const result = await importDataStore(
      shared.client,
      { universeId: U, datastoreName: 'Store', file: f, mode: 'createOnly' },
      { concurrency: 4 },
    );
    assert.deepEqual([result.written, result.skipped, result.failed], [10, 0, 0]);
    const posts = await shared.emulator.requests({ method: 'POST', path: '/entries/entry' });
    assert.equal(posts.filter((r) => r.status === 429).length, 3);
    assert.equal(posts.filter((r) => r.status === 200).length, 10);
  });

  it('an import without failures removes the failures file of an earlier run', async () => {
    const f = input('fixed.ndjson', [line({ key: 'a', value: 1 })]);
    fs.writeFileSync(failuresFileFor(f), '{"line":1,"error":"old"}\n');
    const result = await importDataStore(shared.client, {
      universeId: U,
      datastoreName: 'Store',
      file: f,
      mode: 'overwrite',
    });
    assert.equal(result.failed, 0);
    assert.equal(fs.existsSync(failuresFileFor(f)), false);
  });

  it('stops when aborted, with what was done so far written', async () => {
    await shared.emulator.fault({ method: 'POST', path: '/entries/entry', delayMs: 20, times: 1000 });
    const f = input(
      'many.ndjson',
      Array.from({ length: 300 }, (_, i) => line({ key: `m${i}`, value: i })),
    );
    const controller = new AbortController();
    const err = await rejection(() =>
      importDataStore(
        shared.client,
        { universeId: U, datastoreName: 'Store', file: f, mode: 'createOnly' },
        {
          signal: controller.signal,
          onProgress: (p) => p.written >= 20 && controller.abort(),
        },
      ),
    );
    assert.equal(err.name, 'AbortError');
    await fetch(`${shared.emulator.url}/_emulator/faults`, { method: 'DELETE' });
    const again = await importDataStore(shared.client, {
      universeId: U,
      datastoreName: 'Store',
      file: f,
      mode: 'createOnly',
    });
    assert.ok(again.skipped >= 20 && again.skipped < 300, `${again.skipped} were already written`);
    assert.equal(again.written + again.skipped, 300);
  });
});
