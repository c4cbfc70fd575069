/// <reference lib="dom" />
/**
 * Chromium with the SDK Bridge extension loaded, for the bridge's tests and bench: the extension
 * built into a folder, Chromium's own headless mode (which runs extensions), and the extension told
 * the bridge's port and pairing token.
 *
 * @module
 */

import { after } from "./test.ts";
import { afterEach, before } from "node:test";
import * as fs from "node:fs/promises";
import * as os from "node:os";
import * as path from "node:path";
import { chromium } from "playwright-core";
import type { BrowserContext, Page, Worker } from "playwright-core";
import { AgentOverBrowserBridge, type AgentOverBrowserBridgeOptions } from "@sdk/web";
import { startTestModel, type TestModel, type TestModelScript } from "@sdk/core/testing";
import { buildExtension } from "../../scripts/build_extension.ts";
import { CHROMIUM_ARGS, findChromium } from "./browser.ts";
import { freePort } from "./free_port.ts";
import { FIXTURE_APP_DIR, serveStatic, type StaticServer } from "./static_server.ts";

/** The browser and the extension's service worker. */
export interface ExtensionBrowser {
  /** The persistent context (extensions need a profile folder). */
  context: BrowserContext;
  /** The extension's background service worker. */
  worker: Worker;
}

/**
 * Builds the extension into `<dir>/extension`, launches Chromium with it on a profile in
 * `<dir>/profile`, and stores `port` and `token` in the extension's settings.
 *
 * @param dir a temporary folder the caller removes afterwards.
 */
export async function launchWithBridgeExtension(
  dir: string,
  settings: { port: number; token: string },
): Promise<ExtensionBrowser> {
  const extension = await buildExtension(path.join(dir, "extension"));
  // `headless: false` plus `--headless=new`: Chromium's own headless mode, which runs
  // extensions (Playwright's `headless: true` would pick the old mode, without them).
  const context = await chromium.launchPersistentContext(path.join(dir, "profile"), {
    executablePath: await findChromium(),
    headless: false,
    viewport: null,
    args: [
      ...CHROMIUM_ARGS,
      "--headless=new",
      "--window-size=1280,800",
      // No "started debugging this browser" bar: headless Chromium draws it over the page
      // without resizing it, so screenshots and the page's size disagree while it shows
      // (docs/bridge.md, limits).
      "--silent-debugger-extension-api",
      `--disable-extensions-except=${extension}`,
      `--load-extension=${extension}`,
    ],
  });
  const worker = context.serviceWorkers()[0] ?? await context.waitForEvent("serviceworker");
  // The extension writes its generated token on first start; ours must land after it, or that
  // write would replace ours.
  await worker.evaluate(
    async ([port, token]) => {
      const local = (globalThis as unknown as {
        chrome: {
          storage: {
            local: {
              get(key: string): Promise<Record<string, unknown>>;
              set(items: Record<string, unknown>): Promise<void>;
            };
          };
        };
      }).chrome.storage.local;
      while (typeof (await local.get("token")).token !== "string") {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await local.set({ port, token });
    },
    [settings.port, settings.token] as [number, string],
  );
  return { context, worker };
}

/** What a bridge test file keeps to start agents and end them after each test. */
export interface BridgeAgents {
  /** The port the extension connects to. */
  port: number;
  /** The pairing token the extension was given. */
  token: string;
  /** Test models started so far (the file closes them at the end). */
  models: TestModel[];
  /** Agents started so far (the file destroys them after each test). */
  agents: AgentOverBrowserBridge[];
}

/**
 * Starts a test model answering for `page` and an agent over the bridge on `setup.port`, quick and
 * quiet (no report, 50 ms after each action), with `options` on top.
 */
export async function startBridgeAgent(
  setup: BridgeAgents,
  page: () => Page,
  script: TestModelScript,
  options: AgentOverBrowserBridgeOptions = {},
): Promise<AgentOverBrowserBridge> {
  const model = await startTestModel({
    script,
    viewport: () => page().evaluate(() => ({ width: innerWidth, height: innerHeight })),
  });
  setup.models.push(model);
  const agent = new AgentOverBrowserBridge({
    port: setup.port,
    token: setup.token,
    connectTimeout: 15_000,
    modelConfig: model.modelConfig(),
    waitAfterAction: 50,
    autoPrintReportMsg: false,
    generateReport: false,
    ...options,
  });
  setup.agents.push(agent);
  return agent;
}

/** Opens `file` of the fixture app served at `appUrl` in a new tab in front. */
export async function openFixture(
  context: BrowserContext,
  appUrl: string,
  file: string,
): Promise<Page> {
  const page = await context.newPage();
  await page.goto(new URL(file, appUrl).href);
  await page.bringToFront();
  return page;
}

/** What a bridge test file shares: the browser with the extension, the fixture app, the agents. */
export interface BridgeFixture extends BridgeAgents {
  /** Chromium's context with the extension (set once `before` ran). */
  context: BrowserContext;
  /** The fixture app's server (set once `before` ran). */
  app: StaticServer;
  /** Tabs the file opened; closed after each test. */
  pages: Page[];
}

/**
 * Sets up a bridge test file: before its tests, Chromium with the extension paired by `token` on
 * a free port and the fixture app served; after each test, its agents destroyed and its tabs
 * closed; after the file, the models, the browser, the server and the temporary folder gone.
 */
export function useBridgeFixture(prefix: string, token: string): BridgeFixture {
  const fixture = { token, models: [], agents: [], pages: [] } as unknown as BridgeFixture;
  let tmp: string | undefined;
  before(async () => {
    tmp = await fs.mkdtemp(path.join(os.tmpdir(), prefix));
    fixture.app = await serveStatic(FIXTURE_APP_DIR);
    fixture.port = await freePort();
    ({ context: fixture.context } = await launchWithBridgeExtension(tmp, {
      port: fixture.port,
      token,
    }));
  });
  afterEach(async () => {
    await Promise.allSettled(fixture.agents.splice(0).map((a) => a.destroy()));
    await Promise.allSettled(fixture.pages.splice(0).map((p) => p.close()));
  });
  after(async () => {
    await Promise.allSettled(fixture.models.map((m) => m.close()));
    await fixture.context?.close();
    await fixture.app?.close();
    if (tmp) await fs.rm(tmp, { recursive: true, force: true });
  });
  return fixture;
}
