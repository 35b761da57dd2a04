// What package.json declares of the language model tools (contributes.languageModelTools), made from the tools
// themselves so the two cannot drift: scripts/lmTools.ts writes it, `npm run lint` checks it.
import * as z from 'zod/mini';
import type { Tool } from '../tools';

/** The name a tool has in VS Code: prefixed, as tool names are shared by every extension. */
export const lmToolName = (tool: Pick<Tool, 'name'>): string => `ue_${tool.name}`;

/** apply_plan in VS Code opens the plan for a person instead of writing. */
const APPLY_IN_EDITOR =
  'Opens a plan made by a ue_plan_* tool in the review panel of VS Code, where a person reads it and presses Apply: ' +
  'this tool writes nothing itself. When applied, each write is conditioned on what the plan read (a key or ' +
  'restriction changed since is skipped and listed), and entry writes are audited and can be undone. Tell the user ' +
  'the plan is waiting for them in the review panel.';

/** The package.nls.json key of a tool's title, as the tools picker shows it. */
export const displayNameKey = (tool: Pick<Tool, 'name'>): string => `languageModelTool.${tool.name}`;

export interface LmToolContribution {
  name: string;
  displayName: string;
  modelDescription: string;
  toolReferenceName: string;
  canBeReferencedInPrompt: boolean;
  icon: string;
  tags: string[];
  inputSchema: object;
}

export function lmToolContribution(tool: Tool): LmToolContribution {
  const { $schema: _, ...inputSchema } = z.toJSONSchema(tool.input, { io: 'input' }) as Record<string, unknown>;
  return {
    name: lmToolName(tool),
    displayName: `%${displayNameKey(tool)}%`,
    modelDescription: tool.kind === 'apply' ? APPLY_IN_EDITOR : tool.description,
    toolReferenceName: lmToolName(tool),
    canBeReferencedInPrompt: true,
    icon: tool.kind === 'read' ? '$(database)' : tool.kind === 'plan' ? '$(checklist)' : '$(play)',
    tags: ['universe-explorer', tool.kind === 'read' ? 'read' : 'plan'],
    inputSchema,
  };
}
