// plan_ban_many, plan_unban_everywhere and their apply_plan through `universe-explorer mcp` (the SDK's own client over
// stdio) against the emulator: a plan writes nothing but its files (the shared ban plan file in a plan folder), counts
// each change and lists the unusable lines; apply_plan runs it, a second apply sends nothing, and a plan is refused
// whole when one universe it writes to is not allowed; unban everywhere finds a place's ban only the log names.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { readBanPlanText, type GameJoinRestrictionInput } from '../../src/api';
import { API_KEY } from './support/client';
import { buildCli, CLI_KEY } from './support/cli';
import { sharedEmulator } from './support/emulator';
import { startMcp, type McpRun } from './support/mcp';

const U = '6464';
const PLACE = '646401';
const OTHER = '6465';
const shared = sharedEmulator({ apiKeys: [{ key: CLI_KEY }, { key: API_KEY }] });
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ue-mcp-bans-many-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));
before(() => buildCli());

const plansDir = path.join(dir, 'plans');
const serve = (extra: string[] = []): Promise<McpRun> =>
  startMcp(['--base-url', shared.emulator.url, '--plans-dir', plansDir, '--index-dir', path.join(dir, 'i'), ...extra]);
const patches = async () => (await shared.emulator.requests({ method: 'PATCH' })).length;
const state = (userId: number, universeId = U, placeId?: string) =>
  shared.client.restrictions.get({ universeId, placeId, userId }).then((r) => r.gameJoinRestriction);
const ban = (userId: number, gameJoinRestriction: GameJoinRestrictionInput, universeId = U, placeId?: string) =>
  shared.client.restrictions.update({ universeId, placeId, userId, gameJoinRestriction });

/** A plan tool's answer, checked to say nothing was written and to name its files. */
async function plan(mcp: McpRun, name: string, args: Record<string, unknown>) {
  const r = await mcp.call(name, { universe: U, ...args });
  assert.equal(r.isError, false, r.text);
  const p = r.json();
  assert.match(p.note as string, /^Nothing was written: apply_plan with this planId runs it/);
  const manifest = JSON.parse(fs.readFileSync(p.file as string, 'utf8')) as Record<string, unknown>;
  assert.equal(manifest.bansFile, 'bans.plan.json');
  assert.equal(p.bansFile, path.join(path.dirname(p.file as string), 'bans.plan.json'));
  return Object.assign(p, { plan: readBanPlanText(fs.readFileSync(p.bansFile as string, 'utf8')) });
}

describe('universe-explorer mcp: bans of many users', () => {
  it('plans from a CSV (counts per change, unusable lines by number), writes nothing, applies once', async () => {
    await ban(4002, { active: true, duration: '3600s', privateReason: 'raid' });
    await ban(4003, { active: true, duration: '604800s', privateReason: 'raid', displayReason: 'Raid' });
    const csv = 'userId,duration,displayReason\n4001,,\n4002,,\nabc,,\n4003,,\n4001,,\n4004,1d,Spam\n';
    const mcp = await serve(['--allow-writes', U]);
    try {
      const before = await patches();
      const p = await plan(mcp, 'plan_ban_many', {
        users: csv,
        places: [PLACE],
        duration: '7d',
        reason: 'raid',
        displayReason: 'Raid',
      });
      assert.equal(await patches(), before, 'planning writes nothing');
      assert.deepEqual(p.targets, [`universe ${U}`, `place ${PLACE} of universe ${U}`]);
      assert.deepEqual(p.counts, { new: 6, longer: 1, same: 1 });
      assert.equal(p.writes, 7);
      assert.deepEqual(
        (p.unusedLines as { line: number; reason: string }[]).map((l) => `${l.line}: ${l.reason}`),
        [
          '4: "abc" is not a user id: a whole number above 0',
          '6: user 4001 is already listed on line 2: that line is used',
        ],
      );
      assert.equal(p.moreUnusedLines, 0);
      assert.equal(p.plan.actions.length, 8);
      assert.equal((await state(4001)).active, false);

      // A client that asks for progress is told after each write (which keeps its time limit off a long run).
      const told: { progress: number; total?: number }[] = [];
      const answer = await mcp.client.callTool({ name: 'apply_plan', arguments: { planId: p.planId } }, undefined, {
        onprogress: (n) => told.push({ progress: n.progress, total: n.total }),
        resetTimeoutOnProgress: true,
      });
      const applied = JSON.parse((answer.content as { text: string }[])[0].text) as Record<string, unknown>;
      assert.deepEqual(
        [applied.written, applied.earlier, applied.skipped, applied.failed, applied.failures],
        [7, 0, 1, 0, []],
      );
      // The last notes may come after the answer, which the client no longer follows: those told count up to 7.
      assert.ok(told.length > 0, 'progress was told');
      assert.deepEqual(
        told.map((n) => n.total),
        told.map(() => 7),
      );
      assert.ok(
        told.every((n, i) => n.progress <= 7 && (i === 0 || n.progress > told[i - 1].progress)),
        JSON.stringify(told),
      );
      assert.ok(fs.existsSync(applied.journalFile as string));
      const a = await state(4001, U, PLACE);
      assert.deepEqual([a.active, a.duration, a.displayReason], [true, '604800s', 'Raid']);
      assert.equal((await state(4002)).duration, '604800s', 'the shorter ban made longer');
      const d = await state(4004);
      assert.deepEqual([d.active, d.duration, d.displayReason], [true, '86400s', 'Spam']);

      const sent = await patches();
      const again = (await mcp.call('apply_plan', { planId: p.planId })).json();
      assert.deepEqual([again.written, again.earlier, again.skipped], [0, 7, 1]);
      assert.match(again.note as string, /7 writes were done by an earlier apply and not sent again/);
      assert.equal(await patches(), sent, 'the second apply sends nothing');
    } finally {
      await mcp.close();
    }
  });

  it('refuses a plan whole when one of its other universes may not be written', async () => {
    const mcp = await serve(['--allow-writes', U]);
    try {
      const p = await plan(mcp, 'plan_ban_many', { users: ['4101', 4102], alsoUniverses: [OTHER] });
      assert.deepEqual(p.targets, [`universe ${U}`, `universe ${OTHER}`]);
      assert.deepEqual(p.counts, { new: 4 });
      const before = await patches();
      const refused = await mcp.call('apply_plan', { planId: p.planId });
      assert.equal(refused.isError, true);
      assert.match(refused.text, /may write only to universe 6464, not 6465.*restart the server with 6465/);
      assert.equal(await patches(), before, 'nothing is written at the allowed universe either');
      assert.equal((await state(4101)).active, false);
    } finally {
      await mcp.close();
    }
    const both = await serve(['--allow-writes', `${U},${OTHER}`]);
    try {
      const p = await plan(both, 'plan_ban_many', { users: '4101 4102', alsoUniverses: [OTHER] });
      assert.equal((await both.call('apply_plan', { planId: p.planId })).json().written, 4);
      assert.equal((await state(4102, OTHER)).active, true);
    } finally {
      await both.close();
    }
    const served = await serve(['--universe', U]);
    try {
      const r = await served.call('plan_ban_many', { universe: U, users: '4101', alsoUniverses: [OTHER] });
      assert.equal(r.isError, true);
      assert.match(r.text, /universe 6465 is not one this server serves/);
    } finally {
      await served.close();
    }
  });

  it("a failed write is listed with the service's reason, and the next apply retries only it", async () => {
    const mcp = await serve(['--allow-writes', U]);
    try {
      const p = await plan(mcp, 'plan_ban_many', { users: [4501, 4502] });
      await shared.emulator.fault({
        method: 'PATCH',
        path: '/user-restrictions/4502',
        status: 403,
        body: '{"code":"PERMISSION_DENIED","message":"the key may not ban this user"}',
        times: 1,
      });
      const first = (await mcp.call('apply_plan', { planId: p.planId })).json();
      assert.deepEqual([first.written, first.failed, first.moreFailures], [1, 1, 0]);
      const [failed] = first.failures as { user: string; where: string; reason: string }[];
      assert.deepEqual([failed.user, failed.where], ['4502', `universe ${U}`]);
      assert.match(failed.reason, /the key may not ban this user/);
      assert.match(first.note as string, /Apply the plan again to retry the failed writes/);
      const sent = await patches();
      const again = (await mcp.call('apply_plan', { planId: p.planId })).json();
      assert.deepEqual([again.written, again.earlier, again.failed], [1, 1, 0]);
      assert.equal(await patches(), sent + 1, 'only the failed write is sent again');
      assert.equal((await state(4502)).active, true);
    } finally {
      await mcp.close();
    }
  });

  it("unban everywhere finds a place's own ban from the log, and lists users banned nowhere", async () => {
    await ban(4201, { active: true }, U, PLACE);
    await ban(4202, { active: true });
    const mcp = await serve(['--allow-writes', U]);
    try {
      const p = await plan(mcp, 'plan_unban_everywhere', { users: ['4201', '4202', '4203'] });
      assert.deepEqual(p.counts, { lift: 2 });
      assert.deepEqual(p.bannedNowhere, ['4203']);
      assert.deepEqual(
        p.plan.actions.map((a) => `${a.userId} ${a.target.placeId ?? 'universe'}`),
        ['4202 universe', `4201 ${PLACE}`],
      );
      assert.equal((await state(4201, U, PLACE)).active, true, 'planning writes nothing');
      const applied = (await mcp.call('apply_plan', { planId: p.planId })).json();
      assert.equal(applied.written, 2);
      assert.equal((await state(4201, U, PLACE)).active, false);
      assert.equal((await state(4202)).active, false);
    } finally {
      await mcp.close();
    }
  });

  it('bounds the list: unusable lines are capped with a count, and more than 10,000 users is refused', async () => {
    const mcp = await serve();
    try {
      const bad = Array.from({ length: 25 }, (_, i) => `x${i}`);
      const p = await plan(mcp, 'plan_ban_many', { users: ['4301', ...bad] });
      assert.equal((p.unusedLines as unknown[]).length, 20);
      assert.equal(p.moreUnusedLines, 5);
      assert.deepEqual(p.counts, { new: 1 });

      const many = Array.from({ length: 10_001 }, (_, i) => String(5_000_000 + i)).join('\n');
      const before = (await shared.emulator.requests()).length;
      const refused = await mcp.call('plan_ban_many', { universe: U, users: many });
      assert.equal(refused.isError, true);
      assert.match(refused.text, /the list names 10,001 users, and a plan takes at most 10,000: split the list/);
      const none = await mcp.call('plan_unban_everywhere', { universe: U, users: 'abc' });
      assert.match(none.text, /the list names no user it can use \(line 1: "abc" is not a user id/);
      assert.equal((await shared.emulator.requests()).length, before, 'nothing is read for a refused list');
    } finally {
      await mcp.close();
    }
  });
});
