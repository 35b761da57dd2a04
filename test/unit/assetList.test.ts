// The list of known assets against a Memento that, like globalState, can answer with an older value for a moment
// after an update (its echo of an earlier write arrives after a newer one).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type * as vscode from 'vscode';
import { AssetList } from '../../src/assets/assetList';

/** Reads see a write only once it is persisted, a few ms later. */
function laggingMemento(): vscode.Memento {
  const persisted = new Map<string, unknown>();
  return {
    keys: () => [...persisted.keys()],
    get: <T>(key: string, fallback?: T) => (persisted.has(key) ? (persisted.get(key) as T) : fallback),
    update: (key: string, value: unknown) =>
      new Promise<void>((resolve) =>
        setTimeout(() => {
          if (value === undefined)
            persisted.delete(key); // as globalState: undefined removes the key
          else persisted.set(key, value);
          resolve();
        }, 5),
      ),
  } as vscode.Memento;
}

test('two assets added together are both kept, in the order added, newest first', async () => {
  const state = laggingMemento();
  const assets = new AssetList(state);
  await Promise.all([
    assets.add('c', { id: '1', displayName: 'Red' }),
    assets.add('c', { id: '2', displayName: 'Blue', assetType: 'Decal' }),
  ]);
  assert.deepEqual(assets.list('c'), [
    { id: '2', displayName: 'Blue', assetType: 'Decal' },
    { id: '1', displayName: 'Red' },
  ]);
  assert.deepEqual(new AssetList(state).list('c'), assets.list('c'), 'and what was persisted is the same');
});

test('update, forget and forgetting a connection go through to the stored list', async () => {
  const state = laggingMemento();
  const assets = new AssetList(state);
  await assets.add('c', { id: '1', displayName: 'Red' });
  await assets.add('c', { id: '2', displayName: 'Blue' });
  await assets.update('c', { id: '1', displayName: 'Crimson' });
  await assets.update('c', { id: '9', displayName: 'never listed' });
  await assets.forget('c', '2');
  assert.deepEqual(new AssetList(state).list('c'), [{ id: '1', displayName: 'Crimson' }]);
  await assets.forgetConnection('c');
  assert.deepEqual(assets.list('c'), []);
  assert.deepEqual(new AssetList(state).list('c'), []);
});

test('a list read from memory is a copy: changing it changes nothing kept', () => {
  const assets = new AssetList(laggingMemento());
  assets.list('c').push({ id: 'x', displayName: 'stray' });
  assert.deepEqual(assets.list('c'), []);
});
