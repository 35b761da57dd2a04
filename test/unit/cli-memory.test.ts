// The memory store commands of the command line (dist/cli.js) against the emulator over loopback HTTP: sorted map
// list, get, set and delete; queue add, read (which hides the items) and discard; the flush of the universe, only
// with its confirmation. Bad input is answered with exit 2 before anything is sent.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { API_KEY } from './support/client';
import { buildCli, cli, CLI_KEY } from './support/cli';
import { sharedEmulator } from './support/emulator';

const U = '6363';
const shared = sharedEmulator({ apiKeys: [{ key: CLI_KEY }, { key: API_KEY }] });
before(() => buildCli());
const connection = () => ['--base-url', shared.emulator.url, '--universe', U];
const memory = (...args: string[]) => cli(['memory', ...args, ...connection()]);

describe('universe-explorer memory map', () => {
  it('sets items (value, sort key, ttl), lists them in map order, gets one and deletes it', async () => {
    const set = await memory(
      'map',
      'set',
      '--map',
      'Lobby',
      '--key',
      'b',
      '--value',
      '{"n":2}',
      '--sort-key',
      '1',
      '--ttl',
      '1h',
      '--json',
    );
    assert.equal(set.code, 0, set.stderr);
    const item = set.json().item as Record<string, unknown>;
    assert.deepEqual(
      { ...item, expireTime: typeof item.expireTime },
      { key: 'b', value: { n: 2 }, sortKey: 1, expireTime: 'string' },
    );
    const a = await memory(
      'map',
      'set',
      '--map',
      'Lobby',
      '--key',
      'a',
      '--value',
      '"text"',
      '--sort-key',
      'z',
      '--ttl',
      '600',
    );
    assert.equal(a.code, 0, a.stderr);
    assert.match(a.stdout, /^a: "text" \(sort key "z"\), expires .* in sorted map Lobby\.\n$/);
    const list = await memory('map', 'list', '--map', 'Lobby', '--json');
    assert.equal(list.code, 0, list.stderr);
    const listed = list.json();
    assert.deepEqual(
      (listed.items as { key: string }[]).map((i) => i.key),
      ['b', 'a'],
    );
    assert.equal(listed.more, false);
    const cut = await memory('map', 'list', '--map', 'Lobby', '--limit', '1');
    assert.match(
      cut.stdout,
      /^b: \{"n":2\} \(sort key 1\), expires .*\n1 item in sorted map Lobby; more follow: raise --limit\.\n$/,
    );
    const got = await memory('map', 'get', '--map', 'Lobby', '--key', 'a', '--json');
    assert.equal((got.json().item as { value: unknown }).value, 'text');
    const del = await memory('map', 'delete', '--map', 'Lobby', '--key', 'a', '--json');
    assert.deepEqual(del.json(), { command: 'memory map delete', exitCode: 0, universe: U, map: 'Lobby', key: 'a' });
    const gone = await memory('map', 'get', '--map', 'Lobby', '--key', 'a');
    assert.equal(gone.code, 1);
    assert.match(gone.stderr, /key "a" is not in sorted map Lobby \(missing or expired\): check --key/);
  });

  it('bad input is a usage error (exit 2) and nothing is sent', async () => {
    for (const [args, said] of [
      [['map', 'list'], /--map is missing/],
      [['map', 'set', '--map', 'M', '--key', 'k', '--value', '{bad', '--ttl', '1h'], /--value: "\{bad" is not JSON/],
      [['map', 'set', '--map', 'M', '--key', 'k', '--value', 'null', '--ttl', '1h'], /--value: null cannot be stored/],
      [['map', 'set', '--map', 'M', '--key', 'k', '--value', '1'], /--ttl is missing/],
      [['map', 'set', '--map', 'M', '--key', 'k', '--value', '1', '--ttl', '46d'], /--ttl: from 1 second to 45 days/],
      [['map', 'set', '--map', 'M', '--key', 'k', '--value', '1', '--ttl', 'soon'], /--ttl: "soon" is not a time/],
      [['map', 'get', '--map', 'M'], /--key is missing/],
      [['queue', 'add', '--queue', 'Q', '--data', '{', '--ttl', '1h'], /--data: "\{" is not JSON/],
      [['queue', 'add', '--queue', 'Q', '--data', '1', '--priority', 'high', '--ttl', '1h'], /--priority: "high"/],
      [['queue', 'read'], /--queue is missing/],
      [['queue', 'read', '--queue', 'Q', '--count', '201'], /--count: "201" is not a whole number from 1 to 200/],
      [['queue', 'discard', '--queue', 'Q'], /--read-id is missing/],
      [['flush'], /nothing was sent; to go on, add --yes-flush-universe 6363/],
      [['flush', '--yes-flush-universe', '6364'], /nothing was sent; to go on, add --yes-flush-universe 6363/],
    ] as const) {
      const r = await memory(...args);
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr, said);
    }
    assert.deepEqual(await shared.emulator.requests(), []);
  });
});

describe('universe-explorer memory queue and flush', () => {
  it('adds, reads (hiding the items, with the read id) and discards; a second read finds nothing', async () => {
    const low = await memory('queue', 'add', '--queue', 'Rewards', '--data', '{"r":1}', '--ttl', '1h');
    assert.equal(low.code, 0, low.stderr);
    assert.equal(low.stdout, 'Added {"r":1} to queue Rewards (priority 0).\n');
    const high = await memory(
      'queue',
      'add',
      '--queue',
      'Rewards',
      '--data',
      '"vip"',
      '--priority',
      '5',
      '--ttl',
      '1h',
      '--json',
    );
    assert.deepEqual(high.json(), {
      command: 'memory queue add',
      exitCode: 0,
      universe: U,
      queue: 'Rewards',
      item: { data: 'vip', priority: 5 },
    });
    const read = await memory('queue', 'read', '--queue', 'Rewards', '--count', '5', '--hold', '2m', '--json');
    assert.equal(read.code, 0, read.stderr);
    const r = read.json();
    assert.equal(typeof r.readId, 'string');
    assert.deepEqual(
      { ...r, readId: '…' },
      {
        command: 'memory queue read',
        exitCode: 0,
        universe: U,
        queue: 'Rewards',
        readId: '…',
        holdSeconds: 120,
        items: [
          { data: 'vip', priority: 5 },
          { data: { r: 1 }, priority: 0 },
        ],
      },
    );
    const hidden = await memory('queue', 'read', '--queue', 'Rewards');
    assert.equal(hidden.code, 0, hidden.stderr);
    assert.equal(hidden.stdout, '0 items read from queue Rewards.\n');
    const discard = await memory('queue', 'discard', '--queue', 'Rewards', '--read-id', r.readId as string);
    assert.equal(discard.code, 0, discard.stderr);
    await shared.emulator.advanceClock(121_000);
    assert.equal((await memory('queue', 'read', '--queue', 'Rewards')).stdout, '0 items read from queue Rewards.\n');
  });

  it('a human read prints the items, the read id and that they are hidden from game servers (no peek)', async () => {
    await memory('queue', 'add', '--queue', 'Q', '--data', '7', '--ttl', '1h');
    const read = await memory('queue', 'read', '--queue', 'Q');
    assert.equal(read.code, 0, read.stderr);
    assert.match(read.stdout, /^7 \(priority 0\)\n1 item read from queue Q\.\nRead id: \S+\n/);
    assert.match(read.stdout, /hidden from game servers for 30s \(there is no peek\)/);
    assert.match(read.stdout, /memory queue discard --queue Q --read-id \S+; else they come back after 30s/);
  });

  it('flushes with the confirmation, follows the operation to its end, and the items are gone', async () => {
    await memory('map', 'set', '--map', 'M', '--key', 'k', '--value', '1', '--ttl', '1h');
    const flush = await memory('flush', '--yes-flush-universe', U, '--json');
    assert.equal(flush.code, 0, flush.stderr);
    const f = flush.json();
    assert.deepEqual(
      { ...f, operation: typeof f.operation },
      { command: 'memory flush', exitCode: 0, universe: U, operation: 'string', done: true },
    );
    assert.equal(flush.stderr, '');
    assert.equal((await memory('map', 'get', '--map', 'M', '--key', 'k')).code, 1);
  });
});
