// Entries that behave like real files in a real VS Code: auto-save never writes an entry, a write from the tree
// or another writer never gets overwritten by a save of an older edit, a deleted entry has its own choice and
// marks, every failed save says why in the product's words, any JSON keeps its literals, and titles show the key.
// (The window reload cases are UI tests: a reload ends the extension host that runs this suite.)
import * as assert from 'node:assert/strict';
import { suite, suiteSetup, suiteTeardown, teardown, test } from 'mocha';
import * as vscode from 'vscode';
import { OpenApiClient } from '../../../src/api';
import type { Connection } from '../../../src/core/connections';
import { localTime } from '../../../src/core/time';
import type { DataStoreNode, EntryNode } from '../../../src/datastores/tree';
import { entryUri, versionTime, versionUri } from '../../../src/datastores/editor/uris';
import type { TestContext } from '../../../src/extension';
import { TestEmulator } from '../../unit/support/emulator';
import { notJsonEntryRead } from '../faults';
import { SuiteService } from './service';
import {
  extensionApi,
  isEntry,
  kind,
  label,
  openEditor,
  replaceText,
  ScriptedUi,
  until,
  revertAndCloseAll,
} from './support';

const U = 6161;
const KEY = 'entry-tests-key';
const NAME = 'Entry Tests';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

suite('entries like files', () => {
  let ctx: TestContext;
  let realUi: TestContext['ui'];
  let service: SuiteService;
  let emulator: TestEmulator;
  let client: OpenApiClient;
  let connection: Connection;
  let ui: ScriptedUi;

  const at = (key: string, datastoreName = 'Files', scope = 'global') => ({
    universeId: U,
    datastoreName,
    scope,
    entryKey: key,
  });
  const uriOf = (key: string, datastoreName = 'Files', scope = 'global') =>
    entryUri({ connectionId: connection.id, universeId: U, datastoreName, scope, key });
  const posts = async () => (await emulator.requests({ method: 'POST', path: '/entries/entry' })).length;
  const value = async (key: string) => (await client.datastores.getEntry(at(key))).raw.toString();

  function answer(): ScriptedUi {
    ui = new ScriptedUi();
    ctx.ui = ui;
    return ui;
  }

  /** Save Entry, as Ctrl+S runs it in an entry's editor. */
  async function saveEntry(editor: vscode.TextEditor): Promise<void> {
    await vscode.window.showTextDocument(editor.document);
    await vscode.commands.executeCommand('universeExplorer.saveEntry');
  }

  async function storeNode(name = 'Files'): Promise<DataStoreNode> {
    const root = (await ctx.tree.getChildren()).find((n) => label(n) === NAME);
    assert.ok(root, 'the test connection is not in the tree');
    const [universe] = await ctx.tree.getChildren(root);
    const [stores] = await ctx.tree.getChildren(universe);
    ctx.tree.refresh(stores);
    const store = (await ctx.tree.getChildren(stores)).find((n) => label(n) === name);
    assert.ok(store, `no store ${name}`);
    return store as DataStoreNode;
  }

  /**
   * Runs `steps` with a document checked for a newer version at most every 300 ms instead of every 10 s; the steps
   * wait out that interval themselves.
   */
  async function withShortChecks(steps: (checkEveryMs: number) => Promise<void>): Promise<void> {
    const usual = ctx.entryDocuments.checkEveryMs;
    ctx.entryDocuments.checkEveryMs = 300;
    try {
      await steps(ctx.entryDocuments.checkEveryMs);
    } finally {
      ctx.entryDocuments.checkEveryMs = usual;
    }
  }

  async function entryNode(key: string): Promise<EntryNode> {
    const node = (await ctx.tree.getChildren(await storeNode())).find((n) => isEntry(n) && n.entry.key === key);
    assert.ok(node && isEntry(node), `no entry ${key}`);
    return node;
  }

  suiteSetup(async () => {
    ctx = (await extensionApi()).testing.ctx;
    realUi = ctx.ui;
    service = await SuiteService.start(KEY);
    ({ emulator, client } = service);
    connection = await service.connect(ctx, NAME, [{ id: U }]);
  });

  teardown(async () => {
    ctx.ui = realUi;
    await revertAndCloseAll();
    for (const [section, key] of [
      ['files', 'autoSave'],
      ['files', 'autoSaveDelay'],
      ['universeExplorer', 'entries.autoSave'],
    ]) {
      await vscode.workspace.getConfiguration(section).update(key, undefined, vscode.ConfigurationTarget.Global);
    }
  });

  suiteTeardown(() => service.close(ctx));

  test('auto-save after a delay never writes an entry: half-typed JSON, then valid JSON, until an explicit save', async () => {
    await client.datastores.setEntry({ ...at('typed'), value: { n: 1 } });
    await vscode.workspace
      .getConfiguration('files')
      .update('autoSave', 'afterDelay', vscode.ConfigurationTarget.Global);
    await vscode.workspace.getConfiguration('files').update('autoSaveDelay', 100, vscode.ConfigurationTarget.Global);
    answer();
    const editor = await openEditor(uriOf('typed'));
    assert.equal(editor.document.languageId, 'universe-entry');
    const before = await posts();
    await replaceText(editor, '{"n": ');
    await sleep(1000);
    await replaceText(editor, '{"n": 2}');
    await sleep(1000);
    assert.equal(await posts(), before, 'auto-save wrote the entry');
    assert.equal(editor.document.isDirty, true, 'the edit looks saved but is not');
    assert.deepEqual([...ui.messages('error'), ...ui.messages('warn')], []);
    await saveEntry(editor);
    await until('the explicit save', () => !editor.document.isDirty);
    assert.equal(await value('typed'), '{"n":2}');
    assert.equal((await posts()) - before, 1);
  });

  test('the opt-in auto-save writes valid JSON only, and a change in the service stops it without a dialog', async () => {
    await client.datastores.setEntry({ ...at('auto'), value: { n: 1 } });
    await vscode.workspace
      .getConfiguration('universeExplorer')
      .update('entries.autoSave', true, vscode.ConfigurationTarget.Global);
    await vscode.workspace.getConfiguration('files').update('autoSaveDelay', 100, vscode.ConfigurationTarget.Global);
    answer();
    const editor = await openEditor(uriOf('auto'));
    const before = await posts();
    await replaceText(editor, '{"n": ');
    await sleep(800);
    assert.equal(await posts(), before, 'invalid JSON was written');
    await replaceText(editor, '{"n": 2}');
    await until('the auto-save', () => !editor.document.isDirty, 5000);
    assert.equal(await value('auto'), '{"n":2}');

    await client.datastores.setEntry({ ...at('auto'), value: { n: 'theirs' } });
    await replaceText(editor, '{"n": 3}');
    await until('the warning', () => ui.messages('warn').length > 0, 5000);
    assert.match(ui.messages('warn')[0], /^Not saved: "auto" \(Files, scope global\) was changed in the service/);
    assert.equal(await value('auto'), '{"n":"theirs"}');
    assert.equal(editor.document.isDirty, true);
    assert.ok(!ui.prompts.some((p) => p.kind === 'warn' && /Compare/.test(p.text)), 'a dialog while typing');
  });

  test('Increment from the tree while the document is dirty: the save asks instead of overwriting', async () => {
    await client.datastores.setEntry({ ...at('counter'), value: 10 });
    const editor = await openEditor(uriOf('counter'));
    await replaceText(editor, '11');
    answer().on('input', /^Increment counter by/, '5');
    await vscode.commands.executeCommand('universeExplorer.incrementEntry', await entryNode('counter'));
    assert.equal(await value('counter'), '15');
    assert.equal(editor.document.getText(), '11', 'the edit was replaced');
    answer().on('warn', /^"counter" \(Files, scope global\) was changed in the service/, 'Compare');
    await saveEntry(editor);
    assert.ok(
      ui.prompts.some((p) => p.kind === 'warn'),
      'no conflict choice',
    );
    assert.equal(await value('counter'), '15', 'the increment was overwritten');
    assert.equal(editor.document.isDirty, true);
    assert.deepEqual(ui.messages('error'), []);

    // The same through VS Code's own save (File > Save): the same choice.
    answer().on('warn', /was changed in the service/, 'Overwrite');
    assert.equal(await editor.document.save(), true);
    assert.equal(await value('counter'), '11');
  });

  test("Discard and Reload from VS Code's own save shows the service's value, not the discarded edit", async () => {
    await client.datastores.setEntry({ ...at('dropped'), value: { n: 1 } });
    const editor = await openEditor(uriOf('dropped'));
    await replaceText(editor, '{"n": 1, "mine": true}');
    await client.datastores.setEntry({ ...at('dropped'), value: { n: 2 } });
    answer().on('warn', /^"dropped" .* was changed in the service/, 'Discard and Reload');
    await editor.document.save();
    await until('the service value shown', () => editor.document.getText().includes('"n": 2'));
    assert.equal(editor.document.isDirty, false);
    assert.doesNotMatch(editor.document.getText(), /mine/);
    assert.equal(await value('dropped'), '{"n":2}');
  });

  test("another writer's same-size change, then Edit Attributes from the tree: the save still asks", async () => {
    await client.datastores.setEntry({ ...at('same'), value: { v: 1 } });
    const editor = await openEditor(uriOf('same'));
    await replaceText(editor, '{"v": 3}');
    await client.datastores.setEntry({ ...at('same'), value: { v: 2 } });
    answer()
      .on('input', /^Attributes of same/, '{"tier": "gold"}')
      .on('input', /^User ids of same/, '');
    await vscode.commands.executeCommand('universeExplorer.editMetadata', await entryNode('same'));
    answer();
    await saveEntry(editor);
    assert.ok(
      ui.prompts.some((p) => p.kind === 'warn' && /^"same" .* was changed in the service/.test(p.text)),
      'no conflict choice',
    );
    assert.equal(await value('same'), '{"v":2}');
    assert.equal(editor.document.getText(), '{"v": 3}');
  });

  test('an entry deleted by another writer: the save offers Re-create (keeping metadata) or Discard', async () => {
    await client.datastores.setEntry({ ...at('gone'), value: { x: 1 }, attributes: { keep: true }, userIds: [9] });
    const editor = await openEditor(uriOf('gone'));
    await replaceText(editor, '{"x": 2}');
    await client.datastores.deleteEntry(at('gone'));
    answer().on('warn', /^"gone" \(Files, scope global\) was deleted in the service/, 'Re-create');
    await saveEntry(editor);
    await until('the save', () => !editor.document.isDirty);
    const now = await client.datastores.getEntry(at('gone'));
    assert.equal(now.raw.toString(), '{"x":2}');
    assert.deepEqual([now.attributes, now.userIds], [{ keep: true }, [9]]);

    await replaceText(editor, '{"x": 3}');
    await client.datastores.deleteEntry(at('gone'));
    answer().on('warn', /was deleted in the service/, 'Discard');
    await saveEntry(editor);
    await until(
      'the last value, read-only',
      async () => !editor.document.isDirty && editor.document.getText().includes('"x": 2'),
    );
    const stat = await vscode.workspace.fs.stat(uriOf('gone'));
    assert.equal(stat.permissions, vscode.FilePermission.Readonly);
  });

  test('a key deleted by another writer is marked deleted in the tree and opens its last value read-only', async () => {
    await client.datastores.setEntry({ ...at('tomb'), value: { last: true } });
    await client.datastores.setEntry({ ...at('alive'), value: 1 });
    await client.datastores.deleteEntry(at('tomb'));
    const store = await storeNode();
    await ctx.tree.getChildren(store);
    const tomb = await until('the deleted mark', async () => {
      const node = (await ctx.tree.getChildren(store)).find((n) => isEntry(n) && n.entry.key === 'tomb');
      return node && /deleted/.test(String(node.item().description)) && node;
    });
    assert.equal(kind(tomb), 'entry.deleted');
    const alive = (await ctx.tree.getChildren(store)).find((n) => isEntry(n) && n.entry.key === 'alive');
    assert.equal(kind(alive), 'entry');
    const editor = await openEditor(uriOf('tomb'));
    assert.match(editor.document.getText(), /"last": true/);
    assert.equal((await vscode.workspace.fs.stat(uriOf('tomb'))).permissions, vscode.FilePermission.Readonly);
  });

  test('Go to Key on a key that does not exist offers to create it', async () => {
    answer()
      .on('pick', /^Key in Files/, 'brand-new')
      .on('warn', /^"brand-new" \(Files, scope global\) does not exist/, 'Create');
    await vscode.commands.executeCommand('universeExplorer.goToKey', await storeNode());
    assert.equal(await value('brand-new'), '{}');
    await until(
      'the new entry open',
      () => vscode.window.activeTextEditor?.document.uri.toString() === uriOf('brand-new').toString(),
    );
    assert.deepEqual(ui.messages('error'), []);
  });

  test('a document in another encoding is refused with "reopen with UTF-8", nothing replaced', async () => {
    await client.datastores.setEntry({ ...at('latin'), value: { s: 'a' } });
    const open1 = vscode.workspace.openTextDocument as (
      uri: vscode.Uri,
      options: { encoding: string },
    ) => Thenable<vscode.TextDocument>;
    const doc = await open1(uriOf('latin'), { encoding: 'latin1' });
    const editor = await vscode.window.showTextDocument(doc);
    await replaceText(editor, '{"s": "é"}');
    answer();
    await saveEntry(editor);
    assert.match(ui.messages('error')[0] ?? '', /^Not saved: "latin" .* Reopen it with UTF-8 encoding/);
    assert.equal(await editor.document.save(), false);
    assert.equal(await value('latin'), '{"s":"a"}');
  });

  test('any JSON JSON.parse takes is saved with its literals exactly: a 450-digit number, nesting 1,500 deep', async () => {
    await client.datastores.setEntry({ ...at('big'), value: 0 });
    const editor = await openEditor(uriOf('big'));
    const big = `{"n": ${'9'.repeat(450)}, "f": 1.50, "deep": ${'['.repeat(1500)}${']'.repeat(1500)}}`;
    await replaceText(editor, big);
    answer();
    await saveEntry(editor);
    assert.deepEqual(ui.messages('error'), []);
    assert.equal(await value('big'), `{"n":${'9'.repeat(450)},"f":1.50,"deep":${'['.repeat(1500)}${']'.repeat(1500)}}`);
  });

  test('tab titles show the real key, and a version tab says which version it is', async () => {
    const key = 'inv/50%off/100%';
    await client.datastores.setEntry({ ...at(key, 'Odd/Store'), value: 1 });
    await client.datastores.setEntry({ ...at(key, 'Odd/Store'), value: 2 });
    await openEditor(uriOf(key, 'Odd/Store'));
    const title = () => vscode.window.tabGroups.activeTabGroup.activeTab?.label;
    assert.equal(title(), 'inv\u221550%off\u2215100%.json');
    const [, old] = (await client.datastores.listEntryVersions({ ...at(key, 'Odd/Store'), sortOrder: 'Descending' }))
      .items;
    const address = { connectionId: connection.id, universeId: U, datastoreName: 'Odd/Store', scope: 'global', key };
    await openEditor(versionUri(address, old));
    // Its local time (the extension host's zone, which the helper reads too), never the version id.
    const when = localTime(old.createdTime, { seconds: true });
    assert.equal(title(), `inv\u221550%off\u2215100%.json (version of ${when})`);
  });

  test('a value that is not JSON (another writer stored text) opens read-only as text, and says so', async () => {
    // The emulator refuses such a value, as the service does today: another writer's older value is played back.
    await emulator.fault(notJsonEntryRead(3));
    try {
      const editor = await openEditor(uriOf('text'));
      assert.equal(editor.document.getText(), 'just text, {');
      assert.equal((await vscode.workspace.fs.stat(uriOf('text'))).permissions, vscode.FilePermission.Readonly);
      const notes = await until(
        'the note',
        () =>
          vscode.languages.getDiagnostics(editor.document.uri).length > 0 &&
          vscode.languages.getDiagnostics(editor.document.uri),
      );
      assert.match(notes[0].message, /not JSON .* read-only/);
    } finally {
      await emulator.clearFaults();
    }
  });

  test('Compare opens the service version beside the edit; saving from it with Overwrite ends the comparison', async () => {
    await client.datastores.setEntry({ ...at('compared'), value: { v: 1 } });
    const editor = await openEditor(uriOf('compared'));
    await replaceText(editor, '{"v": "mine"}');
    await client.datastores.setEntry({ ...at('compared'), value: { v: 'theirs' } });
    answer().on('warn', /was changed in the service/, 'Compare');
    await saveEntry(editor);
    const diffs = () =>
      vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.input instanceof vscode.TabInputTextDiff);
    await until('the comparison', () => diffs().length === 1);
    assert.equal(editor.document.isDirty, true);
    answer().on('warn', /was changed in the service/, 'Overwrite');
    await vscode.commands.executeCommand('universeExplorer.saveEntry', editor.document.uri);
    await until('the comparison closed', () => diffs().length === 0);
    assert.equal(await value('compared'), '{"v":"mine"}');
    assert.equal(editor.document.isDirty, false);
  });

  test('a clean entry brought to the front reloads when the service has a newer version (checked at most every 10 s)', async function () {
    this.timeout(30_000);
    await withShortChecks(async (checkEveryMs) => {
      await client.datastores.setEntry({ ...at('focus-a'), value: 'a1' });
      await client.datastores.setEntry({ ...at('focus-b'), value: 'b1' });
      const a = await openEditor(uriOf('focus-a'));
      await openEditor(uriOf('focus-b'));
      await client.datastores.setEntry({ ...at('focus-a'), value: 'a2' });
      await sleep(checkEveryMs + 200);
      await vscode.window.showTextDocument(a.document);
      await until('the newer value', () => a.document.getText().includes('a2'), 5000);
      assert.equal(a.document.isDirty, false);
    });
  });

  test('a clean entry reloaded because another writer changed it says so', async function () {
    this.timeout(30_000);
    await withShortChecks(async (checkEveryMs) => {
      await client.datastores.setEntry({ ...at('noticed'), value: 'n1' });
      await client.datastores.setEntry({ ...at('elsewhere'), value: 'e1' });
      const noticed = await openEditor(uriOf('noticed'));
      await openEditor(uriOf('elsewhere'));
      const written = await client.datastores.setEntry({ ...at('noticed'), value: 'n2' });
      const ui = answer();
      await sleep(checkEveryMs + 200);
      await vscode.window.showTextDocument(noticed.document);
      await until('the newer value', () => noticed.document.getText().includes('n2'), 5000);
      const when = versionTime(written.createdTime);
      await until('the notice', () =>
        ui
          .messages('info')
          .includes(`"noticed" (Files, scope global) was changed in the service; it now shows the version of ${when}.`),
      );
    });
  });

  test('an open deleted entry undeleted from the tree loses its "deleted" note and can be edited again', async () => {
    await client.datastores.setEntry({ ...at('revived'), value: { hp: 1 } });
    await client.datastores.deleteEntry(at('revived'));
    const editor = await openEditor(uriOf('revived'));
    const notes = () =>
      vscode.languages
        .getDiagnostics(editor.document.uri)
        .map((d) => d.message)
        .join(' ');
    await until('the deleted note', () => /^Deleted in the service/.test(notes()));
    answer().on('info', /^Undeleted "revived"/, undefined);
    await vscode.commands.executeCommand('universeExplorer.undeleteEntry', await entryNode('revived'));
    await until('the note gone', () => !/Deleted in the service/.test(notes()));
    assert.equal((await vscode.workspace.fs.stat(uriOf('revived'))).permissions, undefined);
  });

  test('an open, clean entry reloads when the product writes it, and a save says so in the status bar', async () => {
    await client.datastores.setEntry({ ...at('fresh'), value: 1 });
    const editor = await openEditor(uriOf('fresh'));
    answer().on('input', /^Increment fresh by/, '2');
    await vscode.commands.executeCommand('universeExplorer.incrementEntry', await entryNode('fresh'));
    await until('the reloaded value', () => editor.document.getText().trim() === '3');
    assert.equal(editor.document.isDirty, false);
  });
});
