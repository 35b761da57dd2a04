// Which commands each tree row's menus show, read from package.json and evaluated as VS Code evaluates a `when`
// clause (`==`, `!=`, `=~ /regex/flags`, `!`, `&&`, `||`, parentheses), for every context value a node can take.
// A `when` clause that escapes its regex twice, or names a context value no node has, fails here.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { assetsKeys } from '../../src/assets/keys';
import { dataStoresKeys } from '../../src/datastores/keys';
import { memoryKeys } from '../../src/memory/keys';
import { orderedKeys } from '../../src/ordered/keys';
import { restrictionsKeys } from '../../src/restrictions/keys';

interface MenuItem {
  command: string;
  when?: string;
  group?: string;
}

interface Keybinding {
  command: string;
  key: string;
  when?: string;
  args?: unknown;
}

const manifest = JSON.parse(fs.readFileSync(path.join(__dirname, '../../package.json'), 'utf8')) as {
  contributes: { menus: Record<string, MenuItem[]>; keybindings: Keybinding[] };
};

type Context = Record<string, string | boolean | undefined>;

/** Evaluates a `when` clause against the context: the subset of VS Code's grammar that package.json uses. */
export function evaluateWhen(when: string, context: Context): boolean {
  let i = 0;
  const space = () => {
    while (when[i] === ' ') i++;
  };
  const word = (): string => {
    space();
    const start = i;
    while (i < when.length && !/[\s()!=&|]/.test(when[i])) i++;
    if (start === i) throw new Error(`expected a name at ${i} in: ${when}`);
    return when.slice(start, i);
  };
  const regex = (): RegExp => {
    space();
    if (when[i] !== '/') throw new Error(`expected a regex at ${i} in: ${when}`);
    let source = '';
    for (i++; i < when.length && when[i] !== '/'; i++) {
      if (when[i] === '\\') source += when[i++];
      source += when[i];
    }
    i++;
    const start = i;
    while (/[a-z]/.test(when[i] ?? '')) i++;
    return new RegExp(source, when.slice(start, i));
  };
  const primary = (): boolean => {
    space();
    if (when[i] === '!' && when[i + 1] !== '=') {
      i++;
      return !primary();
    }
    if (when[i] === '(') {
      i++;
      const value = or();
      space();
      if (when[i++] !== ')') throw new Error(`expected ) in: ${when}`);
      return value;
    }
    const key = word();
    space();
    const op = when.slice(i, i + 2);
    if (op === '==' || op === '!=') {
      i += 2;
      const equal = String(context[key]) === word();
      return op === '==' ? equal : !equal;
    }
    if (op === '=~') {
      i += 2;
      return regex().test(String(context[key] ?? ''));
    }
    if (key === 'true' || key === 'false') return key === 'true';
    return !!context[key];
  };
  const and = (): boolean => {
    let value = primary();
    for (space(); when.startsWith('&&', i); space()) {
      i += 2;
      value = primary() && value;
    }
    return value;
  };
  const or = (): boolean => {
    let value = and();
    for (space(); when.startsWith('||', i); space()) {
      i += 2;
      value = and() || value;
    }
    return value;
  };
  const value = or();
  space();
  if (i < when.length) throw new Error(`unexpected "${when.slice(i)}" in: ${when}`);
  return value;
}

const short = (command: string) => command.replace('universeExplorer.', '');

/** The row's menus: its context menu, and the icons on the row (`inline`). */
function menusOf(viewItem: string): { menu: string[]; inline: string[] } {
  const context = { view: 'universeExplorer.universes', viewItem };
  const shown = manifest.contributes.menus['view/item/context'].filter((m) => evaluateWhen(m.when ?? 'true', context));
  const names = (items: MenuItem[]) => [...new Set(items.map((m) => short(m.command)))].sort();
  return {
    menu: names(shown.filter((m) => !m.group?.startsWith('inline'))),
    inline: names(shown.filter((m) => m.group?.startsWith('inline'))),
  };
}

/** A writable data store row's context menu (cloud v2 rows add the deleted entries toggle). */
const STORE_MENU = [
  'chooseScope',
  'compareStores',
  'compareWithTime',
  'deleteDataStore',
  'exportDataStore',
  'filterEntries',
  'goToKey',
  'importDataStore',
  'newEntry',
  'openAtTime',
  'refresh',
  'restoreToTime',
  'undoRestore',
];

/** An ordered data store row's context menu, highest value first, no range. */
const ORDERED_STORE_MENU = [
  'exportOrderedStore',
  'filterOrderedStore',
  'forgetOrderedStore',
  'newOrderedEntry',
  'refresh',
  'sortOrderedAscending',
];

/** Every context value a node of the Universes view takes, with the commands its menus must show. */
const expected: Record<string, { menu: string[]; inline: string[] }> = {
  connection: {
    menu: ['addUniverse', 'editConnection', 'refresh', 'removeConnection', 'testConnection'],
    inline: ['refresh'],
  },
  'connection.sandbox': {
    menu: ['copySandboxAddress', 'refresh', 'resetSandbox', 'stopSandbox', 'testConnection'],
    inline: ['refresh'],
  },
  universe: {
    menu: ['makeReadOnly', 'refresh', 'removeUniverse', 'setUniverseRole', 'testConnection'],
    inline: ['refresh'],
  },
  'universe.readOnly': {
    menu: ['allowWrites', 'refresh', 'removeUniverse', 'setUniverseRole', 'testConnection'],
    inline: ['refresh'],
  },
  // The Local Sandbox's universes: always development, listed by the sandbox itself.
  'universe.sandbox': { menu: ['refresh', 'testConnection'], inline: ['refresh'] },
  'universe.sandbox.readOnly': { menu: ['refresh', 'testConnection'], inline: ['refresh'] },
  dataStores: {
    menu: [
      'buildQueryIndex',
      'filterDataStores',
      'findValue',
      'queryData',
      'refresh',
      'showDeletedStores',
      'takeSnapshot',
    ],
    inline: ['filterDataStores', 'refresh'],
  },
  'dataStores.deletedShown': {
    menu: [
      'buildQueryIndex',
      'filterDataStores',
      'findValue',
      'hideDeletedStores',
      'queryData',
      'refresh',
      'takeSnapshot',
    ],
    inline: ['filterDataStores', 'refresh'],
  },
  queryIndex: { menu: ['buildQueryIndex', 'findValue', 'loadQueryIndexFromFile', 'queryData'], inline: [] },
  'queryIndex.built': {
    menu: [
      'buildQueryIndex',
      'erasePlayerData',
      'exportQueryIndexParquet',
      'findValue',
      'loadQueryIndexFromFile',
      'queryData',
      'refreshQueryIndex',
    ],
    inline: ['refreshQueryIndex'],
  },
  operations: { menu: [], inline: [] },
  operation: { menu: ['exportOperation', 'forgetOperation'], inline: [] },
  'operation.undoable': { menu: ['exportOperation', 'forgetOperation', 'undoOperation'], inline: [] },
  'dataStore.deleted': { menu: ['refresh', 'undeleteDataStore'], inline: ['refresh', 'undeleteDataStore'] },
  'dataStore.deleted.readOnly': { menu: ['refresh'], inline: ['refresh'] },
  dataStore: {
    menu: STORE_MENU,
    inline: ['chooseScope', 'filterEntries', 'refresh'],
  },
  'dataStore.v2': {
    menu: [...STORE_MENU, 'showDeletedEntries'].sort(),
    inline: ['chooseScope', 'filterEntries', 'refresh'],
  },
  'dataStore.v2.deletedShown': {
    menu: [...STORE_MENU, 'hideDeletedEntries'].sort(),
    inline: ['chooseScope', 'filterEntries', 'refresh'],
  },
  'dataStore.readOnly': {
    menu: [
      'chooseScope',
      'compareStores',
      'compareWithTime',
      'exportDataStore',
      'filterEntries',
      'goToKey',
      'openAtTime',
      'refresh',
    ],
    inline: ['chooseScope', 'filterEntries', 'refresh'],
  },
  storeAtTime: { menu: ['closeAtTime', 'compareWithTime', 'openAtTime', 'restoreToTime'], inline: ['closeAtTime'] },
  'storeAtTime.readOnly': { menu: ['closeAtTime', 'compareWithTime', 'openAtTime'], inline: ['closeAtTime'] },
  entry: {
    menu: [
      'copyKey',
      'copyVersion',
      'deleteEntry',
      'editMetadata',
      'fieldHistory',
      'incrementEntry',
      'openEntryAtTime',
      'refresh',
    ],
    inline: [],
  },
  // A key read or written as something other than a number: the same menu without Increment.
  'entry.notNumber': {
    menu: ['copyKey', 'copyVersion', 'deleteEntry', 'editMetadata', 'fieldHistory', 'openEntryAtTime', 'refresh'],
    inline: [],
  },
  'entry.readOnly': { menu: ['copyKey', 'copyVersion', 'fieldHistory', 'openEntryAtTime', 'refresh'], inline: [] },
  'entry.deleted': {
    menu: ['copyKey', 'copyVersion', 'openEntryAtTime', 'refresh', 'undeleteEntry'],
    inline: ['undeleteEntry'],
  },
  'entry.deleted.readOnly': { menu: ['copyKey', 'copyVersion', 'openEntryAtTime', 'refresh'], inline: [] },
  version: { menu: ['compareVersion', 'copyVersion', 'restoreVersion'], inline: [] },
  'version.readOnly': { menu: ['compareVersion', 'copyVersion'], inline: [] },
  'version.deleted': { menu: ['copyVersion'], inline: [] },
  assets: {
    menu: ['addAssetById', 'checkPendingUploads', 'refresh', 'uploadAsset'],
    inline: ['addAssetById', 'refresh', 'uploadAsset'],
  },
  asset: {
    menu: [
      'archiveAsset',
      'copyAssetId',
      'editAssetInfo',
      'editAssetPreviews',
      'editAssetSocialLinks',
      'refresh',
      'removeAsset',
      'showAssetDetails',
      'updateAssetContent',
    ],
    inline: [],
  },
  'asset.archived': {
    menu: [
      'copyAssetId',
      'editAssetInfo',
      'editAssetPreviews',
      'editAssetSocialLinks',
      'refresh',
      'removeAsset',
      'restoreAsset',
      'showAssetDetails',
    ],
    inline: ['restoreAsset'],
  },
  'asset.unavailable': { menu: ['copyAssetId', 'refresh', 'removeAsset'], inline: [] },
  'asset.pending': { menu: ['checkPendingUploads', 'forgetPendingUpload'], inline: ['checkPendingUploads'] },
  assetVersion: { menu: ['rollbackAsset'], inline: [] },
  'assetVersion.current': { menu: [], inline: [] },
  orderedStores: { menu: ['addOrderedStore', 'refresh'], inline: ['addOrderedStore', 'refresh'] },
  orderedStore: {
    menu: ORDERED_STORE_MENU,
    inline: ['filterOrderedStore', 'refresh', 'sortOrderedAscending'],
  },
  'orderedStore.asc': {
    menu: ORDERED_STORE_MENU.map((c) => (c === 'sortOrderedAscending' ? 'sortOrderedDescending' : c)),
    inline: ['filterOrderedStore', 'refresh', 'sortOrderedDescending'],
  },
  'orderedStore.filtered': {
    menu: [...ORDERED_STORE_MENU, 'clearOrderedFilter'].sort(),
    inline: ['filterOrderedStore', 'refresh', 'sortOrderedAscending'],
  },
  'orderedStore.asc.filtered': {
    menu: [...ORDERED_STORE_MENU, 'clearOrderedFilter']
      .map((c) => (c === 'sortOrderedAscending' ? 'sortOrderedDescending' : c))
      .sort(),
    inline: ['filterOrderedStore', 'refresh', 'sortOrderedDescending'],
  },
  // Read-only: everything but New Entry.
  'orderedStore.readOnly': {
    menu: ORDERED_STORE_MENU.filter((c) => c !== 'newOrderedEntry'),
    inline: ['filterOrderedStore', 'refresh', 'sortOrderedAscending'],
  },
  'orderedStore.asc.filtered.readOnly': {
    menu: [...ORDERED_STORE_MENU, 'clearOrderedFilter']
      .filter((c) => c !== 'newOrderedEntry')
      .map((c) => (c === 'sortOrderedAscending' ? 'sortOrderedDescending' : c))
      .sort(),
    inline: ['filterOrderedStore', 'refresh', 'sortOrderedDescending'],
  },
  orderedEntry: {
    menu: ['copyOrderedId', 'deleteOrderedEntry', 'editOrderedValue', 'incrementOrderedEntry'],
    inline: [],
  },
  'orderedEntry.readOnly': { menu: ['copyOrderedId'], inline: [] },
  memoryStores: { menu: ['flushMemoryStores', 'refresh'], inline: ['refresh'] },
  'memoryStores.readOnly': { menu: ['refresh'], inline: ['refresh'] },
  'memory.sortedMaps': { menu: ['addSortedMap', 'refresh'], inline: ['addSortedMap', 'refresh'] },
  'memory.queues': { menu: ['addQueue', 'refresh'], inline: ['addQueue', 'refresh'] },
  'memory.sortedMap': { menu: ['forgetMemoryName', 'newMapItem', 'refresh'], inline: ['newMapItem', 'refresh'] },
  'memory.sortedMap.readOnly': { menu: ['forgetMemoryName', 'refresh'], inline: ['refresh'] },
  'memory.mapItem': { menu: ['copyMapItemId', 'deleteMapItem', 'editMapItemExpiration'], inline: [] },
  'memory.mapItem.readOnly': { menu: ['copyMapItemId'], inline: [] },
  'memory.queue': {
    menu: ['addQueueItem', 'forgetMemoryName', 'readQueueItems'],
    inline: ['addQueueItem', 'readQueueItems'],
  },
  'memory.queue.readOnly': { menu: ['forgetMemoryName'], inline: [] },
  restrictions: {
    menu: [
      'banUser',
      'banUsersFromList',
      'lookUpUser',
      'refresh',
      'showPlace',
      'showRestrictionLog',
      'unbanEverywhere',
    ],
    inline: ['banUser', 'refresh', 'showRestrictionLog'],
  },
  'restrictions.readOnly': {
    menu: ['lookUpUser', 'refresh', 'showPlace', 'showRestrictionLog'],
    inline: ['refresh', 'showRestrictionLog'],
  },
  restrictionsPlace: {
    menu: ['banUser', 'banUsersFromList', 'hidePlace', 'lookUpUser', 'refresh'],
    inline: ['banUser', 'hidePlace', 'refresh'],
  },
  'restrictionsPlace.readOnly': {
    menu: ['hidePlace', 'lookUpUser', 'refresh'],
    inline: ['hidePlace', 'refresh'],
  },
  'restriction.active': {
    menu: ['editRestriction', 'showPlayer', 'unban', 'unbanEverywhere'],
    inline: ['editRestriction'],
  },
  'restriction.inactive': { menu: ['editRestriction', 'showPlayer', 'unbanEverywhere'], inline: ['editRestriction'] },
  'restriction.active.inherited': { menu: ['showPlayer'], inline: [] },
  'restriction.inactive.inherited': { menu: ['showPlayer'], inline: [] },
  'restriction.active.readOnly': { menu: ['showPlayer'], inline: [] },
  'restriction.inactive.readOnly': { menu: ['showPlayer'], inline: [] },
  'restriction.active.inherited.readOnly': { menu: ['showPlayer'], inline: [] },
  message: { menu: [], inline: [] },
  loadMore: { menu: [], inline: [] },
  error: { menu: ['refresh'], inline: ['refresh'] },
};

describe('tree menus', () => {
  it('the when-clause reader follows VS Code: a regex literal keeps its escapes as written', () => {
    assert.equal(evaluateWhen('viewItem =~ /^a\\.b$/', { viewItem: 'a.b' }), true);
    assert.equal(evaluateWhen('viewItem =~ /^a\\.b$/', { viewItem: 'axb' }), false);
    assert.equal(evaluateWhen('viewItem =~ /^a\\\\.b$/', { viewItem: 'a.b' }), false); // escaped twice
    assert.equal(evaluateWhen('v == x && !(w =~ /y/i)', { v: 'x', w: 'Z' }), true);
    assert.equal(evaluateWhen('v != x || w', { v: 'x', w: true }), true);
  });

  for (const [viewItem, menus] of Object.entries(expected)) {
    it(`a ${viewItem} row shows ${menus.menu.join(', ') || 'no menu'}`, () => {
      assert.deepEqual(menusOf(viewItem), menus);
    });
  }

  it("Delete and Enter run a command the row's own menu offers (so no key reaches what the menu hides)", () => {
    const keys = { ...dataStoresKeys, ...assetsKeys, ...restrictionsKeys, ...orderedKeys, ...memoryKeys };
    assert.ok(keys.entry?.delete && keys.asset?.delete && keys['restriction.active']?.delete);
    for (const [viewItem, key] of Object.entries(keys)) {
      assert.ok(expected[viewItem], `no row in the table for context value ${viewItem}`);
      for (const command of [key.delete, key.open].filter((c) => c !== undefined)) {
        assert.ok(
          menusOf(viewItem).menu.includes(short(command)),
          `${short(command)} is not on a ${viewItem} row's menu`,
        );
      }
    }
    for (const readOnly of Object.keys(expected).filter((v) => v.endsWith('.readOnly'))) {
      assert.equal(keys[readOnly], undefined, `a key acts on ${readOnly} rows`);
    }
  });

  it('every context value set in src is in the table, and every row menu item shows on some row', () => {
    const src = path.join(__dirname, '../../src');
    const files = fs
      .readdirSync(src, { recursive: true })
      .map(String)
      .filter((f) => f.endsWith('.ts'));
    const literals = files.flatMap((f) =>
      [...fs.readFileSync(path.join(src, f), 'utf8').matchAll(/contextValue = [^;]*;/gs)].flatMap((m) =>
        [...m[0].matchAll(/'([a-zA-Z][a-zA-Z.]*)'/g)].map((l) => l[1]),
      ),
    );
    const known = Object.keys(expected);
    for (const literal of literals) {
      assert.ok(
        known.some((k) => `.${k}.`.includes(`.${literal}.`)), // a whole value, or a part of a composed one
        `no row in the table for context value ${literal}`,
      );
    }
    const unreachable = manifest.contributes.menus['view/item/context'].filter(
      (m) =>
        !known.some((viewItem) => evaluateWhen(m.when ?? 'true', { view: 'universeExplorer.universes', viewItem })),
    );
    assert.deepEqual(
      unreachable.map((m) => `${short(m.command)} (${m.when})`),
      [],
    );
  });
});

describe('the keys of the Universes view', () => {
  // VS Code passes no row to a keybinding's command (vscode#72442); with these arguments its extension host passes
  // the view's focused row, the one the arrow keys move to (rowKeyCommands.ts).
  const focusedRow = { $treeViewId: 'universeExplorer.universes', $focusedTreeItem: true };
  const inView = (key: string) =>
    manifest.contributes.keybindings.filter(
      (k) => k.key === key && k.when?.includes('focusedView == universeExplorer.universes'),
    );

  it('Delete runs the row keys on the focused row', () => {
    assert.deepEqual(
      inView('delete').map((k) => [k.command, k.args]),
      [['universeExplorer.deleteSelection', focusedRow]],
    );
  });

  it("Enter runs VS Code's own list.select first, then the row keys on the focused row", () => {
    assert.deepEqual(
      inView('enter').map((k) => [k.command, k.args]),
      [['runCommands', { commands: ['list.select', { command: 'universeExplorer.openSelection', args: focusedRow }] }]],
    );
  });
});
