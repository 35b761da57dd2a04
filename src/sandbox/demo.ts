// What the Local Sandbox's demo holds (the emulator's `--seed demo`), as the extension needs to know it. No vscode
// import: a unit test checks it against the seed.

export const demoUniverse = { id: 123456, name: 'Demo Universe' };

/**
 * The demo's assets (the emulator's `--seed demo`). The API cannot list a creator's assets, so the Assets group shows
 * only assets it was told of: these are known to the sandbox's connection from its first start.
 */
export const demoAssets = [
  { id: '10000000001', displayName: 'Universe Logo', assetType: 'Decal' },
  { id: '10000000002', displayName: 'Pine Tree', assetType: 'Model' },
  { id: '10000000003', displayName: 'Theme Song', assetType: 'Audio' },
  { id: '10000000004', displayName: 'Fan Art [review]', assetType: 'Decal' },
  { id: '10000000005', displayName: 'Old Banner [reject]', assetType: 'Image' },
] as const;

/** The demo's ordered data stores: the API cannot list them, so the Local Sandbox's demo universe is told of these. */
export const demoOrderedStores = [{ store: 'Leaderboard', scope: 'global' }] as const;

/** The demo's memory stores (the service cannot list them): the Lobby sorted map and the Jobs queue. */
export const demoMemoryStores = { sortedMaps: ['Lobby'], queues: ['Jobs'] } as const;
