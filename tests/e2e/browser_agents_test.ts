/// <reference lib="dom" />
/**
 * Browser-wide agents and same-tab navigation end to end, one suite run against both drivers:
 * {@link DriverABrowserAgent} / {@link DriverBBrowserAgent} over a browser context of the fixture
 * app, and `forceSameTabNavigation` and `evaluateJavaScript` of the page agents, with the
 * scripted test model (its locate handler measures boxes on the agent's active page).
 *
 * @module
 */

import { after, test } from "../helpers/test.ts";
import assert from "node:assert/strict";
import {
  type Browser as DriverABrowser,
  type BrowserContext as DriverAContext,
  launch,
  type Page as DriverAPage,
} from "puppeteer-core";
import type { BrowserContext as DriverBContext, Page as DriverBPage } from "playwright-core";
import {
  DriverABrowserAgent,
  DriverAPageAgent,
  DriverAPageDriver,
  DriverBBrowserAgent,
  DriverBPageAgent,
  DriverBPageDriver,
  type WebBrowserAgent,
  type WebBrowserAgentCreateOptions,
  type WebPageAgent,
  type WebPageAgentOptions,
} from "@sdk/web";
import { startTestModel } from "@sdk/core/testing";
import type { TargetBox, TestModel } from "@sdk/core/testing";
import { CHROMIUM_ARGS, findChromium, launchChromium } from "../helpers/browser.ts";
import { FIXTURE_APP_DIR, serveStatic } from "../helpers/static_server.ts";

const app = await serveStatic(FIXTURE_APP_DIR);
const driverABrowser: DriverABrowser = await launch({
  executablePath: await findChromium(),
  args: [...CHROMIUM_ARGS],
  headless: true,
});
const driverBBrowser = await launchChromium();
const models: TestModel[] = [];
const agents: WebPageAgent[] = [];

after(async () => {
  await Promise.allSettled(agents.map((a) => a.destroy()));
  await Promise.allSettled(models.map((m) => m.close()));
  await driverABrowser.close();
  await driverBBrowser.close();
  await app.close();
});

/** What the suite needs from one driver library: only test plumbing, never the agent logic. */
interface Harness<P extends object, C> {
  name: string;
  /** A fresh browser context, with no page. */
  newContext(): Promise<C>;
  /** Opens `path` of the fixture app in a new page of `context`. */
  open(context: C, path: string): Promise<P>;
  contextPages(context: C): Promise<P[]>;
  closeContext(context: C): Promise<void>;
  goto(page: P, path: string): Promise<void>;
  url(page: P): string;
  isClosed(page: P): boolean;
  evaluate<R, A>(page: P, fn: (arg: A) => R, arg: A): Promise<R>;
  /** A native click, not through the agent. */
  click(page: P, selector: string): Promise<void>;
  createAgent(context: C, options?: WebBrowserAgentCreateOptions<P>): Promise<WebBrowserAgent<P>>;
  newAgent(context: C, page: P, options?: WebPageAgentOptions): WebBrowserAgent<P>;
  pageAgent(page: P, options?: WebPageAgentOptions): WebPageAgent;
}

const VIEWPORT = { width: 1000, height: 700 };

const driverA: Harness<DriverAPage, DriverAContext> = {
  name: "DriverA",
  newContext: () => driverABrowser.createBrowserContext(),
  async open(context, path) {
    const page = await context.newPage();
    await page.setViewport(VIEWPORT);
    await page.goto(new URL(path, app.url).href);
    return page;
  },
  contextPages: (context) => context.pages(),
  closeContext: (context) => context.close(),
  async goto(page, path) {
    await page.goto(new URL(path, app.url).href);
  },
  url: (page) => page.url(),
  isClosed: (page) => page.isClosed(),
  evaluate: (page, fn, arg) => new DriverAPageDriver(page).evaluate(fn, arg),
  click: (page, selector) => page.click(selector),
  createAgent: (context, options) => DriverABrowserAgent.create(context, options),
  newAgent: (context, page, options) => new DriverABrowserAgent(context, page, options),
  pageAgent: (page, options) => new DriverAPageAgent(page, options),
};

const driverB: Harness<DriverBPage, DriverBContext> = {
  name: "DriverB",
  newContext: () => driverBBrowser.newContext({ viewport: VIEWPORT }),
  async open(context, path) {
    const page = await context.newPage();
    await page.goto(new URL(path, app.url).href);
    return page;
  },
  contextPages: (context) => Promise.resolve(context.pages()),
  closeContext: (context) => context.close(),
  async goto(page, path) {
    await page.goto(new URL(path, app.url).href);
  },
  url: (page) => page.url(),
  isClosed: (page) => page.isClosed(),
  evaluate: (page, fn, arg) => new DriverBPageDriver(page).evaluate(fn, arg),
  click: (page, selector) => page.click(selector),
  createAgent: (context, options) => DriverBBrowserAgent.create(context, options),
  newAgent: (context, page, options) => new DriverBBrowserAgent(context, page, options),
  pageAgent: (page, options) => new DriverBPageAgent(page, options),
};

/** Target descriptions the tests use, first match wins. */
const TARGETS: readonly [RegExp, string][] = [
  [/new tab link/i, "#blank-link"],
  [/window\.open/i, "#open-button"],
  [/click me/i, "#click-button"],
];

function box(selector: string): TargetBox {
  const r = document.querySelector(selector)!.getBoundingClientRect();
  return { left: r.left, top: r.top, width: r.width, height: r.height };
}

function size(): { width: number; height: number } {
  return { width: innerWidth, height: innerHeight };
}

function clicks(): number {
  return (globalThis as unknown as { appState: { clicks: number } }).appState.clicks;
}

async function until(what: string, done: () => boolean | Promise<boolean>, ms = 5000) {
  const end = Date.now() + ms;
  while (!(await done())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A test model whose locate answers measure the page `current()` returns. */
async function modelOn<P extends object>(h: Harness<P, unknown>, current: () => P) {
  const model = await startTestModel({
    script: {
      locate: async (call) => {
        const selector = TARGETS.find(([re]) => re.test(call.target))?.[1];
        return selector ? await h.evaluate(current(), box, selector) : null;
      },
    },
    viewport: () => h.evaluate(current(), size, undefined),
  });
  models.push(model);
  return model;
}

const BASE = { waitAfterAction: 50, autoPrintReportMsg: false };

/** Whether `pages` are exactly `expected`, in any order. */
function samePages<P>(pages: P[], expected: P[]): boolean {
  return pages.length === expected.length && expected.every((p) => pages.includes(p));
}

function suite<P extends object, C>(h: Harness<P, C>) {
  const n = h.name;

  /** A browser agent whose model reads its active page. */
  async function browserAgent(
    context: C,
    options: WebBrowserAgentCreateOptions<P> = {},
  ): Promise<WebBrowserAgent<P>> {
    const made: { agent?: WebBrowserAgent<P> } = {};
    const model = await modelOn(h, () => made.agent!.activePage);
    const agent = await h.createAgent(context, {
      ...BASE,
      modelConfig: model.modelConfig(),
      ...options,
    });
    made.agent = agent;
    agents.push(agent);
    return agent;
  }

  /** A page agent whose model reads its page. */
  async function pageAgent(page: P, options: WebPageAgentOptions = {}): Promise<WebPageAgent> {
    const model = await modelOn(h, () => page);
    const agent = h.pageAgent(page, { ...BASE, modelConfig: model.modelConfig(), ...options });
    agents.push(agent);
    return agent;
  }

  async function withContext(body: (context: C) => Promise<void>): Promise<void> {
    const context = await h.newContext();
    try {
      await body(context);
    } finally {
      await h.closeContext(context);
    }
  }

  test(`${n}BrowserAgent.create() picks initialPage, else the first page, else a new page`, async () => {
    await withContext(async (context) => {
      const empty = await browserAgent(context);
      assert.ok(samePages(await h.contextPages(context), [empty.activePage]));
      assert.ok(samePages(await empty.pages(), [empty.activePage]));
      await h.open(context, "list.html");
      const [first, second] = await h.contextPages(context);
      const agent = await browserAgent(context);
      assert.equal(agent.activePage, first);
      const chosen = await browserAgent(context, { initialPage: second });
      assert.equal(chosen.activePage, second);
      const built = h.newAgent(context, second, BASE);
      agents.push(built);
      assert.equal(built.activePage, second);
      assert.equal((await h.contextPages(context)).length, 2);
    });
  });

  test(`${n}BrowserAgent.newPage() makes a new active page that aiTap acts on; setActivePage switches back`, async () => {
    await withContext(async (context) => {
      const first = await h.open(context, "actions.html");
      const agent = await browserAgent(context);
      assert.equal(agent.activePage, first);
      const second = await agent.newPage();
      assert.notEqual(second, first);
      assert.equal(agent.activePage, second);
      assert.equal((await agent.pages()).length, 2);
      await h.goto(second, "actions.html");
      await agent.aiTap("the Click me button");
      assert.equal(await h.evaluate(second, clicks, undefined), 1);
      assert.equal(await h.evaluate(first, clicks, undefined), 0);
      assert.equal(await agent.interface.describe(), h.url(second));

      await agent.setActivePage(first);
      assert.equal(agent.activePage, first);
      await agent.aiTap("the Click me button");
      await agent.aiTap("the Click me button");
      assert.equal(await h.evaluate(first, clicks, undefined), 2);
      assert.equal(await h.evaluate(second, clicks, undefined), 1);
      assert.equal(await agent.evaluateJavaScript("appState.clicks"), 2);
      // One report for the agent, whatever the page.
      assert.equal(typeof agent.reportFile, "string");

      const other = await h.newContext();
      try {
        const stranger = await h.open(other, "actions.html");
        await assert.rejects(agent.setActivePage(stranger), /not an open page/);
        assert.equal(agent.activePage, first);
      } finally {
        await h.closeContext(other);
      }
    });
  });

  test(`${n}BrowserAgent.waitForNewPage() resolves with the page a click opened, without switching`, async () => {
    await withContext(async (context) => {
      const first = await h.open(context, "newtab.html");
      const agent = await browserAgent(context, { forceSameTabNavigation: false });
      const opened = await agent.waitForNewPage(() => agent.aiTap("the new tab link"));
      assert.notEqual(opened, first);
      assert.equal(agent.activePage, first);
      assert.match(h.url(first), /newtab\.html$/);
      await until("the new page to load list.html", () => /list\.html$/.test(h.url(opened)));
      assert.equal((await agent.pages()).length, 2);

      await agent.setActivePage(opened);
      assert.equal(agent.activePage, opened);
      assert.equal(await agent.evaluateJavaScript("location.pathname"), "/list.html");

      // A native click works as the action too.
      await agent.setActivePage(first);
      const again = await agent.waitForNewPage(() => h.click(first, "#open-button"));
      assert.ok(![first, opened].includes(again));
      assert.equal(agent.activePage, first);

      await assert.rejects(
        agent.waitForNewPage(undefined, { timeout: 100 }),
        /no new page opened within 100 ms \(newPageTimeout\)/,
      );
      await assert.rejects(
        agent.waitForNewPage(() => Promise.reject(new Error("action failed"))),
        /action failed/,
      );
    });
  });

  test(`${n}BrowserAgent newPageTimeout sets waitForNewPage's default timeout`, async () => {
    await withContext(async (context) => {
      await h.open(context, "actions.html");
      const agent = await browserAgent(context, { newPageTimeout: 50 });
      const started = Date.now();
      await assert.rejects(agent.waitForNewPage(), /within 50 ms \(newPageTimeout\)/);
      assert.ok(Date.now() - started < 2000);
      await assert.rejects(h.createAgent(context, { newPageTimeout: -1 }), RangeError);
    });
  });

  test(`${n}BrowserAgent with autoFollowNewPage switches to a page a click opened`, async () => {
    await withContext(async (context) => {
      const first = await h.open(context, "newtab.html");
      const agent = await browserAgent(context, {
        autoFollowNewPage: true,
        forceSameTabNavigation: false,
      });
      await agent.aiTap("the new tab link");
      await until("the agent to follow the new page", () => agent.activePage !== first);
      await until(
        "the new page to load list.html",
        () => /list\.html$/.test(h.url(agent.activePage)),
      );
      assert.equal((await agent.pages()).length, 2);
      await until(
        "the new document",
        async () => (await agent.evaluateJavaScript("document.readyState")) === "complete",
      );
      assert.equal(await agent.evaluateJavaScript("appState.page"), "list");
      assert.match(await agent.interface.describe(), /list\.html$/);
    });
  });

  test(`${n}BrowserAgent.destroy() leaves every page open and ends the agent`, async () => {
    await withContext(async (context) => {
      const first = await h.open(context, "actions.html");
      const agent = await browserAgent(context, { autoFollowNewPage: true });
      const second = await agent.newPage();
      await h.goto(second, "actions.html");
      await agent.aiTap("the Click me button");
      await agent.destroy();
      await agent.destroy();
      assert.equal(h.isClosed(first), false);
      assert.equal(h.isClosed(second), false);
      assert.ok(samePages(await h.contextPages(context), [first, second]));
      await h.click(second, "#click-button");
      assert.equal(await h.evaluate(second, clicks, undefined), 2);
      await assert.rejects(agent.newPage(), /destroyed/);
      await assert.rejects(agent.setActivePage(first), /destroyed/);
      await assert.rejects(agent.waitForNewPage(), /destroyed/);
      await assert.rejects(agent.evaluateJavaScript("1"), /destroyed/);
      assert.equal((await h.contextPages(context)).length, 2);
    });
  });

  test(`${n}PageAgent.evaluateJavaScript() returns the script's value`, async () => {
    await withContext(async (context) => {
      const page = await h.open(context, "actions.html");
      const agent = await pageAgent(page);
      assert.equal(await agent.evaluateJavaScript("1 + 2"), 3);
      assert.deepEqual(await agent.evaluateJavaScript("({ page: appState.page })"), {
        page: "actions",
      });
      assert.equal(await agent.evaluateJavaScript("Promise.resolve('later')"), "later");
      await assert.rejects(agent.evaluateJavaScript("throw new Error('boom')"), /boom/);
      await assert.rejects(
        agent.evaluateJavaScript(42 as unknown as string),
        TypeError,
      );
    });
  });

  test(`${n}PageAgent keeps target=_blank links and window.open in the tab by default`, async () => {
    await withContext(async (context) => {
      const page = await h.open(context, "newtab.html");
      const agent = await pageAgent(page);
      await agent.aiTap("the new tab link");
      await until("list.html", () => /list\.html$/.test(h.url(page)));
      // A new tab would have opened by now.
      await new Promise((r) => setTimeout(r, 300));
      assert.ok(samePages(await h.contextPages(context), [page]));

      // A later document keeps it too (the init script), for window.open as well.
      await h.goto(page, "newtab.html");
      await agent.aiTap("the window.open button");
      await until("list.html", () => /list\.html$/.test(h.url(page)));
      await new Promise((r) => setTimeout(r, 300));
      assert.ok(samePages(await h.contextPages(context), [page]));
    });
  });

  test(`${n}PageAgent: the device's setForceSameTabNavigation(false), before the first action, lets a link open a new tab (the bridge's connect option)`, async () => {
    await withContext(async (context) => {
      const page = await h.open(context, "newtab.html");
      const agent = await pageAgent(page);
      agent.interface.setForceSameTabNavigation(false);
      await agent.aiTap("the new tab link");
      await until("a second page", async () => (await h.contextPages(context)).length === 2);
      assert.match(h.url(page), /newtab\.html$/);
    });
  });

  test(`${n}PageAgent with forceSameTabNavigation false lets links and window.open open new tabs`, async () => {
    await withContext(async (context) => {
      const page = await h.open(context, "newtab.html");
      const agent = await pageAgent(page, { forceSameTabNavigation: false });
      await agent.aiTap("the new tab link");
      await until("a second page", async () => (await h.contextPages(context)).length === 2);
      await agent.aiTap("the window.open button");
      await until("a third page", async () => (await h.contextPages(context)).length === 3);
      assert.match(h.url(page), /newtab\.html$/);
      assert.throws(
        () => h.pageAgent(page, { forceSameTabNavigation: "yes" as unknown as boolean }),
        TypeError,
      );
    });
  });
}

suite(driverA);
suite(driverB);
