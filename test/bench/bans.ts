// Benchmark 13: banning 1,000 users in one universe and 3 of its places under the emulator's rate limits (10 times
// the documented ones, as the run is told, so the run takes 40 s instead of 400): at most 1.1 x (writes / limit), no failure, no 429, and a second
// run of the same plan sends no write.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { applyBans, parseBanList, planBans, UPDATES_PER_SECOND } from '../../src/api';
import { fmt, main, newClient, report, startEmulatorProcess, tempDir, U } from './support';

const USERS = 1000;
const PLACES = [90001, 90002, 90003];
const SCALE = 10;

main(async () => {
  const dir = tempDir('bans');
  const emu = await startEmulatorProcess(['--rate-limits', '--rate-limit-scale', String(SCALE), '--control']);
  const client = newClient(emu.url);
  try {
    const list = parseBanList(Array.from({ length: USERS }, (_, i) => String(100_000 + i)).join('\n'));
    const targets = [{ universeId: U }, ...PLACES.map((placeId) => ({ universeId: U, placeId }))];
    const plan = await planBans(client, {
      kind: 'ban',
      rows: list.rows,
      targets,
      defaults: {
        durationSeconds: 7 * 86_400,
        displayReason: 'Cheating',
        privateReason: 'bench',
        excludeAltAccounts: false,
      },
    });
    const journalFile = path.join(dir, 'journal.ndjson');
    const seen = async () =>
      (
        (await (await fetch(`${emu.url}/_emulator/requests`)).json()) as {
          requests: { method: string; status: number }[];
        }
      ).requests.filter((r) => r.method === 'PATCH');
    const started = performance.now();
    const first = await applyBans(client, plan, { journalFile, limitScale: SCALE });
    const ms = performance.now() - started;
    const patches = await seen();
    const limited = patches.filter((r) => r.status === 429).length;
    const second = await applyBans(client, plan, { journalFile, limitScale: SCALE });
    const again = (await seen()).length - patches.length;
    const writes = plan.actions.length;
    const perSecond = UPDATES_PER_SECOND * SCALE;
    const bound = (writes / perSecond) * 1000;
    const ratio = ms / bound;
    report({
      id: 13,
      title: `Ban ${fmt(USERS)} users in a universe and ${PLACES.length} of its places (--rate-limits --rate-limit-scale ${SCALE}: ${fmt(perSecond)} updates/s per universe, ${2 * SCALE} a minute per user)`,
      figures: [
        `plan: ${fmt(writes)} writes, read from ${targets.length} listings`,
        `time: ${fmt(ms / 1000, 1)} s; writes / limit = ${fmt(bound / 1000, 1)} s`,
        `written ${fmt(first.written)}, failed ${first.failures.length}, requests answered 429: ${limited} of ${patches.length}`,
        `second run of the same plan: ${second.earlier} done before, ${again} writes sent`,
      ],
      goals: [
        { text: 'time <= 1.1 x writes / limit', measured: `${fmt(ratio, 3)} x writes / limit`, met: ratio <= 1.1 },
        {
          text: 'every user banned, 0 failures, no 429',
          measured: `${fmt(first.written)} of ${fmt(writes)}, ${first.failures.length} failed, ${limited} answered 429`,
          met: first.written === writes && first.failures.length === 0 && limited === 0,
        },
        { text: 'a second run sends no write', measured: `${again} sent`, met: again === 0 },
      ],
    });
  } finally {
    await client.close();
    await emu.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
