// What the query index tests share: seed data with known answers, written into the emulator, and a fresh index
// folder per test.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after } from 'node:test';
import type { OpenApiClient } from '../../../src/api';
import { UniverseIndex, type UniverseIndexOptions } from '../../../src/query';
import type { TestEmulator } from './emulator';

export const U = 6060;

export interface Seed {
  store: string;
  scope: string;
  key: string;
  /** The value's JSON, compact, as DuckDB writes it back (so the index holds exactly this text). */
  raw: string;
  attributes?: Record<string, unknown>;
  userIds?: number[];
}

/**
 * Players across two scopes, guilds, and the cases the searches must tell apart: ids as whole tokens and as parts of
 * longer numbers, unicode, nested JSON, a big integer, quotes.
 */
export const SEED: Seed[] = [
  {
    store: 'Players',
    scope: 'global',
    key: 'Player_2001',
    raw: '{"coins":150,"name":"Zoë","inventory":{"gems":[1,2,3],"bag":{"item":"deep treasure"}}}',
    userIds: [2001],
    attributes: { tier: 'gold' },
  },
  { store: 'Players', scope: 'global', key: 'Player_12001', raw: '{"coins":90,"friends":[2001]}', userIds: [12001] },
  { store: 'Players', scope: 'global', key: 'Player_20010', raw: '{"coins":5000,"note":"id 20010"}', userIds: [20010] },
  { store: 'Players', scope: 'season2', key: 'save_2001_old', raw: '{"coins":0,"season":2}' },
  { store: 'Players', scope: 'global', key: 'ключ 😀', raw: '"значение ✓ Гном"', attributes: { emoji: '😀' } },
  { store: 'Players', scope: 'global', key: 'big', raw: '{"n":12345678901234567890,"coins":101}', userIds: [3] },
  { store: 'Players', scope: 'global', key: 'quote', raw: '{"text":"say \\"hi\\" \\\\ back"}' },
  { store: 'Players', scope: 'global', key: 'list', raw: '[1,2,{"coins":7}]' },
  { store: 'Guilds', scope: 'global', key: 'guild_1', raw: '{"members":[2001,3002],"coins":1000}', userIds: [2001] },
];

/** The key another writer stored plain text under (the emulator refuses such a write: a fault stands for it). */
export const LEGACY = { store: 'Players', scope: 'global', key: 'legacy', text: 'plain text, id 2001' };

export async function seed(client: OpenApiClient, entries: Seed[] = SEED): Promise<void> {
  for (const e of entries) {
    await client.datastores.setEntry({
      universeId: U,
      datastoreName: e.store,
      scope: e.scope,
      entryKey: e.key,
      raw: e.raw,
      attributes: e.attributes,
      userIds: e.userIds,
    });
  }
  // The key is listed (it exists), and its reads answer with the text until the test clears the faults.
  await client.datastores.setEntry({ universeId: U, datastoreName: LEGACY.store, entryKey: LEGACY.key, value: 0 });
}

/** Every read of the legacy key answers its plain text, as the service would after another writer stored it. */
export async function legacyAnswers(emulator: TestEmulator, times = 1000): Promise<void> {
  await emulator.fault({
    method: 'GET',
    path: '/entries/entry',
    query: `entryKey=${LEGACY.key}`,
    status: 200,
    headers: { 'platform-entry-version': 'v-legacy', 'platform-entry-userids': '[2001]' },
    body: LEGACY.text,
    times,
  });
}

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ue-query-'));
const opened: UniverseIndex[] = [];
after(async () => {
  await Promise.all(opened.map((i) => i.close()));
  fs.rmSync(root, { recursive: true, force: true });
});

/** A folder of its own under the test file's temporary folder. */
export const tempFolder = (name: string): string => fs.mkdtempSync(path.join(root, `${name}-`));

/** A new index in a folder of its own, closed after the test file. */
export function newIndex(overrides: Partial<UniverseIndexOptions> = {}): UniverseIndex {
  const index = new UniverseIndex({ dir: tempFolder('index'), universeKey: `test/${U}`, universeId: U, ...overrides });
  opened.push(index);
  return index;
}

/** The first column of every row, as text: the keys a query found. */
export const keys = (result: { rows: unknown[][] }, column = 0): string[] => result.rows.map((r) => String(r[column]));
