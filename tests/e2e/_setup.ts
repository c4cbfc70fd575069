/**
 * Shared e2e setup: the fixture app on 127.0.0.1, one headless Chromium per test file, pages at a
 * chosen size and device pixel ratio, and the test model wired to an agent.
 *
 * @module
 */

import type { Browser, Page } from "playwright-core";
import { DriverBPageAgent } from "@sdk/web";
import type { WebPageAgentOptions } from "@sdk/web";
import { startTestModel } from "@sdk/core/testing";
import type { TestModel, TestModelOptions, TestModelScript } from "@sdk/core/testing";
import { launchChromium } from "../helpers/browser.ts";
import { FIXTURE_APP_DIR, serveStatic } from "../helpers/static_server.ts";

/** One test file's browser and app server. */
export interface E2eEnv {
  /** Base URL of the fixture app, ending in `/`. */
  appUrl: string;
  /** Opens `path` of the fixture app in a new page. */
  open(path: string, options?: { width?: number; height?: number; dpr?: number }): Promise<Page>;
  /** Starts a test model over `page` and an agent using it. */
  agent(
    page: Page,
    script: TestModelScript,
    options?: WebPageAgentOptions & { model?: Partial<TestModelOptions> },
  ): Promise<{ agent: DriverBPageAgent; model: TestModel }>;
  /** Closes everything this env opened. */
  close(): Promise<void>;
}

/** Starts the app server and Chromium. */
export async function startE2e(): Promise<E2eEnv> {
  const app = await serveStatic(FIXTURE_APP_DIR);
  const browser: Browser = await launchChromium();
  const models: TestModel[] = [];
  const agents: DriverBPageAgent[] = [];
  return {
    appUrl: app.url,
    async open(path, o = {}) {
      const context = await browser.newContext({
        viewport: { width: o.width ?? 1280, height: o.height ?? 800 },
        deviceScaleFactor: o.dpr ?? 1,
      });
      const page = await context.newPage();
      await page.goto(new URL(path, app.url).href);
      return page;
    },
    async agent(page, script, options = {}) {
      const { model: modelOptions, ...agentOptions } = options;
      const model = await startTestModel({
        script,
        viewport: () => page.viewportSize()!,
        ...modelOptions,
      });
      models.push(model);
      const agent = new DriverBPageAgent(page, {
        modelConfig: model.modelConfig(),
        waitAfterAction: 50,
        autoPrintReportMsg: false,
        ...agentOptions,
      });
      agents.push(agent);
      return { agent, model };
    },
    async close() {
      await Promise.allSettled(agents.map((a) => a.destroy()));
      await Promise.allSettled(models.map((m) => m.close()));
      await browser.close();
      await app.close();
    },
  };
}

/** Reads `window.appState[key]` of a fixture page: the page's real state. */
export function appState<T = unknown>(page: Page, key: string): Promise<T> {
  return page.evaluate(
    (k) => (globalThis as unknown as { appState: Record<string, unknown> }).appState[k],
    key,
  ) as Promise<T>;
}
