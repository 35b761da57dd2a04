// `universe-explorer mcp`: the agent tools over MCP on stdio (dist/mcp.js, required by the command line only for this
// command). One client for the connection, one query index per universe, plans in one folder; apply_plan writes only
// to the universes given to --allow-writes. stdout carries MCP messages only: every log line goes to `log` (stderr).
import fsp = require('node:fs/promises');
import path = require('node:path');
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { OpenApiClient, type ClientOptions } from '../api';
import { UniverseIndex } from '../query';
import { TOOLS, ToolError, type ToolContext } from '../tools';
import { toolServer } from './server';

export interface McpOptions {
  /** The connection (its API key among them), checked by the command line. */
  client: ClientOptions;
  /** The universes the tools may touch; undefined: any the key reaches. */
  universes?: string[];
  /** The universes apply_plan may write to. */
  allowWrites: string[];
  plansDir: string;
  /** Where the indexes are, and the service's host that names them (as `index build` names them). */
  indexDir: string;
  indexHost: string;
  /** Ctrl+C or SIGTERM: the server closes. */
  signal: AbortSignal;
  log(line: string): void;
}

const list = (ids: string[]): string => ids.join(', ');

/** Serves until stdin ends or `signal` aborts. */
export async function serveMcp(o: McpOptions): Promise<void> {
  const client = new OpenApiClient(o.client);
  const indexes = new Map<string, UniverseIndex>();
  const plansDir = path.resolve(o.plansDir);
  const allowed = (universe: string): void => {
    if (o.universes && !o.universes.includes(universe)) {
      throw new ToolError(
        `universe ${universe} is not one this server serves (${list(o.universes)}): ask for one of those, or ` +
          'restart the server with the universe in --universe',
      );
    }
  };
  const context = (signal: AbortSignal, progress?: ToolContext['progress']): ToolContext => ({
    plansDir,
    signal: AbortSignal.any([signal, o.signal]),
    progress,
    async client(universe) {
      if (universe !== undefined) allowed(universe);
      return client;
    },
    async index(universe) {
      allowed(universe);
      let index = indexes.get(universe);
      if (!index) {
        index = new UniverseIndex({ dir: o.indexDir, universeKey: `${o.indexHost}/${universe}`, universeId: universe });
        indexes.set(universe, index);
      }
      if (!(await fsp.stat(index.file).catch(() => undefined))) {
        throw new ToolError(
          `universe ${universe} has no query index in ${o.indexDir}: build one with ` +
            `universe-explorer index build --universe ${universe} --store <name> (the same --base-url and ` +
            '--index-dir as this server), then ask again',
        );
      }
      return index;
    },
    async refuseApply(universe) {
      if (o.allowWrites.includes(universe)) return undefined;
      return o.allowWrites.length
        ? `apply_plan refused: this server may write only to universe ${list(o.allowWrites)}, not ${universe}. ` +
            `The plan is kept: to apply it, restart the server with ${universe} in --allow-writes`
        : 'apply_plan refused: this server was started without --allow-writes, so it writes to no universe. ' +
            `The plan is kept: to apply it, restart the server with --allow-writes ${universe}`;
    },
  });
  const writes = o.allowWrites.length
    ? `This server allows writes to universe ${list(o.allowWrites)} only.`
    : 'This server was started without --allow-writes: apply_plan refuses every plan.';
  const server = toolServer({ tools: TOOLS, context, writes, apiKey: o.client.apiKey, log: o.log });
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => (transport.onclose = resolve));
  const close = () => void server.close();
  process.stdin.once('end', close);
  o.signal.addEventListener('abort', close, { once: true });
  await server.connect(transport);
  o.log(
    `serving ${TOOLS.length} tools on stdio; plans in ${plansDir}; ` +
      (o.allowWrites.length ? `writes allowed to universe ${list(o.allowWrites)}` : 'no writes allowed'),
  );
  try {
    await closed;
  } finally {
    process.stdin.off('end', close);
    o.signal.removeEventListener('abort', close);
    await Promise.all([client.close(), ...[...indexes.values()].map((i) => i.close())]);
  }
}
