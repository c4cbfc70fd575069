/// <reference lib="dom" />
import { test } from "./test.ts";
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { useFixtureApp } from "./browser.ts";

const env = useFixtureApp();

/** Opens rich.html in a fresh context, waits until every image is painted and runs `body`. */
async function onRich(
  body: (page: Page, requests: string[]) => Promise<void>,
  viewport = { width: 1280, height: 800 },
): Promise<void> {
  const context = await env.browser.newContext({ viewport });
  try {
    const page = await context.newPage();
    const requests: string[] = [];
    page.on("request", (r) => requests.push(r.url()));
    await page.goto(`${env.url}rich.html`);
    await page.waitForFunction("window.appState.ready === true");
    await body(page, requests);
  } finally {
    await context.close();
  }
}

test("rich.html renders the same pixels on every load, from local data only", async () => {
  const shots: Uint8Array[] = [];
  for (let i = 0; i < 2; i++) {
    await onRich(async (page, requests) => {
      shots.push(await page.screenshot({ type: "png" }));
      const foreign = requests.filter((u) => !u.startsWith(env.url) && !u.startsWith("data:"));
      assert.deepEqual(foreign, [], "no request leaves the fixture server");
    });
  }
  assert.ok(shots[0].length > 100_000, `an image-rich screenshot: ${shots[0].length} bytes`);
  assert.ok(Buffer.from(shots[0]).equals(Buffer.from(shots[1])), "two loads, identical PNGs");
});

test("rich.html fills the viewport at 1280x800 and 1024x700 without horizontal scrolling", async () => {
  for (const viewport of [{ width: 1280, height: 800 }, { width: 1024, height: 700 }]) {
    await onRich(async (page) => {
      const size = await page.evaluate(() => ({
        w: document.documentElement.scrollWidth,
        h: document.documentElement.scrollHeight,
        canvases: [...document.querySelectorAll("canvas")].length,
      }));
      assert.equal(size.w, viewport.width, "no horizontal overflow");
      assert.ok(size.h >= viewport.height, `content fills the viewport: ${size.h}px`);
      assert.ok(size.canvases >= 10, "photos, avatars and charts are drawn");
    }, viewport);
  }
});

test("rich.html counts clicks on 'Click me' like actions.html and has named targets", async () => {
  await onRich(async (page) => {
    const button = page.locator("#click-button");
    assert.equal(await button.textContent(), "Click me");
    await button.click();
    assert.equal(await page.textContent("#click-count"), "1");
    assert.equal(await page.textContent("#click-count-unit"), "time");
    await button.click();
    await button.click();
    assert.equal(await page.evaluate("window.appState.clicks"), 3);
    assert.equal(await page.textContent("#click-count"), "3");
    assert.equal(await page.textContent("#click-count-unit"), "times");

    await page.fill("#search", "larch");
    assert.equal(await page.evaluate("window.appState.search"), "larch");
    const subscribe = page.getByRole("button", { name: "Subscribe" });
    await subscribe.click();
    assert.equal(await page.evaluate("window.appState.subscribed"), true);
    assert.equal(await page.textContent("#subscribe"), "Subscribed");
    assert.deepEqual(await page.locator(".card-title").allTextContents(), [
      "Lakeside at dawn",
      "Larch forest trail",
      "Dunes at Erg Chebbi",
      "Milky Way over the col",
    ]);
    for (const sel of ["#search", "#subscribe", "#click-button", "#card-forest", "#hero"]) {
      assert.ok(await page.locator(sel).isVisible(), `${sel} is visible`);
    }
  });
});
