// A fixture server and a client on it for one test at a time, both closed after each test.
import type { ServerResponse } from 'node:http';
import { afterEach } from 'node:test';
import type { ClientOptions, OpenApiClient } from '../../../src/api';
import { makeClient } from './client';
import { startFixture, type Fixture, type SeenRequest } from './fixture';

type Handler = (req: SeenRequest, res: ServerResponse, index: number) => void;

export function perTestClient() {
  let fixture: Fixture | undefined;
  let client: OpenApiClient | undefined;
  afterEach(async () => {
    await client?.close();
    await fixture?.close();
    client = fixture = undefined;
  });
  return {
    /** The client of the running test. */
    get client(): OpenApiClient {
      if (!client) throw new Error('no client: call setup() first');
      return client;
    },
    /** Starts a fixture with `handler` and a client on it (at `path` under its address). */
    async setup(
      handler: Handler,
      overrides: Partial<ClientOptions> = {},
      opts: { path?: string; discardBody?: boolean } = {},
    ) {
      fixture = await startFixture(handler, { discardBody: opts.discardBody });
      const made = makeClient(fixture.url + (opts.path ?? ''), overrides);
      client = made.client;
      return { fixture, client, logs: made.logs };
    },
    /** A client made another way, closed after the test too. */
    keep(made: OpenApiClient): OpenApiClient {
      client = made;
      return made;
    },
  };
}
