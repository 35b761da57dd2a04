// Ban Users… and Unban Users Everywhere… of the query results panel, in a real VS Code with real DuckDB, against an
// emulator this suite starts: a number column of user ids (duplicates, NULL, text and a negative skipped and said)
// opens a ban review of exactly its users; a list column (user_ids), picked among two that hold ids, opens an unban
// review of exactly the bans its users have; a result without ids names its columns; more than 100,000 ids refused.
import * as assert from 'node:assert/strict';
import { suite, suiteSetup, suiteTeardown, teardown, test } from 'mocha';
import * as vscode from 'vscode';
import type { ReviewPanel } from '../../../src/core/review/panel';
import type { TestContext } from '../../../src/extension';
import type { ResultPanel } from '../../../src/queries/results/panel';
import { SuiteService } from './service';
import { extensionApi, replaceText, reviewCounts, ScriptedUi, universeChild, until } from './support';

const U = 9191;
const KEY = 'query-bans-tests-key';
const NAME = 'Query Bans';
const UNIVERSE = 'Ban Universe';

/** Coins store: value (coins, userId) and the entry's user ids. */
const COINS: Record<string, { value: Record<string, unknown>; userIds: number[] }> = {
  Player_11: { value: { coins: 12_000_000, userId: 11 }, userIds: [11] },
  Player_12: { value: { coins: 15_000_000, userId: 12 }, userIds: [12, 13] },
  Player_14: { value: { coins: 5, userId: 14 }, userIds: [14] },
  Alt_11: { value: { coins: 30_000_000, userId: 11 }, userIds: [11] },
  Guild_1: { value: { coins: 20_000_000, userId: 'abc' }, userIds: [] },
  Player_15: { value: { coins: 11_000_000, userId: -3 }, userIds: [15] },
};

const RICH = "FROM entries WHERE store = 'Coins' AND CAST(value->>'coins' AS BIGINT) >= 10000000 ORDER BY key";

suite('queries: ban the users of a query result', function () {
  this.timeout(120_000);
  let ctx: TestContext;
  let realUi: TestContext['ui'];
  let service: SuiteService;
  let ui: ScriptedUi;
  let connectionId: string;

  function answer(): ScriptedUi {
    ui = new ScriptedUi();
    ctx.ui = ui;
    return ui;
  }

  /** Runs `sql` in a new query document; returns its results panel. */
  async function results(sql: string): Promise<ResultPanel> {
    const uri = (await vscode.commands.executeCommand(
      'universeExplorer.queryData',
      await universeChild(ctx.tree, NAME, 'Data Stores'),
    )) as vscode.Uri;
    const editor = await until(
      'the query editor',
      () =>
        vscode.window.activeTextEditor?.document.uri.toString() === uri.toString() && vscode.window.activeTextEditor,
    );
    await replaceText(editor, `-- universe: ${connectionId}/${U}\n${sql}\n`);
    answer();
    const panel = (await vscode.commands.executeCommand('universeExplorer.runQuery', uri)) as ResultPanel | undefined;
    assert.deepEqual(ui.messages('error'), []);
    assert.ok(panel, 'no results panel');
    return panel;
  }

  const reviewUsers = (review: ReviewPanel) =>
    review
      .rows(0, 100)
      .map((r) => `${r.key} ${r.kind}`)
      .sort();

  const restriction = (userId: number) =>
    service.client.restrictions.get({ universeId: U, userId }).then((r) => r.gameJoinRestriction);

  suiteSetup(async () => {
    ctx = (await extensionApi()).testing.ctx;
    realUi = ctx.ui;
    service = await SuiteService.start(KEY);
    for (const [entryKey, { value, userIds }] of Object.entries(COINS))
      await service.client.datastores.setEntry({
        universeId: U,
        datastoreName: 'Coins',
        scope: 'global',
        entryKey,
        value,
        userIds,
      });
    connectionId = (await service.connect(ctx, NAME, [{ id: U, name: UNIVERSE }])).id;
    answer().on('pickMany', /^Build Query Index of Ban Universe/, ['Coins']);
    await vscode.commands.executeCommand(
      'universeExplorer.buildQueryIndex',
      await universeChild(ctx.tree, NAME, 'Data Stores'),
    );
    assert.deepEqual(ui.messages('error'), []);
  });

  teardown(async () => {
    ctx.ui = realUi;
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  suiteTeardown(async () => {
    await ctx.queryIndexes.index({ connectionId, universeId: U }).close();
    await service.close(ctx);
  });

  test('Ban Users… on a number column: a ban review of exactly its distinct users, the rows without an id said', async () => {
    const panel = await results(`SELECT key, TRY_CAST(value->>'userId' AS BIGINT) AS userId ${RICH}`);
    // Guild_1's "abc" is NULL after TRY_CAST; Player_15's -3 is no id; Alt_11 and Player_11 are the same user.
    assert.equal(panel.state.total, 5);
    answer()
      .on('pickMany', /: where /, [`universe ${U} (${UNIVERSE})`])
      .on('pick', /^Reasons and duration/, 'Type the duration and reasons…')
      .on('pick', /^Duration/, '7 days')
      .on('input', /^Display reason/, 'Exploiting')
      .on('input', /^Private reason/, 'coins exploit')
      .on('pick', /^Alt accounts of/, 'Ban only this account');
    const review = (await panel.receive({ type: 'banUsers', kind: 'ban' })) as ReviewPanel | undefined;
    assert.deepEqual(ui.messages('error'), []);
    assert.ok(review, `no review; prompts ${JSON.stringify(ui.prompts)}`);
    assert.deepEqual(reviewUsers(review), ['11 new', '12 new']);
    assert.deepEqual(reviewCounts(review), { new: 2 });
    assert.deepEqual(
      review.state.notes.filter((n) => /not used/.test(n)),
      [],
      'each user handed over once',
    );
    assert.match(
      review.state.direction,
      /^coins exploit: 2 users from the userId column of the results of Untitled-\d+ \(2 rows had no user id; 1 value was not a user id\) → /,
    );
    assert.deepEqual(ui.messages('info'), ['Column userId: 2 rows had no user id; 1 value was not a user id.']);
    assert.ok(!ui.prompts.some((p) => /Which column/.test(p.text)), 'one column of ids: nothing asked');
    assert.equal((await restriction(11)).active, false, 'a review writes nothing');
  });

  test('Unban Users Everywhere… on a list column picked among two: an unban review of exactly the bans its users have', async () => {
    const ban = (userId: number) =>
      service.client.restrictions.update({
        universeId: U,
        userId,
        gameJoinRestriction: { active: true, displayReason: '', privateReason: 'x', excludeAltAccounts: false },
      });
    for (const id of [12, 13, 15, 14]) await ban(id);
    const panel = await results(`SELECT key, TRY_CAST(value->>'userId' AS BIGINT) AS userId, user_ids ${RICH}`);
    answer().on('pick', /^Unban the users of the query results Which column holds the users\?/, 'user_ids');
    const review = (await panel.receive({ type: 'banUsers', kind: 'unban' })) as ReviewPanel | undefined;
    assert.deepEqual(ui.messages('error'), []);
    assert.ok(review, `no review; prompts ${JSON.stringify(ui.prompts)}`);
    // user_ids of the rich rows: 11 (twice), 12 and 13, none (Guild_1), 15. 11 has no ban; 14 is not rich.
    assert.deepEqual(reviewUsers(review), ['11 notBanned', '12 lift', '13 lift', '15 lift']);
    assert.deepEqual(reviewCounts(review), { lift: 3, notBanned: 1 });
    assert.match(
      review.state.direction,
      /4 users from the user_ids column of the results of Untitled-\d+ \(1 row had no user id\)/,
    );
    for (const id of [12, 13, 15, 14]) assert.equal((await restriction(id)).active, true, 'a review writes nothing');
  });

  test('results without a column of user ids: the error names the columns, and no review opens', async () => {
    const panel = await results(`SELECT key, value->>'coins' AS coins, key AS player ${RICH}`);
    answer();
    assert.equal(await panel.receive({ type: 'banUsers', kind: 'ban' }), undefined);
    assert.deepEqual(ui.messages('error'), [
      'Failed to ban the users of the query results: no column of the results holds user ids (columns: key, coins, ' +
        'player); select one named like userId, player or user_ids, of whole numbers',
    ]);
    assert.deepEqual(
      ui.prompts.map((p) => p.kind),
      ['error'],
      'nothing asked',
    );
  });

  test('more than 100,000 distinct users over every row (not only those shown) are refused', async () => {
    const panel = await results('SELECT [range * 2 + 1, range * 2 + 2] AS user_ids FROM range(50001)');
    assert.equal(panel.state.total, 50001);
    answer();
    assert.equal(await panel.receive({ type: 'banUsers', kind: 'unban' }), undefined);
    assert.deepEqual(ui.messages('error'), [
      'Failed to unban the users of the query results: column user_ids holds more than 100,000 distinct user ids; ' +
        'narrow the query with a WHERE or a LIMIT',
    ]);
  });
});
