// The agent tools (src/tools) as VS Code language model tools, for Copilot's agent mode and any chat participant:
// the same reads and plans as the MCP server, over the editor's connections and query indexes. apply_plan writes
// nothing here: it opens the plan in the review panel, where a person applies it.
import path = require('node:path');
import vscode = require('vscode');
import * as z from 'zod/mini';
import { isAbort, type OpenApiClient } from '../api';
import { Redactor } from '../api/redact';
import type { Connection, Connections } from '../core/connections';
import type { Log } from '../core/log';
import { t } from '../core/text';
import type { UniverseIndex } from '../query';
import type { Tool, ToolContext } from '../tools';
import { lmToolName } from './contributions';

/**
 * The agent tools (src/tools), loaded when a tool is first prepared or called: their input schemas take milliseconds
 * to build, which every window's activation would pay (esbuild runs a module taken with require() when required).
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports
export const agentTools = (): typeof import('../tools') => require('../tools') as typeof import('../tools');
export const planFiles = (): typeof import('../tools/plans') =>
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  require('../tools/plans') as typeof import('../tools/plans');

export interface LmToolsDeps {
  connections: Connections;
  log: Log;
  /** Where the tools write their plans (the extension's global storage). */
  plansDir: string;
  /** The universe's query index, or undefined when none was built (the queries area's). */
  index(connectionId: string, universeId: number): Promise<UniverseIndex | undefined>;
  /** apply_plan here: opens the plan in the review panel; resolves to what the agent is told. */
  review(planId: string, connectionId: string): Promise<object>;
}

/** The connection that lists the universe (the first, when several do). */
export function connectionOf(connections: Connections, universe: string): Connection {
  const found = connections.list().find((c) => c.universes.some((u) => String(u.id) === universe));
  if (!found) {
    throw new (agentTools().ToolError)(
      `universe ${universe} is in no connection of Universe Explorer: add it to a connection (Add Universe… in the ` +
        'Universes view), then ask again',
    );
  }
  return found;
}

/** The tools' context in the editor; `applies`: a person pressed Apply in the review (only then may a plan run). */
export function contextOf(deps: Omit<LmToolsDeps, 'review'>, signal: AbortSignal, applies = false): ToolContext {
  return {
    plansDir: deps.plansDir,
    signal,
    async client(universe): Promise<OpenApiClient> {
      const connection = universe === undefined ? deps.connections.list()[0] : connectionOf(deps.connections, universe);
      if (!connection)
        throw new (agentTools().ToolError)('Universe Explorer has no connection: add one in the Universes view');
      return deps.connections.client(connection.id);
    },
    async index(universe) {
      const connection = connectionOf(deps.connections, universe);
      const index = await deps.index(connection.id, Number(universe));
      if (!index) {
        throw new (agentTools().ToolError)(
          `universe ${universe} has no query index: run Build Query Index… (Universe Explorer) for it, then ask again`,
        );
      }
      return index;
    },
    refuseApply: async () =>
      applies ? undefined : 'apply_plan opens the plan in the review panel in VS Code; a person applies it there',
  };
}

/** `text` with the API key of every connection hidden (an entry's value may hold one). */
async function hideKeys(connections: Connections, text: string): Promise<string> {
  const keys = await Promise.all(connections.list().map((c) => connections.apiKey(c.id)));
  return keys.reduce<string>((out, key) => (key ? new Redactor(key).text(out) : out), text);
}

/** The text the model reads: the tool's JSON result, or its failure in one message; never an API key. */
async function invoke(tool: Tool, deps: LmToolsDeps, input: unknown, signal: AbortSignal): Promise<string> {
  try {
    return await hideKeys(deps.connections, await answer(tool, deps, input, signal));
  } catch (error) {
    throw new Error(await hideKeys(deps.connections, (error as Error).message), { cause: error });
  }
}

async function answer(tool: Tool, deps: LmToolsDeps, input: unknown, signal: AbortSignal): Promise<string> {
  const parsed = z.safeParse(tool.input, input);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.') || 'input'}: ${i.message}`).join('; ');
    throw new Error(`${tool.name}: the input does not fit its schema (${issues})`);
  }
  try {
    if (tool.kind === 'apply') {
      const planId = (parsed.data as { planId: string }).planId;
      const { manifest } = await planFiles().readPlan(deps.plansDir, planId);
      return JSON.stringify(await deps.review(planId, connectionOf(deps.connections, manifest.universe).id));
    }
    return JSON.stringify(await tool.run(parsed.data as never, contextOf(deps, signal)));
  } catch (error) {
    if (isAbort(error)) throw new Error(`${tool.name} was stopped before the end`, { cause: error });
    const message = error instanceof Error ? error.message : String(error);
    deps.log.warn(`Language model tool ${tool.name}: ${message}`);
    throw new Error(error instanceof agentTools().ToolError ? message : `${tool.name} failed: ${message}`, {
      cause: error,
    });
  }
}

/**
 * Registers every agent tool with VS Code's language model API, by the names the manifest declares (generated from
 * the tools and checked by lint), so the tools themselves load on first use.
 */
export function registerLmTools(deps: LmToolsDeps, names: readonly string[]): vscode.Disposable[] {
  const toolNamed = (name: string): Tool => {
    const tool = agentTools().TOOLS.find((candidate) => lmToolName(candidate) === name);
    if (!tool) throw new Error(`${name} is not one of Universe Explorer's tools`);
    return tool;
  };
  return names.map((name) =>
    vscode.lm.registerTool<object>(name, {
      prepareInvocation: () => {
        const tool = toolNamed(name);
        return {
          invocationMessage:
            tool.kind === 'plan'
              ? t`${tool.title} (a plan: nothing is written)`
              : tool.kind === 'apply'
                ? t`${tool.title}: opening it in the review panel`
                : tool.title,
        };
      },
      async invoke(options, token) {
        const controller = new AbortController();
        const cancel = token.onCancellationRequested(() => controller.abort());
        try {
          const text = await invoke(toolNamed(name), deps, options.input, controller.signal);
          return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(text)]);
        } finally {
          cancel.dispose();
        }
      },
    }),
  );
}

/** The plan folder of the language model tools and of the MCP server the extension starts. */
export const plansDirOf = (storageDir: string): string => path.join(storageDir, 'agent-plans');
