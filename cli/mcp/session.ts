/**
 * One MCP session of `sdk mcp`: at most one target at a time, and the tool calls on it. A tool
 * that fails answers an MCP tool error (`isError`) whose text carries the SDK error's class, code
 * and message; the API key never appears in any result.
 *
 * @module
 */

import { InvalidStateError, isSdkError, SdkTypeError } from "@sdk/core";
import { stripAnsi } from "@sdk/web";
import { AGENT_TOOL_CALLS } from "./agent_tools.ts";
import { DEFAULT_MCP_GUARD, type McpGuardOptions } from "./guard.ts";
import { CONNECT_TOOL_CALLS, type OpenTarget } from "./targets.ts";
import { text, toolArgs, type ToolResult } from "./tool_kit.ts";

export type { ToolResult } from "./tool_kit.ts";

/** A failed call's error as text: class, code and message, secrets masked, no terminal escapes. */
function errorText(e: unknown, secrets: readonly string[]): string {
  // A driver library's message may carry terminal escapes (Playwright's call log): never to a client.
  let message = stripAnsi(e instanceof Error ? e.message : String(e));
  for (const secret of secrets) if (secret.length >= 8) message = message.split(secret).join("***");
  const head = isSdkError(e) ? `${e.name} (${e.code})` : e instanceof Error ? e.name : "Error";
  return `${head}: ${message}`;
}

/** The error of a failed tool call as MCP tool error text: class, code and message. */
function errorResult(e: unknown, secrets: readonly string[] = []): ToolResult {
  return { content: [{ type: "text", text: errorText(e, secrets) }], isError: true };
}

/** Destroys a target's agent (finalizing its report), then releases what was opened for it. */
async function closeTarget(target: OpenTarget): Promise<string | undefined> {
  try {
    await target.agent.destroy();
  } finally {
    await target.close?.();
  }
  return target.agent.reportFile ?? undefined;
}

/** The targets and tool calls of one MCP session. */
export class McpSession {
  #target: OpenTarget | undefined;
  readonly #secrets: readonly string[];
  readonly #guard: McpGuardOptions;

  /**
   * @param secrets texts never to return (the model's API keys of the server's environment).
   * @param guard what the server allows beyond web pages and loopback browsers.
   */
  constructor(secrets: readonly string[] = [], guard: McpGuardOptions = DEFAULT_MCP_GUARD) {
    this.#secrets = secrets;
    this.#guard = guard;
  }

  /** Runs the tool `name`; never throws: a failure is an error result. */
  async call(name: string, args: Record<string, unknown> = {}): Promise<ToolResult> {
    try {
      return await this.#call(name, args);
    } catch (e) {
      return errorResult(e, this.#secrets);
    }
  }

  /** Closes the open target, if any; its report is finalized. */
  async close(): Promise<string | undefined> {
    const target = this.#target;
    this.#target = undefined;
    return target ? await closeTarget(target) : undefined;
  }

  /**
   * Opens a new target, then closes the previous one: a connect that fails leaves the open
   * target as it was, still the one the `ai_*` tools drive.
   */
  async #open(open: () => Promise<OpenTarget>): Promise<ToolResult> {
    const opened = await open();
    const previous = this.#target;
    this.#target = opened;
    if (!previous) return text(`${opened.label} is open.`);
    let closed = `${previous.label} closed`;
    try {
      await closeTarget(previous);
    } catch (e) {
      closed += ` (closing it failed: ${errorText(e, this.#secrets)})`;
    }
    return text(`${closed}; ${opened.label} is open.`);
  }

  #agent() {
    if (!this.#target) {
      const names = [...CONNECT_TOOL_CALLS.keys()];
      throw new InvalidStateError(
        `No target is open: call ${names.slice(0, -1).join(", ")} or ${names.at(-1)} first`,
      );
    }
    return this.#target.agent;
  }

  async #call(name: string, args: Record<string, unknown>): Promise<ToolResult> {
    const read = toolArgs(args);
    const connect = CONNECT_TOOL_CALLS.get(name);
    if (connect) return await this.#open(() => connect.open(read, this.#guard));
    const tool = AGENT_TOOL_CALLS.get(name);
    if (tool) return await tool.call(this.#agent(), read);
    switch (name) {
      case "screenshot": {
        const uri = await this.#agent().interface.screenshotBase64();
        const comma = uri.indexOf(",");
        const mimeType = uri.slice(5, uri.indexOf(";"));
        return { content: [{ type: "image", data: uri.slice(comma + 1), mimeType }] };
      }
      case "report": {
        const file = this.#agent().reportFile;
        return text(file ? file : "No report yet: it is written once the target has run a call.");
      }
      case "close": {
        if (!this.#target) return text("No target was open.");
        const label = this.#target.label;
        const report = await this.close();
        return text(`${label} closed.${report ? ` Its report: ${report}` : ""}`);
      }
      default:
        throw new SdkTypeError(`There is no tool named ${JSON.stringify(name)}`);
    }
  }
}
