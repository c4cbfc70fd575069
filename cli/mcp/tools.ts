/**
 * The MCP tools of `sdk mcp` (docs/mcp.md), as `tools/list` gives them: the connect tool of each
 * platform (./targets.ts, keyed by the command line's platform registry), the `ai_*` tools (one
 * per agent method, ./agent_tools.ts), and the tools on the target itself.
 *
 * @module
 */

import { AGENT_TOOL_CALLS } from "./agent_tools.ts";
import { CONNECT_TOOL_CALLS } from "./targets.ts";
import { schema, type ToolDefinition } from "./tool_kit.ts";

/** Every tool of the server, in the order `tools/list` gives them. */
export const TOOLS: readonly ToolDefinition[] = [
  ...[...CONNECT_TOOL_CALLS.values()].map((tool) => tool.definition),
  ...[...AGENT_TOOL_CALLS.values()].map((tool) => tool.definition),
  {
    name: "screenshot",
    description: "A screenshot of the target, as an image.",
    inputSchema: schema({}),
  },
  {
    name: "report",
    description: "The path of the session's report so far (an HTML file a person opens).",
    inputSchema: schema({}),
  },
  {
    name: "close",
    description:
      "Close the target: its report is finalized, and what the server opened for it ends.",
    inputSchema: schema({}),
  },
];
