/// <reference lib="dom" />
/**
 * One e2e suite run against both browser drivers: `driverTest(name, fn)` registers the test once
 * for DriverA (puppeteer-core) and once for DriverB (playwright-core). A test reads and changes
 * the page only through {@link E2ePage}, which hides the driver, so the same body checks both.
 *
 * Browsers start on first use and close after the file's tests.
 *
 * @module
 */

import { after, test, type TestOptions } from "../helpers/test.ts";
import type { Browser as BrowserB, Page as PageB } from "playwright-core";
import { type Browser as BrowserA, launch, type Page as PageA } from "puppeteer-core";
import { DriverAPageAgent, DriverBPageAgent } from "@sdk/web";
import type { WebPageAgent, WebPageAgentOptions } from "@sdk/web";
import { startTestModel } from "@sdk/core/testing";
import type { TargetBox, TestModel, TestModelOptions, TestModelScript } from "@sdk/core/testing";
import { CHROMIUM_ARGS, findChromium, launchChromium } from "../helpers/browser.ts";
import { FIXTURE_APP_DIR, serveStatic } from "../helpers/static_server.ts";

/** The two browser drivers. */
export type DriverName = "DriverA" | "DriverB";

/** Both drivers, in the order tests are registered. */
export const DRIVERS: readonly DriverName[] = ["DriverA", "DriverB"];

/** Size and device pixel ratio of a page opened by {@link E2e.open}. */
export interface OpenOptions {
  /** Viewport width in CSS pixels. Default 1280. */
  width?: number;
  /** Viewport height in CSS pixels. Default 800. */
  height?: number;
  /** Device pixel ratio. Default 1. */
  dpr?: number;
}

/** A fixture page behind either driver. */
export interface E2ePage {
  /** Which driver opened it. */
  readonly driver: DriverName;
  /** The driver's own page object (`playwright-core` or `puppeteer-core` `Page`). */
  readonly raw: PageA | PageB;
  /** Runs `fn(arg)` in the page; `fn` must be self-contained. */
  evaluate<R, A = undefined>(fn: (arg: A) => R | Promise<R>, arg?: A): Promise<R>;
  /** `window.appState[key]`: the fixture page's real state. */
  state<T = unknown>(key: string): Promise<T>;
  /**
   * Box of the first element matching a CSS selector, in CSS pixels of the viewport, or `null`
   * when there is none or it has no size.
   */
  box(selector: string): Promise<TargetBox | null>;
  /** Like {@link box}, but throws naming the selector when it is missing. */
  measure(selector: string): Promise<TargetBox>;
  /** The page's URL. */
  url(): string;
  /** CSS viewport size. */
  viewport(): { width: number; height: number };
  /** Whether the page was closed. */
  isClosed(): boolean;
  /** Sets a field's value as a user's paste would (`input` and `change` events), bypassing the SDK. */
  fill(selector: string, value: string): Promise<void>;
  /** The `value` of the first element matching `selector`. */
  inputValue(selector: string): Promise<string>;
  /** Whether an element matching `selector` is rendered with a size. */
  isVisible(selector: string): Promise<boolean>;
  /**
   * The page as the scripted app model (tests/helpers/app_model.ts) reads it: the few
   * Playwright `Page` calls it uses, answered through {@link evaluate} on either driver.
   */
  appView(): PageB;
}

/** What a test body gets. */
export interface E2e {
  /** The driver this run uses. */
  readonly driver: DriverName;
  /** Base URL of the fixture app, ending in `/`. */
  readonly appUrl: string;
  /** Opens `path` of the fixture app in a new page of a new context. */
  open(path: string, options?: OpenOptions): Promise<E2ePage>;
  /**
   * Starts a test model over `page` and a page agent of this driver using it. Defaults:
   * `waitAfterAction: 50`, `autoPrintReportMsg: false`. Both are cleaned up after the file.
   */
  agent(
    page: E2ePage,
    script: TestModelScript,
    options?: WebPageAgentOptions & { model?: Partial<TestModelOptions> },
  ): Promise<{ agent: WebPageAgent; model: TestModel }>;
  /** A page agent of this driver with exactly `options` (no test model); cleaned up after the file. */
  pageAgent(page: E2ePage, options?: WebPageAgentOptions): WebPageAgent;
}

const appServer = serveStatic(FIXTURE_APP_DIR);
let browserA: Promise<BrowserA> | undefined;
let browserB: Promise<BrowserB> | undefined;
const models: TestModel[] = [];
const agents: WebPageAgent[] = [];

after(async () => {
  await Promise.allSettled(agents.map((a) => a.destroy()));
  await Promise.allSettled(models.map((m) => m.close()));
  if (browserA) await (await browserA).close();
  if (browserB) await (await browserB).close();
  await (await appServer).close();
});

async function launchA(): Promise<BrowserA> {
  return await launch({
    executablePath: await findChromium(),
    args: [...CHROMIUM_ARGS],
    headless: true,
  });
}

function boxScript(selector: string): TargetBox | null {
  const el = document.querySelector(selector);
  if (!el) return null;
  const r = el.getBoundingClientRect();
  if (r.width === 0 && r.height === 0) return null;
  return { left: r.left, top: r.top, width: r.width, height: r.height };
}

function wrapPage(driver: DriverName, raw: PageA | PageB): E2ePage {
  // Both libraries take (fn, arg) alike; their generic types differ, hence the loose call.
  type LooseEvaluate = (fn: unknown, arg: unknown) => Promise<unknown>;
  const evaluate = <R, A>(fn: (arg: A) => R | Promise<R>, arg?: A): Promise<R> =>
    (raw.evaluate as LooseEvaluate).call(raw, fn, arg) as Promise<R>;
  const page: E2ePage = {
    driver,
    raw,
    evaluate,
    state: <T>(key: string) =>
      evaluate(
        (k: string) => (globalThis as unknown as { appState: Record<string, unknown> }).appState[k],
        key,
      ) as Promise<T>,
    box: (selector: string) => evaluate(boxScript, selector),
    async measure(selector: string) {
      const box = await page.box(selector);
      if (!box) throw new Error(`measure('${selector}'): no visible element matches`);
      return box;
    },
    url: () => raw.url(),
    viewport: () =>
      driver === "DriverA" ? (raw as PageA).viewport()! : (raw as PageB).viewportSize()!,
    isClosed: () => raw.isClosed(),
    fill: (selector: string, value: string) =>
      evaluate(([sel, v]: string[]) => {
        const el = document.querySelector(sel) as HTMLInputElement;
        el.value = v;
        el.dispatchEvent(new Event("input", { bubbles: true }));
        el.dispatchEvent(new Event("change", { bubbles: true }));
      }, [selector, value]),
    inputValue: (selector: string) =>
      evaluate((sel: string) => (document.querySelector(sel) as HTMLInputElement).value, selector),
    isVisible: async (selector: string) => (await page.box(selector)) !== null,
    appView: () => appView(page),
  };
  return page;
}

function appView(page: E2ePage): PageB {
  const text = (selector: string, inner: boolean) =>
    page.evaluate(([sel, useInner]: [string, boolean]) => {
      const el = document.querySelector(sel) as HTMLElement | null;
      return el ? (useInner ? el.innerText : el.textContent) : null;
    }, [selector, inner] as [string, boolean]);
  const element = (selector: string) => ({
    isVisible: () => page.isVisible(selector),
    boundingBox: async () => {
      const b = await page.box(selector);
      return b && { x: b.left, y: b.top, width: b.width, height: b.height };
    },
    textContent: () => text(selector, false),
    innerText: async () => (await text(selector, true)) ?? "",
  });
  const view = {
    url: () => page.url(),
    inputValue: (selector: string) => page.inputValue(selector),
    fill: (selector: string, value: string) => page.fill(selector, value),
    locator: (selector: string) => ({
      ...element(selector),
      first: () => element(selector),
      count: () => page.evaluate((sel: string) => document.querySelectorAll(sel).length, selector),
      allTextContents: () =>
        page.evaluate(
          (sel: string) => [...document.querySelectorAll(sel)].map((e) => e.textContent ?? ""),
          selector,
        ),
    }),
  };
  return view as unknown as PageB;
}

function env(driver: DriverName, appUrl: string): E2e {
  return {
    driver,
    appUrl,
    async open(path, o = {}) {
      const width = o.width ?? 1280, height = o.height ?? 800, dpr = o.dpr ?? 1;
      const url = new URL(path, appUrl).href;
      if (driver === "DriverA") {
        const browser = await (browserA ??= launchA());
        const page = await (await browser.createBrowserContext()).newPage();
        await page.setViewport({ width, height, deviceScaleFactor: dpr });
        await page.goto(url);
        return wrapPage(driver, page);
      }
      const browser = await (browserB ??= launchChromium());
      const context = await browser.newContext({
        viewport: { width, height },
        deviceScaleFactor: dpr,
      });
      const page = await context.newPage();
      await page.goto(url);
      return wrapPage(driver, page);
    },
    async agent(page, script, options = {}) {
      const { model: modelOptions, ...agentOptions } = options;
      const model = await startTestModel({
        script,
        viewport: () => page.viewport(),
        ...modelOptions,
      });
      models.push(model);
      const merged: WebPageAgentOptions = {
        modelConfig: model.modelConfig(),
        waitAfterAction: 50,
        autoPrintReportMsg: false,
        ...agentOptions,
      };
      return { agent: this.pageAgent(page, merged), model };
    },
    pageAgent(page, options = {}) {
      const agent = driver === "DriverA"
        ? new DriverAPageAgent(page.raw as PageA, options)
        : new DriverBPageAgent(page.raw as PageB, options);
      agents.push(agent);
      return agent;
    },
  };
}

/**
 * Registers `fn` as two tests, `"DriverA: name"` and `"DriverB: name"`, each with an {@link E2e}
 * of its driver.
 */
export function driverTest(name: string, fn: (e2e: E2e) => Promise<void>): void {
  for (const driver of DRIVERS) {
    test(`${driver}: ${name}`, async () => {
      const { url } = await appServer;
      await fn(env(driver, url));
    });
  }
}

/**
 * Registers `fn` as one test, `"<driver>: name"`, for one driver only: for a test file that keeps
 * to one browser.
 */
export function singleDriverTest(
  driver: DriverName,
  name: string,
  fn: (e2e: E2e) => Promise<void>,
  options: TestOptions = {},
): void {
  test(`${driver}: ${name}`, options, async () => {
    const { url } = await appServer;
    await fn(env(driver, url));
  });
}
