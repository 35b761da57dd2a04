// A restore run that meets a 412 asks whether the entry already holds what it writes (an earlier attempt went
// through): only the same value, attributes and user ids count as its own write; anything else is skipped. And the
// audit file read back: its header and its lines, those that are no audit line left out.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import {
  auditFileFor,
  planRestore,
  readAudit,
  readAuditHeader,
  readPlanHeader,
  runRestore,
  type AuditLine,
} from '../../src/api';
import { clockedEmulator } from './support/emulator';

const U = 5252;
const HOUR = 60 * 60 * 1000;

const service = clockedEmulator('2024-03-01T10:00:00.000Z', 'restore-audit');
const { dir } = service;
let stores = 0;

interface Written {
  raw: string;
  attributes?: Record<string, unknown>;
  userIds?: number[];
}

const THEN: Written = { raw: '"then"', attributes: { tag: 'then' }, userIds: [1] };

/** A store whose key `k` held THEN at the returned moment and something else since, and a plan to restore it. */
async function planned(): Promise<{ store: string; plan: string }> {
  const store = `Ours${++stores}`;
  await put(store, THEN);
  const then = new Date(Date.parse(await service.emulator.advanceClock(HOUR)));
  await service.emulator.advanceClock(HOUR);
  await put(store, { raw: '"now"' });
  const plan = path.join(dir, `${store}.ndjson`);
  const summary = await planRestore(service.client, { universeId: U, datastoreName: store }, then, plan);
  assert.equal(summary.write, 1);
  return { store, plan };
}

const put = (store: string, w: Written) =>
  service.client.datastores.setEntry({ universeId: U, datastoreName: store, entryKey: 'k', ...w });

const auditLines = (plan: string) =>
  fs
    .readFileSync(auditFileFor(plan), 'utf8')
    .split('\n')
    .filter(Boolean)
    .slice(1)
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe('runRestore meets a write that is not the one planned', () => {
  it('the exact value, attributes and user ids: its own write, in the audit as found', async () => {
    const { store, plan } = await planned();
    const theirs = await put(store, THEN);
    const result = await runRestore(service.client, plan);
    assert.deepEqual([result.written, result.skipped], [1, 0]);
    const [line] = auditLines(plan);
    assert.deepEqual([line.found, line.written], [true, theirs.version]);
  });

  it('the same value and user ids with other attributes: skipped as changed', async () => {
    const { store, plan } = await planned();
    await put(store, { ...THEN, attributes: { tag: 'theirs' } });
    const result = await runRestore(service.client, plan);
    assert.deepEqual([result.written, result.skipped], [0, 1]);
    assert.deepEqual(
      result.skippedKeys.map((s) => s.reason),
      ['changed'],
    );
    assert.equal(fs.existsSync(auditFileFor(plan)), false);
  });

  it('the same value and attributes with other user ids: skipped as changed', async () => {
    const { store, plan } = await planned();
    await put(store, { ...THEN, userIds: [2] });
    const result = await runRestore(service.client, plan);
    assert.deepEqual([result.written, result.skipped], [0, 1]);
  });
});

describe('readAudit', () => {
  const all = async (file: string): Promise<AuditLine[]> => {
    const read: AuditLine[] = [];
    for await (const line of readAudit(file)) read.push(line);
    return read;
  };

  it('reads the lines a run wrote, skipping the header and what is no audit line', async () => {
    const { store, plan } = await planned();
    const result = await runRestore(service.client, plan);
    const file = auditFileFor(plan);
    assert.deepEqual(await readAuditHeader(file), { universeId: U, datastoreName: store, plan });
    assert.equal((await readPlanHeader(plan)).datastoreName, store);
    const written = await all(file);
    assert.deepEqual(written, auditLines(plan));
    assert.deepEqual(
      written.map((l) => `${l.n} ${l.action} ${l.scope} ${l.key}`),
      ['1 write global k'],
    );
    assert.equal(result.written, 1);
    fs.appendFileSync(
      file,
      [
        'not json',
        JSON.stringify({ n: 2, action: 'write', scope: 'global', key: 'x' }), // no versions
        JSON.stringify({ n: 3, action: 'move', scope: 'global', key: 'x', before: 'a', written: 'b' }),
        JSON.stringify({ n: 4, action: 'delete', scope: 'global', key: 'y', before: 'a', written: 'b' }),
        '{"n":5,"action":"write","sco',
      ].join('\n'),
    );
    assert.deepEqual(
      (await all(file)).map((l) => l.n),
      [1, 4],
    );
  });

  it('reads nothing from a file that is not there', async () => {
    assert.deepEqual(await all(path.join(dir, 'none.audit.ndjson')), []);
  });
});
