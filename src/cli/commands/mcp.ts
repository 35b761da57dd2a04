// universe-explorer mcp: the agent tools (src/tools) as an MCP server on stdio, for Claude Desktop, Cursor and other
// MCP clients. The server is its own bundle (dist/mcp.js beside dist/cli.js), required only here.
import path = require('node:path');
import type { Command } from '../command';
import { clientOptions, openClient } from '../connect';
import { CONNECTION, OUTPUT, text, type Values } from '../options';
import { EXIT, UsageError } from '../output';
import { INDEX, indexPlace } from './indexes';

/** A comma list of universe ids, or undefined when the option is not given. */
function idsOf(values: Values, name: string): string[] | undefined {
  const typed = text(values, name);
  if (typed === undefined) return undefined;
  const ids = typed
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const bad = ids.find((id) => !/^\d{1,19}$/.test(id));
  if (bad !== undefined || !ids.length) {
    throw new UsageError(
      `--${name}: ${JSON.stringify(bad ?? typed)} is not a universe id: give ids separated by commas, e.g. 123456,789`,
    );
  }
  return [...new Set(ids)];
}

export const mcpCommand: Command = {
  name: 'mcp',
  summary: 'serve the agent tools over MCP on stdio (reads and plans; writes only with --allow-writes)',
  usage: ['[--universe <ids>] [--allow-writes <ids>] [--plans-dir <dir>] [options]'],
  about:
    'An MCP server on stdin and stdout for an AI client (Claude Desktop, Cursor, …): tools that read stores, entries, ' +
    'versions, the query index, players, bans and assets; plan tools that write a plan file and nothing to the ' +
    'service; and apply_plan, which runs a plan (every write conditioned on what the plan read, audited) only for ' +
    'the universes given to --allow-writes, and refuses every plan without it. Each tool takes the universe id; ' +
    '--universe limits the universes the tools may touch. stdout carries MCP messages only; the log goes to stderr. ' +
    'The server runs until its client closes stdin.',
  options: [
    [
      'Connection',
      {
        ...CONNECTION,
        universe: {
          type: 'string',
          value: '<ids>',
          help: 'only these universes (ids separated by commas; default any)',
        },
      },
    ],
    [
      'Server',
      {
        'allow-writes': {
          type: 'string',
          value: '<ids>',
          help: 'the universes apply_plan may write to (ids separated by commas; default none)',
        },
        'plans-dir': {
          type: 'string',
          value: '<dir>',
          help: 'where plans, audits and comparisons are written (default ./universe-explorer-plans)',
        },
        ...INDEX,
      },
    ],
    ['Output', { debug: OUTPUT.debug, help: OUTPUT.help }],
  ],
  examples: [
    'UE_API_KEY=… universe-explorer mcp --universe 123456',
    'universe-explorer mcp --api-key-file ~/.ue-key --allow-writes 123456 --plans-dir ~/ue-plans',
  ],
  async run(ctx) {
    const universes = idsOf(ctx.values, 'universe');
    const allowWrites = idsOf(ctx.values, 'allow-writes') ?? [];
    const outside = universes && allowWrites.find((id) => !universes.includes(id));
    if (outside) throw new UsageError(`--allow-writes ${outside} is not in --universe: add it there, or leave it out`);
    const plansDir = path.resolve(text(ctx.values, 'plans-dir') ?? 'universe-explorer-plans');
    const options = await clientOptions(ctx);
    await openClient(options).close(); // an address the client refuses is a usage error now, not at the first call
    const { dir, host } = indexPlace(ctx);
    // The server's own bundle (dist/mcp.js beside dist/cli.js), required only here.
    let serveMcp: typeof import('../../mcp/main').serveMcp;
    try {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      ({ serveMcp } = require('../../mcp/main') as typeof import('../../mcp/main'));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'MODULE_NOT_FOUND') throw error;
      throw new Error(
        'this build has no MCP server (dist/mcp.js is not beside dist/cli.js): build it with npm install && ' +
          'node esbuild.js, or run the dist/cli.js of the installed extension',
        { cause: error },
      );
    }
    await serveMcp({
      client: options,
      universes,
      allowWrites,
      plansDir,
      indexDir: dir,
      indexHost: host,
      signal: ctx.signal,
      log: (line) => ctx.out.note(`universe-explorer mcp: ${line}`),
    });
    return EXIT.done;
  },
};
