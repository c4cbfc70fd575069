/**
 * `AgentOverBrowserBridge` (spec 3.4, 4.7): an agent over a tab of the user's own desktop Chrome,
 * driven through the SDK Bridge extension (docs/bridge.md).
 *
 * @module
 */

import process from "node:process";
import { WebPageAgent, type WebPageAgentOptions } from "../agent/page_agent.ts";
import { BridgePageDriver } from "./bridge_driver.ts";
import { BridgeServer, BridgeWaitError } from "./_server.ts";
import {
  ConnectionError,
  InvalidStateError,
  SdkRangeError,
  SdkTypeError,
  UnsupportedActionError,
} from "../_core.ts";

/** Default TCP port of the bridge server (spec 4.7). */
export const DEFAULT_BRIDGE_PORT = 3766;
/** Default wait for the extension to connect, ms. */
export const DEFAULT_BRIDGE_CONNECT_TIMEOUT_MS = 30_000;
/** Environment variable read when the `token` option is not given. */
export const BRIDGE_TOKEN_ENV = "SDK_BRIDGE_TOKEN";

/** Options of {@link AgentOverBrowserBridge}: the page agent's plus the bridge's (spec 4.7). */
export interface AgentOverBrowserBridgeOptions extends WebPageAgentOptions {
  /** Close the tabs the bridge opened (`connectNewTabWithUrl`) on `destroy()`. Default `false`. */
  closeNewTabsAfterDisconnect?: boolean;
  /**
   * Listen on every interface (`0.0.0.0`) instead of `127.0.0.1`. Needs a pairing token.
   * Default `false`.
   */
  allowRemoteAccess?: boolean;
  /**
   * Interface to bind; wins over `allowRemoteAccess`: `127.0.0.1` (`localhost` is taken as it),
   * or `0.0.0.0` / `::` (every interface, with a pairing token). The extension dials
   * `127.0.0.1` only and the pairing proofs bind that address, so any other host (`::1`, a LAN
   * address) is a `TypeError`: only a relay could reach it.
   */
  host?: string;
  /** TCP port of the bridge server. Default 3766 ({@link DEFAULT_BRIDGE_PORT}). */
  port?: number;
  /**
   * Blue animated (water-flow) border and a pointer dot at each mouse action's point while the
   * tab is controlled (spec 4.7). Drawn by the extension on top of the page, click-through,
   * hidden during screenshots (the model sees the page, not the overlay), removed on `destroy()`.
   * Default `true`.
   */
  enableWaterFlowAnimation?: boolean;
  /**
   * The pairing token shown in the extension's popup (8 characters or more). The bridge and the
   * extension each prove they hold it, without sending it, before any command flows. Default:
   * the `SDK_BRIDGE_TOKEN` environment variable. Required unless `allowUnpaired` is `true`.
   */
  token?: string;
  /**
   * Accept an extension without pairing when there is no token (on a loopback host only). The
   * extension must allow it too (its popup's "Accept an SDK without the pairing token"). Then
   * any program on this computer could pose as the extension, and read what the agent types.
   * Default `false`: without a token the constructor throws.
   */
  allowUnpaired?: boolean;
  /** Only this extension id may connect (the `Origin` is checked). Default: any extension. */
  extensionId?: string;
  /** How long `connect...()` waits for the extension to connect, ms. Default 30000. */
  connectTimeout?: number;
}

// The agent's state (spec 3.4), shared with the driver's channel.
interface Link {
  state: "unconnected" | "connected" | "destroyed";
  // Why the debugger left the tab, once it did.
  detached: string | undefined;
}

const LOOPBACK = new Set(["127.0.0.1", "localhost"]);
/** Where the bridge may listen: where the extension dials, or every interface. */
const LISTEN_HOSTS = new Set(["127.0.0.1", "localhost", "0.0.0.0", "::"]);

/** Options of a connect call (spec 4.7). */
export interface BridgeConnectOptions {
  /**
   * Links and `window.open` that would open a new tab open in the connected one. Default: the
   * constructor's `forceSameTabNavigation`, else `true`.
   */
  forceSameTabNavigation?: boolean;
}

/**
 * An agent over one tab of the user's desktop Chrome, through the SDK Bridge extension
 * (`deno task build:extension`, then "Load unpacked" `dist/extension`). The agent runs a
 * WebSocket server (127.0.0.1:3766 by default); the extension's service worker connects to it
 * and drives the tab with `chrome.debugger`. The web action space, screenshots and input
 * strategies are those of the page agents.
 *
 * States (spec 3.4): unconnected, then `connectCurrentTab()` or `connectNewTabWithUrl()` make it
 * connected to one tab; `destroy()` ends it. One tab per instance: create a new instance after
 * `destroy()`.
 *
 * @example
 * ```ts ignore
 * import { AgentOverBrowserBridge } from "@sdk/web";
 *
 * const agent = new AgentOverBrowserBridge({ closeNewTabsAfterDisconnect: true });
 * await agent.connectNewTabWithUrl("https://example.com");
 * await agent.aiAct("open the 'More information' link");
 * await agent.destroy();
 * ```
 */
export class AgentOverBrowserBridge extends WebPageAgent {
  readonly #server: BridgeServer;
  readonly #bridgeDriver: BridgePageDriver;
  readonly #closeNewTabs: boolean;
  readonly #connectTimeout: number;
  readonly #host: string;
  readonly #port: number;
  readonly #link: Link;
  readonly #overlay: boolean;
  // Where the pairing token came from, for the message of a token turned away.
  readonly #tokenFrom: string;
  #createdTab = false;

  /**
   * Creates the agent; nothing listens until a `connect...()` call.
   *
   * @throws {SdkTypeError} when there is no pairing token (option `token` or `SDK_BRIDGE_TOKEN`)
   * and `allowUnpaired` is not `true`, or remote access (`allowRemoteAccess`, a non-loopback
   * `host`) comes without one, or a bridge option has the wrong type.
   * @throws {SdkRangeError} for a port outside 0-65535, a negative `connectTimeout`, or the page
   * agent's invalid options.
   */
  constructor(options: AgentOverBrowserBridgeOptions = {}) {
    const {
      closeNewTabsAfterDisconnect,
      allowRemoteAccess,
      host,
      port,
      enableWaterFlowAnimation,
      token,
      allowUnpaired,
      extensionId,
      connectTimeout,
      ...agentOptions
    } = options;
    if (allowUnpaired !== undefined && typeof allowUnpaired !== "boolean") {
      throw new SdkTypeError(
        `AgentOverBrowserBridge: 'allowUnpaired' must be a boolean: current value is ${typeof allowUnpaired}`,
      );
    }
    if (enableWaterFlowAnimation !== undefined && typeof enableWaterFlowAnimation !== "boolean") {
      throw new SdkTypeError(
        `AgentOverBrowserBridge: 'enableWaterFlowAnimation' must be a boolean: current value is ${typeof enableWaterFlowAnimation}`,
      );
    }
    // The extension dials ws://127.0.0.1:<port> only, and the pairing proofs bind that address:
    // the bridge listens there, or on every interface (for a tunnel that lands on 127.0.0.1).
    if (host !== undefined && !LISTEN_HOSTS.has(host)) {
      throw new SdkTypeError(
        `AgentOverBrowserBridge: 'host' ${
          JSON.stringify(host)
        } is not where the extension dials: ` +
          `it connects to 127.0.0.1 only, and the pairing proofs bind that address, so a bridge on ` +
          `::1 or another address could only be reached through a relay. Use 127.0.0.1 (the ` +
          `default), or 0.0.0.0 / :: (every interface, with a token) for a tunnel that lands on ` +
          `127.0.0.1`,
      );
    }
    const boundHost = host === "localhost"
      ? "127.0.0.1"
      : host ?? (allowRemoteAccess ? "0.0.0.0" : "127.0.0.1");
    const pairing = token ?? (process.env[BRIDGE_TOKEN_ENV] || undefined);
    if (pairing !== undefined && (typeof pairing !== "string" || pairing.length < 8)) {
      throw new SdkTypeError(
        "AgentOverBrowserBridge: 'token' must be a string of 8 characters or more",
      );
    }
    if (!LOOPBACK.has(boundHost) && pairing === undefined) {
      throw new SdkTypeError(
        `AgentOverBrowserBridge: listening on ${boundHost} (remote access) needs the pairing token ` +
          `shown in the extension's popup: pass 'token' or set ${BRIDGE_TOKEN_ENV}`,
      );
    }
    if (pairing === undefined && allowUnpaired !== true) {
      throw new SdkTypeError(
        `AgentOverBrowserBridge needs the pairing token shown in the SDK Bridge extension's ` +
          `popup: pass it as 'token' or set ${BRIDGE_TOKEN_ENV}. The bridge and the extension ` +
          `prove to each other that they hold it, so no other program on this computer can pose ` +
          `as either. To connect without it, set allowUnpaired: true and allow it in the popup ` +
          `(any local program could then drive the browser; see docs/bridge.md).`,
      );
    }
    const boundPort = port ?? DEFAULT_BRIDGE_PORT;
    if (!Number.isInteger(boundPort) || boundPort < 0 || boundPort > 65535) {
      throw new SdkRangeError(
        `AgentOverBrowserBridge: 'port' must be an integer 0-65535: current value is ${port}`,
      );
    }
    const timeout = connectTimeout ?? DEFAULT_BRIDGE_CONNECT_TIMEOUT_MS;
    if (!(Number.isFinite(timeout) && timeout >= 0)) {
      throw new SdkRangeError(
        `AgentOverBrowserBridge: 'connectTimeout' must be a finite number of ms >= 0: current value is ${connectTimeout}`,
      );
    }
    const server = new BridgeServer({
      host: boundHost,
      port: boundPort,
      token: pairing,
      extensionId,
    });
    const link: Link = { state: "unconnected", detached: undefined };
    const endpoint = () => server.endpoint;
    const driver = new BridgePageDriver({
      send: (method, params) => {
        if (link.state !== "connected") {
          return Promise.reject(
            link.state === "destroyed" ? destroyedError() : new ConnectionError(
              "AgentOverBrowserBridge is not connected: call connectCurrentTab() or connectNewTabWithUrl() first",
              { kind: "refused", endpoint: endpoint() },
            ),
          );
        }
        if (link.detached !== undefined) {
          return Promise.reject(
            new ConnectionError(
              `AgentOverBrowserBridge: the tab is no longer driven (${link.detached})`,
              { kind: "lost", endpoint: endpoint() },
            ),
          );
        }
        // A tab closed a moment ago: Chrome may answer before the extension's detach notice.
        return server.call("cdp", { method, params: params ?? {} }).catch((error: unknown) => {
          const message = error instanceof Error ? error.message : String(error);
          if (/No tab with given id|Debugger is not attached/i.test(message)) {
            throw new ConnectionError(
              `AgentOverBrowserBridge: the tab is no longer driven (${message})`,
              { kind: "lost", endpoint: endpoint() },
              { cause: error },
            );
          }
          throw error;
        });
      },
      onEvent: (listener) => server.onEvent(listener),
    });
    super(driver, agentOptions);
    this.#link = link;
    this.#server = server;
    this.#bridgeDriver = driver;
    this.#closeNewTabs = closeNewTabsAfterDisconnect ?? false;
    this.#connectTimeout = timeout;
    this.#host = boundHost;
    this.#port = boundPort;
    this.#overlay = enableWaterFlowAnimation ?? true;
    this.#tokenFrom = token !== undefined ? "the 'token' option" : BRIDGE_TOKEN_ENV;
    server.onDetached = (reason) => link.detached = reason;
  }

  /** The port the server listens on once a `connect...()` call started it (useful with port 0). */
  get port(): number | undefined {
    return this.#server.port;
  }

  /**
   * Connects to the active tab of the browser's last focused window (spec 3.4).
   *
   * @param options `forceSameTabNavigation`: links that would open a new tab open in this one;
   *   default: the constructor's option, else `true`.
   * @throws {SdkTypeError} when `options.forceSameTabNavigation` is not a boolean.
   * @throws {ConnectionError} `timeout` when no extension connects within `connectTimeout` (the
   * message says how to install and pair it); `refused` at once when the extension refuses this
   * agent: another pairing token (the message names `SDK_BRIDGE_TOKEN`), or no token while its
   * popup does not allow an unpaired SDK; or when the port cannot be bound;
   * `lost` after `destroy()`.
   * @throws {UnsupportedActionError} when the instance is already connected (one tab each).
   * @throws {ToolError} with the extension's words when it cannot drive the tab (a browser page).
   */
  async connectCurrentTab(options: BridgeConnectOptions = {}): Promise<void> {
    this.#applyConnectOptions("connectCurrentTab", options);
    await this.#connect("connectCurrentTab", async () => {
      await this.#server.call("connectCurrentTab", { overlay: this.#overlay });
      await this.#bridgeDriver.start();
    });
  }

  /**
   * Opens `url` in a new tab and connects to it (spec 3.4); resolves once the page is parsed.
   * The tab is closed by `destroy()` when `closeNewTabsAfterDisconnect` says so.
   *
   * @param options as for {@link AgentOverBrowserBridge.connectCurrentTab}.
   * @throws {ConnectionError} as {@link AgentOverBrowserBridge.connectCurrentTab}.
   * @throws {ToolError} when the extension cannot open the tab.
   * @throws {NavigationError} when Chrome cannot open `url` (its reason and what to check).
   */
  async connectNewTabWithUrl(url: string, options: BridgeConnectOptions = {}): Promise<void> {
    if (typeof url !== "string") {
      throw new SdkTypeError(
        `connectNewTabWithUrl needs a URL string: current value is ${typeof url}`,
      );
    }
    this.#applyConnectOptions("connectNewTabWithUrl", options);
    await this.#connect("connectNewTabWithUrl", async () => {
      await this.#server.call("connectNewTab", { url: "about:blank", overlay: this.#overlay });
      this.#createdTab = true;
      await this.#bridgeDriver.start();
      await this.#bridgeDriver.goto(url);
    });
  }

  #applyConnectOptions(method: string, options: BridgeConnectOptions): void {
    const same = options?.forceSameTabNavigation;
    if (same === undefined) return;
    if (typeof same !== "boolean") {
      throw new SdkTypeError(
        `${method}: 'forceSameTabNavigation' must be a boolean: current value is ${
          JSON.stringify(same)
        }`,
      );
    }
    this.interface.setForceSameTabNavigation(same);
  }

  async #connect(method: string, attach: () => Promise<void>): Promise<void> {
    if (this.#link.state === "destroyed") throw destroyedError();
    if (this.#link.state === "connected") {
      throw new UnsupportedActionError(
        "AgentOverBrowserBridge is already connected to a tab: one tab per instance",
        method,
      );
    }
    await this.#server.listen();
    try {
      await this.#server.waitForClient(this.#connectTimeout);
    } catch (error) {
      const port = this.#server.port ?? this.#port;
      const where = `ws://${this.#host}:${port}`;
      if (error instanceof BridgeWaitError && error.reason === "token") {
        throw new ConnectionError(
          `AgentOverBrowserBridge: an SDK Bridge extension connected to ${where} and refused ` +
            `this agent: the extension's pairing token does not match the one this agent has ` +
            `from ${this.#tokenFrom}. Open the extension's popup and copy its pairing token into ` +
            `${BRIDGE_TOKEN_ENV} (or pass it as the 'token' option); see docs/bridge.md.`,
          { kind: "refused", endpoint: where },
          { cause: error },
        );
      }
      if (error instanceof BridgeWaitError && error.reason === "unpaired") {
        throw new ConnectionError(
          `AgentOverBrowserBridge: an SDK Bridge extension connected to ${where} and refused ` +
            `this agent, which runs without the pairing token (allowUnpaired). Copy the token ` +
            `from the extension's popup into ${BRIDGE_TOKEN_ENV} (or the 'token' option), or ` +
            `tick "Accept an SDK without the pairing token" in the popup (see docs/bridge.md).`,
          { kind: "refused", endpoint: where },
          { cause: error },
        );
      }
      const rejected = this.#server.lastRejection;
      throw new ConnectionError(
        `AgentOverBrowserBridge: no SDK Bridge extension connected to ${where} ` +
          `within ${this.#connectTimeout} ms${
            rejected ? ` (one was turned away: ${rejected})` : ""
          }. ` +
          `Build it with 'deno task build:extension', load dist/extension in chrome://extensions ` +
          `("Developer mode", "Load unpacked"), then open its popup: it must show port ${port} and the ` +
          `pairing token this agent has (see docs/bridge.md).`,
        { kind: "timeout", endpoint: where },
        { cause: error },
      );
    }
    this.#link.state = "connected";
    this.#link.detached = undefined;
    try {
      await attach();
    } catch (error) {
      this.#link.state = "unconnected";
      await this.#server.call("detach").catch(() => {});
      throw error;
    }
  }

  /**
   * Disconnects and stops the server (spec 3.4); idempotent. The tab stays open unless it was
   * opened by `connectNewTabWithUrl` and `closeNewTabsAfterDisconnect` (this argument, else the
   * option) is true.
   */
  override async destroy(closeNewTabsAfterDisconnect?: boolean): Promise<void> {
    if (this.#link.state === "destroyed") return;
    const wasConnected = this.#link.state === "connected";
    this.#link.state = "destroyed";
    try {
      await super.destroy();
    } finally {
      if (wasConnected && this.#server.connected) {
        const close = this.#createdTab && (closeNewTabsAfterDisconnect ?? this.#closeNewTabs);
        await this.#server.call(close ? "closeTab" : "detach", {}, 5000).catch(() => {});
      }
      await this.#server.close();
    }
  }
}

/** A call on an agent after its `destroy()`: its connection is gone for good. */
function destroyedError(): InvalidStateError {
  return new InvalidStateError("AgentOverBrowserBridge was destroyed; create a new instance");
}
