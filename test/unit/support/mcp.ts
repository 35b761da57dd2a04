// `universe-explorer mcp` as an MCP client meets it: the SDK's own Client over StdioClientTransport, spawning the built
// command line (support/cli.ts). Every answer and the server's stderr are checked never to hold a piece of the key.
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { buildCli, CLI_KEY, envOf } from './cli';

export interface Answer {
  isError: boolean;
  /** The first text content. */
  text: string;
  /** The text read as JSON (a result; an error's text is no JSON). */
  json(): Record<string, unknown>;
}

export interface McpRun {
  client: Client;
  /** What the server wrote on stderr so far. */
  stderr(): string;
  call(name: string, args?: Record<string, unknown>): Promise<Answer>;
  close(): Promise<void>;
}

const noKey = (what: string, text: string): void =>
  assert.ok(!text.includes(CLI_KEY.slice(0, 8)), `the API key showed in ${what}:\n${text}`);

/** Starts `node cli.js mcp <args>` and connects a client to it. */
export async function startMcp(args: string[], env: Record<string, string | undefined> = {}): Promise<McpRun> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [await buildCli(), 'mcp', ...args],
    env: envOf(env) as Record<string, string>,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr!.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
  const client = new Client({ name: 'ue-test', version: '0.0.0' });
  await client.connect(transport);
  return {
    client,
    stderr: () => stderr,
    async call(name, callArgs = {}) {
      const result = await client.callTool({ name, arguments: callArgs });
      const content = result.content as { type: string; text?: string }[];
      const text = content.find((c) => c.type === 'text')?.text ?? '';
      noKey(`the answer of ${name}`, JSON.stringify(result));
      return { isError: result.isError === true, text, json: () => JSON.parse(text) as Record<string, unknown> };
    },
    async close() {
      await client.close();
      noKey("the server's stderr", stderr);
    },
  };
}
