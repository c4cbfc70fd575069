/**
 * One MCP session of `sdk mcp`: at most one target at a time, and the tool calls on it. A tool
 * that fails answers an MCP tool error (`isError`) whose text carries the SDK error's class, code
 * and message; the API key never appears in any result.
 *
 * @module
 */

import { InvalidStateError, isSdkError, SdkTypeError } from "@sdk/core";
import { stripAnsi } from "@sdk/web";
import { checkWebOpen, DEFAULT_MCP_GUARD, type McpGuardOptions } from "./guard.ts";
import {
  openAndroid,
  openDesktop,
  openHarmony,
  openIos,
  type OpenTarget,
  openWeb,
} from "./targets.ts";

/** A content block of a tool result (MCP `tools/call`). */
export type ToolContent =
  | { type: "text"; text: string }
  | { type: "image"; data: string; mimeType: string };

/** A tool result: its content, and whether it is an error. */
export interface ToolResult {
  /** What the tool returns. */
  content: ToolContent[];
  /** Set for a failed call. */
  isError?: boolean;
}

type Args = Record<string, unknown>;

function text(value: string): ToolResult {
  return { content: [{ type: "text", text: value }] };
}

/** A tool argument that must be of `kind` when given; `undefined` when left out. */
function arg(args: Args, name: string, kind: "string" | "number" | "boolean", required = false) {
  const v = args[name];
  if (v === undefined || v === null) {
    if (required) throw new SdkTypeError(`The argument "${name}" is required`);
    return undefined;
  }
  const ok = kind === "string"
    ? typeof v === "string"
    : kind === "number"
    ? typeof v === "number"
    : typeof v === "boolean";
  if (!ok) {
    throw new SdkTypeError(`The argument "${name}" must be a ${kind}, got ${JSON.stringify(v)}`);
  }
  return v;
}

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
  async call(name: string, args: Args = {}): Promise<ToolResult> {
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
      throw new InvalidStateError(
        "No target is open: call web_open, android_connect, ios_connect, harmony_connect or " +
          "desktop_connect first",
      );
    }
    return this.#target.agent;
  }

  async #call(name: string, args: Args): Promise<ToolResult> {
    const s = (key: string, required = false) =>
      arg(args, key, "string", required) as string | undefined;
    const n = (key: string) => arg(args, key, "number") as number | undefined;
    const b = (key: string) => arg(args, key, "boolean") as boolean | undefined;
    switch (name) {
      case "web_open": {
        const web = { url: s("url", true)!, cdpEndpoint: s("cdp_endpoint") };
        checkWebOpen(web, this.#guard);
        return await this.#open(() => openWeb(web));
      }
      case "android_connect":
        return await this.#open(() =>
          openAndroid({ deviceId: s("device_id"), adbHost: s("adb_host"), adbPort: n("adb_port") })
        );
      case "ios_connect":
        return await this.#open(() => openIos({ host: s("host"), port: n("port") }));
      case "harmony_connect":
        return await this.#open(() => openHarmony({ deviceId: s("device_id") }));
      case "desktop_connect":
        return await this.#open(() =>
          openDesktop({
            headless: b("headless"),
            display: s("display"),
            displayId: s("display_id"),
            rdpHost: s("rdp_host"),
            rdpPort: n("rdp_port"),
            rdpUser: s("rdp_user"),
            ignoreCertificate: b("ignore_certificate"),
          })
        );
      case "ai_act": {
        const output = await this.#agent().aiAct(s("prompt", true)!);
        return text(output ?? "Done.");
      }
      case "ai_tap":
        await this.#agent().aiTap(s("prompt", true)!);
        return text("Tapped.");
      case "ai_input": {
        const mode = s("mode") as "replace" | "typeOnly" | "clear" | undefined;
        await this.#agent().aiInput(s("prompt", true)!, {
          value: s("value", true)!,
          ...(mode && { mode }),
        });
        return text("Typed.");
      }
      case "ai_scroll": {
        const direction = s("direction") as "down" | "up" | "left" | "right" | undefined;
        const scrollType = s("scroll_type") as
          | "singleAction"
          | "scrollToBottom"
          | "scrollToTop"
          | "scrollToRight"
          | "scrollToLeft"
          | undefined;
        const distance = n("distance");
        await this.#agent().aiScroll(s("prompt"), {
          ...(direction && { direction }),
          ...(scrollType && { scrollType }),
          ...(distance !== undefined && { distance }),
        });
        return text("Scrolled.");
      }
      case "ai_keyboard_press":
        await this.#agent().aiKeyboardPress(s("prompt"), { keyName: s("key_name", true)! });
        return text("Pressed.");
      case "ai_query": {
        const data = await this.#agent().aiQuery(s("prompt", true)!);
        return text(JSON.stringify(data));
      }
      case "ai_assert":
        await this.#agent().aiAssert(s("prompt", true)!);
        return text("The assertion holds.");
      case "ai_wait_for": {
        const timeoutMs = n("timeout_ms");
        await this.#agent().aiWaitFor(s("prompt", true)!, {
          ...(timeoutMs !== undefined && { timeoutMs }),
        });
        return text("The condition holds.");
      }
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
