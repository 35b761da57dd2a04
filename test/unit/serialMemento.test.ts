// SerialMemento against a model of VS Code's globalState (extHostMemento.ts and mainThreadStorage.ts, VS Code 1.139):
// the extension host keeps one object, an update changes it at once and a timer sends the whole of it; the workbench
// stores what came and echoes it back, whole, before it answers the send, and the echo replaces the object. Here
// the test says when an answer arrives, so it can land the echo where a busy extension host lands it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type * as vscode from 'vscode';
import { SerialMemento } from '../../src/core/state';

class ModelGlobalState implements vscode.Memento {
  /** What the workbench stored: what the next window reads. */
  stored: Record<string, unknown> = {};
  private value: Record<string, unknown> = {};
  private waiting: (() => void)[] = [];
  private timer: NodeJS.Timeout | undefined;
  /** Sends the workbench has not answered yet, oldest first. */
  private readonly sent: { snapshot: string; answered: (() => void)[] }[] = [];
  private onSend: (() => void)[] = [];

  get inFlight(): number {
    return this.sent.length;
  }

  keys(): readonly string[] {
    return Object.keys(this.value).filter((k) => this.value[k] !== undefined);
  }

  get<T>(key: string, defaultValue?: T): T | undefined {
    const value = this.value[key] as T | undefined;
    return value === undefined ? defaultValue : value;
  }

  update(key: string, value: unknown): Promise<void> {
    this.value[key] = value !== null && typeof value === 'object' ? JSON.parse(JSON.stringify(value)) : value;
    this.timer ??= setTimeout(() => this.send(), 0);
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  /** Resolves once a send is waiting for its answer (at once if one is). */
  untilSent(): Promise<void> {
    if (this.sent.length) return Promise.resolve();
    return new Promise((resolve) => this.onSend.push(resolve));
  }

  /** The workbench's echo of the oldest send, then its answer. */
  answer(): void {
    const next = this.sent.shift();
    assert.ok(next, 'nothing was sent');
    this.stored = JSON.parse(next.snapshot);
    this.value = JSON.parse(next.snapshot);
    for (const resolve of next.answered) resolve();
  }

  private send(): void {
    this.timer = undefined;
    this.sent.push({ snapshot: JSON.stringify(this.value), answered: this.waiting.splice(0) });
    for (const resolve of this.onSend.splice(0)) resolve();
  }
}

/** Lets timers and promise callbacks run (the sends, the turns of SerialMemento) in the loop of many writers. */
const settle = () => new Promise((r) => setTimeout(r, 5));

test(
  'the model loses an update made after another was sent and before its echo, when the echo comes first',
  { timeout: 10_000 },
  async () => {
    const state = new ModelGlobalState();
    void state.update('universeExplorer.assetsIntroduced.sandbox', true);
    await state.untilSent();
    void state.update('universeExplorer.connections', [{ id: 'c1' }]);
    state.answer(); // the busy extension host reads the echo before its timer sends the connection
    await state.untilSent();
    state.answer();
    assert.equal(state.get('universeExplorer.connections'), undefined);
    assert.deepEqual(state.stored, { 'universeExplorer.assetsIntroduced.sandbox': true });
  },
);

test(
  'through SerialMemento the same two updates are both stored, and the queued one is read at once',
  { timeout: 10_000 },
  async () => {
    const state = new ModelGlobalState();
    const serial = new SerialMemento(state);
    const introduced = serial.update('universeExplorer.assetsIntroduced.sandbox', true);
    await state.untilSent();
    const added = serial.update('universeExplorer.connections', [{ id: 'c1' }]);
    assert.deepEqual(serial.get('universeExplorer.connections'), [{ id: 'c1' }]);
    assert.deepEqual([...serial.keys()].sort(), [
      'universeExplorer.assetsIntroduced.sandbox',
      'universeExplorer.connections',
    ]);
    state.answer();
    await introduced;
    await state.untilSent();
    assert.deepEqual(serial.get('universeExplorer.connections'), [{ id: 'c1' }]);
    state.answer();
    await added;
    assert.deepEqual(state.stored, {
      'universeExplorer.assetsIntroduced.sandbox': true,
      'universeExplorer.connections': [{ id: 'c1' }],
    });
  },
);

test(
  'many writers at once: one send in flight at a time, every value stored, each promise after its value',
  { timeout: 10_000 },
  async () => {
    const state = new ModelGlobalState();
    const serial = new SerialMemento(state);
    let most = 0;
    const written: string[] = [];
    const updates = ['a', 'b', 'a', 'c', 'b', 'd'].map((key, i) =>
      serial.update(key, { i }).then(() => {
        assert.deepEqual(state.stored[key], serial.get(key), `${key} resolved before it was stored`);
        written.push(`${key}${i}`);
      }),
    );
    let settled = false;
    void Promise.allSettled(updates).then(() => (settled = true));
    const answering = (async () => {
      while (!settled) {
        await settle();
        most = Math.max(most, state.inFlight);
        if (state.inFlight) state.answer();
      }
    })();
    await Promise.all([...updates, answering]);
    assert.equal(most, 1);
    assert.deepEqual(state.stored, { a: { i: 2 }, b: { i: 4 }, c: { i: 3 }, d: { i: 5 } });
    assert.deepEqual(written.sort(), ['a0', 'a2', 'b1', 'b4', 'c3', 'd5']);
  },
);

test(
  'a value is kept as a copy; undefined removes the key; get gives the default for a missing key',
  { timeout: 10_000 },
  async () => {
    const state = new ModelGlobalState();
    const serial = new SerialMemento(state);
    const list = [{ id: '1' }];
    const first = serial.update('list', list);
    list.push({ id: 'stray' });
    assert.deepEqual(serial.get('list'), [{ id: '1' }]);
    const removed = serial.update('gone', undefined);
    assert.equal(serial.get('gone', 'default'), 'default');
    assert.ok(!serial.keys().includes('gone'));
    assert.equal(serial.get('missing', 7), 7);
    await state.untilSent();
    state.answer();
    await first;
    await state.untilSent();
    state.answer();
    await removed;
    assert.deepEqual(state.stored, { list: [{ id: '1' }] });
  },
);
