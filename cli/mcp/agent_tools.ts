/**
 * The `ai_*` tools of `sdk mcp` (docs/mcp.md), one row per agent method, which every target's
 * agent has: each tool's name is its method's in snake_case (`aiKeyboardPress`:
 * `ai_keyboard_press`), so a method is named once, and the type checker refuses a row whose
 * method the agent lacks. The tools take `prompt` as the SDK's methods do, plus each method's own
 * fields in snake_case.
 *
 * @module
 */

import type { Agent } from "@sdk/core";
import {
  int,
  schema,
  str,
  text,
  type ToolArgs,
  type ToolDefinition,
  type ToolInputSchema,
  type ToolResult,
} from "./tool_kit.ts";

/** The agent's methods, by name. */
type AgentMethod = {
  [K in keyof Agent]: Agent[K] extends (...args: never[]) => unknown ? K : never;
}[keyof Agent];

/** One `ai_*` tool: what it does, its arguments beside `prompt`, and its call of the method. */
interface AgentTool {
  /** What it does, for the assistant. */
  description: string;
  /** Its arguments. */
  inputSchema: ToolInputSchema;
  /** Calls the method with the call's arguments; resolves with the tool's result. */
  call(agent: Agent, args: ToolArgs): Promise<ToolResult>;
}

const PROMPT = str("What to act on or ask, in plain words, as the SDK's ai* methods take it.");

/** The `ai_*` tools, by the agent method each calls, in the order `tools/list` gives them. */
const AGENT_TOOLS: Readonly<Partial<Record<AgentMethod, AgentTool>>> = {
  aiAct: {
    description: "Plan and perform a task of several steps on the target; returns its output text.",
    inputSchema: schema({ prompt: PROMPT }, ["prompt"]),
    call: async (agent, { s }) => text(await agent.aiAct(s("prompt", true)!) ?? "Done."),
  },
  aiTap: {
    description: "Tap (click) the element the prompt describes.",
    inputSchema: schema({ prompt: PROMPT }, ["prompt"]),
    call: async (agent, { s }) => {
      await agent.aiTap(s("prompt", true)!);
      return text("Tapped.");
    },
  },
  aiInput: {
    description: "Type value into the field the prompt describes (replacing what it holds).",
    inputSchema: schema({
      prompt: PROMPT,
      value: str("The text to type."),
      mode: {
        type: "string",
        enum: ["replace", "typeOnly", "clear"],
        description: "replace (default), typeOnly or clear.",
      },
    }, ["prompt", "value"]),
    call: async (agent, { s }) => {
      const mode = s("mode") as "replace" | "typeOnly" | "clear" | undefined;
      await agent.aiInput(s("prompt", true)!, { value: s("value", true)!, ...(mode && { mode }) });
      return text("Typed.");
    },
  },
  aiScroll: {
    description:
      "Scroll at the element the prompt describes (or where the pointer is, without a prompt).",
    inputSchema: schema({
      prompt: PROMPT,
      direction: {
        type: "string",
        enum: ["down", "up", "left", "right"],
        description: "Which content to reveal (down by default).",
      },
      scroll_type: {
        type: "string",
        enum: ["singleAction", "scrollToBottom", "scrollToTop", "scrollToRight", "scrollToLeft"],
        description: "One scroll (default) or all the way to an edge.",
      },
      distance: int("Pixels to scroll; left out, the SDK chooses."),
    }),
    call: async (agent, { s, n }) => {
      const direction = s("direction") as "down" | "up" | "left" | "right" | undefined;
      const scrollType = s("scroll_type") as
        | "singleAction"
        | "scrollToBottom"
        | "scrollToTop"
        | "scrollToRight"
        | "scrollToLeft"
        | undefined;
      const distance = n("distance");
      await agent.aiScroll(s("prompt"), {
        ...(direction && { direction }),
        ...(scrollType && { scrollType }),
        ...(distance !== undefined && { distance }),
      });
      return text("Scrolled.");
    },
  },
  aiKeyboardPress: {
    description:
      "Press a key (Enter, Tab, Escape, a combination such as Control+A on web and desktop), on the element the prompt describes or the focused one.",
    inputSchema: schema({ prompt: PROMPT, key_name: str("The key's name.") }, ["key_name"]),
    call: async (agent, { s }) => {
      await agent.aiKeyboardPress(s("prompt"), { keyName: s("key_name", true)! });
      return text("Pressed.");
    },
  },
  aiQuery: {
    description: "Read data from the screen in the shape the prompt describes; returns it as JSON.",
    inputSchema: schema({ prompt: PROMPT }, ["prompt"]),
    call: async (agent, { s }) => text(JSON.stringify(await agent.aiQuery(s("prompt", true)!))),
  },
  aiAssert: {
    description:
      "Check that the statement in the prompt holds on the screen; an error says why when it does not.",
    inputSchema: schema({ prompt: PROMPT }, ["prompt"]),
    call: async (agent, { s }) => {
      await agent.aiAssert(s("prompt", true)!);
      return text("The assertion holds.");
    },
  },
  aiWaitFor: {
    description: "Wait until the statement in the prompt holds on the screen.",
    inputSchema: schema({
      prompt: PROMPT,
      timeout_ms: int("How long to wait, ms (15000 by default)."),
    }, ["prompt"]),
    call: async (agent, { s, n }) => {
      const timeoutMs = n("timeout_ms");
      await agent.aiWaitFor(s("prompt", true)!, {
        ...(timeoutMs !== undefined && { timeoutMs }),
      });
      return text("The condition holds.");
    },
  },
};

/** A method's tool name: `aiKeyboardPress` -> `ai_keyboard_press`. */
const toolName = (method: string) => method.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** The `ai_*` tools by tool name: each one's definition and call. */
export const AGENT_TOOL_CALLS: ReadonlyMap<
  string,
  { definition: ToolDefinition; call: AgentTool["call"] }
> = new Map(
  Object.entries(AGENT_TOOLS).map(([method, tool]) => {
    const name = toolName(method);
    const { description, inputSchema, call } = tool!;
    return [name, { definition: { name, description, inputSchema }, call }];
  }),
);
