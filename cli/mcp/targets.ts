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
import { type PlatformKey, platformPackage } from "../platforms.ts";
import { checkWebOpen, type McpGuardOptions } from "./guard.ts";
import { bool, int, schema, str, type ToolArgs, type ToolDefinition } from "./tool_kit.ts";

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
async function openWeb(args: { url: string; cdpEndpoint?: string }): Promise<OpenTarget> {
  if (!URL.canParse(args.url)) {
    throw new SdkTypeError(
      `web_open: url must be an absolute URL, got ${JSON.stringify(args.url)}`,
    );
  }
  const web = await load(platformPackage("web"), () => import("@sdk/web"));
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
    platformPackage("web"),
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
async function openAndroid(
  args: { deviceId?: string; adbHost?: string; adbPort?: number },
): Promise<OpenTarget> {
  const mobilea = await load(platformPackage("mobilea"), () => import("@sdk/mobilea"));
  const agent = await mobilea.agentFromBridgeDevice(args.deviceId, {
    ...MCP_AGENT_OPTIONS,
    ...(args.adbHost !== undefined && { remoteBridgeHost: args.adbHost }),
    ...(args.adbPort !== undefined && { remoteBridgePort: args.adbPort }),
  });
  return { agent, label: `android device ${agent.interface.deviceId}` };
}

/** `ios_connect`: a MobileB agent over WebDriverAgent. */
async function openIos(args: { host?: string; port?: number }): Promise<OpenTarget> {
  const mobileb = await load(platformPackage("mobileb"), () => import("@sdk/mobileb"));
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
async function openHarmony(args: { deviceId?: string }): Promise<OpenTarget> {
  const mobilec = await load(platformPackage("mobilec"), () => import("@sdk/mobilec"));
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
async function openDesktop(
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
  const computer = await load(platformPackage("computer"), () => import("@sdk/computer"));
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

/** A connect tool: its definition, and how it opens its target from the call's arguments. */
interface ConnectTool {
  /** The tool as `tools/list` shows it. */
  definition: ToolDefinition;
  /** Opens the target; `guard` says what the server allows beyond web pages. */
  open(args: ToolArgs, guard: McpGuardOptions): Promise<OpenTarget>;
}

const OPENS = "Once it is open, the session's previous target is closed; when it fails, that " +
  "target stays open.";

/**
 * The connect tool of each platform of the command line's registry (`cli/platforms.ts`), in the
 * order `tools/list` gives them.
 */
const CONNECT_TOOLS: Readonly<Record<PlatformKey, ConnectTool>> = {
  web: {
    definition: {
      name: "web_open",
      description:
        `Open a web page in headless Chromium (or in the browser at cdp_endpoint) and drive it. ${OPENS}`,
      inputSchema: schema({
        url: str("The page's address, absolute (https://...)."),
        cdp_endpoint: str(
          "A Chromium DevTools endpoint (http://127.0.0.1:9222) to open the page in instead of launching Chromium.",
        ),
      }, ["url"]),
    },
    open: ({ s }, guard) => {
      const web = { url: s("url", true)!, cdpEndpoint: s("cdp_endpoint") };
      checkWebOpen(web, guard);
      return openWeb(web);
    },
  },
  mobilea: {
    definition: {
      name: "android_connect",
      description: `Drive an Android device through adb. ${OPENS}`,
      inputSchema: schema({
        device_id: str(
          "The device's serial as `adb devices` lists it; the first device when left out.",
        ),
        adb_host: str("Host of a remote adb server."),
        adb_port: int("Port of the adb server (5037 by default)."),
      }),
    },
    open: ({ s, n }) =>
      openAndroid({ deviceId: s("device_id"), adbHost: s("adb_host"), adbPort: n("adb_port") }),
  },
  mobileb: {
    definition: {
      name: "ios_connect",
      description: `Drive an iPhone or iPad through its WebDriverAgent. ${OPENS}`,
      inputSchema: schema({
        host: str("WebDriverAgent's host (localhost by default)."),
        port: int("WebDriverAgent's port (8100 by default)."),
      }),
    },
    open: ({ s, n }) => openIos({ host: s("host"), port: n("port") }),
  },
  mobilec: {
    definition: {
      name: "harmony_connect",
      description: `Drive a HarmonyOS device through hdc. ${OPENS}`,
      inputSchema: schema({
        device_id: str(
          "The device's connect key as `hdc list targets` lists it; the first device when left out.",
        ),
      }),
    },
    open: ({ s }) => openHarmony({ deviceId: s("device_id") }),
  },
  computer: {
    definition: {
      name: "desktop_connect",
      description:
        `Drive a desktop: the server's display, a headless one of its own, or a remote one over RDP (the password comes from the server's SDK_RDP_PASSWORD, never from here). ${OPENS}`,
      inputSchema: schema({
        headless: bool("Start a private virtual display (Linux) instead of using the server's."),
        display: str("The X display to drive, e.g. :1 (the server's DISPLAY by default)."),
        display_id: str("A monitor of that display, as listed by the desktop's ListDisplays."),
        rdp_host: str("A remote desktop's host: connects over RDP."),
        rdp_port: int("The RDP port (3389 by default)."),
        rdp_user: str("The RDP user name."),
        ignore_certificate: bool("Accept the RDP server's certificate without checking it."),
      }),
    },
    open: ({ s, n, b }) =>
      openDesktop({
        headless: b("headless"),
        display: s("display"),
        displayId: s("display_id"),
        rdpHost: s("rdp_host"),
        rdpPort: n("rdp_port"),
        rdpUser: s("rdp_user"),
        ignoreCertificate: b("ignore_certificate"),
      }),
  },
};

/** The connect tools by tool name. */
export const CONNECT_TOOL_CALLS: ReadonlyMap<string, ConnectTool> = new Map(
  Object.values(CONNECT_TOOLS).map((tool) => [tool.definition.name, tool]),
);
