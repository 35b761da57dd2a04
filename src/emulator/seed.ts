// `--seed demo`: a demo universe 123456 (places 1234561 and 1234562), the same for every seed on the same UTC day.
// Everything is committed as one journal line together with a "seeded" marker, so seeding a data dir that already
// holds the demo does nothing. Its times lie in the 20 days before the emulator's clock (at noon UTC, 20 days before
// the current day, plus fixed offsets): a version history dated further back would be expired by retention at once.
// Memory-store items expire 45 days after that base, so about 25 days after the seed.
import { iso } from './clock';
import type { App } from './http';
import { moderationFor } from './assets';
import type { AssetVersionRec, Creator, Restriction } from './records';
import type { Fact } from './facts';

const DEMO_UNIVERSE = 123456;
const DEMO_PLACES = [1234561, 1234562];
const DEMO_CREATOR = 1001;

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

export function seedDemo(app: App): void {
  if (app.store.seeded.has('demo')) return;
  const now = app.clock.now();
  const base = now - (now % DAY) - 20 * DAY + 12 * 60 * MINUTE;
  const facts: Fact[] = [];
  let seq = app.store.seq;
  const u = DEMO_UNIVERSE;

  const put = (
    store: string,
    scope: string,
    key: string,
    value: unknown,
    at: number,
    meta: { attrs?: object; uids?: number[] } = {},
  ) =>
    facts.push({
      t: 'ds',
      u,
      store,
      scope,
      key,
      seq: ++seq,
      at,
      deleted: false,
      value: Buffer.from(JSON.stringify(value)),
      attrs: meta.attrs && JSON.stringify(meta.attrs),
      uids: JSON.stringify(meta.uids ?? []),
    });

  // PlayerData: 300 players in `global`.
  for (let i = 1; i <= 300; i++) {
    const userId = 10_000 + i;
    put(
      'PlayerData',
      'global',
      `Player_${userId}`,
      {
        coins: (i * 137) % 5000,
        level: 1 + (i % 60),
        xp: (i * 7919) % 100_000,
        tutorialDone: i % 3 !== 0,
        lastLogin: iso(base + i * 37 * MINUTE),
      },
      base + i * MINUTE,
      { uids: [userId], ...(i % 10 === 0 && { attrs: { vip: true } }) },
    );
  }

  // Inventory in two scopes.
  const items = ['sword', 'shield', 'potion', 'bow', 'arrow', 'helmet', 'boots', 'map'];
  for (let i = 1; i <= 40; i++) {
    put(
      'Inventory',
      'global',
      `Player_${10_000 + i}`,
      items.filter((_, j) => (i + j) % 3 === 0),
      base + DAY + i * MINUTE,
    );
  }
  for (let i = 1; i <= 25; i++) {
    put(
      'Inventory',
      'season2',
      `Player_${10_000 + i}`,
      { items: items.slice(0, 1 + (i % items.length)), seasonPass: i % 2 === 0 },
      base + 2 * DAY + i * MINUTE,
    );
  }

  // Settings: a few keys with several versions, attributes and user ids; one deleted key.
  const history: [string, unknown[]][] = [
    [
      'GameConfig',
      [
        { maxPlayers: 20, pvp: false },
        { maxPlayers: 24, pvp: false },
        { maxPlayers: 24, pvp: true, map: 'Island' },
      ],
    ],
    [
      'FeatureFlags',
      [{ newShop: false }, { newShop: true }, { newShop: true, trading: false }, { newShop: true, trading: true }],
    ],
    [
      'Maintenance',
      [
        { enabled: false, message: '' },
        { enabled: true, message: 'Back soon' },
        { enabled: false, message: '' },
      ],
    ],
    [
      'ShopPrices',
      [
        { sword: 100, shield: 80 },
        { sword: 120, shield: 80, potion: 15 },
      ],
    ],
  ];
  history.forEach(([key, versions], k) =>
    versions.forEach((value, n) =>
      put('Settings', 'global', key, value, base + (n * 3 + k) * DAY, {
        attrs: { editedBy: 'designer', revision: n + 1 },
        uids: [DEMO_CREATOR],
      }),
    ),
  );
  put('Settings', 'global', 'LegacyConfig', { old: true }, base);
  facts.push({
    t: 'ds',
    u,
    store: 'Settings',
    scope: 'global',
    key: 'LegacyConfig',
    seq: ++seq,
    at: base + 5 * DAY,
    deleted: true,
    value: Buffer.alloc(0),
    uids: '[]',
  });

  // Leaderboard: numbers (Increment works on them).
  for (let i = 1; i <= 50; i++)
    put('Leaderboard', 'global', `Player_${10_000 + i}`, Number(score(i)), base + 3 * DAY + i * MINUTE);

  seedOrderedAndMemory(facts, base);
  seedRestrictions(facts, () => ++seq, base);
  seedAssets(app, facts, base);
  facts.push({ t: 'seeded', name: 'demo' });
  app.store.commit(facts);
}

/** An ordered Leaderboard (the same scores, keyed by the user id as leaderboards are), a Lobby sorted map of servers and a Jobs queue. */
function seedOrderedAndMemory(facts: Fact[], base: number): void {
  const u = DEMO_UNIVERSE;
  for (let i = 1; i <= 50; i++)
    facts.push({ t: 'od', u, store: 'Leaderboard', scope: 'global', key: String(10_000 + i), v: score(i) });
  for (let i = 1; i <= 10; i++)
    facts.push({ t: 'od', u, store: 'Leaderboard', scope: 'season2', key: String(10_000 + i), v: `${i * 150}` });
  const expireAt = base + 45 * DAY;
  const servers: [id: string, players: number, sortKey: number | string | undefined][] = [
    ['server-eu-1', 12, 12],
    ['server-eu-2', 3, 3],
    ['server-us-1', 20, 20],
    ['server-us-2', 7, 7],
    ['server-asia-1', 0, 0],
    ['server-private-1', 2, 'private'],
    ['server-maintenance', 0, undefined],
  ];
  servers.forEach(([id, players, sortKey], n) => {
    const value = JSON.stringify({ placeId: DEMO_PLACES[n % 2], players, maxPlayers: 24 });
    const item = { id, value, ...(sortKey !== undefined && { sortKey }), expireAt, etag: n + 1 };
    facts.push({ t: 'mi', u, map: 'Lobby', id, item });
  });
  const jobs: [job: string, userId: number, priority: number][] = [
    ['grant-reward', 10_001, 0],
    ['grant-reward', 10_002, 0],
    ['refund-purchase', 10_003, 10],
    ['send-mail', 10_004, 5],
    ['grant-reward', 10_005, 0],
    ['refund-purchase', 10_006, 10],
  ];
  jobs.forEach(([job, userId, priority], n) => {
    const id = (n + 1).toString(16).padStart(32, '0');
    const item = { id, seq: n + 1, data: JSON.stringify({ job, userId }), priority, expireAt };
    facts.push({ t: 'qa', u, queue: 'Jobs', item });
  });
}

/** A player's score: the same in the standard and the ordered Leaderboard. */
const score = (i: number): string => String(((i * 7127) % 9000) + 1000);

function seedRestrictions(facts: Fact[], nextSeq: () => number, base: number): void {
  const u = DEMO_UNIVERSE;
  const ban = (
    user: number,
    place: number | undefined,
    at: number,
    r: Omit<Restriction, 'updateTime' | 'startTime'>,
  ) => {
    const time = iso(at);
    const restriction: Restriction = { updateTime: time, ...r, ...(r.active && { startTime: time }) };
    facts.push({ t: 'ban', u, place, user, r: restriction });
    facts.push({
      t: 'log',
      u,
      log: {
        seq: nextSeq(),
        json: {
          user: `users/${user}`,
          place: place === undefined ? '' : `places/${place}`,
          moderator: { platformUser: `users/${DEMO_CREATOR}` },
          createTime: time,
          active: r.active,
          ...(r.active && { startTime: time }),
          ...(r.duration && { duration: r.duration }),
          privateReason: r.privateReason,
          displayReason: r.displayReason,
          restrictionType: { gameJoinRestriction: {} },
          excludeAltAccounts: r.excludeAltAccounts,
        },
      },
    });
  };
  const [place1, place2] = DEMO_PLACES;
  const defaults = { duration: undefined, excludeAltAccounts: false };
  ban(2001, undefined, base + 4 * DAY, {
    ...defaults,
    active: true,
    privateReason: 'Exploit: speed hack',
    displayReason: 'Cheating',
  });
  ban(2002, undefined, base + 5 * DAY, {
    ...defaults,
    active: true,
    duration: '604800s',
    privateReason: 'Spam in chat',
    displayReason: 'Spamming',
  });
  ban(2003, undefined, base + 6 * DAY, {
    ...defaults,
    active: true,
    duration: '86400s',
    privateReason: 'Griefing',
    displayReason: 'Griefing',
  });
  ban(2003, undefined, base + 6 * DAY + 2 * 60 * MINUTE, {
    ...defaults,
    active: false,
    privateReason: 'Appeal accepted',
    displayReason: '',
  });
  ban(2004, place1, base + 7 * DAY, {
    ...defaults,
    active: true,
    duration: '3600s',
    privateReason: 'Team killing',
    displayReason: 'Team killing',
  });
  ban(2005, place2, base + 8 * DAY, {
    ...defaults,
    active: true,
    excludeAltAccounts: true,
    privateReason: 'Alt of 2001',
    displayReason: 'Ban evasion',
  });
}

/** Small files whose first bytes fit their content type. */
const files = {
  png: (n: number) =>
    Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from(`demo image v${n}`)]),
  rbxm: (n: number) => Buffer.from(`<roblox!demo model v${n}`),
  mp3: (n: number) => Buffer.from(`ID3demo audio v${n}`),
};

function seedAssets(app: App, facts: Fact[], base: number): void {
  const creator: Creator = { userId: String(DEMO_CREATOR) };
  const demo: [
    id: number,
    type: string,
    name: string,
    description: string,
    file: (n: number) => Buffer,
    contentType: string,
    versions: number,
    archived?: boolean,
  ][] = [
    [10_000_000_001, 'Decal', 'Universe Logo', 'The logo shown on the game page.', files.png, 'image/png', 3],
    [10_000_000_002, 'Model', 'Pine Tree', 'A low-poly pine tree.', files.rbxm, 'model/x-rbxm', 2],
    [10_000_000_003, 'Audio', 'Theme Song', 'Lobby music.', files.mp3, 'audio/mpeg', 2],
    [10_000_000_004, 'Decal', 'Fan Art [review]', 'Waiting for moderation.', files.png, 'image/png', 1],
    [10_000_000_005, 'Image', 'Old Banner [reject]', 'Rejected and archived.', files.png, 'image/png', 1, true],
  ];
  demo.forEach(([numericId, assetType, displayName, description, file, contentType, count, archived], a) => {
    const id = String(numericId);
    facts.push({
      t: 'asset',
      a: {
        id,
        assetType,
        displayName,
        description,
        creator,
        state: archived ? 'Archived' : 'Active',
        previews: [],
        links: {},
      },
    });
    for (let n = 1; n <= count; n++) {
      const { hash, size } = app.blobs.put(file(n));
      const v: AssetVersionRec = {
        n,
        createTime: iso(base + (a * 4 + n) * DAY),
        blob: hash,
        size,
        contentType,
        moderationState: moderationFor(displayName),
        creator,
      };
      facts.push({ t: 'aver', id, v });
    }
  });
}
