// The plan tools and apply_plan of `universe-explorer mcp` through the SDK's own client over stdio, against the
// emulator: a plan writes nothing (the entry and its versions unchanged) but its files; apply_plan refuses without
// --allow-writes and for a universe not listed, writes with it (audited), and skips a key changed after the plan.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { API_KEY, until } from './support/client';
import { buildCli, cli, CLI_KEY } from './support/cli';
import { sharedEmulator } from './support/emulator';
import { startMcp, type McpRun } from './support/mcp';

const U = '6363';
const shared = sharedEmulator({ apiKeys: [{ key: CLI_KEY }, { key: API_KEY }] });
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ue-mcp-plans-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));
before(() => buildCli());

const plansDir = path.join(dir, 'plans');
const indexDir = path.join(dir, 'index');
const serve = (extra: string[] = []): Promise<McpRun> =>
  startMcp(['--base-url', shared.emulator.url, '--plans-dir', plansDir, '--index-dir', indexDir, ...extra]);

const set = (store: string, key: string, value: unknown, userIds: number[] = []) =>
  shared.client.datastores.setEntry({ universeId: U, datastoreName: store, entryKey: key, value, userIds });
const read = (store: string, key: string) =>
  shared.client.datastores
    .getEntry({ universeId: U, datastoreName: store, entryKey: key })
    .then((e) => ({ value: e.value, version: e.version, userIds: e.userIds }))
    .catch(() => undefined);
const versions = async (store: string, key: string) =>
  (await shared.client.datastores.listEntryVersionItems({ universeId: U, datastoreName: store, entryKey: key })).map(
    (v) => v.version,
  );

/** A plan tool's answer, checked to say nothing was written and to name files that exist. */
async function plan(mcp: McpRun, name: string, args: Record<string, unknown>) {
  const r = await mcp.call(name, { universe: U, ...args });
  assert.equal(r.isError, false, r.text);
  const p = r.json();
  assert.match(p.note as string, /^Nothing (was written|to do)/);
  assert.ok(fs.existsSync(p.file as string), `${name} wrote ${p.file as string}`);
  for (const part of (p.parts as string[] | undefined) ?? []) assert.ok(fs.existsSync(part), part);
  return p;
}

describe('universe-explorer mcp: plans and apply_plan', () => {
  it('plan_set_entry writes nothing; apply_plan refuses without --allow-writes and for another universe', async () => {
    await set('PlayerData', 'Player_1', { coins: 5 }, [1]);
    const before = [await read('PlayerData', 'Player_1'), await versions('PlayerData', 'Player_1')];
    const mcp = await serve();
    let planId: string;
    try {
      const p = await plan(mcp, 'plan_set_entry', { store: 'PlayerData', key: 'Player_1', value: { coins: 500 } });
      planId = p.planId as string;
      assert.deepEqual(p.counts, { write: 1, recreate: 0, delete: 0, unchanged: 0, gone: 0, bytes: 13 });
      assert.deepEqual(p.actions, [
        { store: 'PlayerData', scope: 'global', key: 'Player_1', action: 'write', bytes: 13 },
      ]);
      assert.ok((p.file as string).startsWith(plansDir));
      assert.deepEqual([await read('PlayerData', 'Player_1'), await versions('PlayerData', 'Player_1')], before);

      const refused = await mcp.call('apply_plan', { planId });
      assert.equal(refused.isError, true);
      assert.match(refused.text, /started without --allow-writes.*restart the server with --allow-writes 6363/);
      const unknown = await mcp.call('apply_plan', { planId: '../../etc' });
      assert.match(unknown.text, /is not a plan id: give the planId a plan tool returned/);
    } finally {
      await mcp.close();
    }
    const other = await serve(['--allow-writes', '1']);
    try {
      const refused = await other.call('apply_plan', { planId });
      assert.equal(refused.isError, true);
      assert.match(
        refused.text,
        /may write only to universe 1, not 6363.*restart the server with 6363 in --allow-writes/,
      );
    } finally {
      await other.close();
    }
    assert.deepEqual([await read('PlayerData', 'Player_1'), await versions('PlayerData', 'Player_1')], before);

    const allowed = await serve(['--allow-writes', U]);
    try {
      const applied = (await allowed.call('apply_plan', { planId })).json();
      assert.deepEqual([applied.written, applied.skipped, applied.failed], [1, 0, 0]);
      assert.deepEqual((await read('PlayerData', 'Player_1'))?.value, { coins: 500 });
      assert.deepEqual((await read('PlayerData', 'Player_1'))?.userIds, [1], 'the user ids are kept');
      const [audit] = applied.auditFiles as string[];
      assert.match(fs.readFileSync(audit, 'utf8'), /"key":"Player_1".*"replaced":\{"raw":"\{\\"coins\\":5\}"/);
      const again = (await allowed.call('apply_plan', { planId })).json();
      assert.deepEqual([again.written, again.earlier], [0, 1]);
    } finally {
      await allowed.close();
    }
  });

  it('a conditioned write is skipped when another writer changed the key between plan and apply', async () => {
    await set('PlayerData', 'a', 1);
    await set('PlayerData', 'b', 1);
    const mcp = await serve(['--allow-writes', U]);
    try {
      const pa = await plan(mcp, 'plan_set_entry', { store: 'PlayerData', key: 'a', value: 2 });
      const pb = await plan(mcp, 'plan_delete_entry', { store: 'PlayerData', key: 'b' });
      await set('PlayerData', 'a', 'theirs');
      await set('PlayerData', 'b', 'theirs');
      for (const p of [pa, pb]) {
        const r = (await mcp.call('apply_plan', { planId: p.planId })).json();
        assert.deepEqual([r.written, r.skipped], [0, 1]);
        const [skipped] = r.skippedKeys as { key: string; reason: string }[];
        assert.equal(skipped.reason, 'changed');
        assert.ok(fs.existsSync((r.skipFiles as string[])[0]));
      }
      assert.equal((await read('PlayerData', 'a'))?.value, 'theirs');
      assert.equal((await read('PlayerData', 'b'))?.value, 'theirs');
      const fresh = await plan(mcp, 'plan_delete_entry', { store: 'PlayerData', key: 'b' });
      assert.equal((await mcp.call('apply_plan', { planId: fresh.planId })).json().written, 1);
      assert.equal(await read('PlayerData', 'b'), undefined);
      const none = await mcp.call('plan_delete_entry', { universe: U, store: 'PlayerData', key: 'b' });
      assert.match(none.text, /has no live entry .*nothing to delete/);
    } finally {
      await mcp.close();
    }
  });

  it('restores a store to a time and copies differences to another store', async () => {
    for (const k of ['a', 'b']) await set('Inv', k, { v: 1 });
    const t = Date.now();
    await until(() => Date.now() > t + 1);
    for (const k of ['a', 'b']) await set('Inv', k, { v: 2 });
    await set('Inv', 'c', { v: 2 });
    const mcp = await serve(['--allow-writes', U]);
    try {
      const r = await plan(mcp, 'plan_restore_to_time', { store: 'Inv', time: new Date(t).toISOString() });
      assert.deepEqual(r.counts, { write: 2, recreate: 0, delete: 1, unchanged: 0, gone: 0, bytes: 14 });
      assert.deepEqual((await read('Inv', 'c'))?.value, { v: 2 });
      const applied = (await mcp.call('apply_plan', { planId: r.planId })).json();
      assert.deepEqual(
        [applied.written, applied.skipped, applied.byAction],
        [3, 0, { write: 2, recreate: 0, delete: 1 }],
      );
      assert.deepEqual([(await read('Inv', 'a'))?.value, await read('Inv', 'c')], [{ v: 1 }, undefined]);

      const copy = await plan(mcp, 'plan_copy_differences', { store: 'Inv', targetStore: 'InvCopy' });
      assert.deepEqual(copy.counts, { write: 0, recreate: 2, delete: 0, unchanged: 0, gone: 0, bytes: 14 });
      assert.equal(await read('InvCopy', 'a'), undefined);
      assert.equal((await mcp.call('apply_plan', { planId: copy.planId })).json().written, 2);
      assert.deepEqual((await read('InvCopy', 'b'))?.value, { v: 1 });
    } finally {
      await mcp.close();
    }
  });

  it('plans a ban and its lifting; a ban changed after its plan is skipped', async () => {
    const mcp = await serve(['--allow-writes', U]);
    const ban = () => shared.client.restrictions.get({ universeId: U, userId: 42 }).then((r) => r.gameJoinRestriction);
    try {
      const p = await plan(mcp, 'plan_ban', {
        user: '42',
        duration: '7d',
        reason: 'cheating',
        displayReason: 'Cheats',
      });
      assert.match(p.summary as string, /^ban user 42 from universe 6363 for 604800s \(now not banned\)/);
      assert.equal((await ban()).active, false);
      const applied = (await mcp.call('apply_plan', { planId: p.planId })).json();
      assert.equal(applied.written, 1);
      assert.deepEqual(
        [(await ban()).active, (await ban()).duration, (await ban()).privateReason],
        [true, '604800s', 'cheating'],
      );

      const lift = await plan(mcp, 'plan_unban', { user: '42' });
      await shared.client.restrictions.update({
        universeId: U,
        userId: 42,
        gameJoinRestriction: { active: true, duration: 60, privateReason: 'changed by a moderator' },
      });
      const skipped = (await mcp.call('apply_plan', { planId: lift.planId })).json();
      assert.deepEqual([skipped.written, skipped.skipped], [0, 1]);
      assert.match(skipped.note as string, /changed since the plan was made/);
      assert.equal((await ban()).active, true);
      const again = await plan(mcp, 'plan_unban', { user: '42' });
      assert.equal((await mcp.call('apply_plan', { planId: again.planId })).json().written, 1);
      assert.equal((await ban()).active, false);
    } finally {
      await mcp.close();
    }
  });

  it("plans erasing a player's data from the index's stores and applies it", async () => {
    await set('PlayerData', 'Player_2001', { coins: 1 }, [2001]);
    await set('PlayerData', 'Player_2002', { coins: 2 }, [2002]);
    await set('Guilds', 'g1', { name: 'x' }, [2001, 2002]);
    const base = ['--base-url', shared.emulator.url, '--universe', U, '--index-dir', indexDir];
    const built = await cli(['index', 'build', ...base, '--store', 'PlayerData', '--store', 'Guilds']);
    assert.equal(built.code, 0, built.stderr);
    const mcp = await serve(['--allow-writes', U]);
    try {
      const p = await plan(mcp, 'plan_erase_player', { user: '2001' });
      assert.deepEqual(p.counts, { write: 1, recreate: 0, delete: 1, unchanged: 0, gone: 0, bytes: 12 });
      assert.equal((p.parts as string[]).length, 2);
      assert.deepEqual((await read('PlayerData', 'Player_2001'))?.value, { coins: 1 });
      const applied = (await mcp.call('apply_plan', { planId: p.planId })).json();
      assert.deepEqual([applied.written, applied.skipped], [2, 0]);
      assert.equal(await read('PlayerData', 'Player_2001'), undefined);
      assert.deepEqual((await read('Guilds', 'g1'))?.userIds, [2002]);
      assert.deepEqual((await read('PlayerData', 'Player_2002'))?.value, { coins: 2 });
    } finally {
      await mcp.close();
    }
  });
});
