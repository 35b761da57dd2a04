// Review Plan File…: a restore plan written elsewhere (here by src/api's planRestore, as the command line's restore
// writes one) opened in the review panel as a Recent Operation; nothing is written before a person's Apply, and the
// file itself is left as it was.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { suite, suiteSetup, suiteTeardown, teardown, test } from 'mocha';
import * as vscode from 'vscode';
import { planRestore } from '../../../src/api';
import type { OperationReview } from '../../../src/datastores/operations/reviewFlow';
import type { TestContext } from '../../../src/extension';
import { SuiteService } from './service';
import { extensionApi, ScriptedUi, until } from './support';

const U = 424242;
const KEY = 'plan-file-key';
const HOUR = 3_600_000;
const START = Math.floor(Date.now() / HOUR) * HOUR - 6 * HOUR;

suite('review plan file', () => {
  let ctx: TestContext;
  let realUi: TestContext['ui'];
  let service: SuiteService;
  const at = (key: string) => ({ universeId: U, datastoreName: 'Settings', scope: 'global', entryKey: key });
  const value = async (key: string) => (await service.client.datastores.getEntry(at(key))).value;
  const review = async (file: string) =>
    (await vscode.commands.executeCommand('universeExplorer.reviewPlanFile', vscode.Uri.file(file))) as
      OperationReview | undefined;

  suiteSetup(async () => {
    ctx = (await extensionApi()).testing.ctx;
    realUi = ctx.ui;
    service = await SuiteService.start(KEY, { clock: new Date(START).toISOString() });
    for (const k of ['a', 'b']) await service.client.datastores.setEntry({ ...at(k), value: 1 });
    await service.emulator.advanceClock(2 * HOUR);
    for (const k of ['a', 'b']) await service.client.datastores.setEntry({ ...at(k), value: 2 });
    await service.connect(ctx, 'Plan File Tests', [{ id: U, name: 'PF Universe' }]);
  });

  teardown(async () => {
    ctx.ui = realUi;
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  suiteTeardown(() => service.close(ctx));

  test('a plan from the command line opens in the review; Apply writes it; the file is left as it was', async () => {
    const file = path.join(service.dir, 'settings-plan.ndjson');
    const selection = { universeId: U, datastoreName: 'Settings', scope: 'global' };
    await planRestore(service.client, selection, new Date(START + HOUR), file);
    const original = fs.readFileSync(file, 'utf8');
    ctx.ui = new ScriptedUi();
    const opened = await review(file);
    assert.ok(opened, 'a review');
    await until('the review page to draw its rows', () => opened.panel.painted, 30_000);
    const plan = opened.panel.state;
    assert.equal(plan.phase, 'plan');
    assert.match(plan.direction, /^Settings \(scope global\) in PF Universe on Plan File Tests → as of .+$/);
    assert.deepEqual(
      opened.panel.rows(0, 10).map((r) => `${r.key} ${r.kind}`),
      ['a write', 'b write'],
    );
    assert.equal(await value('a'), 2, 'nothing is written before Apply');
    assert.ok(ctx.operations.list().some((op) => op.id === opened.op.id && op.planOf === 'settings-plan.ndjson'));

    await opened.panel.receive({ type: 'button', id: 'apply' });
    assert.equal(opened.panel.state.phase, 'result');
    assert.deepEqual([await value('a'), await value('b')], [1, 1]);
    assert.equal(fs.readFileSync(file, 'utf8'), original, 'the file given is not changed');
    assert.ok(
      !fs.existsSync(`${file}.audit.ndjson`),
      "the audit is kept with the operation, not beside the user's file",
    );
    assert.ok(fs.existsSync(`${ctx.operations.planFile(opened.op)}.audit.ndjson`));
  });

  test('a file that is not a plan, or a plan for a universe no connection lists, is refused with its reason', async () => {
    const notPlan = path.join(service.dir, 'notes.ndjson');
    fs.writeFileSync(notPlan, '{"hello":1}\n');
    const foreign = path.join(service.dir, 'foreign.ndjson');
    const text = fs.readFileSync(path.join(service.dir, 'settings-plan.ndjson'), 'utf8');
    fs.writeFileSync(foreign, text.replace(`"universeId":${U}`, '"universeId":999001'));
    const ui = new ScriptedUi();
    ctx.ui = ui;
    assert.equal(await review(notPlan), undefined);
    assert.equal(await review(foreign), undefined);
    const errors = ui.messages('error');
    assert.equal(errors.length, 2, errors.join('\n'));
    assert.match(errors[0], /notes\.ndjson is not a restore plan \(.+\): choose a plan/);
    assert.match(errors[1], /foreign\.ndjson writes to universe 999001, which no connection lists: add the universe/);
  });
});
