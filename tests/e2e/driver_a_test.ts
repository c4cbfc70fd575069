/// <reference lib="dom" />
/**
 * DriverA end to end: {@link DriverAPageAgent} over a `puppeteer-core` page of the fixture app,
 * with the scripted test model. The same tasks as DriverB's e2e tests, through the same page seam.
 *
 * @module
 */

import { after, test } from "../helpers/test.ts";
import assert from "node:assert/strict";
import { type Browser, launch, type Page } from "puppeteer-core";
import type { Page as DriverBPage } from "playwright-core";
import { DriverAAgent, DriverAPageAgent } from "@sdk/web";
import type { WebPageAgentOptions } from "@sdk/web";
import { startTestModel } from "@sdk/core/testing";
import type { TestModel, TestModelScript } from "@sdk/core/testing";
import { appModelScript, locateTarget, todoItems } from "../helpers/app_model.ts";
import { CHROMIUM_ARGS, findChromium } from "../helpers/browser.ts";
import { FIXTURE_APP_DIR, serveStatic } from "../helpers/static_server.ts";

const app = await serveStatic(FIXTURE_APP_DIR);
const browser: Browser = await launch({
  executablePath: await findChromium(),
  args: [...CHROMIUM_ARGS],
  headless: true,
});
const models: TestModel[] = [];
const agents: DriverAPageAgent[] = [];

after(async () => {
  await Promise.allSettled(agents.map((a) => a.destroy()));
  await Promise.allSettled(models.map((m) => m.close()));
  await browser.close();
  await app.close();
});

/** Opens `path` of the fixture app in a new page of its own context, at a size and dpr. */
async function open(path: string, o: { width?: number; height?: number; dpr?: number } = {}) {
  const context = await browser.createBrowserContext();
  const page = await context.newPage();
  await page.setViewport({
    width: o.width ?? 1280,
    height: o.height ?? 800,
    deviceScaleFactor: o.dpr ?? 1,
  });
  await page.goto(new URL(path, app.url).href);
  return page;
}

/** Starts a test model reading `page` and a DriverA agent using it. */
async function agentOn(
  page: Page,
  script: TestModelScript,
  options: WebPageAgentOptions = {},
): Promise<{ agent: DriverAPageAgent; model: TestModel }> {
  const model = await startTestModel({ script, viewport: () => page.viewport()! });
  models.push(model);
  const agent = new DriverAPageAgent(page, {
    modelConfig: model.modelConfig(),
    waitAfterAction: 50,
    autoPrintReportMsg: false,
    ...options,
  });
  agents.push(agent);
  return { agent, model };
}

/**
 * The page as the scripted model reads it. The app model is written against DriverB's page
 * calls; this gives it the few it uses, over the DriverA page (the model only reads the page).
 */
function modelView(page: Page): DriverBPage {
  const element = (selector: string) => ({
    async isVisible() {
      return (await (await page.$(selector))?.isVisible()) ?? false;
    },
    async boundingBox() {
      return (await (await page.$(selector))?.boundingBox()) ?? null;
    },
    textContent: () => page.$eval(selector, (e) => e.textContent),
    innerText: () => page.$eval(selector, (e) => (e as HTMLElement).innerText),
  });
  const view = {
    url: () => page.url(),
    inputValue: (selector: string) => page.$eval(selector, (e) => (e as HTMLInputElement).value),
    locator: (selector: string) => ({
      ...element(selector),
      first: () => element(selector),
      allTextContents: () => page.$$eval(selector, (all) => all.map((e) => e.textContent ?? "")),
    }),
  };
  return view as unknown as DriverBPage;
}

/** Reads `window.appState[key]` of a fixture page: the page's real state. */
function appState<T = unknown>(page: Page, key: string): Promise<T> {
  return page.evaluate(
    (k) => (globalThis as unknown as { appState: Record<string, unknown> }).appState[k],
    key,
  ) as Promise<T>;
}

test("DriverAAgent is DriverAPageAgent (value and type)", async () => {
  const page = await open("actions.html");
  const agent: DriverAAgent = new DriverAAgent(page, { autoPrintReportMsg: false });
  agents.push(agent);
  assert.equal(DriverAAgent, DriverAPageAgent);
  assert.ok(agent instanceof DriverAPageAgent);
  assert.equal(agent.page, page);
  assert.equal(agent.interface.interfaceType, "web-page");
});

test("DriverAPageAgent aiAct signs in and adds a todo, then the page holds the item", async () => {
  const page = await open("login.html");
  const { agent, model } = await agentOn(page, appModelScript(modelView(page)));
  const output = await agent.aiAct(
    "Sign in as alice with password secret, then add the todo item 'Call the plumber'",
  );
  assert.equal(output, 'Added "Call the plumber"');
  assert.match(page.url(), /list\.html$/);
  assert.equal(await page.evaluate(() => sessionStorage.getItem("user")), "alice");
  assert.ok((await todoItems(modelView(page))).includes("Call the plumber"));
  assert.equal(model.calls.filter((c) => c.kind === "plan").length, 6);
});

for (const dpr of [1, 2]) {
  test(`DriverAPageAgent aiTap, aiInput and aiScroll reach the fixture page at dpr ${dpr}`, async () => {
    const page = await open("actions.html", { width: 1000, height: 700, dpr });
    const { agent, model } = await agentOn(page, {
      locate: (call) => locateTarget(modelView(page), call.target),
    });
    const screenshot = await agent.interface.screenshotBase64();
    const png = Uint8Array.from(
      atob(screenshot.split(",")[1]).slice(16, 24),
      (c) => c.charCodeAt(0),
    );
    const view = new DataView(png.buffer);
    assert.deepEqual([view.getUint32(0), view.getUint32(4)], [1000 * dpr, 700 * dpr]);

    await agent.aiTap("the Click me button");
    assert.equal(await appState(page, "clicks"), 1);
    await agent.aiDoubleClick("the Double-click me button");
    assert.equal(await appState(page, "doubleClicks"), 1);
    await agent.aiInput("the key input", { value: "hello" });
    assert.equal(await appState(page, "inputValue"), "hello");
    await agent.aiInput("the key input", { value: " world", mode: "typeOnly" });
    assert.equal(await appState(page, "inputValue"), "hello world");
    await agent.aiScroll("the scrollable box", { direction: "down", distance: 120 });
    assert.ok((await appState<number>(page, "innerScrollTop")) > 50);
    assert.equal(await page.evaluate(() => scrollY), 0);
    assert.ok(model.calls.every((c) => c.kind === "locate"));
  });
}

test("DriverAPageAgent.destroy() never closes the page", async () => {
  const page = await open("actions.html");
  const { agent } = await agentOn(page, {
    locate: (call) => locateTarget(modelView(page), call.target),
  });
  await agent.aiTap("the Click me button");
  await agent.destroy();
  assert.equal(page.isClosed(), false);
  assert.equal(await appState(page, "clicks"), 1);
  await page.click("#click-button");
  assert.equal(await appState(page, "clicks"), 2);
});
