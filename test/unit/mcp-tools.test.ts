// The agent tools' own pieces (src/tools), in plain Node: durations of a ban plan, and the plan folder that
// apply_plan reads (an id outside the folder, a missing plan, a part that writes to another universe than it says).
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { durationSeconds } from '../../src/tools/planBans';
import { newPlan, readPlan, writeManifest } from '../../src/tools/plans';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ue-mcp-tools-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('agent tools', () => {
  it('reads ban durations as the command line does', () => {
    assert.equal(durationSeconds('7d'), 604_800);
    assert.equal(durationSeconds('1h30m'), 5_400);
    assert.equal(durationSeconds(90), 90);
    assert.throws(
      () => durationSeconds('soon'),
      /duration: "soon" is not a duration: use a number and a unit \(s, m, h, d, w\), e.g. 90m/,
    );
    assert.throws(() => durationSeconds(0), /from 1 second to 10,000 years/);
  });

  it('reads a plan only from its own folder, and only when each part writes to the universe it names', async () => {
    await assert.rejects(readPlan(dir, '../outside'), /"\.\.\/outside" is not a plan id/);
    await assert.rejects(readPlan(dir, 'ban-20261126T180105Z-abcdef'), /there is no plan ban-20261126T180105Z-abcdef/);
    const folder = await newPlan(dir, 'set_entry');
    const part = path.join(folder.dir, 'part-1.ndjson');
    const header = (universeId: string) =>
      `${JSON.stringify({ restorePlan: { universeId, datastoreName: 'S', selection: {}, planned: '' } })}\n`;
    fs.writeFileSync(part, header('1'));
    const manifest = {
      planId: folder.planId,
      kind: 'set_entry' as const,
      universe: '1',
      planned: '',
      summary: 's',
      parts: ['part-1.ndjson'],
    };
    await writeManifest(folder, manifest);
    assert.equal((await readPlan(dir, folder.planId)).manifest.universe, '1');
    fs.writeFileSync(part, header('2'));
    await assert.rejects(readPlan(dir, folder.planId), /writes to another universe than it says: make it again/);
  });
});
