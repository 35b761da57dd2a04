// User restrictions in a real VS Code, against an emulator this suite starts (with control endpoints, so its
// request log shows what was sent): ban, edit, unban, inheritance at a place, input checked before sending,
// the restriction log panel's protocol, paging and CSV export, and retries that never ban twice.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { suite, suiteSetup, suiteTeardown, teardown, test } from 'mocha';
import * as vscode from 'vscode';
import { OpenApiClient } from '../../../src/api';
import type { TestContext } from '../../../src/extension';
import type { Connection } from '../../../src/core/connections';
import { localAndUtc } from '../../../src/core/time';
import type { TreeNode } from '../../../src/core/tree/node';
import type { PlaceRestrictionsNode, RestrictionNode, RestrictionsGroupNode } from '../../../src/restrictions/tree';
import type { RestrictionLogPanel } from '../../../src/restrictions/log/panel';
import { TestEmulator } from '../../unit/support/emulator';
import { extensionApi, kind, label, ScriptedUi, until } from './support';
import { parseCsv } from '../../unit/support/csv';

const U = 5150;
const PLACE = 4242;
const KEY = 'restriction-tests-key';
const MODERATOR = 77;
const isRestriction = (n: TreeNode): n is RestrictionNode => kind(n).startsWith('restriction.');

/** Also records the value each input box was prefilled with, and the labels of each pick. */
class RecordingUi extends ScriptedUi {
  readonly prefilled = new Map<string, string | undefined>();
  readonly offered = new Map<string, string[]>();

  override async input(options: vscode.InputBoxOptions): Promise<string | undefined> {
    this.prefilled.set(options.title ?? '', options.value);
    return super.input(options);
  }

  override async pick<T extends vscode.QuickPickItem>(
    items: readonly T[],
    options: vscode.QuickPickOptions,
  ): Promise<T | undefined> {
    this.offered.set(
      options.title ?? '',
      items.map((i) => i.label),
    );
    return super.pick(items, options);
  }

  override async pickOrType<T extends vscode.QuickPickItem>(
    items: readonly T[],
    options: vscode.QuickPickOptions,
    meaning: (text: string) => string | undefined,
  ): Promise<T | string | undefined> {
    this.offered.set(
      options.title ?? '',
      items.map((i) => i.label),
    );
    return super.pickOrType(items, options, meaning);
  }
}

suite('user restrictions in the editor', () => {
  let ctx: TestContext;
  let realUi: TestContext['ui'];
  let emulator: TestEmulator;
  let client: OpenApiClient;
  let connection: Connection;
  let ui: RecordingUi;

  function answer(): RecordingUi {
    ui = new RecordingUi();
    ctx.ui = ui;
    return ui;
  }

  /** Answers for Ban User… (the user id prompt's title depends on the level). */
  function banAnswers(
    userId: string,
    duration: string,
    display: string,
    priv: string,
    excludeAlts: 'Ban only this account' | 'Also ban alt accounts',
    typed?: string,
  ) {
    const u = answer()
      .on('input', /^Ban a user from/, userId)
      .on('pick', /^Duration/, duration)
      .on('input', /^Display reason/, display)
      .on('input', /^Private reason/, priv)
      .on('pick', /^Alt accounts of/, excludeAlts);
    if (typed !== undefined) u.on('input', /^Duration/, typed);
    return u;
  }

  async function group(): Promise<RestrictionsGroupNode> {
    const root = (await ctx.tree.getChildren()).find((n) => label(n) === 'UR Tests');
    assert.ok(root, 'no UR Tests connection in the tree');
    const [universe] = await ctx.tree.getChildren(root);
    const node = (await ctx.tree.getChildren(universe)).find((n) => kind(n).startsWith('restrictions'));
    assert.ok(node, 'no User Restrictions group');
    return node as RestrictionsGroupNode;
  }

  async function restrictionsIn(list: TreeNode): Promise<RestrictionNode[]> {
    ctx.tree.refresh(list);
    return (await ctx.tree.getChildren(list)).filter(isRestriction);
  }

  async function nodeFor(list: TreeNode, userId: string): Promise<RestrictionNode> {
    const all = await restrictionsIn(list);
    const node = all.find((n) => n.userId === userId);
    assert.ok(node, `no restriction of ${userId} in ${all.map(label).join(', ')}`);
    return node;
  }

  async function patches() {
    return (await emulator.requests({ method: 'PATCH' })) as { path: string; status: number; query?: string }[];
  }

  async function openLog(node?: TreeNode): Promise<RestrictionLogPanel> {
    const panel = (await vscode.commands.executeCommand(
      'universeExplorer.showRestrictionLog',
      node ?? (await group()),
    )) as RestrictionLogPanel;
    assert.ok(panel, 'Show Restriction Log returned no panel');
    await until('the log page to load its rows', () => panel.ready && !panel.state.loading, 20_000);
    return panel;
  }

  async function ban(
    userId: string,
    input: { duration?: string; displayReason?: string; privateReason?: string; placeId?: number } = {},
  ) {
    return client.restrictions.update({
      universeId: U,
      placeId: input.placeId,
      userId,
      gameJoinRestriction: {
        active: true,
        duration: input.duration,
        displayReason: input.displayReason ?? '',
        privateReason: input.privateReason ?? '',
      },
    });
  }

  suiteSetup(async () => {
    ctx = (await extensionApi()).testing.ctx;
    realUi = ctx.ui;
    emulator = await TestEmulator.start({ apiKeys: [{ key: KEY, userId: MODERATOR }] });
    client = new OpenApiClient({ baseUrl: emulator.url, apiKey: KEY });
    connection = await ctx.connections.add(
      {
        name: 'UR Tests',
        baseUrl: emulator.url,
        entryHeaderPrefix: 'platform',
        universes: [{ id: U, name: 'Ban Test' }],
      },
      KEY,
    );
  });

  teardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    ctx.ui = realUi;
    await emulator.reset();
    const config = vscode.workspace.getConfiguration('universeExplorer');
    await config.update('pageSize', undefined, vscode.ConfigurationTarget.Global);
    await config.update('readOnlyUniverses', undefined, vscode.ConfigurationTarget.Global);
    const g = await group();
    for (const place of ctx.restrictions.places(g.scope)) ctx.restrictions.hidePlace(g.scope, place);
    ctx.tree.refresh(g);
  });

  suiteTeardown(async () => {
    await ctx.connections.remove(connection.id);
    await client.close();
    await emulator.close();
  });

  test('Ban User… with a preset bans at universe level with an idempotency key; the ban shows in the tree and the log', async () => {
    banAnswers('9001', '1 day', 'Cheating', 'Speed hack, seen twice', 'Ban only this account');
    await vscode.commands.executeCommand('universeExplorer.banUser', await group());
    assert.deepEqual(ui.messages('error'), []);
    assert.deepEqual(ui.messages('info'), [`User 9001 is banned from universe ${U} (1d).`]);

    const r = (await client.restrictions.get({ universeId: U, userId: 9001 })).gameJoinRestriction;
    assert.equal(r.active, true);
    assert.equal(r.duration, '86400s');
    assert.equal(r.displayReason, 'Cheating');
    assert.equal(r.privateReason, 'Speed hack, seen twice');
    assert.equal(r.excludeAltAccounts, true);
    const [patch] = await patches();
    assert.equal(patch.path, `/cloud/v2/universes/${U}/user-restrictions/9001`);
    assert.match(String(patch.query), /idempotencyKey\.key=[\w-]{16,}/);
    assert.match(String(patch.query), /idempotencyKey\.firstSent=\d{4}-/);

    const node = await nodeFor(await group(), '9001');
    const item = node.item();
    assert.match(String(item.description), /^active · (1d|23h \d+m) left$/);
    assert.equal(item.contextValue, 'restriction.active');
    assert.match(String(item.tooltip), /Display reason: Cheating\n/);
    assert.match(String(item.tooltip), /Private reason: Speed hack, seen twice\n/);
    assert.match(String(item.tooltip), /Alt accounts: excluded/);
    // The row shows the time left; the tooltip says when it started and ends, local and UTC.
    const started = Date.parse(r.startTime ?? '');
    assert.ok(String(item.tooltip).includes(`\nStarted: ${localAndUtc(r.startTime)}\n`), String(item.tooltip));
    assert.ok(String(item.tooltip).includes(`\nEnds: ${localAndUtc(started + 86_400_000)}\n`), String(item.tooltip));

    const panel = await openLog();
    assert.equal(panel.state.title, `Universe ${U} (Ban Test) on UR Tests`);
    assert.deepEqual(panel.state.rows, [
      {
        time: panel.state.rows[0].time,
        action: 'ban',
        user: '9001',
        place: '',
        moderator: String(MODERATOR),
        active: true,
        duration: '1d',
        displayReason: 'Cheating',
        privateReason: 'Speed hack, seen twice',
        excludeAltAccounts: true,
      },
    ]);
  });

  test('a typed duration is sent as whole seconds; Permanent sends none; inactive restrictions sort after active ones', async () => {
    await client.restrictions.update({ universeId: U, userId: 9000, gameJoinRestriction: { active: false } });
    banAnswers('9002', 'Type a duration…', 'Spam', '', 'Also ban alt accounts', '1h30m');
    await vscode.commands.executeCommand('universeExplorer.banUser', await group());
    assert.equal(
      (await client.restrictions.get({ universeId: U, userId: 9002 })).gameJoinRestriction.duration,
      '5400s',
    );
    assert.equal(ui.prefilled.get('Duration of the restriction of user 9002'), '', 'a new ban has nothing to prefill');

    banAnswers('9003', 'Permanent', 'Exploiting', '', 'Also ban alt accounts');
    await vscode.commands.executeCommand('universeExplorer.banUser', await group());
    const permanent = (await client.restrictions.get({ universeId: U, userId: 9003 })).gameJoinRestriction;
    assert.equal(permanent.active, true);
    assert.equal(permanent.duration, undefined);

    const nodes = await restrictionsIn(await group());
    assert.deepEqual(nodes.map(label), ['9002', '9003', '9000'], 'active first, then by user id');
    assert.match(String(nodes[0].item().description), /^active · 1h (30m|29m) left$/);
    assert.equal(nodes[1].item().description, 'active · permanent');
    assert.equal(nodes[2].item().description, 'inactive');

    // Typed straight into the list, as the README says, with no "Type a duration…" first.
    banAnswers('9015', '3d', 'Spam', '', 'Also ban alt accounts');
    await vscode.commands.executeCommand('universeExplorer.banUser', await group());
    assert.equal(
      (await client.restrictions.get({ universeId: U, userId: 9015 })).gameJoinRestriction.duration,
      '259200s',
    );
    await client.restrictions.update({ universeId: U, userId: 9015, gameJoinRestriction: { active: false } });
  });

  test('Edit Restriction is prefilled from the current restriction, keeps it active and its start time', async () => {
    await ban('9004', { duration: '604800s', displayReason: 'Cheating', privateReason: 'first report' });
    const before = (await client.restrictions.get({ universeId: U, userId: 9004 })).gameJoinRestriction;
    answer()
      .on('pick', /^Duration/, 'Keep 7d')
      .on('input', /^Display reason/, 'Cheating (confirmed)')
      .on('input', /^Private reason/, 'first report; second report')
      .on('pick', /^Alt accounts of/, 'Ban only this account');
    await vscode.commands.executeCommand('universeExplorer.editRestriction', await nodeFor(await group(), '9004'));
    assert.deepEqual(ui.messages('error'), []);
    assert.equal(ui.prefilled.get('Display reason for user 9004'), 'Cheating');
    assert.equal(ui.prefilled.get('Private reason for user 9004'), 'first report');
    assert.equal(ui.offered.get('Duration of the restriction of user 9004')?.[0], 'Keep 7d');
    assert.deepEqual(ui.offered.get('Alt accounts of user 9004'), ['Also ban alt accounts', 'Ban only this account']);

    const after = (await client.restrictions.get({ universeId: U, userId: 9004 })).gameJoinRestriction;
    assert.equal(after.active, true);
    assert.equal(after.duration, '604800s');
    assert.equal(after.startTime, before.startTime);
    assert.equal(after.displayReason, 'Cheating (confirmed)');
    assert.equal(after.privateReason, 'first report; second report');
    assert.equal(after.excludeAltAccounts, true);
    const node = await nodeFor(await group(), '9004');
    assert.match(String(node.item().tooltip), /Display reason: Cheating \(confirmed\)/);
    // In the log the edit says Edit (it kept the start), not a second Ban.
    const log = await openLog(node);
    assert.deepEqual(
      log.state.rows.filter((row) => row.user === '9004').map((row) => [row.action, row.displayReason]),
      [
        ['edit', 'Cheating (confirmed)'],
        ['ban', 'Cheating'],
      ],
    );

    // Changing the duration through the typed prompt starts from the current one.
    answer()
      .on('pick', /^Duration/, 'Type a duration…')
      .on('input', /^Duration/, '3d')
      .on('input', /^Display reason/, 'Cheating (confirmed)')
      .on('input', /^Private reason/, 'shortened')
      .on('pick', /^Alt accounts of/, 'Ban only this account');
    await vscode.commands.executeCommand('universeExplorer.editRestriction', node);
    assert.equal(ui.prefilled.get('Duration of the restriction of user 9004'), '7d');
    assert.equal(ui.prefilled.get('Display reason for user 9004'), 'Cheating (confirmed)');
    assert.deepEqual(
      ui.offered.get('Alt accounts of user 9004'),
      ['Ban only this account', 'Also ban alt accounts'],
      'the current answer first',
    );
    assert.equal(
      (await client.restrictions.get({ universeId: U, userId: 9004 })).gameJoinRestriction.duration,
      '259200s',
    );
  });

  test('Unban asks first; a dismissed question sends nothing; confirmed, it sends active:false and logs the change', async () => {
    await ban('9005', { displayReason: 'Griefing' });
    answer().on('warn', /^Unban user 9005 from universe/, undefined);
    await vscode.commands.executeCommand('universeExplorer.unban', await nodeFor(await group(), '9005'));
    assert.equal((await patches()).length, 1, 'only the ban itself was sent');

    answer()
      .on('warn', /^Unban user 9005 from universe/, 'Unban')
      .on('input', /^Private reason for lifting/, 'Appeal accepted');
    await vscode.commands.executeCommand('universeExplorer.unban', await nodeFor(await group(), '9005'));
    assert.deepEqual(ui.messages('info'), [`User 9005 is no longer banned from universe ${U}.`]);
    const r = (await client.restrictions.get({ universeId: U, userId: 9005 })).gameJoinRestriction;
    assert.equal(r.active, false);
    assert.equal(r.privateReason, 'Appeal accepted');
    const node = await nodeFor(await group(), '9005');
    assert.equal(node.item().description, 'inactive');
    assert.equal(node.item().contextValue, 'restriction.inactive');

    const panel = await openLog();
    assert.deepEqual(
      panel.state.rows.map((row) => [row.user, row.active, row.duration, row.privateReason]),
      [
        ['9005', false, '', 'Appeal accepted'],
        ['9005', true, 'permanent', ''],
      ],
    );
    assert.deepEqual(
      panel.state.rows.map((row) => row.action),
      ['lift', 'ban'],
    );
  });

  test('a universe ban shows as inherited at a place, next to the place’s own bans, and is edited at the universe', async () => {
    await ban('9010', { displayReason: 'Universe-wide' });
    answer().on('input', /^Place id/, String(PLACE));
    const place = (await vscode.commands.executeCommand(
      'universeExplorer.showPlace',
      await group(),
    )) as PlaceRestrictionsNode;
    assert.equal(label(place), `Place ${PLACE}`);
    assert.ok((await ctx.tree.getChildren(await group())).includes(place), 'the place is listed under the group');

    // From the palette: pick the connection, then the level and the place.
    banAnswers('9011', '1 hour', 'Team killing', '', 'Also ban alt accounts')
      .on('pick', /^Connection/, 'UR Tests')
      .on('pick', /^Level/, 'One place…')
      .on('input', /^Place id/, String(PLACE));
    await vscode.commands.executeCommand('universeExplorer.banUser');
    assert.deepEqual(ui.messages('error'), []);
    assert.equal((await patches()).at(-1)?.path, `/cloud/v2/universes/${U}/places/${PLACE}/user-restrictions/9011`);

    const nodes = await restrictionsIn(place);
    const inherited = nodes.find((n) => n.userId === '9010');
    const own = nodes.find((n) => n.userId === '9011');
    assert.ok(inherited && own, nodes.map(label).join(', '));
    assert.equal(inherited.item().description, 'active · permanent · inherited from the universe');
    assert.equal(inherited.item().contextValue, 'restriction.active.inherited');
    assert.match(String(inherited.item().tooltip), /Inherited from a universe-wide ban/);
    assert.match(String(own.item().description), /^active · (1h|59m \d+s) left$/);
    // Only the universe list holds the universe ban.
    assert.deepEqual((await restrictionsIn(await group())).map(label), ['9010']);

    answer();
    await vscode.commands.executeCommand('universeExplorer.editRestriction', inherited);
    assert.match(
      ui.messages('error')[0] ?? '',
      /user 9010 is restricted at place 4242 of universe 5150 by a universe-wide ban/,
    );
    const panel = await openLog();
    assert.deepEqual(
      panel.state.rows.map((row) => [row.user, row.place]),
      [
        ['9011', String(PLACE)],
        ['9010', ''],
      ],
    );
  });

  const refusals: [string, (u: RecordingUi) => void, RegExp][] = [
    [
      'a zero duration',
      (u) => u.on('pick', /^Duration/, 'Type a duration…').on('input', /^Duration/, '0m'),
      /at least 1 second/,
    ],
    [
      'a duration without a unit',
      (u) => u.on('pick', /^Duration/, 'Type a duration…').on('input', /^Duration/, '90'),
      /no unit/,
    ],
    [
      'an unknown unit',
      (u) => u.on('pick', /^Duration/, 'Type a duration…').on('input', /^Duration/, '90x'),
      /not a unit/,
    ],
    [
      'a fraction',
      (u) => u.on('pick', /^Duration/, 'Type a duration…').on('input', /^Duration/, '1.5h'),
      /whole numbers/,
    ],
    [
      'over 10,000 years',
      (u) => u.on('pick', /^Duration/, 'Type a duration…').on('input', /^Duration/, '3652501d'),
      /at most 315576000000/,
    ],
    [
      'a display reason of 401 characters',
      (u) => u.on('pick', /^Duration/, '1 hour').on('input', /^Display reason/, 'x'.repeat(401)),
      /401 characters: at most 400/,
    ],
    [
      'a private reason of 1,001 characters',
      (u) =>
        u
          .on('pick', /^Duration/, '1 hour')
          .on('input', /^Display reason/, 'ok')
          .on('input', /^Private reason/, '🎮'.repeat(1001)),
      /1001 characters: at most 1000/,
    ],
  ];
  for (const [what, script, reason] of refusals) {
    test(`Ban User… refuses ${what} before anything is sent`, async () => {
      const u = answer().on('input', /^Ban a user from/, '9020');
      script(u);
      await vscode.commands.executeCommand('universeExplorer.banUser', await group());
      assert.match(u.messages('error')[0] ?? '', reason);
      assert.deepEqual(await patches(), [], 'a PATCH reached the service');
    });
  }

  test('reasons at the limits (400 and 1,000 characters, counted as characters, not UTF-16 units) are sent', async () => {
    const display = '🎮'.repeat(400);
    const priv = 'é'.repeat(1000);
    banAnswers('9021', '1 hour', display, priv, 'Also ban alt accounts');
    await vscode.commands.executeCommand('universeExplorer.banUser', await group());
    assert.deepEqual(ui.messages('error'), []);
    const r = (await client.restrictions.get({ universeId: U, userId: 9021 })).gameJoinRestriction;
    assert.equal(r.displayReason, display);
    assert.equal(r.privateReason, priv);
  });

  test('a retried ban is applied once: both attempts carry the same idempotency key', async () => {
    await emulator.fault({ method: 'PATCH', path: '/user-restrictions/9030', status: 503, times: 1 });
    banAnswers('9030', '7 days', 'Retry', '', 'Also ban alt accounts');
    await vscode.commands.executeCommand('universeExplorer.banUser', await group());
    assert.deepEqual(ui.messages('error'), []);
    const attempts = await patches();
    assert.deepEqual(
      attempts.map((a) => a.status),
      [503, 200],
    );
    const key = (q?: string) => new URLSearchParams(q).get('idempotencyKey.key');
    assert.ok(key(attempts[0].query));
    assert.equal(key(attempts[1].query), key(attempts[0].query));
    const { items: logs } = await client.restrictions.listLogs({ universeId: U, user: 9030 });
    assert.equal(logs.length, 1);
  });

  test('Look Up User… shows one user’s restriction, including an inherited one at a place', async () => {
    await ban('9040', { duration: '86400s', displayReason: 'Cheating', privateReason: 'seen, twice' });
    answer()
      .on('pick', /^Connection/, 'UR Tests')
      .on('pick', /^Level/, 'One place…')
      .on('input', /^Place id/, '777')
      .on('input', /^Look up/, '9040');
    const found = (await vscode.commands.executeCommand('universeExplorer.lookUpUser')) as {
      gameJoinRestriction: { inherited: boolean };
    };
    assert.equal(found.gameJoinRestriction.inherited, true);
    assert.match(
      ui.messages('info')[0] ?? '',
      /^User 9040 is banned from place 777 of universe 5150 by a universe-wide ban: 1d, (1d|23h \d+m) left\. Display reason: "Cheating"\. Private reason: "seen, twice"\. Alt accounts: also restricted\.$/,
    );
    answer().on('input', /^Look up/, '9041');
    await vscode.commands.executeCommand('universeExplorer.lookUpUser', await group());
    assert.deepEqual(ui.messages('info'), [`User 9041 is not restricted at universe ${U}.`]);
  });

  test('the log filter by user and by place narrows the rows through the panel’s protocol; bad ids are refused', async () => {
    await ban('9050');
    await ban('9051');
    await ban('9050', { placeId: PLACE, displayReason: 'place ban' });
    const panel = await openLog();
    assert.equal(panel.state.rows.length, 3);
    // A ban made while the panel is open shows in it without a manual refresh.
    banAnswers('9052', '1 hour', 'while open', '', 'Also ban alt accounts');
    await vscode.commands.executeCommand('universeExplorer.banUser', await group());
    await until('the new ban in the open log', () => !panel.state.loading && panel.state.rows[0]?.user === '9052');
    assert.equal(panel.state.rows.length, 4);

    await panel.receive({ type: 'applyFilter', filter: { user: '9050', place: '' } });
    assert.deepEqual(panel.state.filter, { user: '9050', place: '' });
    assert.deepEqual(
      panel.state.rows.map((r) => [r.user, r.place]),
      [
        ['9050', String(PLACE)],
        ['9050', ''],
      ],
    );
    const listLogs = (await emulator.requests({ path: ':listLogs' })) as { query?: string }[];
    assert.equal(new URLSearchParams(listLogs.at(-1)?.query).get('filter'), "user == 'users/9050'");

    await panel.receive({ type: 'applyFilter', filter: { user: '', place: String(PLACE) } });
    assert.deepEqual(
      panel.state.rows.map((r) => r.displayReason),
      ['place ban'],
    );

    await panel.receive({ type: 'applyFilter', filter: { user: 'abc', place: '' } });
    assert.match(panel.state.error ?? '', /User id must be a positive whole number/);
    assert.deepEqual(panel.state.filter, { user: '', place: String(PLACE) }, 'the applied filter is kept');
    await panel.receive({ type: 'applyFilter', filter: { user: '', place: '' } });
    assert.equal(panel.state.error, undefined);
    assert.equal(panel.state.rows.length, 4);

    // Anything that is not a message of the protocol is ignored.
    for (const junk of [null, 'refresh', { type: 'applyFilter', filter: { user: 1 } }, { type: 'eval', code: 'x' }]) {
      assert.equal(await panel.receive(junk), undefined);
    }
    assert.equal(panel.state.rows.length, 4);
  });

  test('Load more pages through the log; Export CSV writes a header and each loaded entry, quoting commas, quotes and newlines', async () => {
    await vscode.workspace
      .getConfiguration('universeExplorer')
      .update('pageSize', 2, vscode.ConfigurationTarget.Global);
    await ban('9060', { displayReason: 'He said "hi", then left', privateReason: 'line one\nline two' });
    await ban('9061', { duration: '3600s', displayReason: 'plain' });
    await ban('9062', { displayReason: 'a,b,,c' });
    await ban('9063', { displayReason: 'd' });
    await ban('9064', { displayReason: 'e' });
    // Newest first, two per page: 9064 9063 | 9062 9061 | 9060.
    const panel = await openLog();
    assert.deepEqual(
      panel.state.rows.map((r) => r.user),
      ['9064', '9063'],
    );
    assert.equal(panel.state.hasMore, true);
    await panel.receive({ type: 'loadMore' });
    assert.deepEqual(
      panel.state.rows.map((r) => r.user),
      ['9064', '9063', '9062', '9061'],
    );
    assert.equal(panel.state.hasMore, true);
    await panel.receive({ type: 'loadMore' });
    assert.deepEqual(
      panel.state.rows.map((r) => r.user),
      ['9064', '9063', '9062', '9061', '9060'],
    );
    assert.equal(panel.state.hasMore, false);

    const file = vscode.Uri.file(path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'ur-csv-')), 'log.csv'));
    answer().on('saveDialog', /^Export the restriction log of universe 5150/, file);
    const written = (await panel.receive({ type: 'exportCsv' })) as vscode.Uri;
    assert.equal(written.fsPath, file.fsPath);
    const text = fs.readFileSync(file.fsPath, 'utf8');
    assert.ok(
      text.startsWith(
        'Time,User,Place,Moderator,Active,Duration,Display reason,Private reason,Exclude alt accounts,Action,Run\r\n',
      ),
      text.slice(0, 120),
    );
    assert.ok(text.includes(',"He said ""hi"", then left","line one\nline two",'), 'quotes and newline are escaped');
    assert.ok(text.includes(',"a,b,,c",'), 'commas are quoted');
    const rows = parseCsv(text);
    assert.equal(rows.length, 1 + panel.state.rows.length, 'a header and one row per loaded entry');
    assert.deepEqual(
      rows.slice(1).map((r) => r[1]),
      panel.state.rows.map((r) => r.user),
    );
    const hi = rows.find((r) => r[1] === '9060');
    assert.deepEqual(hi?.slice(2), [
      '',
      String(MODERATOR),
      'true',
      'permanent',
      'He said "hi", then left',
      'line one\nline two',
      'false',
      'Ban',
      '',
    ]);
    assert.equal(rows.find((r) => r[1] === '9061')?.[5], '3600s');
    assert.match(ui.messages('info')[0] ?? '', /^Exported 5 restriction log entries to /);

    // A cancelled save dialog writes nothing.
    answer();
    assert.equal(await panel.receive({ type: 'exportCsv' }), undefined);
    assert.deepEqual(ui.messages('info'), []);
  });

  test('Export CSV writes reasons a spreadsheet would run as formulas as text', async () => {
    await ban('9070', {
      displayReason: '=HYPERLINK("http://evil.example","Appeal here")',
      privateReason: "=cmd|' /C calc'!A0",
    });
    const panel = await openLog();
    const file = vscode.Uri.file(path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'ur-csv-')), 'formulas.csv'));
    answer().on('saveDialog', /^Export the restriction log/, file);
    await panel.receive({ type: 'exportCsv' });
    const row = parseCsv(fs.readFileSync(file.fsPath, 'utf8')).find((r) => r[1] === '9070');
    assert.deepEqual(row?.slice(6, 8), ['\'=HYPERLINK("http://evil.example","Appeal here")', "'=cmd|' /C calc'!A0"]);
  });

  test('the panel: strict CSP with a fresh nonce, media/ as its only resource root, one per universe, and its rows come back after it was hidden', async () => {
    await ban('9070', { displayReason: 'kept' });
    const panel = await openLog();
    const html = panel.panel.webview.html;
    const nonce = /script-src 'nonce-([^']+)'/.exec(html)?.[1];
    assert.ok(nonce && nonce.length >= 16, 'no nonce in the CSP');
    const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html)?.[1] ?? '';
    assert.equal(
      csp,
      `default-src 'none'; script-src 'nonce-${nonce}'; style-src ${panel.panel.webview.cspSource}; img-src ${panel.panel.webview.cspSource}`,
    );
    assert.equal((html.match(/<script /g) ?? []).length, 1);
    assert.match(
      html,
      new RegExp(
        `<script nonce="${nonce.replace(/[+/]/g, '\\$&')}" src="[^"]+/media/restrictionLog/main\\.js"></script>`,
      ),
    );
    assert.doesNotMatch(html, /unsafe-inline|unsafe-eval|onclick|kept/);
    const roots = panel.panel.webview.options.localResourceRoots?.map((u) => u.path);
    assert.deepEqual(roots, [vscode.Uri.joinPath(ctx.extension.extensionUri, 'media').path]);

    assert.equal(await openLog(), panel, 'a second Show Restriction Log reveals the same panel');

    await panel.receive({ type: 'applyFilter', filter: { user: '9070', place: '' } });
    const loads = panel.pageLoads;
    // Another editor in the same group hides the panel; its page is discarded, and loads again when shown.
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument({ content: 'cover' }), {
      viewColumn: panel.panel.viewColumn,
      preview: false,
    });
    await until('the panel to be hidden', () => !panel.panel.visible);
    panel.panel.reveal();
    await until('the page to load again and say ready', () => panel.pageLoads > loads, 20_000);
    assert.deepEqual(panel.state.filter, { user: '9070', place: '' });
    assert.deepEqual(
      panel.state.rows.map((r) => r.displayReason),
      ['kept'],
    );

    // A closed panel is forgotten: the next Show opens a new one, with a new nonce.
    panel.panel.dispose();
    const again = await openLog();
    assert.notEqual(again, panel);
    const nonce2 = /script-src 'nonce-([^']+)'/.exec(again.panel.webview.html)?.[1];
    assert.notEqual(nonce2, nonce, 'each load has its own nonce');
  });

  test('a panel VS Code restores after a window reload comes back with its universe and filter; a state not ours closes it', async () => {
    await ban('9080', { displayReason: 'restored' });
    await ban('9081');
    const first = await openLog();
    await first.receive({ type: 'applyFilter', filter: { user: '9080', place: '' } });
    // What the page saves with vscode.setState, and VS Code hands back to the serializer after a reload.
    const saved = { draft: { user: '9080', place: '' }, restore: first.state.restore };
    assert.deepEqual(saved.restore, {
      connectionId: connection.id,
      universeId: U,
      filter: { user: '9080', place: '' },
    });
    first.panel.dispose();

    const { reviveLog } = (await extensionApi()).testing;
    const restoredPanel = () =>
      vscode.window.createWebviewPanel(
        'universeExplorer.restrictionLog',
        'Restriction Log',
        vscode.ViewColumn.Active,
        {},
      );
    const revived = reviveLog(restoredPanel(), saved);
    assert.ok(revived, 'the saved state was refused');
    await until('the revived page to load its rows', () => revived.ready && !revived.state.loading, 20_000);
    assert.deepEqual(revived.state.filter, { user: '9080', place: '' });
    assert.deepEqual(
      revived.state.rows.map((r) => [r.user, r.displayReason]),
      [['9080', 'restored']],
    );
    assert.equal(revived.state.title, `Universe ${U} (Ban Test) on UR Tests`);
    assert.equal(revived.panel.title, 'Restriction Log: Ban Test');
    assert.equal(revived.panel.webview.options.enableScripts, true);
    assert.deepEqual(
      revived.panel.webview.options.localResourceRoots?.map((u) => u.path),
      [vscode.Uri.joinPath(ctx.extension.extensionUri, 'media').path],
    );
    assert.equal(await openLog(), revived, 'Show Restriction Log reveals the revived panel');

    // A state that is not ours, or a universe whose log is open already: the restored panel is closed.
    const bad = [
      undefined,
      'text',
      {},
      { draft: saved.draft },
      { restore: { ...saved.restore, universeId: -1 } },
      { restore: { ...saved.restore, filter: { user: '<b>', place: '' } } },
      saved,
    ];
    for (const state of bad) {
      const panel = restoredPanel();
      let closed = false;
      panel.onDidDispose(() => (closed = true));
      assert.equal(reviveLog(panel, state), undefined);
      assert.ok(closed, `a panel was kept for ${JSON.stringify(state)}`);
    }
    revived.panel.dispose();

    // A connection that is gone: the panel comes back and says so.
    const orphan = reviveLog(restoredPanel(), {
      restore: { connectionId: 'gone', universeId: U, filter: { user: '', place: '' } },
    });
    assert.ok(orphan);
    await until('the orphan page to load', () => orphan.ready && !orphan.state.loading, 20_000);
    assert.equal(orphan.state.error, 'The connection no longer exists.');
    assert.match(orphan.state.title, /on a removed connection$/);
    orphan.panel.dispose();
  });

  test('a read-only universe refuses bans and edits before asking anything', async () => {
    await vscode.workspace
      .getConfiguration('universeExplorer')
      .update('readOnlyUniverses', [U], vscode.ConfigurationTarget.Global);
    answer();
    await vscode.commands.executeCommand('universeExplorer.banUser', await group());
    assert.match(
      ui.messages('error')[0] ?? '',
      /universe 5150\)? on .* is read-only \(setting universeExplorer\.readOnlyUniverses\); to write to it, remove 5150/,
    );
    assert.equal(ui.prompts.filter((p) => p.kind !== 'error').length, 0);
    assert.deepEqual(await patches(), []);
  });
});
