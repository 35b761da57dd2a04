// The MCP face of the agent tools (src/tools): each tool registered on an McpServer with its schema and hints, its
// result as JSON (text and structured content), its failure as one message; the API key hidden in everything sent.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type {
  CallToolResult,
  ServerNotification,
  ServerRequest,
  ToolAnnotations,
} from '@modelcontextprotocol/sdk/types.js';
import { isAbort } from '../api';
import { Redactor } from '../api/redact';
import { ToolError, type Tool, type ToolContext } from '../tools';
import { version } from '../../package.json';

export interface ServerOptions {
  tools: Tool[];
  /** The context of one call, its signal the call's own (a client's cancel) and the server's; `progress` when asked. */
  context(signal: AbortSignal, progress?: ToolContext['progress']): ToolContext;
  /** A line appended to apply_plan's description: which universes this server may write. */
  writes: string;
  /** The API key, hidden in every result, message and log line. */
  apiKey: string;
  /** A line of the server's log (stderr). */
  log(line: string): void;
}

const HINTS: Record<Tool['kind'], ToolAnnotations> = {
  read: { readOnlyHint: true, openWorldHint: true },
  plan: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  apply: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
};

/** An McpServer offering `tools`. */
export function toolServer(opts: ServerOptions): McpServer {
  const server = new McpServer(
    { name: 'universe-explorer', title: 'Universe Explorer', version },
    {
      instructions:
        "Data stores, bans, assets and the query index of a game platform's universes. Read tools read; plan_* " +
        'tools write a plan file and nothing to the service; apply_plan runs a plan, only for the universes this ' +
        'server allows. Read what you change first, and show the plan to the user before applying it.',
    },
  );
  const secret = new Redactor(opts.apiKey);
  for (const tool of opts.tools) {
    const description = tool.kind === 'apply' ? `${tool.description} ${opts.writes}` : tool.description;
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description,
        inputSchema: tool.input,
        annotations: { title: tool.title, ...HINTS[tool.kind] },
      },
      async (input: unknown, extra: Extra): Promise<CallToolResult> => {
        const started = Date.now();
        try {
          const result = secret.value(await tool.run(input as never, opts.context(extra.signal, progressOf(extra))));
          opts.log(`${tool.name}: done in ${Date.now() - started} ms`);
          return {
            content: [{ type: 'text', text: JSON.stringify(result, null, 2) }],
            structuredContent: result as Record<string, unknown>,
          };
        } catch (error) {
          const message = secret.text(messageOf(tool, error));
          opts.log(`${tool.name}: ${message}`);
          return { isError: true, content: [{ type: 'text', text: message }] };
        }
      },
    );
  }
  return server;
}

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** Progress notifications for a call whose client asked for them (with a progress token). */
function progressOf(extra: Extra): ToolContext['progress'] {
  const progressToken = extra._meta?.progressToken;
  if (progressToken === undefined) return undefined;
  return (progress, total) =>
    void extra
      .sendNotification({ method: 'notifications/progress', params: { progressToken, progress, total } })
      .catch(() => undefined);
}

/** What a failed call says: a tool's own message as it is; anything else named by the tool. */
function messageOf(tool: Tool, error: unknown): string {
  if (isAbort(error)) return `${tool.name} was stopped before the end`;
  const message = error instanceof Error ? error.message : String(error);
  return error instanceof ToolError ? message : `${tool.name} failed: ${message}`;
}
