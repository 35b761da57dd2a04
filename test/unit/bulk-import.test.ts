// Import against the real emulator over loopback: create-only and overwrite, the failures file, and 429s that
// slow the import down instead of failing entries.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { failuresFileFor, importDataStore, ImportStoppedError, StoppedError } from '../../src/api';
import { rejection, until } from './support/client';
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

describe('import of an export file', () => {
  it('skips the header line: it is no entry, and no failure', async () => {
    const f = input('with-header.ndjson', [
      '{"export":{"universeId":1,"datastoreName":"Elsewhere","scope":"global"}}',
      line({ key: 'a', value: 1 }),
    ]);
    const result = await importDataStore(shared.client, {
      universeId: U,
      datastoreName: 'Store',
      file: f,
      mode: 'createOnly',
    });
    assert.deepEqual([result.written, result.skipped, result.failed, result.lastLine], [1, 0, 0, 2]);
  });

  it('accepts a UTF-8 byte-order mark at the start, before an entry or a header', async () => {
    const bom = '\ufeff';
    const entryFirst = input('bom-entry.ndjson', [
      `${bom}${line({ key: 'ä', value: 'ü' })}`,
      line({ key: 'b', value: 2 }),
    ]);
    const headerFirst = input('bom-header.ndjson', [
      `${bom}{"export":{"universeId":1,"datastoreName":"X","allScopes":true}}`,
      line({ key: 'c', value: 3 }),
    ]);
    for (const f of [entryFirst, headerFirst]) {
      const result = await importDataStore(shared.client, {
        universeId: U,
        datastoreName: 'Store',
        file: f,
        mode: 'overwrite',
      });
      assert.equal(
        result.failed,
        0,
        fs.existsSync(failuresFileFor(f)) ? fs.readFileSync(failuresFileFor(f), 'utf8') : '',
      );
    }
    assert.equal((await shared.client.datastores.getEntry(at('ä'))).value, 'ü');
  });
});

describe('a stopped import', () => {
  it('tells the last line it handled and its mode, and goes on from the next line in that mode', async () => {
    const N = 300;
    for (let i = 0; i < N; i += 50) {
      await Promise.all(
        Array.from({ length: 50 }, (_, j) => shared.client.datastores.setEntry({ ...at(`m${i + j}`), value: 'old' })),
      );
    }
    const rows = Array.from({ length: N }, (_, i) => line({ key: `m${i}`, value: 'new' }));
    rows[1] = '{"key": "m1", "value": '; // line 2 fails in the first run, line 299 in the second
    rows[298] = line({ key: 'm298' });
    const f = input('stopped.ndjson', rows);
    await shared.emulator.fault({ method: 'POST', path: '/entries/entry', delayMs: 20, times: 1000 });
    const controller = new AbortController();
    const reports: number[] = [];
    const err = await rejection(() =>
      importDataStore(
        shared.client,
        { universeId: U, datastoreName: 'Store', file: f, mode: 'overwrite' },
        {
          signal: controller.signal,
          onProgress: (p) => {
            reports.push(p.lastLine);
            if (p.written >= 20) controller.abort();
          },
        },
      ),
    );
    assert.ok(err instanceof ImportStoppedError, String(err));
    assert.ok(err instanceof StoppedError, 'the stop of every bulk run');
    assert.equal(err.name, 'AbortError', 'a cancel still reads as a cancel');
    const stopped = err.result;
    assert.equal(stopped.mode, 'overwrite');
    assert.ok(stopped.lastLine >= 20 && stopped.lastLine < N, `stopped after line ${stopped.lastLine}`);
    assert.equal(stopped.written + stopped.failed, stopped.lastLine);
    assert.equal(reports.at(-1), stopped.lastLine, 'the last progress report says it too');
    await shared.emulator.clearFaults();

    const postsBefore = (await shared.emulator.requests({ method: 'POST', path: '/entries/entry' })).length;
    const rest = await importDataStore(shared.client, {
      universeId: U,
      datastoreName: 'Store',
      file: f,
      mode: stopped.mode,
      fromLine: stopped.lastLine + 1,
    });
    assert.deepEqual([rest.mode, rest.lastLine, rest.written + rest.failed], ['overwrite', N, N - stopped.lastLine]);
    const posts = (await shared.emulator.requests({ method: 'POST', path: '/entries/entry' })).length - postsBefore;
    assert.equal(posts, N - stopped.lastLine - 1, 'the lines before fromLine are not sent again');
    for (let i = 0; i < N; i++) {
      if (i === 1 || i === 298) continue;
      assert.equal((await shared.client.datastores.getEntry(at(`m${i}`))).value, 'new', `m${i}`);
    }
    const failed = fs
      .readFileSync(failuresFileFor(f), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => (JSON.parse(l) as { line: number }).line);
    assert.deepEqual(failed, [2, 299], 'the failures of both runs');
  });

  it('writes each failure to the failures file as it happens, not when the run ends', async () => {
    await shared.emulator.fault({ method: 'POST', path: '/entries/entry', delayMs: 5_000 });
    const f = input('flushed.ndjson', ['not json', line({ key: 'slow', value: 1 })]);
    const controller = new AbortController();
    const running = rejection(() =>
      importDataStore(
        shared.client,
        { universeId: U, datastoreName: 'Store', file: f, mode: 'overwrite' },
        { signal: controller.signal },
      ),
    );
    try {
      await until(
        () => fs.existsSync(failuresFileFor(f)) && fs.readFileSync(failuresFileFor(f), 'utf8').includes('"line":1'),
        2_000,
      );
    } finally {
      controller.abort();
      await running;
    }
  });
});
