import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import type { Browser } from "puppeteer-core";
import type { DriverRequest } from "../page/page_driver.ts";
import { DriverAPageDriver } from "./puppeteer_driver.ts";
import { launchChromiumDriverA, pngSize, startServer, type TestServer } from "../_test_support.ts";

let browser: Browser;
let server: TestServer;

before(async () => {
  browser = await launchChromiumDriverA();
  server = await startServer((request, response) => {
    response.setHeader("content-type", request.url === "/style.css" ? "text/css" : "text/html");
    if (request.url === "/") {
      response.end(`<link rel="stylesheet" href="/style.css"><iframe src="/frame"></iframe>`);
    } else if (request.url === "/missing") {
      response.statusCode = 404;
      response.end("no");
    } else if (request.url === "/redirect") {
      response.statusCode = 302;
      response.setHeader("location", "/");
      response.end();
    } else {
      response.end("");
    }
  });
});

after(async () => {
  await browser?.close();
  await server?.close();
});

test("DriverAPageDriver.screenshot() is a PNG of the viewport in physical pixels", async () => {
  const context = await browser.createBrowserContext();
  try {
    const page = await context.newPage();
    await page.setViewport({ width: 640, height: 480, deviceScaleFactor: 2 });
    await page.setContent(`<div style="height: 5000px">tall page</div>`);
    const driver = new DriverAPageDriver(page);
    assert.deepEqual(pngSize(await driver.screenshot()), { width: 1280, height: 960 });
    assert.deepEqual(await driver.viewport(), { width: 640, height: 480, dpr: 2 });
  } finally {
    await context.close();
  }
});

test("DriverAPageDriver request events pair start and end by id and flag the main-frame navigation", async () => {
  const page = await browser.newPage();
  try {
    const driver = new DriverAPageDriver(page);
    const started: DriverRequest[] = [];
    const ended: Array<[DriverRequest, boolean]> = [];
    let loads = 0;
    const unsubscribe = [
      driver.onRequestStart((r) => started.push(r)),
      driver.onRequestEnd((r, failed) => ended.push([r, failed])),
      driver.onMainFrameLoad(() => loads++),
    ];
    await page.goto(`${server.origin}/`);
    const byPath = (path: string) => started.find((r) => new URL(r.url).pathname === path);
    assert.equal(byPath("/")?.isMainFrameNavigation, true);
    assert.equal(byPath("/style.css")?.isMainFrameNavigation, false);
    // A frame's document is a navigation, but not of the main frame.
    assert.equal(byPath("/frame")?.isMainFrameNavigation, false);
    assert.equal(new Set(started.map((r) => r.id)).size, started.length);
    for (const request of started) {
      const end = ended.find(([r]) => r.id === request.id);
      assert.ok(end, `end event for ${request.url}`);
      assert.equal(end[0], request);
    }
    assert.equal(loads, 1);

    await page.evaluate(() => fetch("/missing").then(() => 0));
    assert.equal(ended.at(-1)?.[1], false, "an HTTP error status is still a finished request");

    // Each redirect hop is its own main-frame navigation request, ended by its response.
    started.length = 0;
    await page.goto(`${server.origin}/redirect`);
    const hops = started.filter((r) => r.isMainFrameNavigation);
    assert.deepEqual(hops.map((r) => new URL(r.url).pathname), ["/redirect", "/"]);
    for (const hop of hops) assert.ok(ended.some(([r, failed]) => r === hop && !failed));

    for (const u of unsubscribe) u();
    const counts = [started.length, ended.length, loads];
    await page.reload();
    assert.deepEqual([started.length, ended.length, loads], counts);
  } finally {
    await page.close();
  }
});

test("DriverAPageDriver goto/reload/goBack move through history; goBack without history is a no-op", async () => {
  const page = await browser.newPage();
  try {
    const driver = new DriverAPageDriver(page);
    await driver.goBack();
    await driver.goto(`${server.origin}/`);
    assert.equal(await driver.url(), `${server.origin}/`);
    await driver.goto(`${server.origin}/other`);
    await driver.goBack();
    assert.equal(await driver.url(), `${server.origin}/`);
    await driver.reload();
    assert.equal(await driver.url(), `${server.origin}/`);
    await assert.rejects(driver.goto("http://127.0.0.1:1/"));
  } finally {
    await page.close();
  }
});

test("DriverAPageDriver keyboard and evaluate reach the page", async () => {
  const page = await browser.newPage();
  try {
    const driver = new DriverAPageDriver(page);
    await page.setContent(`<input id="f">`);
    await page.focus("#f");
    await driver.keyboard.type("ab", { delayMs: 1 });
    await driver.keyboard.insertText("ç");
    await driver.keyboard.press("Shift+ArrowLeft");
    await driver.keyboard.press("Backspace");
    assert.equal(await driver.evaluate(() => 40 + 2), 42);
    const value = () =>
      driver.evaluate(
        (id: string) =>
          (globalThis as unknown as {
            document: { getElementById(id: string): { value: string } };
          }).document.getElementById(id).value,
        "f",
      );
    assert.equal(await value(), "ab");
    assert.equal(await driver.evaluate<number>("1 + 1"), 2);
    // Combinations: modifiers down in order, up in reverse; "Control++" presses "+".
    await driver.keyboard.press("Control+A");
    await driver.keyboard.press("Backspace");
    assert.equal(await value(), "");
    await driver.keyboard.press("Shift++");
    assert.equal(await value(), "+");
    await assert.rejects(driver.keyboard.press("Control+NoSuchKey"), Error);
    // A failed press leaves no modifier down: "a" is typed as "a", not as Control+A.
    await driver.keyboard.press("a");
    assert.equal(await value(), "+a");
  } finally {
    await page.close();
  }
});

test("DriverAPageDriver mouse: a double click fires two clicks and one dblclick", async () => {
  const page = await browser.newPage();
  try {
    const driver = new DriverAPageDriver(page);
    await page.setContent(`
      <style>body { margin: 0 } #t { width: 200px; height: 100px }</style>
      <div id="t"></div>
      <script>
        window.events = [];
        for (const type of ["click", "dblclick", "contextmenu"]) {
          document.getElementById("t").addEventListener(type, (e) => {
            e.preventDefault();
            events.push(type);
          });
        }
      </script>`);
    await driver.mouse.click(50, 50, { clickCount: 2 });
    await driver.mouse.click(50, 50, { button: "right" });
    assert.deepEqual(
      await driver.evaluate(() => (globalThis as unknown as { events: string[] }).events),
      ["click", "click", "dblclick", "contextmenu"],
    );
  } finally {
    await page.close();
  }
});
