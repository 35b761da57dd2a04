// Data stores in a real VS Code: entries open as JSON documents, saves are conditioned on the loaded version,
// conflicts go through the three-way choice, and nothing typed is lost.
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { suite, suiteSetup, suiteTeardown, teardown, test } from 'mocha';
import * as vscode from 'vscode';
import { NotFoundError, OpenApiClient } from '../../../src/api';
import type { TestContext } from '../../../src/extension';
import type { Connection } from '../../../src/core/connections';
import { localTime } from '../../../src/core/time';
import { entryUri, versionScheme } from '../../../src/datastores/editor/uris';
import type { DataStoreNode, EntryNode } from '../../../src/datastores/tree';
import type { VersionNode } from '../../../src/datastores/tree';
import { TestEmulator } from '../../unit/support/emulator';
import { SuiteService } from './service';
import {
  extensionApi,
  isEntry,
  isVersion,
  kind,
  label,
  openEditor,
  replaceText,
  ScriptedUi,
  until,
  revertAndCloseAll,
} from './support';

const U = 5151;
const KEY = 'datastore-tests-key';
const md5 = (s: string) => createHash('md5').update(s).digest('base64');

suite('data stores in the editor', () => {
  let ctx: TestContext;
  let realUi: TestContext['ui'];
  let service: SuiteService;
  let emulator: TestEmulator;
  let client: OpenApiClient;
  let connection: Connection;
  let ui: ScriptedUi;

  const at = (key: string, datastoreName = 'Players', scope = 'global') => ({
    universeId: U,
    datastoreName,
    scope,
    entryKey: key,
  });
  const uriOf = (key: string, datastoreName = 'Players', scope = 'global') =>
    entryUri({ connectionId: connection.id, universeId: U, datastoreName, scope, key });

  async function storeNode(name: string): Promise<DataStoreNode> {
    const root = (await ctx.tree.getChildren()).find((n) => label(n) === 'DS Tests');
    assert.ok(root);
    const [universe] = await ctx.tree.getChildren(root);
    ctx.tree.refresh(universe);
    const [stores] = await ctx.tree.getChildren(universe);
    const all = await ctx.tree.getChildren(stores);
    const store = all.find((n) => label(n) === name && kind(n).startsWith('dataStore'));
    assert.ok(store, `no store ${name} in ${all.map(label).join(', ')}`);
    return store as DataStoreNode;
  }

  async function entryNode(store: string, key: string): Promise<EntryNode> {
    const node = (await ctx.tree.getChildren(await storeNode(store))).find((n) => isEntry(n) && n.entry.key === key);
    assert.ok(node && isEntry(node), `no entry ${key}`);
    return node;
  }

  suiteSetup(async () => {
    ctx = (await extensionApi()).testing.ctx;
    realUi = ctx.ui;
    service = await SuiteService.start(KEY);
    ({ emulator, client } = service);
    connection = await service.connect(ctx, 'DS Tests', [{ id: U }]);
  });

  teardown(async () => {
    await revertAndCloseAll();
    ctx.ui = realUi;
    await vscode.workspace
      .getConfiguration('universeExplorer')
      .update('readOnlyUniverses', undefined, vscode.ConfigurationTarget.Global);
    await vscode.workspace
      .getConfiguration('universeExplorer')
      .update('pageSize', undefined, vscode.ConfigurationTarget.Global);
  });

  suiteTeardown(() => service.close(ctx));

  function answer(): ScriptedUi {
    ui = new ScriptedUi();
    ctx.ui = ui;
    return ui;
  }

  test('an entry opens pretty-printed, saves with content-md5 and matchVersion, and keeps attributes and user ids', async () => {
    await client.datastores.setEntry({
      ...at('alice'),
      value: { coins: 10 },
      attributes: { tag: 'vip' },
      userIds: [7],
    });
    const before = await client.datastores.getEntry(at('alice'));
    const editor = await openEditor(uriOf('alice'));
    assert.equal(editor.document.getText(), '{\n  "coins": 10\n}\n');
    const stat = await vscode.workspace.fs.stat(uriOf('alice'));
    assert.equal(stat.mtime, Date.parse(before.versionCreatedTime!));
    assert.equal(stat.size, Buffer.byteLength(editor.document.getText()));

    await replaceText(editor, '{\n  "coins": 11,\n  "id": 12345678901234567890\n}\n');
    assert.equal(await editor.document.save(), true);
    const after = await client.datastores.getEntry(at('alice'));
    assert.equal(after.raw.toString(), '{"coins":11,"id":12345678901234567890}');
    assert.equal(after.contentMd5, md5('{"coins":11,"id":12345678901234567890}'));
    assert.deepEqual(after.attributes, { tag: 'vip' });
    assert.deepEqual(after.userIds, [7]);
    const post = (await emulator.requests({ method: 'POST', path: '/entries/entry' })).at(-1) as unknown as {
      query?: string;
    };
    assert.match(String(post?.query ?? ''), new RegExp(`matchVersion=${encodeURIComponent(before.version)}`));
  });

  for (const choice of ['Overwrite', 'Discard and Reload', 'Compare'] as const) {
    test(`a save after a change behind the editor's back asks, and "${choice}" does what it says`, async () => {
      const key = `conflict-${choice}`;
      await client.datastores.setEntry({ ...at(key), value: { v: 'original' }, attributes: { a: 1 } });
      const editor = await openEditor(uriOf(key));
      await replaceText(editor, '{"v": "mine"}');
      const theirs = await client.datastores.setEntry({
        ...at(key),
        value: { v: 'theirs' },
        attributes: { by: 'other' },
      });
      answer().on('warn', new RegExp(`^"${key}" \\(Players, scope global\\) was changed in the service`), choice);
      const saved = await editor.document.save();
      assert.ok(
        ui.prompts.some((p) => p.kind === 'warn'),
        'no conflict prompt',
      );
      const now = await client.datastores.getEntry(at(key));
      if (choice === 'Overwrite') {
        assert.equal(saved, true);
        assert.equal(now.raw.toString(), '{"v":"mine"}');
        assert.deepEqual(now.attributes, { by: 'other' }, 'their attributes are kept');
      }
      if (choice === 'Discard and Reload') {
        assert.equal(now.version, theirs.version, 'nothing was written');
        await until(
          'the service value in the editor',
          () => !editor.document.isDirty && editor.document.getText().includes('theirs'),
        );
      }
      if (choice === 'Compare') {
        assert.equal(saved, false);
        assert.equal(editor.document.isDirty, true);
        assert.equal(editor.document.getText(), '{"v": "mine"}', 'nothing typed is lost');
        assert.equal(now.version, theirs.version);
        const diff = vscode.window.tabGroups.all
          .flatMap((g) => g.tabs)
          .find((t) => t.input instanceof vscode.TabInputTextDiff && t.input.original.scheme === versionScheme);
        assert.ok(diff, 'no diff editor of the service version against yours');
        const when = localTime(theirs.createdTime, { seconds: true });
        assert.equal(diff.label, `${key}.json (the service's version of ${when}) ↔ ${key}.json (yours, not saved)`);
      }
    });
  }

  test('invalid JSON is refused with line and column, the document stays dirty and nothing is sent', async () => {
    await client.datastores.setEntry({ ...at('broken'), value: [1] });
    const editor = await openEditor(uriOf('broken'));
    const posts = (await emulator.requests({ method: 'POST' })).length;
    await replaceText(editor, '{\n  "a": \n}');
    assert.equal(await editor.document.save(), false);
    assert.equal(editor.document.isDirty, true);
    assert.equal(editor.document.getText(), '{\n  "a": \n}');
    assert.ok(
      ctx.log.lines().some((l) => l.includes('"broken" (Players, scope global) is not valid JSON (line 3, column 1:')),
      'the parse error is not reported',
    );
    assert.equal((await emulator.requests({ method: 'POST' })).length, posts);
  });

  test('a value over 4 MiB is refused before sending, naming the size and the limit', async () => {
    await client.datastores.setEntry({ ...at('huge'), value: 'x' });
    const editor = await openEditor(uriOf('huge'));
    await replaceText(editor, JSON.stringify('y'.repeat(4 * 1024 * 1024)));
    assert.equal(await editor.document.save(), false);
    assert.ok(ctx.log.lines().some((l) => /4194306 bytes\); an entry holds at most 4 MiB \(4194304 bytes\)/.test(l)));
    assert.equal((await client.datastores.getEntry(at('huge'))).raw.toString(), '"x"');
  });

  test('a key with a slash, percent, dots and unicode opens and saves', async () => {
    const key = 'inv/⚔️ sword %2F ..';
    await client.datastores.setEntry({ ...at(key, 'Odd/Store', 'sc..ope'), value: { ok: 1 } });
    const editor = await openEditor(uriOf(key, 'Odd/Store', 'sc..ope'));
    assert.match(editor.document.getText(), /"ok": 1/);
    await replaceText(editor, '{"ok": 2}');
    assert.equal(await editor.document.save(), true);
    assert.equal((await client.datastores.getEntry(at(key, 'Odd/Store', 'sc..ope'))).raw.toString(), '{"ok":2}');
  });

  test('New Entry creates with exclusiveCreate and refuses an existing key', async () => {
    await client.datastores.setEntry({ ...at('taken'), value: 'old' });
    answer()
      .on('input', /^New key/, 'fresh')
      .on('input', /^Value of fresh/, '{"n": 1}');
    await vscode.commands.executeCommand('universeExplorer.newEntry', await storeNode('Players'));
    assert.equal((await client.datastores.getEntry(at('fresh'))).raw.toString(), '{"n":1}');
    assert.equal(vscode.window.activeTextEditor?.document.uri.toString(), uriOf('fresh').toString());

    answer()
      .on('input', /^New key/, 'taken')
      .on('input', /^Value of taken/, '"new"');
    await vscode.commands.executeCommand('universeExplorer.newEntry', await storeNode('Players'));
    assert.match(ui.messages('error')[0] ?? '', /"taken" already exists in scope global; it was left unchanged/);
    assert.equal((await client.datastores.getEntry(at('taken'))).raw.toString(), '"old"');
  });

  test('Delete asks first, then removes the entry', async () => {
    await client.datastores.setEntry({ ...at('doomed'), value: 1 });
    answer().on('warn', /^Delete "doomed"/, undefined);
    await vscode.commands.executeCommand('universeExplorer.deleteEntry', await entryNode('Players', 'doomed'));
    await client.datastores.getEntry(at('doomed'));
    answer().on('warn', /^Delete "doomed"/, 'Delete');
    await vscode.commands.executeCommand('universeExplorer.deleteEntry', await entryNode('Players', 'doomed'));
    await assert.rejects(client.datastores.getEntry(at('doomed')), NotFoundError);
    assert.deepEqual(ui.messages('info'), [
      'Deleted "doomed" (scope global) from Players. Its versions are kept for 30 days.',
    ]);

    // Undo from that confirmation puts the value back.
    await client.datastores.setEntry({ ...at('doomed'), value: 2, attributes: { keep: 1 } });
    answer()
      .on('warn', /^Delete "doomed"/, 'Delete')
      .on('info', /^Deleted "doomed"/, 'Undo');
    await vscode.commands.executeCommand('universeExplorer.deleteEntry', await entryNode('Players', 'doomed'));
    const back = await until('the entry back', () => client.datastores.getEntry(at('doomed')).catch(() => undefined));
    assert.deepEqual([back.raw.toString(), back.attributes], ['2', { keep: 1 }]);
    await until('Undo confirmed', () =>
      ui.messages('info').includes('"doomed" holds its earlier value again, as a new version.'),
    );
  });

  test('Increment validates the number and keeps attributes and user ids', async () => {
    await client.datastores.setEntry({ ...at('score'), value: 40, attributes: { s: 'x' }, userIds: [3] });
    answer().on('input', /^Increment score by/, '2.5');
    await vscode.commands.executeCommand('universeExplorer.incrementEntry', await entryNode('Players', 'score'));
    assert.match(ui.messages('error')[0] ?? '', /whole number/);
    answer().on('input', /^Increment score by/, '2');
    await vscode.commands.executeCommand('universeExplorer.incrementEntry', await entryNode('Players', 'score'));
    const now = await client.datastores.getEntry(at('score'));
    assert.equal(now.value, 42);
    assert.deepEqual([now.attributes, now.userIds], [{ s: 'x' }, [3]]);
    assert.deepEqual(ui.messages('info'), ['score is now 42 (incremented by 2).']);
    // Undo increments by the opposite amount.
    answer()
      .on('input', /^Increment score by/, '5')
      .on('info', /^score is now 47 /, 'Undo');
    await vscode.commands.executeCommand('universeExplorer.incrementEntry', await entryNode('Players', 'score'));
    await until('the increment undone', () =>
      ui.messages('info').includes('Incremented "score" by -5, undoing the increment.'),
    );
    assert.equal((await client.datastores.getEntry(at('score'))).value, 42);
  });

  test('Increment on an object is refused before an amount is asked, and the row then hides it; a number shows it', async () => {
    await client.datastores.setEntry({ ...at('bag'), value: { coins: 1 } });
    assert.equal(kind(await entryNode('Players', 'bag')), 'entry'); // listed only: the value is not known yet
    answer();
    await vscode.commands.executeCommand('universeExplorer.incrementEntry', await entryNode('Players', 'bag'));
    assert.deepEqual(
      ui.prompts.filter((p) => p.kind !== 'error'),
      [],
    );
    assert.deepEqual(ui.messages('error'), [
      'Failed to increment the entry: "bag" (Players, scope global) holds an object, not a number: Increment adds to a number only. Open the entry to edit its value.',
    ]);
    assert.deepEqual((await client.datastores.getEntry(at('bag'))).value, { coins: 1 });
    assert.equal(kind(await entryNode('Players', 'bag')), 'entry.notNumber');
    // Saved as a number from its editor, the row offers Increment again.
    const editor = await openEditor(uriOf('bag'));
    await replaceText(editor, '7\n');
    assert.equal(await editor.document.save(), true);
    assert.equal(kind(await entryNode('Players', 'bag')), 'entry');
  });

  test('Go to Key lists the keys that start with what is typed, in the scope shown, and opens the one picked', async () => {
    for (const key of ['go-apple', 'go-apricot', 'go-banana'])
      await client.datastores.setEntry({ ...at(key), value: key });
    await client.datastores.setEntry({ ...at('go-avocado', 'Players', 'season2'), value: 'other scope' });
    answer().on('pick', /^Key in Players/, { type: 'go-ap', pick: 'go-apricot' });
    await vscode.commands.executeCommand('universeExplorer.goToKey', await storeNode('Players'));
    assert.deepEqual(ui.listed, [{ text: 'go-ap', labels: ['go-apple', 'go-apricot'] }]);
    assert.equal(vscode.window.activeTextEditor?.document.uri.toString(), uriOf('go-apricot').toString());
    assert.deepEqual(ui.messages('error'), []);
    // A key too long to exist is shown as a problem, not taken.
    answer().on('pick', /^Key in Players/, 'k'.repeat(51));
    await vscode.commands.executeCommand('universeExplorer.goToKey', await storeNode('Players'));
    assert.deepEqual(ui.meanings[0].means, { problem: 'A key has 1 to 50 bytes.' });
  });

  test('versions list newest first, compare with current, and restore writes the old value as a new version', async () => {
    for (const n of [1, 2, 3]) await client.datastores.setEntry({ ...at('history'), value: { n }, attributes: { n } });
    const entry = await entryNode('Players', 'history');
    const versions = (await ctx.tree.getChildren(entry)).filter(isVersion);
    assert.equal(versions.length, 3);
    const oldest = versions[2];
    assert.ok(versions[0].version.createdTime >= oldest.version.createdTime);
    // Local times (the extension host's zone, which the helper reads too), never a version id.
    const time = (v: VersionNode) => localTime(v.version.createdTime, { seconds: true });
    assert.equal(label(oldest), time(oldest));
    const open = oldest.item().command;
    assert.ok(open);
    await vscode.commands.executeCommand(open.command, ...(open.arguments ?? []));
    await until('the version tab', () => vscode.window.tabGroups.activeTabGroup.activeTab?.label.includes('history'));
    assert.equal(vscode.window.tabGroups.activeTabGroup.activeTab?.label, `history.json (version of ${time(oldest)})`);

    await vscode.commands.executeCommand('universeExplorer.compareVersion', oldest);
    const tab = vscode.window.tabGroups.activeTabGroup.activeTab;
    assert.ok(tab);
    const diff = tab.input;
    assert.ok(diff instanceof vscode.TabInputTextDiff);
    assert.equal(diff.original.scheme, versionScheme);
    const original = await vscode.workspace.openTextDocument(diff.original);
    assert.match(original.getText(), /"n": 1/);
    assert.equal(tab.label, `history.json (version of ${time(oldest)}) ↔ history.json (current, ${time(versions[0])})`);
    assert.ok(!versions.some((v) => tab.label.includes(v.version.version)), tab.label);

    answer().on('warn', new RegExp(`^Restore "history" to the version of ${time(oldest)}\\?$`), 'Restore');
    await vscode.commands.executeCommand('universeExplorer.restoreVersion', oldest);
    const now = await client.datastores.getEntry(at('history'));
    assert.equal(now.raw.toString(), '{"n":1}');
    assert.deepEqual(now.attributes, { n: 1 });
    const all = await client.datastores.listEntryVersions(at('history'));
    assert.equal(all.items.length, 4);
    assert.deepEqual(ui.messages('info'), [`Restored "history" to the version of ${time(oldest)}.`]);
    // The open comparison follows: its right side is now the restored version, and its title says so.
    const restored = localTime(all.items.map((v) => v.createdTime).sort()[3], { seconds: true });
    const retitled = `history.json (version of ${time(oldest)}) ↔ history.json (current, ${restored})`;
    await until('the comparison retitled', () =>
      vscode.window.tabGroups.all.flatMap((g) => g.tabs).some((t) => t.label === retitled),
    );
  });

  test('a read-only universe opens entries read-only and refuses to save', async () => {
    await client.datastores.setEntry({ ...at('locked'), value: 1 });
    await vscode.workspace
      .getConfiguration('universeExplorer')
      .update('readOnlyUniverses', [U], vscode.ConfigurationTarget.Global);
    const stat = await vscode.workspace.fs.stat(uriOf('locked'));
    assert.equal(stat.permissions, vscode.FilePermission.Readonly);
    await assert.rejects(
      Promise.resolve(vscode.workspace.fs.writeFile(uriOf('locked'), Buffer.from('2'))),
      /read-only/,
    );
    assert.equal((await client.datastores.getEntry(at('locked'))).raw.toString(), '1');
    assert.equal((await entryNode('Players', 'locked')).item().contextValue, 'entry.readOnly');
  });

  test('a workspace (a cloned repository) cannot lift read-only universes: only the user setting counts', async () => {
    await client.datastores.setEntry({ ...at('guarded'), value: 1 });
    const config = () => vscode.workspace.getConfiguration('universeExplorer');
    await config().update('readOnlyUniverses', [U], vscode.ConfigurationTarget.Global);
    await assert.rejects(
      Promise.resolve(config().update('readOnlyUniverses', [], vscode.ConfigurationTarget.Workspace)),
      /User settings/,
    );
    const folder = vscode.workspace.workspaceFolders![0].uri;
    const file = vscode.Uri.joinPath(folder, '.vscode', 'settings.json');
    const text = JSON.stringify({
      'universeExplorer.readOnlyUniverses': [],
      'universeExplorer.operationTimeoutSeconds': 77,
    });
    await vscode.workspace.fs.writeFile(file, Buffer.from(text));
    try {
      await until('the workspace settings read', () => config().get('operationTimeoutSeconds') === 77);
      const stat = await vscode.workspace.fs.stat(uriOf('guarded'));
      assert.equal(stat.permissions, vscode.FilePermission.Readonly);
      assert.equal((await entryNode('Players', 'guarded')).item().contextValue, 'entry.readOnly');
    } finally {
      await vscode.workspace.fs.delete(vscode.Uri.joinPath(folder, '.vscode'), { recursive: true });
      await until('the workspace settings gone', () => config().get('operationTimeoutSeconds') !== 77);
    }
  });

  test('paging through a store of 500 keys shows each key once, and a double "Load more" loads once', async () => {
    const keys = Array.from({ length: 500 }, (_, i) => `k${String(i).padStart(3, '0')}`);
    for (let i = 0; i < keys.length; i += 50) {
      await Promise.all(
        keys.slice(i, i + 50).map((key) => client.datastores.setEntry({ ...at(key, 'Big'), value: i })),
      );
    }
    await vscode.workspace
      .getConfiguration('universeExplorer')
      .update('pageSize', 37, vscode.ConfigurationTarget.Global);
    const store = await storeNode('Big');
    let children = await ctx.tree.getChildren(store);
    assert.equal(children.length, 38);
    const listings = async () =>
      (await emulator.requests({ path: '/entries' })).filter((r) => r.path.endsWith('/datastore/entries')).length;
    const before = await listings();
    await Promise.all([
      vscode.commands.executeCommand('universeExplorer.loadMore', store),
      vscode.commands.executeCommand('universeExplorer.loadMore', store),
    ]);
    assert.equal((await listings()) - before, 1, 'two clicks loaded twice');
    while (kind(children.at(-1)) === 'loadMore') {
      await vscode.commands.executeCommand('universeExplorer.loadMore', store);
      children = await ctx.tree.getChildren(store);
    }
    const seen = children.map((n) => (n as EntryNode).entry.key);
    assert.equal(seen.length, 500);
    assert.deepEqual([...new Set(seen)].sort(), keys);
  });
  test('all scopes show each entry with its scope; Go to Key, Edit Attributes and User IDs, copy, and deleted versions', async () => {
    await client.datastores.setEntry({ ...at('a', 'Scoped', 'global'), value: 1 });
    await client.datastores.setEntry({ ...at('b', 'Scoped', 'season2'), value: 2 });
    const store = await storeNode('Scoped');
    answer().on('pick', /^Scope of Scoped/, 'All scopes');
    await vscode.commands.executeCommand('universeExplorer.chooseScope', store);
    const entries = (await ctx.tree.getChildren(store)).filter(isEntry);
    assert.deepEqual(
      entries.map((e) => [e.entry.key, e.item().description]),
      [
        ['a', 'global'],
        ['b', 'season2'],
      ],
    );

    answer()
      .on('pick', /^Key in Scoped/, 'b')
      .on('input', /^Scope/, 'season2');
    await vscode.commands.executeCommand('universeExplorer.goToKey', store);
    assert.equal(vscode.window.activeTextEditor?.document.getText(), '2\n');

    const b = entries[1];
    answer()
      .on('input', /^Attributes of b/, '{"tier": "gold"}')
      .on('input', /^User ids of b/, '11, 12');
    await vscode.commands.executeCommand('universeExplorer.editMetadata', b);
    const now = await client.datastores.getEntry(at('b', 'Scoped', 'season2'));
    assert.deepEqual([now.value, now.attributes, now.userIds], [2, { tier: 'gold' }, [11, 12]]);

    answer().on('input', /^Attributes of b/, '[1]');
    await vscode.commands.executeCommand('universeExplorer.editMetadata', b);
    assert.match(ui.messages('error')[0] ?? '', /Attributes are a JSON object/);

    answer();
    await vscode.commands.executeCommand('universeExplorer.copyKey', b);
    await vscode.commands.executeCommand('universeExplorer.copyVersion', b);
    assert.deepEqual(ui.copied, ['b', now.version]);

    await client.datastores.deleteEntry(at('b', 'Scoped', 'season2'));
    ctx.tree.refresh(b);
    const [newest] = (await ctx.tree.getChildren(b)).filter(isVersion);
    assert.equal(newest.item().description, 'deleted');
    assert.equal(newest.item().contextValue, 'version.deleted');
  });
});
