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
  /**
   * Closes the browser (bounded), so that the next {@link open} launches another one: for a test
   * that found the browser hanging.
   */
  resetBrowser(): Promise<void>;
  /** Closes everything this env opened. */
  close(): Promise<void>;
}

/** How long closing one thing of an env (an agent, a model, the browser) may take, ms. */
const CLOSE_TIMEOUT_MS = 20_000;

/** What {@link within} rejects with when the work is still pending. */
export class StillPendingError extends Error {}

/** `work`, or a {@link StillPendingError} naming `what` once it has been pending for `ms`. */
export async function within<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([
      work,
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new StillPendingError(`${what}: still pending after ${ms} ms`)),
          ms,
        );
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Starts the app server and Chromium. A browser that went away (it crashed, or a test closed it)
 * or was reset ({@link E2eEnv.resetBrowser}) is launched again at the next {@link E2eEnv.open},
 * so one failure does not fail, or hang, every later test of the file.
 */
export async function startE2e(): Promise<E2eEnv> {
  const app = await serveStatic(FIXTURE_APP_DIR);
  let browser: Browser = await launchChromium();
  const browsers: Browser[] = [browser];
  const models: TestModel[] = [];
  const agents: DriverBPageAgent[] = [];
  // Each bounded: a browser that hangs must not hang the file.
  const bounded = (work: Promise<unknown>, what: string) =>
    within(work, CLOSE_TIMEOUT_MS, what).catch((e) => console.warn(`startE2e(): ${e}`));
  let reset = false;
  return {
    appUrl: app.url,
    async open(path, o = {}) {
      if (reset || !browser.isConnected()) {
        console.warn("startE2e(): the browser went away or was reset; launching another one");
        reset = false;
        browser = await launchChromium();
        browsers.push(browser);
      }
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
    async resetBrowser() {
      reset = true;
      await bounded(browser.close(), "browser.close()");
    },
    async close() {
      await Promise.all(agents.map((a) => bounded(a.destroy(), "agent.destroy()")));
      await Promise.all(models.map((m) => bounded(m.close(), "model.close()")));
      await Promise.all(browsers.map((b) => bounded(b.close(), "browser.close()")));
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
