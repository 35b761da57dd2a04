// The recent operations' store in plain Node: each operation a folder of its own, read from disk every time, so a
// window reload (a new Operations over the same folder) and a second window see what the first wrote; an unapplied
// plan is removed when asked, or once stale; a record cut short by a killed process is skipped, not fatal.
import './support/vscode';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { Operations } from '../../src/datastores/operations/operations';

const U = { connectionId: 'c', universeId: 7 };
const fields = (what: string) => ({ kind: 'restore' as const, ...U, datastoreName: 'S', what, when: 'then' });

describe('recent operations', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ue-ops-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('a new Operations over the same folder (a reload, another window) lists what was recorded, newest first', () => {
    const first = new Operations(dir);
    const a = first.create(fields('a'));
    first.update(a, { state: 'applied', applied: '2026-11-26T10:00:00.000Z' });
    const b = first.create(fields('b'));
    first.update(b, { state: 'stopped', applied: '2026-11-26T11:00:00.000Z', outcome: 'stopped' });
    fs.writeFileSync(first.planFile(a), '{"restorePlan":{}}\n');
    const reloaded = new Operations(dir);
    assert.deepEqual(
      reloaded.list(U).map((op) => [op.what, op.state]),
      [
        ['b', 'stopped'],
        ['a', 'applied'],
      ],
    );
    assert.equal(fs.readFileSync(reloaded.planFile(reloaded.get(a.id)!), 'utf8'), '{"restorePlan":{}}\n');
    assert.deepEqual(reloaded.list({ connectionId: 'c', universeId: 8 }), [], 'another universe lists none');
  });

  it('remove deletes the folder and its files, and says so to the views', () => {
    const ops = new Operations(dir);
    const op = ops.create(fields('a'));
    fs.writeFileSync(ops.planFile(op), 'plan');
    const changed: unknown[] = [];
    ops.onDidChange((u) => changed.push(u.universeId));
    ops.remove(op);
    assert.equal(fs.existsSync(ops.folder(op)), false);
    assert.equal(ops.get(op.id), undefined);
    assert.deepEqual(changed, [7]);
  });

  it('an unapplied plan older than six hours (its window closed) is removed when listed; an applied one stays', () => {
    const ops = new Operations(dir);
    const stale = ops.create(fields('stale'));
    ops.update(stale, { planned: new Date(Date.now() - 7 * 3600_000).toISOString() });
    const fresh = ops.create(fields('fresh'));
    const old = ops.create(fields('old but applied'));
    ops.update(old, { state: 'applied', planned: new Date(Date.now() - 48 * 3600_000).toISOString() });
    assert.deepEqual(
      ops
        .list(U)
        .map((op) => op.what)
        .sort(),
      ['fresh', 'old but applied'],
    );
    assert.equal(fs.existsSync(ops.folder(stale)), false);
    assert.equal(fs.existsSync(ops.folder(fresh)), true);
  });

  it('a record cut short (a killed process) or a folder that is not ours is skipped', () => {
    const ops = new Operations(dir);
    const good = ops.create(fields('good'));
    const broken = ops.create(fields('broken'));
    fs.writeFileSync(path.join(ops.folder(broken), 'operation.json'), '{"id":');
    fs.mkdirSync(path.join(dir, 'stray'));
    assert.deepEqual(
      ops.list().map((op) => op.id),
      [good.id],
    );
  });

  it('a folder that does not exist yet lists nothing', () => {
    assert.deepEqual(new Operations(path.join(dir, 'missing')).list(), []);
  });
});
