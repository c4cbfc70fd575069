/// <reference lib="dom" />
/**
 * Chromium with the SDK Bridge extension loaded, for the bridge's tests and bench: the extension
 * built into a folder, Chromium's own headless mode (which runs extensions), and the extension told
 * the bridge's port and pairing token.
 *
 * @module
 */

import * as path from "node:path";
import { chromium } from "playwright-core";
import type { BrowserContext, Page, Worker } from "playwright-core";
import { AgentOverBrowserBridge, type AgentOverBrowserBridgeOptions } from "@sdk/web";
import { startTestModel, type TestModel, type TestModelScript } from "@sdk/core/testing";
import { buildExtension } from "../../scripts/build_extension.ts";
import { CHROMIUM_ARGS, findChromium } from "./browser.ts";

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
