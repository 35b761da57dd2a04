// The player page in a real VS Code, against an emulator this suite starts, with real DuckDB: Show Player… from the
// palette (no index yet, then Build Query Index… from the page), from a restriction row, from a restriction log row
// and from an open entry's user ids; the entries tied to the player (a key naming the id, user ids only theirs,
// shared; Player_12001 not), Check Live after another writer, Ban… and Unban… from the page, the log, Restore This
// Player to a Time…, Erase Player Data…'s argument, and a page brought back after a window reload. What the page
// drew comes back through its host (`painted`).
import * as assert from 'node:assert/strict';
import { suite, suiteSetup, suiteTeardown, teardown, test } from 'mocha';
import * as vscode from 'vscode';
import type { TestContext } from '../../../src/extension';
import type { TreeNode } from '../../../src/core/tree/node';
import type { PlayerPanel } from '../../../src/players/panel';
import type { Painted } from '../../../src/players/protocol';
import type { RestrictionLogPanel } from '../../../src/restrictions/log/panel';
import { SuiteService } from './service';
import { extensionApi, kind, label, ScriptedUi, until } from './support';

const U = 7171;
const PLACE = 4242;
const KEY = 'player-tests-key';
const NAME = 'Player Tests';
const UNIVERSE = 'Player Universe';
const WHERE = `${UNIVERSE} (${U}) on ${NAME}`;

/** [store, scope, key, value, user ids]: what is tied to user 2001 is known in advance. */
const ENTRIES: [string, string, string, unknown, number[]][] = [
  ['PlayerData', 'global', 'Player_2001', { coins: 10 }, [2001]],
  ['PlayerData', 'global', 'Player_12001', { coins: 20 }, [12001]],
  ['Inventory', 'global', 'inv_a', ['sword'], [2001]],
  ['Inventory', 'global', 'inv_b', ['shield'], [2001]],
  ['Inventory', 'global', 'inv_c', ['bow'], [3003]],
  ['Guilds', 'season2', 'guild_7', { name: 'Red' }, [2001, 3003]],
  ['Other', 'global', 'Player_2001', { notIndexed: true }, [2001]],
];

/** The store, scope, key and tie of each row the page drew. */
const ties = (p: Painted) => p.entries.map((r) => r.slice(0, 4).join(' | '));

suite('players: the player page', function () {
  this.timeout(120_000);
  let ctx: TestContext;
  let realUi: TestContext['ui'];
  let service: SuiteService;
  let ui: ScriptedUi;
  let connectionId: string;
  let page: PlayerPanel;

  function answer(): ScriptedUi {
    ui = new ScriptedUi();
    ctx.ui = ui;
    return ui;
  }

  /**
   * What the page drew once every section is read and it has drawn the newest state. The page is brought to the
   * front first: a hidden webview draws nothing (its page loads again when shown).
   */
  async function shown(panel: PlayerPanel, what = 'the player page to draw'): Promise<Painted> {
    panel.panel.reveal(undefined, true);
    return until(
      what,
      () => {
        const s = panel.state;
        const p = panel.painted;
        const done = !s.entries.loading && !s.bans.loading && !s.log.loading && !s.ordered.loading && !s.busy;
        return done && p?.generation === s.generation && p;
      },
      30_000,
    );
  }

  async function universeChildren(): Promise<TreeNode[]> {
    const connection = (await ctx.tree.getChildren()).find((n) => label(n) === NAME);
    assert.ok(connection, `no ${NAME} connection in the tree`);
    const [universe] = await ctx.tree.getChildren(connection);
    return ctx.tree.getChildren(universe);
  }

  async function restrictionsGroup(): Promise<TreeNode> {
    const group = (await universeChildren()).find((n) => kind(n) === 'restrictions');
    assert.ok(group, 'no User Restrictions group');
    return group;
  }

  const version = async (store: string, scope: string, key: string) =>
    (await service.client.datastores.getEntry({ universeId: U, datastoreName: store, scope, entryKey: key })).version;

  suiteSetup(async () => {
    ctx = (await extensionApi()).testing.ctx;
    realUi = ctx.ui;
    service = await SuiteService.start(KEY);
    for (const [datastoreName, scope, entryKey, value, userIds] of ENTRIES) {
      await service.client.datastores.setEntry({ universeId: U, datastoreName, scope, entryKey, value, userIds });
    }
    await service.client.restrictions.update({
      universeId: U,
      placeId: PLACE,
      userId: 2001,
      gameJoinRestriction: {
        active: true,
        displayReason: 'Team killing',
        privateReason: 'Reported twice',
        excludeAltAccounts: false,
      },
    });
    connectionId = (await service.connect(ctx, NAME, [{ id: U, name: UNIVERSE }])).id;
    ctx.restrictions.showPlace({ connectionId, universeId: U }, PLACE);
  });

  teardown(() => {
    ctx.ui = realUi;
  });

  suiteTeardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await ctx.queryIndexes.index({ connectionId, universeId: U }).close();
    await service.close(ctx);
  });

  test('Show Player… from the palette before the index is built says so; Build Query Index… on the page lists the entries', async () => {
    answer()
      .on('pick', /^Connection/, NAME)
      .on('input', /^Show Player in Player Universe \(7171\)/, '2001');
    page = (await vscode.commands.executeCommand('universeExplorer.showPlayer')) as PlayerPanel;
    assert.deepEqual(ui.messages('error'), []);
    assert.ok(page, 'Show Player… returned no page');
    const before = await shown(page);
    assert.equal(page.state.heading, 'User 2001');
    assert.equal(page.state.where, WHERE);
    assert.equal(page.state.index.built, false);
    assert.deepEqual(page.state.index.notIndexed?.sort(), ['Guilds', 'Inventory', 'Other', 'PlayerData']);
    assert.deepEqual(before.entries, []);

    answer().on('pickMany', /^Build Query Index of Player Universe/, ['PlayerData', 'Inventory', 'Guilds']);
    await page.receive({ type: 'action', action: 'buildIndex' });
    assert.deepEqual(ui.messages('error'), []);
    const after = await shown(page, 'the page to list the entries');
    assert.deepEqual(ties(after), [
      'Guilds | season2 | guild_7 | user ids: shared',
      'Inventory | global | inv_a | user ids: only theirs',
      'Inventory | global | inv_b | user ids: only theirs',
      'PlayerData | global | Player_2001 | key names the id',
    ]);
    assert.equal(page.state.index.built, true);
    assert.match(
      page.state.index.coverage ?? '',
      /^Guilds, Inventory, PlayerData · 6 entries · as of \d\d:\d\d, just now$/,
    );
    assert.deepEqual(page.state.index.notIndexed, ['Other']);
  });

  test('the page shows the entry keyed by the user id in each ordered data store added to the universe, and only those', async () => {
    const u = { connectionId, universeId: U };
    const before = await shown(page);
    assert.deepEqual(before.ordered, []);
    assert.equal(page.state.ordered.stores, 0);
    const ordered: [string, string, string, number][] = [
      ['Leaderboard', 'global', '2001', 1_234_567],
      ['Leaderboard', 'global', '3003', 5],
      ['Season', 'eu', '2001', -5],
      ['Kills', 'global', '3003', 9],
      ['NotAdded', 'global', '2001', 1],
    ];
    for (const [datastoreName, scope, entryKey, value] of ordered)
      await service.client.orderedDataStores.createEntry({ universeId: U, datastoreName, scope, entryKey, value });
    // Newest first, as the tree lists them: Kills has no entry of 2001, NotAdded was never added.
    for (const ref of ['global/Leaderboard', 'eu/Season', 'global/Kills']) await ctx.names.add(u, 'ordered', ref);
    await page.receive({ type: 'action', action: 'refresh' });
    const after = await shown(page);
    assert.deepEqual(after.ordered, [
      ['Season', 'eu', '-5'],
      ['Leaderboard', 'global', '1,234,567'],
    ]);
    assert.equal(page.state.ordered.stores, 3);
  });

  test('Show Player… on a restriction row shows the same page: entries with versions, the ban at each level, the log', async () => {
    const place = (await ctx.tree.getChildren(await restrictionsGroup())).find((n) => kind(n) === 'restrictionsPlace');
    assert.ok(place, `no place ${PLACE} under User Restrictions`);
    const row = (await ctx.tree.getChildren(place)).find((n) => label(n) === '2001');
    assert.ok(row, 'no restriction row of user 2001');
    answer();
    const shownAgain = await vscode.commands.executeCommand('universeExplorer.showPlayer', row);
    assert.deepEqual(ui.messages('error'), []);
    assert.equal(shownAgain, page, 'the open page of the player is reused');
    const painted = await shown(page);
    const player = painted.entries[3];
    assert.deepEqual(player.slice(0, 4), ['PlayerData', 'global', 'Player_2001', 'key names the id']);
    assert.equal(player[5], await version('PlayerData', 'global', 'Player_2001'));
    assert.match(player[4], /^\d{1,2} \w{3} \d{4}, \d\d:\d\d$/, 'the updated time, local');
    assert.equal(player[6], '', 'not checked live yet');

    assert.deepEqual(painted.bans, [
      ['Universe', 'not banned', '', '', '', '', '', 'Ban…'],
      [`Place ${PLACE}`, 'banned', 'permanent', '', 'Team killing', 'Reported twice', 'also banned', 'Unban…'],
    ]);
    assert.equal(painted.log.length, 1);
    const [log] = painted.log;
    assert.deepEqual(
      [log[1], log[3], log[4], log[5], log[6], log[7]],
      [`Place ${PLACE}`, 'Banned', 'permanent', 'Team killing', 'Reported twice', 'also banned'],
    );
  });

  test('a restriction log row shows the player page of its user', async () => {
    const logPanel = (await vscode.commands.executeCommand(
      'universeExplorer.showRestrictionLog',
      await restrictionsGroup(),
    )) as RestrictionLogPanel;
    await until('the log to load', () => logPanel.ready && !logPanel.state.loading && logPanel.state.rows.length);
    answer();
    assert.equal(await logPanel.receive({ type: 'showPlayer', user: '2001' }), page);
    assert.equal(await logPanel.receive({ type: 'showPlayer', user: '<b>1</b>' }), undefined, 'not a user id');
    assert.deepEqual(ui.messages('error'), []);
    logPanel.panel.dispose();
  });

  test('a row opens its live entry, and Show Player… on an entry with two user ids asks which', async () => {
    answer();
    await page.receive({ type: 'open', row: 0 });
    const editor = await until('the entry editor', () => {
      const e = vscode.window.activeTextEditor;
      return e?.document.uri.scheme === 'universe-entry' && e;
    });
    assert.match(editor.document.uri.path, /\/Guilds\/season2\/guild_7\.json$/);
    assert.deepEqual(JSON.parse(editor.document.getText()), { name: 'Red' });

    answer().on('pick', /^Show Player The entry's user ids/, '3003');
    const other = (await vscode.commands.executeCommand(
      'universeExplorer.showPlayer',
      editor.document.uri,
    )) as PlayerPanel;
    assert.deepEqual(ui.messages('error'), []);
    assert.deepEqual(other.ref, { connectionId, universeId: U, userId: 3003 });
    assert.deepEqual(ties(await shown(other)), [
      'Guilds | season2 | guild_7 | user ids: shared',
      'Inventory | global | inv_c | user ids: only theirs',
    ]);
    other.panel.dispose();
  });

  test('Restore This Player to a Time… plans the restore of the store picked for this player only', async () => {
    answer()
      .on('pick', /^Restore user 2001 to a time/, 'PlayerData')
      .on('pick', /^Restore user 2001 in PlayerData to a time/, '1 hour ago');
    await page.receive({ type: 'action', action: 'restore' });
    assert.deepEqual(ui.messages('error'), []);
    const restore = ctx.operations
      .list({ connectionId, universeId: U })
      .find((op) => op.kind === 'restore' && op.state === 'planned');
    assert.ok(restore, 'no restore was planned');
    assert.equal(restore.datastoreName, 'PlayerData');
    assert.equal(restore.what, 'PlayerData (all scopes, user 2001)');
  });

  test('Ban… and Unban… on the page ask no user id, and the page shows the new state and log', async () => {
    answer()
      .on('pick', /^Duration of the restriction of user 2001/, '1 day')
      .on('input', /^Display reason for user 2001/, 'Cheating')
      .on('input', /^Private reason for user 2001/, 'Speed hack')
      .on('pick', /^Alt accounts of user 2001/, 'Ban only this account');
    await page.receive({ type: 'ban' });
    assert.deepEqual(ui.messages('error'), []);
    assert.deepEqual(
      ui.prompts.filter((p) => /user id/i.test(p.text)),
      [],
      'the page named the user',
    );
    let painted = await shown(page);
    const banned = painted.bans[0];
    assert.deepEqual(
      [banned[0], banned[1], banned[2], banned[4], banned[5], banned[6], banned[7]],
      ['Universe', 'banned', '1d', 'Cheating', 'Speed hack', 'this account only', 'Unban…'],
    );
    assert.match(banned[3], /^\d{1,2} \w{3} \d{4}, \d\d:\d\d$/, 'when it ends');
    assert.equal(painted.log.length, 2);
    assert.deepEqual([painted.log[0][1], painted.log[0][3], painted.log[0][4]], ['Universe', 'Banned', '1d']);

    answer()
      .on('warn', /^Unban user 2001 from universe 7171\?/, 'Unban')
      .on('input', /^Private reason for lifting the restriction of user 2001/, 'Appeal accepted');
    await page.receive({ type: 'unban' });
    assert.deepEqual(ui.messages('error'), []);
    painted = await shown(page);
    assert.deepEqual(painted.bans[0], ['Universe', 'not banned', '', '', '', '', '', 'Ban…']);
    assert.equal(painted.log.length, 3);
    assert.deepEqual(
      [painted.log[0][1], painted.log[0][3], painted.log[0][6]],
      ['Universe', 'Lifted', 'Appeal accepted'],
    );
    const r = await service.client.restrictions.get({ universeId: U, userId: 2001 });
    assert.equal(r.gameJoinRestriction.active, false);
  });

  test('Check Live marks each row after another writer changed, deleted and untied entries', async () => {
    const indexed = await version('Inventory', 'global', 'inv_b');
    await service.client.datastores.setEntry({
      universeId: U,
      datastoreName: 'PlayerData',
      entryKey: 'Player_2001',
      value: { coins: 99 },
      userIds: [2001],
    });
    await service.client.datastores.deleteEntry({ universeId: U, datastoreName: 'Inventory', entryKey: 'inv_a' });
    await service.client.datastores.setEntry({
      universeId: U,
      datastoreName: 'Guilds',
      scope: 'season2',
      entryKey: 'guild_7',
      value: { name: 'Red' },
      userIds: [3003],
    });
    answer();
    await page.receive({ type: 'action', action: 'refresh' });
    await shown(page);
    await page.receive({ type: 'action', action: 'checkLive' });
    assert.deepEqual(ui.messages('error'), []);
    const painted = await shown(page);
    assert.deepEqual(
      painted.entries.map((r) => `${r[2]}: ${r[6]}`),
      ['guild_7: no longer tied', 'inv_a: deleted', 'inv_b: same version', 'Player_2001: changed since indexed'],
    );
    assert.equal(painted.entries[2][5], indexed);
    assert.match(
      page.state.entries.checked ?? '',
      /^Checked live at \d\d:\d\d: 1 the same version, 1 changed since indexed, 1 deleted, 1 no longer tied\.$/,
    );
  });

  test('Erase Player Data… from the page plans the erase of this user in this universe, in a review', async () => {
    answer();
    const erases = () =>
      ctx.operations.list({ connectionId, universeId: U }).filter((op) => op.kind === 'erase' && op.userId === 2001);
    assert.deepEqual(erases(), []);
    await page.receive({ type: 'action', action: 'erase' });
    assert.deepEqual(ui.messages('error'), []);
    const [op] = await until('the erase to be planned', () => erases().length > 0 && erases());
    assert.equal(op.state, 'planned');
    assert.ok(op.stores?.length, 'the erase plans for the stores holding the player');
    const review = await until('the erase review', () =>
      vscode.window.tabGroups.all.flatMap((g) => g.tabs).find((tab) => tab.label === "Erase user 2001's data"),
    );
    await vscode.window.tabGroups.close(review);
    await until('the unapplied erase to be removed with its review', () => erases().length === 0);
  });

  test('a page restored after a window reload reads its player again; a state that is not one is closed', async () => {
    const { revivePlayer } = (await extensionApi()).testing;
    const restored = () =>
      vscode.window.createWebviewPanel('universeExplorer.player', 'Player', vscode.ViewColumn.Active, {});
    page.panel.dispose();
    const revived = revivePlayer(restored(), { restore: { connectionId, universeId: U, userId: 2001 } });
    assert.ok(revived, 'the saved state was refused');
    const painted = await shown(revived);
    assert.equal(revived.panel.title, 'Player 2001');
    assert.equal(painted.entries.length, 4);
    assert.equal(revived.panel.webview.options.enableScripts, true);
    for (const state of [undefined, {}, { restore: { connectionId, universeId: U, userId: '2001; drop' } }]) {
      const panel = restored();
      let closed = false;
      panel.onDidDispose(() => (closed = true));
      assert.equal(revivePlayer(panel, state), undefined);
      assert.ok(closed, `a panel was kept for ${JSON.stringify(state)}`);
    }
    revived.panel.dispose();
  });
});
