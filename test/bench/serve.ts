// Benchmark 5: the emulator serves Get Entry over keep-alive loopback connections. The emulator runs in its own
// process; this process is the load generator (undici, CONNECTIONS keep-alive connections, one request each).
import { Agent } from 'undici';
import { API_KEY, fmt, main, newClient, report, startEmulatorProcess, U } from './support';

const CONNECTIONS = 16;
const WARM_MS = 1_000;
const RUN_MS = 5_000;

main(async () => {
  const emu = await startEmulatorProcess();
  const agent = new Agent({ connections: CONNECTIONS, keepAliveTimeout: 10_000 });
  try {
    const client = newClient(emu.url);
    await client.datastores.setEntry({
      universeId: U,
      datastoreName: 'Serve',
      entryKey: 'player',
      value: { coins: 10, items: ['sword', 'shield'] },
      userIds: [1],
    });
    await client.close();
    const origin = new URL(emu.url).origin;
    const path = `/datastores/v1/universes/${U}/standard-datastores/datastore/entries/entry?datastoreName=Serve&entryKey=player`;
    const headers = { 'x-api-key': API_KEY };

    const load = async (ms: number): Promise<{ latencies: number[]; errors: number; elapsed: number }> => {
      const latencies: number[] = [];
      let errors = 0;
      const started = performance.now();
      const end = started + ms;
      await Promise.all(
        Array.from({ length: CONNECTIONS }, async () => {
          while (performance.now() < end) {
            const t = performance.now();
            const res = await agent.request({ origin, path, method: 'GET', headers });
            await res.body.arrayBuffer();
            if (res.statusCode !== 200) errors++;
            latencies.push(performance.now() - t);
          }
        }),
      );
      return { latencies, errors, elapsed: performance.now() - started };
    };

    await load(WARM_MS);
    const { latencies, errors, elapsed } = await load(RUN_MS);
    latencies.sort((a, b) => a - b);
    const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))];
    const rps = latencies.length / (elapsed / 1000);
    report({
      id: 5,
      title: `The emulator serving Get Entry (${CONNECTIONS} keep-alive connections on loopback, ${RUN_MS / 1000} s after ${WARM_MS / 1000} s warm-up; load generator in its own process)`,
      figures: [
        `${fmt(latencies.length)} requests, ${errors} not 200`,
        `throughput: ${fmt(rps)} requests/s`,
        `latency: p50 ${fmt(at(0.5), 2)} ms, p99 ${fmt(at(0.99), 2)} ms, max ${fmt(latencies[latencies.length - 1], 2)} ms`,
      ],
      goals: [
        { text: '>= 5,000 requests/s', measured: `${fmt(rps)}/s`, met: rps >= 5000 && errors === 0 },
        { text: 'p99 < 20 ms', measured: `${fmt(at(0.99), 2)} ms`, met: at(0.99) < 20 },
      ],
    });
  } finally {
    await agent.close();
    await emu.close();
  }
});
