/**
 * A web script with `bridgeMode` runs in your own Chrome, through the SDK Bridge extension
 * (docs/bridge.md): `sdk run` creates an `AgentOverBrowserBridge` with the pairing token of
 * `SDK_BRIDGE_TOKEN` (never the script's: a script cannot read it) on `--bridge-port`, and
 * connects it to a new tab on the script's `url` (`newTabWithUrl`) or to the active tab
 * (`currentTab`). The bridge's pairing and its checks are the same as in code.
 *
 * @module
 */

import { dirname, resolve } from "node:path";
import type { ScriptWebTarget } from "@sdk/core/script";
import { AgentOverBrowserBridge, type WebPageAgentOptions } from "@sdk/web";
import { serveStatic, type StaticServer } from "./serve.ts";

/** A bridge agent connected for one script, and what ends it. */
export interface BridgeTarget {
  /** The agent, connected to its tab. */
  agent: AgentOverBrowserBridge;
  /** Destroys the agent (closing the tab it opened when the script asks) and any server. */
  close(): Promise<void>;
}

/**
 * Connects a bridge agent as the script's `web` section asks.
 *
 * @param web the script's `web` section, with `bridgeMode` set.
 * @param scriptFile the script's path: `serve` resolves from its folder.
 * @param options the agent options (the section's page options, `agent:`, the flags).
 * @param port the bridge's port (`--bridge-port`); default the bridge's own (3766).
 * @throws what the bridge's constructor and connect calls throw: an `SdkTypeError` without a
 * pairing token (set `SDK_BRIDGE_TOKEN`), a `ConnectionError` when no extension pairs within its
 * `connectTimeout` or the extension refuses the token; the agent is destroyed first.
 */
export async function connectBridgeTarget(
  web: ScriptWebTarget,
  scriptFile: string,
  options: WebPageAgentOptions,
  port: number | undefined,
): Promise<BridgeTarget> {
  let server: StaticServer | undefined;
  const agent = new AgentOverBrowserBridge({
    ...options,
    ...(port !== undefined && { port }),
    closeNewTabsAfterDisconnect: web.closeNewTabsAfterDisconnect ?? false,
  });
  const close = async () => {
    await agent.destroy();
    await server?.close();
  };
  try {
    if (web.bridgeMode === "currentTab") {
      await agent.connectCurrentTab();
    } else {
      let url = web.url;
      if (web.serve) {
        server = await serveStatic(resolve(dirname(scriptFile), web.serve));
        url = new URL(url.replace(/^\/+/, ""), server.url).href;
      }
      await agent.connectNewTabWithUrl(url);
    }
    return { agent, close };
  } catch (e) {
    await close();
    throw e;
  }
}
