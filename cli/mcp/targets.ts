/**
 * The targets an MCP session opens (docs/mcp.md): a web page in Chromium (launched, or attached
 * to over CDP), an Android phone through adb, an iPhone through WebDriverAgent, a HarmonyOS
 * device through hdc, and a desktop (local, headless, or over RDP). Each platform package is
 * loaded only when its target opens. The model comes from the server's environment (`SDK_MODEL_*`),
 * never from the assistant.
 *
 * @module
 */

import process from "node:process";
import { type Agent, type AgentOptions, MissingDependencyError, SdkTypeError } from "@sdk/core";

/** An open target: its agent, what it is, and how to release what the session opened for it. */
export interface OpenTarget {
  /** The agent the `ai_*` tools call. */
  agent: Agent;
  /** What the target is, for tool results: `web page https://...`, `android device emulator-5554`. */
  label: string;
  /** Releases what was opened for the target (a launched browser), after the agent is destroyed. */
  close?(): Promise<void>;
}

/** The agent options every target gets: reports on, no console messages (stdio carries MCP). */
const MCP_AGENT_OPTIONS: AgentOptions = { autoPrintReportMsg: false };

async function load<T>(pkg: string, importer: () => Promise<T>): Promise<T> {
  try {
    return await importer();
  } catch (e) {
    throw new MissingDependencyError(
      `This target needs ${pkg}, which could not be loaded (${(e as Error).message}): install it ` +
        `next to @sdk/cli (npm install ${pkg})`,
      pkg,
      { cause: e },
    );
  }
}

/**
 * `web_open`: a new page at `url` in a launched Chromium, or in the browser at `cdpEndpoint`.
 *
 * @throws {NavigationError} when the page does not open (what was opened for it is closed).
 */
export async function openWeb(args: { url: string; cdpEndpoint?: string }): Promise<OpenTarget> {
  if (!URL.canParse(args.url)) {
    throw new SdkTypeError(
      `web_open: url must be an absolute URL, got ${JSON.stringify(args.url)}`,
    );
  }
  const web = await load("@sdk/web", () => import("@sdk/web"));
  if (args.cdpEndpoint) {
    const { chromium } = await load("playwright-core", () => import("playwright-core"));
    const browser = await chromium.connectOverCDP(args.cdpEndpoint);
    const context = browser.contexts()[0] ?? await browser.newContext();
    const page = await context.newPage();
    try {
      await web.openUrl(page, args.url);
      // The browser's other tabs may hold the focus, and keys go to the focused tab only.
      await page.bringToFront();
    } catch (e) {
      // The browser is the user's: only the page opened here goes, and the connection.
      await page.close().catch(() => {});
      await browser.close().catch(() => {});
      throw e;
    }
    return {
      agent: new web.DriverBPageAgent(page, MCP_AGENT_OPTIONS),
      label: `web page ${args.url} (browser at ${args.cdpEndpoint})`,
      // The browser is the user's: only the page this session opened is closed.
      close: async () => {
        await page.close().catch(() => {});
        await browser.close().catch(() => {});
      },
    };
  }
  const { launchChromium, DEFAULT_VIEWPORT } = await load(
    "@sdk/web",
    () => import("@sdk/web/chromium"),
  );
  // Signals are the server's to handle: it closes its targets before it exits.
  const browser = await launchChromium({ headless: true, handleSignals: false });
  try {
    const page = await (await browser.newContext({ viewport: DEFAULT_VIEWPORT })).newPage();
    await web.openUrl(page, args.url);
    return {
      agent: new web.DriverBPageAgent(page, MCP_AGENT_OPTIONS),
      label: `web page ${args.url}`,
      close: () => browser.close(),
    };
  } catch (e) {
    await browser.close();
    throw e;
  }
}

/** `android_connect`: a MobileA agent over adb (a remote adb server when host or port is given). */
export async function openAndroid(
  args: { deviceId?: string; adbHost?: string; adbPort?: number },
): Promise<OpenTarget> {
  const mobilea = await load("@sdk/mobilea", () => import("@sdk/mobilea"));
  const agent = await mobilea.agentFromBridgeDevice(args.deviceId, {
    ...MCP_AGENT_OPTIONS,
    ...(args.adbHost !== undefined && { remoteBridgeHost: args.adbHost }),
    ...(args.adbPort !== undefined && { remoteBridgePort: args.adbPort }),
  });
  return { agent, label: `android device ${agent.interface.deviceId}` };
}

/** `ios_connect`: a MobileB agent over WebDriverAgent. */
export async function openIos(args: { host?: string; port?: number }): Promise<OpenTarget> {
  const mobileb = await load("@sdk/mobileb", () => import("@sdk/mobileb"));
  const agent = await mobileb.agentFromDeviceDriver({
    ...MCP_AGENT_OPTIONS,
    ...(args.host !== undefined && { driverHost: args.host }),
    ...(args.port !== undefined && { driverPort: args.port }),
  });
  return {
    agent,
    label: `ios device at ${args.host ?? "localhost"}:${args.port ?? 8100}`,
  };
}

/** `harmony_connect`: a MobileC agent over hdc. */
export async function openHarmony(args: { deviceId?: string }): Promise<OpenTarget> {
  const mobilec = await load("@sdk/mobilec", () => import("@sdk/mobilec"));
  const agent = await mobilec.agentFromToolDevice(args.deviceId, MCP_AGENT_OPTIONS);
  return { agent, label: `harmony device ${agent.interface.deviceId}` };
}

/** The environment variable an RDP password comes from: never a tool argument. */
const RDP_PASSWORD_ENV = "SDK_RDP_PASSWORD";

/**
 * `desktop_connect`: the local desktop (`DISPLAY`, or `display`), a headless one (an
 * agent-owned Xvfb), or a remote one over RDP (`rdpHost`, `rdpUser`; the password from
 * {@link RDP_PASSWORD_ENV} of the server's environment).
 */
export async function openDesktop(
  args: {
    headless?: boolean;
    display?: string;
    displayId?: string;
    rdpHost?: string;
    rdpPort?: number;
    rdpUser?: string;
    ignoreCertificate?: boolean;
  },
): Promise<OpenTarget> {
  const computer = await load("@sdk/computer", () => import("@sdk/computer"));
  if (args.rdpHost) {
    const password = process.env[RDP_PASSWORD_ENV];
    const agent = await computer.agentForRDPComputer({
      ...MCP_AGENT_OPTIONS,
      host: args.rdpHost,
      ...(args.rdpPort !== undefined && { port: args.rdpPort }),
      ...(args.rdpUser !== undefined && { username: args.rdpUser }),
      ...(password !== undefined && { password }),
      ...(args.ignoreCertificate !== undefined && { ignoreCertificate: args.ignoreCertificate }),
    });
    return { agent, label: `remote desktop ${args.rdpHost}:${args.rdpPort ?? 3389}` };
  }
  // The server's own process: the X display the device uses is its DISPLAY (put back when the
  // connect fails, so that the target still open keeps its display).
  const before = process.env.DISPLAY;
  if (args.display !== undefined) process.env.DISPLAY = args.display;
  let agent;
  try {
    agent = await computer.agentForComputer({
      ...MCP_AGENT_OPTIONS,
      ...(args.headless !== undefined && { headless: args.headless }),
      ...(args.displayId !== undefined && { displayId: args.displayId }),
    });
  } catch (e) {
    if (before === undefined) delete process.env.DISPLAY;
    else process.env.DISPLAY = before;
    throw e;
  }
  return {
    agent,
    label: args.headless ? "headless desktop" : `desktop at DISPLAY=${process.env.DISPLAY}`,
  };
}
