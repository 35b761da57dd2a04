// The entry editor room in plain Node, against the emulator through the real model and client: the base a dirty
// document was edited from survives a window reload, and a save meets another writer's change or deletion, a
// read-only universe, and text that is not JSON the way the product says.
import { executed, FilePermission, userSettings } from './support/vscode';
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import type { Connections } from '../../src/core/connections';
import { ReadOnlyUniverseError } from '../../src/core/universe';
import { EntryFileSystem } from '../../src/datastores/editor/entryFileSystem';
import type { EntryAddress } from '../../src/datastores/editor/entryPath';
import { OpenEntries, type EntryState } from '../../src/datastores/editor/openEntries';
import { entryUri } from '../../src/datastores/editor/uris';
import { ChoosingUi, connect, editorRoom, MemoryMemento } from './support/editor';
import { sharedEmulator } from './support/emulator';

const U = 4242;
const shared = sharedEmulator();
const encode = (text: string) => new TextEncoder().encode(text);

describe('open entries', () => {
  const a: EntryAddress = { connectionId: 'c', universeId: U, datastoreName: 'S', scope: 'global', key: 'k' };
  const state = (version: string): EntryState => ({
    version,
    attributes: { v: version },
    userIds: [1],
    ctime: 1,
    mtime: 2,
    text: encode('1\n'),
    compact: '1',
  });

  it('keeps a dirty document base in workspaceState, where the next window reads it, until it is clean', async () => {
    const storage = new MemoryMemento();
    const before = new OpenEntries(storage);
    before.show(a, state('v1'));
    before.pin(a);
    before.show(a, state('v2'));
    assert.equal(before.base(a)?.version, 'v1');

    const reloaded = new OpenEntries(storage);
    assert.equal(reloaded.pinned(a), true);
    assert.deepEqual(reloaded.base(a), { version: 'v1', attributes: { v: 'v1' }, userIds: [1], deleted: undefined });
    assert.equal(reloaded.shown(a), undefined);

    reloaded.show(a, state('v3'));
    assert.equal(reloaded.base(a)?.version, 'v1');
    reloaded.unpin(a);
    assert.equal(reloaded.base(a)?.version, 'v3');
    assert.equal(new OpenEntries(storage).pinned(a), false);
  });
});

describe('saving an entry', () => {
  let connections: Connections;
  let a: EntryAddress;
  const at = (key: string) => ({ universeId: U, datastoreName: 'Players', scope: 'global', entryKey: key });
  const value = async (key: string) => (await shared.client.datastores.getEntry(at(key))).raw.toString();

  before(async () => {
    connections = await connect(shared.emulator, U);
  });
  after(() => connections.dispose());
  afterEach(() => {
    userSettings.clear();
    executed.length = 0;
  });

  /** An entry another writer stored, open in a window and edited there (dirty: its base pinned). */
  async function openEdited(key: string, ui = new ChoosingUi(), storage = new MemoryMemento()) {
    await shared.client.datastores.setEntry({ ...at(key), value: { n: 1 }, attributes: { who: 'first' } });
    a = { connectionId: connections.list()[0].id, universeId: U, datastoreName: 'Players', scope: 'global', key };
    const room = editorRoom(connections, storage, ui);
    const shown = await room.editor.load(a);
    room.editor.entries.pin(a);
    return { ...room, ui, storage, shown, uri: entryUri(a) };
  }

  it('after a window reload, saves against the version the edit started from, not the newer one', async () => {
    const first = await openEdited('reloaded');
    const theirs = await shared.client.datastores.setEntry({ ...at('reloaded'), value: { n: 2 } });
    const ui = new ChoosingUi();
    const next = editorRoom(connections, first.storage, ui);
    // The restored document reads the entry again, as VS Code does after a reload; its base stays pinned.
    await next.editor.load(a);
    assert.equal(next.editor.entries.base(a)?.version, first.shown.version);

    const outcome = await next.saver.save(first.uri, encode('{"n": 3}'), 'command');
    assert.equal(outcome.saved, false);
    assert.match(ui.asked[0]?.message ?? '', /"reloaded" \(Players, scope global\) was changed in the service/);
    assert.equal(await value('reloaded'), '{"n":2}');
    assert.equal(next.editor.entries.base(a)?.version, first.shown.version);
    assert.notEqual(first.shown.version, theirs.version);
  });

  it('a change by another writer asks Compare, Overwrite or Discard; Overwrite writes on theirs, keeping their attributes', async () => {
    const { saver, editor, ui, uri } = await openEdited('changed');
    await shared.client.datastores.setEntry({ ...at('changed'), value: { n: 2 }, attributes: { who: 'them' } });
    ui.choose(/was changed in the service/, 'Overwrite');

    const outcome = await saver.save(uri, encode('{"n": 3}'), 'command');
    assert.deepEqual(ui.asked[0]?.actions, ['Compare', 'Overwrite', 'Discard and Reload']);
    assert.equal(outcome.saved, true);
    const now = await shared.client.datastores.getEntry(at('changed'));
    assert.equal(now.raw.toString(), '{"n":3}');
    assert.deepEqual(now.attributes, { who: 'them' });
    assert.equal(outcome.saved && outcome.version, now.version);
    assert.equal(editor.entries.shown(a)?.version, now.version);
    assert.equal(editor.entries.pinned(a), false);
  });

  it('Compare opens the service version beside the edit and saves nothing; Discard drops the edit', async () => {
    const { saver, ui, uri } = await openEdited('compared');
    await shared.client.datastores.setEntry({ ...at('compared'), value: { n: 2 } });
    ui.choose(/was changed/, 'Compare').choose(/was changed/, 'Discard and Reload');

    const compared = await saver.save(uri, encode('{"n": 3}'), 'command');
    assert.equal(compared.saved, false);
    assert.deepEqual(
      executed.map((e) => e.command),
      ['vscode.diff'],
    );
    const discarded = await saver.save(uri, encode('{"n": 3}'), 'command');
    assert.ok(!discarded.saved && discarded.discarded, JSON.stringify(discarded));
    assert.equal(await value('compared'), '{"n":2}');
  });

  it('a deletion by another writer asks Re-create or Discard; Re-create writes the edit with the attributes it had', async () => {
    const { saver, ui, uri } = await openEdited('gone');
    await shared.client.datastores.deleteEntry(at('gone'));
    ui.choose(/was deleted in the service/, 'Re-create');

    const outcome = await saver.save(uri, encode('{"n": 3}'), 'command');
    assert.deepEqual(ui.asked[0]?.actions, ['Re-create', 'Discard']);
    assert.equal(outcome.saved, true);
    const now = await shared.client.datastores.getEntry(at('gone'));
    assert.equal(now.raw.toString(), '{"n":3}');
    assert.deepEqual(now.attributes, { who: 'first' });
  });

  it('a deletion by another writer, discarded, writes nothing', async () => {
    const { saver, ui, uri } = await openEdited('dropped');
    await shared.client.datastores.deleteEntry(at('dropped'));
    ui.choose(/was deleted in the service/, 'Discard');

    const outcome = await saver.save(uri, encode('{"n": 3}'), 'command');
    assert.ok(!outcome.saved && outcome.discarded, JSON.stringify(outcome));
    assert.equal(
      (await shared.client.datastores.listEntryVersions({ ...at('dropped'), sortOrder: 'Descending' })).items[0]
        ?.deleted,
      true,
    );
  });

  it('a read-only universe refuses the save in its words, and the model refuses the write itself', async () => {
    const { saver, model, editor, ui, uri } = await openEdited('locked');
    userSettings.set('readOnlyUniverses', [U]);

    const outcome = await saver.save(uri, encode('{"n": 3}'), 'command');
    assert.ok(!outcome.saved);
    assert.equal(
      outcome.message,
      `universe ${U} on Editor tests is read-only (setting universeExplorer.readOnlyUniverses); to write to it, remove ${U} from that user setting; "locked" (Players, scope global) was not saved.`,
    );
    await assert.rejects(model.writeDocument(a, '3', editor.entries.base(a)), ReadOnlyUniverseError);
    assert.deepEqual(ui.asked, []);
    assert.equal(await value('locked'), '{"n":1}');
  });

  it('text that is not JSON is refused with its line and column, and the document stays dirty', async () => {
    const { saver, editor, shown, uri } = await openEdited('typo');
    const outcome = await saver.save(uri, encode('{\n  "n": }'), 'command');
    assert.ok(!outcome.saved);
    assert.match(outcome.message, /^"typo" \(Players, scope global\) is not valid JSON \(line 2, column 8: .*\)/);
    assert.equal(editor.entries.pinned(a), true);
    assert.equal(editor.entries.base(a)?.version, shown.version);
    assert.equal(await value('typo'), '{"n":1}');
  });

  it('a value that is not JSON in the service opens read-only, as it is', async () => {
    const { editor, saver, uri } = await openEdited('text');
    await shared.emulator.fault({
      method: 'GET',
      path: '/entries/entry',
      status: 200,
      headers: { 'content-type': 'application/json', 'platform-entry-version': 'v-text' },
      body: 'just text, {',
      times: 1,
    });
    editor.entries.unpin(a);
    editor.entries.forget(a);
    const files = new EntryFileSystem(editor, saver);
    try {
      const stat = await files.stat(uri);
      assert.equal(stat.permissions, FilePermission.Readonly);
      assert.equal(new TextDecoder().decode(editor.entries.shown(a)?.text), 'just text, {');
      assert.equal(editor.entries.shown(a)?.compact, undefined);
    } finally {
      files.dispose();
    }
  });
});
