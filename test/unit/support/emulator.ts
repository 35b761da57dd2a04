// Starts the emulator in-process for client tests and drives its /_emulator control endpoints.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, beforeEach } from 'node:test';
import type { OpenApiClient } from '../../../src/api';
import { startEmulator, type EmulatorOptions, type RunningEmulator } from '../../../src/emulator/server';
import { API_KEY, makeClient } from './client';

export interface Fault {
  method?: string;
  path?: string;
  /** Text the query string must contain, e.g. `entryKey=legacy`. */
  query?: string;
  status?: number;
  headers?: Record<string, string>;
  body?: string;
  times?: number;
  delayMs?: number;
}

export interface SeenByEmulator {
  method: string;
  path: string;
  status: number;
}

export class TestEmulator {
  private constructor(private readonly running: RunningEmulator) {}

  static async start(opts: EmulatorOptions = {}): Promise<TestEmulator> {
    return new TestEmulator(await startEmulator({ port: 0, control: true, ...opts }));
  }

  get url(): string {
    return this.running.url;
  }

  close(): Promise<void> {
    return this.running.close();
  }

  private async control(method: string, path: string, body?: unknown): Promise<unknown> {
    const res = await fetch(`${this.url}/_emulator/${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`control ${method} ${path}: ${res.status} ${await res.text()}`);
    const text = await res.text();
    return text ? JSON.parse(text) : undefined;
  }

  async fault(fault: Fault): Promise<void> {
    await this.control('POST', 'faults', fault);
  }

  /** Drops the faults not yet used up, so a test leaves none behind for the next. */
  async clearFaults(): Promise<void> {
    await this.control('DELETE', 'faults');
  }

  /** Wipes state, faults and the request log, and puts the clock back where it started. */
  async reset(): Promise<void> {
    await this.control('POST', 'reset');
  }

  /** Moves the emulator's clock forward (retention runs at once); returns its new time. */
  async advanceClock(ms: number): Promise<string> {
    const { now } = (await this.control('POST', 'clock', { advanceMs: ms })) as { now: string };
    return now;
  }

  async requests(filter: { method?: string; path?: string } = {}): Promise<SeenByEmulator[]> {
    const { requests } = (await this.control('GET', 'requests')) as { requests: SeenByEmulator[] };
    return requests.filter(
      (r) =>
        !r.path.startsWith('/_emulator') &&
        (!filter.method || r.method === filter.method) &&
        (!filter.path || r.path.includes(filter.path)),
    );
  }
}

/**
 * An emulator with the documented limits on, scaled by `scale`, in windows of a second, over the data `seed` wrote
 * in `dataDir` through an emulator without limits.
 */
export async function limitedAfter(
  dataDir: string,
  scale: number,
  seed: (client: OpenApiClient) => Promise<void>,
): Promise<TestEmulator> {
  const seeder = await TestEmulator.start({ dataDir, apiKeys: [{ key: API_KEY }] });
  const client = makeClient(seeder.url).client;
  try {
    await seed(client);
  } finally {
    await client.close();
    await seeder.close();
  }
  return TestEmulator.start({
    dataDir,
    apiKeys: [{ key: API_KEY }],
    rateLimits: true,
    rateLimitScale: scale,
    rateLimitWindowScale: 1 / 60,
  });
}

/** One emulator and client for a test file: started before its tests, reset before each test, closed after. */
export function sharedEmulator(opts: EmulatorOptions = { apiKeys: [{ key: API_KEY }] }): {
  emulator: TestEmulator;
  client: OpenApiClient;
} {
  const shared = {} as { emulator: TestEmulator; client: OpenApiClient };
  before(async () => {
    shared.emulator = await TestEmulator.start(opts);
    shared.client = makeClient(shared.emulator.url).client;
  });
  after(async () => {
    await shared.client.close();
    await shared.emulator.close();
  });
  beforeEach(() => shared.emulator.reset());
  return shared;
}

/**
 * One emulator on a settable clock for a whole test file, with a client and a folder for plan files. Never reset
 * between tests: each test moves the clock on, in stores of its own.
 */
export function clockedEmulator(
  clock: string,
  name: string,
): { emulator: TestEmulator; client: OpenApiClient; dir: string } {
  const shared = { dir: fs.mkdtempSync(path.join(os.tmpdir(), `ue-${name}-`)) } as {
    emulator: TestEmulator;
    client: OpenApiClient;
    dir: string;
  };
  before(async () => {
    shared.emulator = await TestEmulator.start({ apiKeys: [{ key: API_KEY }], clock });
    shared.client = makeClient(shared.emulator.url).client;
  });
  after(async () => {
    await shared.client.close();
    await shared.emulator.close();
    fs.rmSync(shared.dir, { recursive: true, force: true });
  });
  return shared;
}
