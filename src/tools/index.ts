// The agent tools, defined once for every face: the MCP server (src/mcp) and VS Code's language model tools. Read
// tools read; plan tools write a plan file and nothing to the service; apply_plan runs a plan when the face allows.
import { APPLY_TOOLS } from './apply';
import { INSIGHT_TOOLS } from './insight';
import { LIVE_OPS_TOOLS } from './liveOps';
import { PLAN_BAN_TOOLS } from './planBans';
import { PLAN_BANS_MANY_TOOLS } from './planBansMany';
import { PLAN_ENTRY_TOOLS } from './planEntries';
import { READ_TOOLS } from './read';
import type { Tool } from './types';

export const TOOLS: Tool[] = [
  ...READ_TOOLS,
  ...LIVE_OPS_TOOLS,
  ...INSIGHT_TOOLS,
  ...PLAN_ENTRY_TOOLS,
  ...PLAN_BAN_TOOLS,
  ...PLAN_BANS_MANY_TOOLS,
  ...APPLY_TOOLS,
];

export { ToolError, type Tool, type ToolContext } from './types';
