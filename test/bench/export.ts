// Benchmark 1: export 5,000 entries from the emulator (its own process). Our export against a sequential loop of
// plain fetch calls, and against the emulator's capacity: a tight keep-alive GET loop at the same concurrency.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Agent } from 'undici';
import { exportDataStore } from '../../src/api';
import { API_KEY, fastest, fmt, main, newClient, report, seedStore, startEmulatorProcess, tempDir, U } from './support';

const N = 5000;
const CONCURRENCY = 16;
const STORE = 'Export';
const RUNS = 7;
/** Unmeasured runs first: the export's code takes a few runs to be fully compiled, a bare GET loop fewer. */
const WARM_UP = 4;

main(async () => {
  const emu = await startEmulatorProcess();
  const client = newClient(emu.url);
  const dir = tempDir('export');
  try {
    await seedStore(client, STORE, N, dir);
    const base = `${emu.url}/datastores/v1/universes/${U}/standard-datastores/datastore/entries`;
    const headers = { 'x-api-key': API_KEY };
    const entryPath = (key: string) =>
      `${base}/entry?datastoreName=${STORE}&scope=global&entryKey=${encodeURIComponent(key)}`;

    const ours = async () => {
      const r = await exportDataStore(
        client,
        { universeId: U, datastoreName: STORE, file: path.join(dir, 'ours.ndjson'), resume: false },
        { concurrency: CONCURRENCY },
      );
      if (r.exported !== N) throw new Error(`exported ${r.exported} of ${N}`);
    };

    // The same work one request at a time with fetch: list pages, read each entry, write a line.
    const sequential = async () => {
      const out: string[] = [];
      let cursor = '';
      do {
        const page = (await (
          await fetch(`${base}?datastoreName=${STORE}&limit=100&cursor=${encodeURIComponent(cursor)}`, { headers })
        ).json()) as {
          keys: { scope: string; key: string }[];
          nextPageCursor?: string;
        };
        for (const k of page.keys) {
          const res = await fetch(entryPath(k.key), { headers });
          out.push(
            `{"scope":${JSON.stringify(k.scope)},"key":${JSON.stringify(k.key)},"value":${await res.text()},"version":${JSON.stringify(res.headers.get('platform-entry-version'))}}\n`,
          );
        }
        cursor = page.nextPageCursor ?? '';
      } while (cursor);
      fs.writeFileSync(path.join(dir, 'sequential.ndjson'), out.join(''));
      if (out.length !== N) throw new Error(`sequential read ${out.length} of ${N}`);
    };

    // Capacity: the keys known up front, CONCURRENCY workers doing bare keep-alive GETs, bodies read and dropped.
    const paths: string[] = [];
    for await (const k of client.datastores.listEntries({ universeId: U, datastoreName: STORE, limit: 1000 })) {
      const url = new URL(entryPath(k.key));
      paths.push(url.pathname + url.search);
    }
    const agent = new Agent({ connections: CONCURRENCY, keepAliveTimeout: 10_000 });
    const origin = new URL(emu.url).origin;
    const capacity = async () => {
      let next = 0;
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (next < paths.length) {
            const res = await agent.request({ origin, path: paths[next++], method: 'GET', headers });
            await res.body.arrayBuffer();
          }
        }),
      );
    };

    // Warm up, then alternate the runs so a busy moment of the machine hits each about equally.
    for (let i = 0; i < WARM_UP; i++) {
      await ours();
      await capacity();
    }
    const times = { ours: Infinity, capacity: Infinity, sequential: await fastest(2, sequential) };
    for (let i = 0; i < RUNS; i++) {
      times.ours = Math.min(times.ours, await fastest(1, ours));
      times.capacity = Math.min(times.capacity, await fastest(1, capacity));
    }
    await agent.close();
    const { ours: oursMs, capacity: capacityMs, sequential: sequentialMs } = times;

    const rate = (ms: number) => (N / ms) * 1000;
    const vsSequential = sequentialMs / oursMs;
    const vsCapacity = rate(oursMs) / rate(capacityMs);
    report({
      id: 1,
      title: `Export ${fmt(N)} entries (concurrency ${CONCURRENCY}, emulator in its own process; fastest of ${RUNS} runs after ${WARM_UP} unmeasured ones, 2 for the sequential loop)`,
      figures: [
        `our export: ${fmt(oursMs)} ms (${fmt(rate(oursMs))} entries/s)`,
        `sequential fetch loop: ${fmt(sequentialMs)} ms (${fmt(rate(sequentialMs))} entries/s)`,
        `emulator capacity (bare keep-alive GETs): ${fmt(capacityMs)} ms (${fmt(rate(capacityMs))} requests/s)`,
      ],
      goals: [
        { text: 'our export vs sequential fetch >= 4x', measured: `${fmt(vsSequential, 2)}x`, met: vsSequential >= 4 },
        { text: 'our export vs emulator capacity >= 0.7', measured: fmt(vsCapacity, 2), met: vsCapacity >= 0.7 },
      ],
    });
  } finally {
    await client.close();
    await emu.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
