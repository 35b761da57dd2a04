// The review panel (src/core/review) in a real VS Code, built directly with synthetic reviews: its page loads and
// paints, the counts per kind, filtering by kind and by key, the generation that drops late answers, the buttons and
// rows it hands to its handler, show() of another review, messages that are not of the protocol, closing, and a
// review of 100,000 rows whose last window is answered. The page's messages are sent to panel.receive as the page
// would send them; what the host sends back is recorded at the webview's postMessage.
import * as assert from 'node:assert/strict';
import { suite, suiteSetup, teardown, test } from 'mocha';
import * as vscode from 'vscode';
import {
  ReviewPanel,
  type Review,
  type ReviewDeps,
  type ReviewHandler,
  type ReviewItem,
} from '../../../src/core/review/panel';
import { MAX_WINDOW, type ToPage } from '../../../src/core/review/protocol';
import { extensionApi, until } from './support';

/** A page that loads slowly on a busy machine still paints well within this. */
const PAINT_MS = 90_000;

const KINDS: Review['kinds'] = [
  { id: 'write', label: 'write', tone: 'change' },
  { id: 'delete', label: 'delete', tone: 'remove' },
  { id: 'skipped', label: 'skipped', tone: 'skip' },
  // Counted, not listed (the unchanged keys of a restore), and a kind with nothing in it.
  { id: 'same', label: 'unchanged', tone: 'same', count: 7 },
  { id: 'failed', label: 'failed', tone: 'fail' },
];

const SMALL: ReviewItem[] = [
  { key: 'Alpha', scope: 'global', kind: 'write', bytes: 10, version: 'v1' },
  { key: 'alphabet', scope: 'global', kind: 'delete' },
  { key: 'BETA', scope: 'global', kind: 'write' },
  { key: 'beta_ALPHA', scope: 'global', kind: 'skipped', note: 'changed since the plan', opens: false },
  { key: 'gamma', scope: 'global', kind: 'write' },
  { key: 'Delta', scope: 'global', kind: 'delete' },
];

function review(items: readonly ReviewItem[], more: Partial<Review> = {}): Review {
  return {
    title: 'Review test',
    heading: 'Restore Players',
    direction: 'Players (scope global) → as of 10:30',
    phase: 'plan',
    summary: `${items.length} actions.`,
    kinds: KINDS,
    items,
    buttons: [
      { id: 'apply', label: 'Apply', primary: true },
      { id: 'cancel', label: 'Cancel' },
    ],
    ...more,
  };
}

/** `n` rows, writes and deletes in turn, keyed `Player_000000`… in order. */
function many(n: number): ReviewItem[] {
  return Array.from({ length: n }, (_, i) => ({
    key: `Player_${String(i).padStart(6, '0')}`,
    scope: 'global',
    kind: i % 2 ? 'delete' : 'write',
    bytes: 100 + i,
  }));
}

/** A handler that records what the panel hands it; `failWith` makes its buttons throw. */
class Recorder implements ReviewHandler {
  readonly pressed: { id: string; panel: ReviewPanel }[] = [];
  readonly opened: { item: ReviewItem; panel: ReviewPanel }[] = [];
  closes = 0;
  failWith: unknown;

  async button(id: string, panel: ReviewPanel): Promise<string> {
    this.pressed.push({ id, panel });
    if (this.failWith !== undefined) throw this.failWith;
    return id;
  }

  async open(item: ReviewItem, panel: ReviewPanel): Promise<void> {
    this.opened.push({ item, panel });
  }

  closed(): void {
    this.closes++;
  }
}

/** Records every message the host sends the page (and still sends it). */
function record(panel: ReviewPanel): ToPage[] {
  const sent: ToPage[] = [];
  const webview = panel.panel.webview;
  const post = webview.postMessage.bind(webview);
  webview.postMessage = (message: ToPage) => {
    sent.push(message);
    return post(message);
  };
  return sent;
}

type RowsMessage = Extract<ToPage, { type: 'rows' }>;
const rowsSent = (sent: ToPage[]) => sent.filter((m): m is RowsMessage => m.type === 'rows');
const keys = (rows: readonly { key: string }[]) => rows.map((r) => r.key);

suite('review panel', function () {
  this.timeout(2 * PAINT_MS);
  let deps: ReviewDeps;
  const panels: ReviewPanel[] = [];

  suiteSetup(async () => {
    const { ctx } = (await extensionApi()).testing;
    deps = { extensionUri: ctx.extension.extensionUri, log: ctx.log };
  });

  teardown(() => {
    for (const panel of panels.splice(0)) panel.dispose();
  });

  /** A panel for `r`, once its page has loaded and drawn its first rows. */
  async function open(r: Review, handler: ReviewHandler = new Recorder()): Promise<ReviewPanel> {
    const panel = new ReviewPanel(deps, r, handler);
    panels.push(panel);
    await until('the review page to draw its first rows', () => panel.painted, PAINT_MS);
    return panel;
  }

  test('the page loads from media/review under a strict CSP, says ready once, and reports its first paint', async () => {
    const panel = new ReviewPanel(deps, review(many(200)), new Recorder());
    panels.push(panel);
    const html = panel.panel.webview.html;
    const nonce = /script-src 'nonce-([^']+)'/.exec(html)?.[1];
    assert.ok(nonce, 'no nonce in the CSP');
    assert.match(html, /<script nonce="[^"]+" src="[^"]+\/media\/review\/main\.js"><\/script>/);
    assert.deepEqual(
      panel.panel.webview.options.localResourceRoots?.map((u) => u.path),
      [vscode.Uri.joinPath(deps.extensionUri, 'media').path],
    );
    await panel.whenPainted();
    assert.equal(panel.pageLoads, 1);
    const painted = panel.painted;
    assert.ok(painted, 'whenPainted resolved before the page reported a paint');
    assert.ok(painted.ms > 0, `painted at ${painted.ms} ms`);
    // Virtualised: the rows in view and a margin, not all 200.
    assert.ok(painted.rows > 0 && painted.rows < 200, `${painted.rows} rows drawn`);
    await panel.whenPainted(); // at once, now that the page has painted
  });

  test('counts per kind: a count defaults to the rows of the kind; a kind without rows is counted, not listed', async () => {
    const panel = await open(review(SMALL));
    const state = panel.state;
    assert.deepEqual(
      state.kinds.map((k) => [k.id, k.label, k.tone, k.count, k.listed]),
      [
        ['write', 'write', 'change', 3, true],
        ['delete', 'delete', 'remove', 2, true],
        ['skipped', 'skipped', 'skip', 1, true],
        ['same', 'unchanged', 'same', 7, false],
        ['failed', 'failed', 'fail', 0, false],
      ],
    );
    assert.equal(state.total, SMALL.length, 'the rows listed, not the 7 unchanged ones');
    assert.equal(state.scoped, false, 'every row is in the global scope');
    assert.deepEqual(keys(panel.rows(0, 100)), keys(SMALL));
    assert.deepEqual(panel.rows(3, 1), [
      {
        i: 3,
        key: 'beta_ALPHA',
        scope: 'global',
        kind: 'skipped',
        bytes: undefined,
        version: undefined,
        note: 'changed since the plan',
        opens: false,
      },
    ]);

    panel.show(review([...SMALL, { key: 'other', scope: 'europe', kind: 'write' }]));
    assert.equal(panel.state.scoped, true, 'rows in two scopes show the Scope column');
    panel.show(review([{ key: 'only', scope: 'europe', kind: 'write' }]));
    assert.equal(panel.state.scoped, true, 'one scope that is not global shows it too');
  });

  test('filtering by kinds and by key (case-insensitive) changes total and rows, bumps the generation, and the page asks for the new rows', async () => {
    const panel = await open(review(SMALL));
    const sent = record(panel);
    const start = panel.state.generation;
    const filter = async (kinds: string[], search: string) => {
      const before = panel.state.generation;
      await panel.receive({ type: 'filter', filter: { kinds, search } });
      const state = panel.state;
      assert.equal(state.generation, before + 1, 'a new filter is a new generation');
      assert.deepEqual(state.filter, { kinds, search });
      const posted = sent.filter((m) => m.type === 'state').at(-1);
      assert.ok(posted, 'no state was sent to the page');
      assert.deepEqual([posted.state.generation, posted.state.total], [state.generation, state.total]);
      return { total: state.total, keys: keys(panel.rows(0, 100)) };
    };

    assert.deepEqual(await filter(['delete'], ''), { total: 2, keys: ['alphabet', 'Delta'] });
    assert.deepEqual(await filter(['write', 'skipped'], ''), {
      total: 4,
      keys: ['Alpha', 'BETA', 'beta_ALPHA', 'gamma'],
    });
    assert.deepEqual(await filter([], 'ALPHA'), { total: 3, keys: ['Alpha', 'alphabet', 'beta_ALPHA'] });
    assert.deepEqual(await filter([], '  beta '), { total: 2, keys: ['BETA', 'beta_ALPHA'] }, 'the search is trimmed');
    assert.deepEqual(await filter(['write'], 'alpha'), { total: 1, keys: ['Alpha'] });
    assert.deepEqual(await filter(['delete'], 'zzz'), { total: 0, keys: [] });
    assert.deepEqual(await filter([], ''), { total: SMALL.length, keys: keys(SMALL) });
    assert.equal(panel.state.generation, start + 7);

    // The page, told of the last filter, asks for its rows and is answered with them.
    const answer = await until('the page to ask for the rows of the last filter', () =>
      rowsSent(sent).find((m) => m.generation === start + 7),
    );
    assert.deepEqual(keys(answer.rows), keys(SMALL));
  });

  test('a rows request of an older generation is not answered; one of the current generation is', async () => {
    const panel = await open(review(SMALL));
    const sent = record(panel);
    const old = panel.state.generation;
    await panel.receive({ type: 'rows', generation: old, start: 1, count: 2 });
    assert.deepEqual(
      rowsSent(sent).map((m) => [m.generation, m.start, keys(m.rows)]),
      [[old, 1, ['alphabet', 'BETA']]],
    );
    await panel.receive({ type: 'filter', filter: { kinds: ['write'], search: '' } });
    const current = panel.state.generation;
    assert.equal(current, old + 1);
    sent.length = 0;
    await panel.receive({ type: 'rows', generation: old, start: 1, count: 2 });
    await panel.receive({ type: 'rows', generation: current + 1, start: 1, count: 2 });
    assert.deepEqual(
      rowsSent(sent).filter((m) => m.generation !== current),
      [],
      'an answer for a generation other than the current one was sent',
    );
    await panel.receive({ type: 'rows', generation: current, start: 1, count: 2 });
    const answer = rowsSent(sent).find((m) => m.start === 1);
    assert.deepEqual(answer && [answer.generation, keys(answer.rows), answer.rows.map((r) => r.i)], [
      current,
      ['BETA', 'gamma'],
      [2, 4],
    ]);
  });

  test('a button calls the handler with the panel; not while busy, and not for an id that is not a button of the review', async () => {
    const handler = new Recorder();
    const panel = await open(review(SMALL), handler);
    const press = (id: string) => panel.receive({ type: 'button', id });
    const pressed = () => handler.pressed.map((p) => p.id);

    assert.equal(await press('apply'), 'apply', "receive resolves with the handler's answer");
    assert.deepEqual(pressed(), ['apply']);
    assert.equal(handler.pressed[0].panel, panel);

    panel.busy('Applying 6 actions…');
    assert.equal(panel.state.busy, 'Applying 6 actions…');
    assert.equal(panel.state.phase, 'running');
    assert.equal(await press('apply'), undefined);
    assert.equal(await press('cancel'), undefined);
    assert.deepEqual(pressed(), ['apply'], 'a button was handled while busy');
    panel.busy(undefined);
    assert.equal(panel.state.phase, 'plan');
    await press('cancel');
    assert.deepEqual(pressed(), ['apply', 'cancel']);

    for (const id of ['export', 'Apply', '', 'apply ']) assert.equal(await press(id), undefined);
    assert.deepEqual(pressed(), ['apply', 'cancel'], 'an id that is no button of the review reached the handler');

    // What a button throws is shown in the panel until the next press; a cancel is not.
    handler.failWith = new Error('the service said no');
    await press('apply');
    assert.equal(panel.state.error, 'the service said no');
    handler.failWith = new vscode.CancellationError();
    await press('apply');
    assert.equal(panel.state.error, undefined);
  });

  test('open hands the handler the item of the row; not for a row that opens nothing, nor for a place with no row', async () => {
    const handler = new Recorder();
    const panel = await open(review(SMALL), handler);
    await panel.receive({ type: 'open', i: 2, generation: panel.state.generation });
    assert.equal(handler.opened.length, 1);
    assert.equal(handler.opened[0].item, SMALL[2]);
    assert.equal(handler.opened[0].panel, panel);

    assert.equal(panel.rows(3, 1)[0].opens, false);
    await panel.receive({ type: 'open', i: 3, generation: panel.state.generation });
    await panel.receive({ type: 'open', i: SMALL.length, generation: panel.state.generation });
    assert.deepEqual(
      handler.opened.map((o) => o.item.key),
      ['BETA'],
    );
    // A row outside the filter still opens by its place in the full list (what the page names).
    await panel.receive({ type: 'filter', filter: { kinds: ['delete'], search: '' } });
    await panel.receive({ type: 'open', i: 0, generation: panel.state.generation });
    assert.deepEqual(
      handler.opened.map((o) => o.item.key),
      ['BETA', 'Alpha'],
    );
  });

  test('show() replaces the review, keeps the search and the kinds it still has, and clears an error', async () => {
    const handler = new Recorder();
    const panel = await open(review(SMALL), handler);
    const sent = record(panel);
    handler.failWith = new Error('first run failed');
    await panel.receive({ type: 'button', id: 'apply' });
    assert.equal(panel.state.error, 'first run failed');
    await panel.receive({ type: 'filter', filter: { kinds: ['write', 'delete'], search: 'ALPHA' } });
    const before = panel.state.generation;

    const result: ReviewItem[] = [
      { key: 'Alpha', scope: 'global', kind: 'written' },
      { key: 'alpha_2', scope: 'global', kind: 'write' },
      { key: 'beta', scope: 'global', kind: 'write' },
      { key: 'ALPHABET', scope: 'global', kind: 'failed', note: '503' },
    ];
    panel.show(
      review(result, {
        title: 'Result test',
        heading: 'Restored Players',
        phase: 'result',
        kinds: [
          { id: 'written', label: 'written', tone: 'change' },
          { id: 'write', label: 'write', tone: 'change' },
          { id: 'failed', label: 'failed', tone: 'fail' },
        ],
        buttons: [{ id: 'undo', label: 'Undo' }],
      }),
    );
    const state = panel.state;
    assert.equal(panel.panel.title, 'Result test');
    assert.equal(panel.current.heading, 'Restored Players');
    assert.deepEqual([state.heading, state.phase], ['Restored Players', 'result']);
    assert.deepEqual(state.filter, { kinds: ['write'], search: 'ALPHA' }, 'the search and the kinds still there');
    assert.equal(state.generation, before + 1);
    assert.equal(state.error, undefined);
    assert.deepEqual([state.total, keys(panel.rows(0, 100))], [1, ['alpha_2']]);
    // The old review's buttons are gone with it.
    await panel.receive({ type: 'button', id: 'apply' });
    assert.deepEqual(
      handler.pressed.map((p) => p.id),
      ['apply'],
    );

    // The page is told, and asks for the new review's rows.
    const answer = await until('the page to ask for the rows of the new review', () =>
      rowsSent(sent).find((m) => m.generation === before + 1),
    );
    assert.deepEqual(keys(answer.rows), ['alpha_2']);
  });

  test('messages that are not of the protocol are ignored, and the log says so', async () => {
    const handler = new Recorder();
    const panel = await open(review(SMALL), handler);
    const sent = record(panel);
    const log = deps.log;
    const warned: string[] = [];
    const warn = log.warn;
    log.warn = (message: string) => {
      warned.push(message);
      warn.call(log, message);
    };
    const before = panel.state;
    try {
      const junk: unknown[] = [
        null,
        undefined,
        'ready',
        42,
        [],
        {},
        { type: 'eval', code: 'x' },
        { type: 'rows', generation: -1, start: 0, count: 10 },
        { type: 'rows', generation: before.generation, start: 1.5, count: 10 },
        { type: 'rows', generation: before.generation, start: 0 },
        { type: 'filter', filter: { kinds: 'write', search: '' } },
        { type: 'filter', filter: { kinds: [1], search: '' } },
        { type: 'filter', filter: { kinds: [], search: 'x'.repeat(1001) } },
        { type: 'filter' },
        { type: 'button', id: 7 },
        { type: 'button', id: 'a'.repeat(101) },
        { type: 'open', i: -1 },
        { type: 'open', i: '2' },
        { type: 'painted', ms: 'soon', rows: 1 },
      ];
      for (const message of junk) {
        const n = warned.length;
        assert.equal(await panel.receive(message), undefined);
        assert.deepEqual(
          warned.slice(n),
          ['Review: ignored an unknown message from the page'],
          `no warning for ${JSON.stringify(message)}`,
        );
      }
    } finally {
      log.warn = warn;
    }
    assert.deepEqual(panel.state, before);
    assert.deepEqual([handler.pressed, handler.opened], [[], []]);
    assert.deepEqual(sent, [], 'the host answered a message that is not of the protocol');
  });

  test('closing the tab calls closed once; so does dispose(), however often it is called', async () => {
    const byTab = new Recorder();
    const panel = await open(review(SMALL), byTab);
    panel.panel.reveal();
    await until('the review to be the active tab', () => panel.panel.active);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    await until('the panel to be disposed', () => panel.isDisposed);
    panel.dispose();
    assert.equal(byTab.closes, 1);
    // What arrives from a page that is gone is harmless.
    panel.busy('late');
    await panel.receive({ type: 'rows', generation: panel.state.generation, start: 0, count: 10 });
    await panel.whenPainted();

    const byDispose = new Recorder();
    const other = new ReviewPanel(deps, review(SMALL), byDispose);
    panels.push(other);
    const waiting = other.whenPainted();
    other.dispose();
    other.dispose();
    other.panel.dispose();
    await waiting; // let go of, not left hanging
    assert.equal(byDispose.closes, 1);
    assert.equal(other.isDisposed, true);
  });

  test('a review of 100,000 rows paints a window of them, and a rows request at the very end is answered with the last rows', async () => {
    const N = 100_000;
    const items = many(N);
    const panel = await open(review(items));
    assert.equal(panel.state.total, N);
    assert.deepEqual(
      panel.state.kinds.slice(0, 2).map((k) => k.count),
      [N / 2, N / 2],
    );
    const painted = panel.painted!;
    assert.ok(painted.rows > 0 && painted.rows <= MAX_WINDOW, `${painted.rows} rows drawn`);

    const sent = record(panel);
    const generation = panel.state.generation;
    await panel.receive({ type: 'rows', generation, start: 99_950, count: MAX_WINDOW });
    const answer = rowsSent(sent).find((m) => m.start === 99_950);
    assert.ok(answer, 'the last window was not answered');
    assert.equal(answer.generation, generation);
    assert.equal(answer.rows.length, 50);
    assert.deepEqual(answer.rows[0], {
      i: 99_950,
      key: 'Player_099950',
      scope: 'global',
      kind: 'write',
      bytes: 100 + 99_950,
      version: undefined,
      note: undefined,
      opens: true,
    });
    assert.deepEqual([answer.rows.at(-1)?.i, answer.rows.at(-1)?.key], [N - 1, items[N - 1].key]);

    // A window asked for past the end has no rows; one of more than MAX_WINDOW is cut to it.
    await panel.receive({ type: 'rows', generation, start: N, count: 10 });
    assert.deepEqual(rowsSent(sent).find((m) => m.start === N)?.rows, []);
    await panel.receive({ type: 'rows', generation, start: 10, count: 5000 });
    assert.equal(rowsSent(sent).find((m) => m.start === 10)?.rows.length, MAX_WINDOW);

    // Filtered, the end of the list is still answered from the rows the filter lets through.
    await panel.receive({ type: 'filter', filter: { kinds: ['delete'], search: '' } });
    const deletes = panel.state;
    assert.equal(deletes.total, N / 2);
    await panel.receive({ type: 'rows', generation: deletes.generation, start: N / 2 - 1, count: 10 });
    const last = rowsSent(sent).find((m) => m.generation === deletes.generation && m.start === N / 2 - 1);
    assert.deepEqual(
      last?.rows.map((r) => r.i),
      [N - 1],
    );
  });
});
