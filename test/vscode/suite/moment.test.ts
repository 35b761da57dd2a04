// The moment prompt of the time machine's commands, answered as a person types: words a person uses for a time
// ("yesterday", "2 days ago", "last Tuesday 18:00") are understood and shown with the time they stand for, and text
// that is no time is explained with the forms that are, instead of an empty list where Enter does nothing.
import * as assert from 'node:assert/strict';
import { suite, test } from 'mocha';
import { localAndUtc } from '../../../src/core/time';
import { askMoment } from '../../../src/datastores/commands/moment';
import { ScriptedUi } from './support';

// A Wednesday at 15:20 on this machine's clock, so the days named below are all within the 30 days kept.
const NOW = new Date(2024, 2, 13, 15, 20, 0, 0);
const now = () => NOW;
const local = (days: number, hours: number, minutes = 0) =>
  new Date(NOW.getFullYear(), NOW.getMonth(), NOW.getDate() - days, hours, minutes);

async function typed(text: string): Promise<{ time: Date; ui: ScriptedUi }> {
  const ui = new ScriptedUi().on('pick', /^Compare S at /, text);
  const time = await askMoment(ui, { title: 'Compare S at', now });
  return { time, ui };
}

suite('moment prompt', () => {
  test('"yesterday" is the start of yesterday, and the item under it says so', async () => {
    const { time, ui } = await typed('yesterday');
    assert.equal(time.toISOString(), local(1, 0).toISOString());
    const [{ means }] = ui.meanings;
    assert.deepEqual(means, {
      value: localAndUtc(local(1, 0).getTime(), { seconds: true }),
      detail: 'The start of that day, 00:00 local time; add a time for another, e.g. yesterday 18:00',
    });
  });

  test('times ago in words, today and last Tuesday at a time of day', async () => {
    assert.equal((await typed('2 days ago')).time.getTime(), NOW.getTime() - 2 * 86_400_000);
    assert.equal((await typed('3 hours ago')).time.getTime(), NOW.getTime() - 3 * 3_600_000);
    assert.equal((await typed('today 09:30')).time.toISOString(), local(0, 9, 30).toISOString());
    assert.equal((await typed('last Tuesday 18:00')).time.toISOString(), local(1, 18).toISOString());
    assert.equal((await typed('last Wednesday 18:00')).time.toISOString(), local(7, 18).toISOString());
  });

  test('text that is no time is shown as a problem with the forms understood, and cannot be accepted', async () => {
    await assert.rejects(typed('soon'), /neither an item nor a value/);
    const ui = new ScriptedUi().on('pick', /^Compare S at /, 'soon');
    await assert.rejects(askMoment(ui, { title: 'Compare S at', now }));
    const [{ means }] = ui.meanings;
    assert.ok(typeof means === 'object' && 'problem' in means, JSON.stringify(means));
    assert.equal(means.problem, 'not a time this prompt understands');
    assert.match(
      means.detail ?? '',
      /^Try: 3 hours ago, 2 days ago, yesterday 18:00, last Tuesday 18:00, today 09:30, yesterday \(its start\)/,
    );
  });

  test('a time in the future is shown refused, with the reason', async () => {
    const ui = new ScriptedUi().on('pick', /^Compare S at /, 'today 23:00');
    await assert.rejects(askMoment(ui, { title: 'Compare S at', now })); // the second prompt is dismissed
    assert.match(String(ui.meanings[0].means), /^refused: .* is in the future$/);
    assert.match(ui.prompts[1].text, /^Compare S at: .* is in the future\. Choose another time /);
  });
});
