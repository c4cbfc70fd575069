/**
 * Browsers the SDK does not launch (issue 16, remote browsers): page agents over a Playwright
 * browser server (`chromium.connect(wsEndpoint)`), over a bare CDP endpoint as a grid node or a
 * hosted browser service gives it (`chromium.connectOverCDP`, `puppeteer.connect`), and a
 * remote endpoint that drops in the middle of a step. The servers run on 127.0.0.1, started by
 * the test; the model is the test model, reading the remote page.
 *
 * @module
 */

import { before } from "node:test";
import { after, test } from "../helpers/test.ts";
import assert from "node:assert/strict";
import { createServer, type Server, type Socket } from "node:net";
import { type Browser, type BrowserServer, chromium, type Page } from "playwright-core";
import puppeteer from "puppeteer-core";
import { ConnectionError } from "@sdk/core";
import { startTestModel, type TestModel } from "@sdk/core/testing";
import { DriverAPageAgent, DriverBBrowserAgent, DriverBPageAgent } from "@sdk/web";
import { CHROMIUM_ARGS, findChromium, measure } from "../helpers/browser.ts";
import { type CdpChromium, startCdpChromium } from "../helpers/cdp_chromium.ts";
import { FIXTURE_APP_DIR, serveStatic, type StaticServer } from "../helpers/static_server.ts";

let app: StaticServer;
let server: BrowserServer;
let cdp: CdpChromium;
const models: TestModel[] = [];

/** A TCP proxy to `port` whose connections the test can cut, as a network drop would. */
async function startProxy(port: number): Promise<{ port: number; cut(): void; close(): void }> {
  const sockets = new Set<Socket>();
  const proxy: Server = createServer((client) => {
    const upstream = new (Object.getPrototypeOf(client).constructor)() as Socket;
    upstream.connect(port, "127.0.0.1");
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on("error", () => {});
      s.on("close", () => sockets.delete(s));
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  return {
    port: (proxy.address() as { port: number }).port,
    cut: () => sockets.forEach((s) => s.destroy()),
    close: () => {
      sockets.forEach((s) => s.destroy());
      proxy.close();
    },
  };
}

async function modelFor(page: () => Page): Promise<TestModel> {
  const model = await startTestModel({
    script: {
      locate: ({ target }) => /click/i.test(target) ? measure(page(), "#click-button") : null,
    },
  });
  models.push(model);
  return model;
}

async function clicks(page: Page): Promise<number> {
  return Number(await page.locator("#click-count").textContent());
}

before(async () => {
  app = await serveStatic(FIXTURE_APP_DIR);
  server = await chromium.launchServer({
    executablePath: await findChromium(),
    args: [...CHROMIUM_ARGS],
    host: "127.0.0.1",
  });
  cdp = await startCdpChromium();
});

after(async () => {
  await Promise.all(models.map((m) => m.close()));
  await server?.close();
  await cdp?.close();
  await app?.close();
});

test("a DriverB page agent drives a page of a Playwright browser server reached with connect()", async () => {
  assert.match(server.wsEndpoint(), /^ws:\/\/127\.0\.0\.1:\d+\//);
  const browser: Browser = await chromium.connect(server.wsEndpoint());
  try {
    const page = await browser.newPage({ viewport: { width: 1024, height: 700 } });
    await page.goto(`${app.url}actions.html`);
    const model = await modelFor(() => page);
    const agent = new DriverBPageAgent(page, {
      modelConfig: model.modelConfig(),
      generateReport: false,
    });
    await agent.aiTap("the Click me button");
    assert.equal(await clicks(page), 1);
    await agent.destroy();
  } finally {
    await browser.close();
  }
});

test("DriverB page and browser agents drive a CDP endpoint reached with connectOverCDP()", async () => {
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${cdp.port}`);
  try {
    const context = browser.contexts()[0];
    const page = await context.newPage();
    await page.setViewportSize({ width: 1024, height: 700 });
    await page.goto(`${app.url}actions.html`);
    const model = await modelFor(() => page);
    const agent = new DriverBPageAgent(page, {
      modelConfig: model.modelConfig(),
      generateReport: false,
    });
    await agent.aiTap("the Click me button");
    assert.equal(await clicks(page), 1);
    await agent.destroy();

    const browserAgent = await DriverBBrowserAgent.create(context, {
      initialPage: page,
      modelConfig: model.modelConfig(),
      generateReport: false,
    });
    await browserAgent.aiTap("the Click me button");
    assert.equal(await clicks(page), 2, "the browser agent drives the remote context's page");
    await browserAgent.destroy();
    await page.close();
  } finally {
    await browser.close();
  }
});

test("a DriverA page agent drives the CDP endpoint reached with puppeteer.connect()", async () => {
  const browser = await puppeteer.connect({ browserWSEndpoint: cdp.wsEndpoint });
  try {
    const page = await browser.newPage();
    await page.setViewport({ width: 1024, height: 700 });
    await page.goto(`${app.url}actions.html`);
    // The model measures through Playwright over CDP: the same page, another client.
    const pw = await chromium.connectOverCDP(cdp.wsEndpoint);
    try {
      const pwPage = pw.contexts().flatMap((c) => c.pages()).find((p) =>
        p.url().endsWith("actions.html")
      )!;
      const model = await modelFor(() => pwPage);
      const agent = new DriverAPageAgent(page, {
        modelConfig: model.modelConfig(),
        generateReport: false,
      });
      await agent.aiTap("the Click me button");
      assert.equal(await clicks(pwPage), 1);
      await agent.destroy();
    } finally {
      await pw.close();
    }
    await page.close();
  } finally {
    await browser.disconnect();
  }
});

test("a remote endpoint that drops in the middle of a step fails the step with a clear error", {
  timeout: 60_000,
}, async () => {
  const proxy = await startProxy(cdp.port);
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${proxy.port}`);
  const page = await browser.contexts()[0].newPage();
  await page.setViewportSize({ width: 1024, height: 700 });
  await page.goto(`${app.url}actions.html`);
  const box = await measure(page, "#click-button");
  const model = await startTestModel({
    script: {
      locate: () => {
        proxy.cut(); // the connection drops while the model thinks
        return box;
      },
    },
  });
  models.push(model);
  const agent = new DriverBPageAgent(page, {
    modelConfig: model.modelConfig(),
    generateReport: false,
  });
  try {
    const error = await agent.aiTap("the Click me button").then(() => undefined, (e) => e);
    assert.ok(error instanceof Error, "the step fails");
    assert.match(error.message, /the connection to the browser is lost/);
    assert.match(error.message, /Connect to the browser again and create a new agent/);
    assert.ok(error.cause instanceof Error, "the driver's own error is the cause");
    assert.ok(error instanceof ConnectionError, `${error.name}: ${error.message}`);
    assert.equal(error.code, "CONNECTION_LOST");
    assert.equal(error.kind, "lost");
    assert.equal(error.endpoint, `${app.url}actions.html`, "DriverB names the page's last URL");
  } finally {
    await agent.destroy().catch(() => {});
    proxy.close();
    await browser.close().catch(() => {});
  }
});

test(
  "a DriverA agent whose remote endpoint drops in the middle of a step says the connection is lost",
  {
    timeout: 60_000,
  },
  async () => {
    const proxy = await startProxy(cdp.port);
    const endpoint = cdp.wsEndpoint.replace(`:${cdp.port}/`, `:${proxy.port}/`);
    const browser = await puppeteer.connect({ browserWSEndpoint: endpoint });
    const page = await browser.newPage();
    await page.setViewport({ width: 1024, height: 700 });
    await page.goto(`${app.url}actions.html`);
    const model = await startTestModel({
      script: {
        locate: () => {
          proxy.cut();
          return { left: 10, top: 10, width: 100, height: 40 };
        },
      },
    });
    models.push(model);
    const agent = new DriverAPageAgent(page, {
      modelConfig: model.modelConfig(),
      generateReport: false,
    });
    try {
      const error = await agent.aiTap("the Click me button").then(() => undefined, (e) => e);
      assert.ok(error instanceof Error, "the step fails");
      assert.match(error.message, /the connection to the browser is lost/);
      assert.ok(error instanceof ConnectionError, `${error.name}: ${error.message}`);
      assert.equal(error.code, "CONNECTION_LOST");
      // The browser's endpoint without its path (where a hosted service puts its token).
      assert.equal(error.endpoint, `ws://127.0.0.1:${proxy.port}`);
    } finally {
      await agent.destroy().catch(() => {});
      proxy.close();
      await browser.disconnect().catch(() => {});
    }
  },
);

test("closing the page under an agent says the page was closed, not that the browser is gone", {
  timeout: 60_000,
}, async () => {
  const browser = await chromium.connect(server.wsEndpoint());
  try {
    const page = await browser.newPage();
    await page.goto(`${app.url}actions.html`);
    const model = await startTestModel({
      script: {
        locate: async () => {
          await page.close();
          return { left: 10, top: 10, width: 100, height: 40 };
        },
      },
    });
    models.push(model);
    const agent = new DriverBPageAgent(page, {
      modelConfig: model.modelConfig(),
      generateReport: false,
    });
    const error = await agent.aiTap("the Click me button").then(() => undefined, (e) => e);
    assert.ok(error instanceof Error, "the step fails");
    assert.match(error.message, /the page was closed/);
    assert.ok(error instanceof ConnectionError, `${error.name}: ${error.message}`);
    assert.equal(error.code, "CONNECTION_LOST");
    assert.equal(error.endpoint, `${app.url}actions.html`);
    await agent.destroy().catch(() => {});
  } finally {
    await browser.close();
  }
});
