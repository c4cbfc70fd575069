/**
 * Conformance of the WDA front with a WebDriver client no one here wrote: the `webdriver` npm
 * package (WebdriverIO's W3C client), talking to the front as a user's own tools talk to a real
 * iPhone's WebDriverAgent, with the W3C commands WebDriverAgent supports: session, status,
 * window rect, screenshot, source, element finding and element commands, actions, URL, and WDA's
 * error answers as the client reads them. The client runs in its own process, out of the
 * workspace's dependencies (tests/helpers/clients.ts).
 *
 * @module
 */

import { before } from "node:test";
import { after, test } from "../helpers/test.ts";
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { fileURLToPath } from "node:url";
import type { Browser } from "playwright-core";
import { PNG } from "pngjs";
import { startVirtualPhone, type VirtualPhone } from "@sdk/web/testing";
import { startWdaFront, type WdaFront } from "@sdk/mobileb/testing";
import { launchChromium } from "../helpers/browser.ts";
import { serveStatic, type StaticServer } from "../helpers/static_server.ts";
import { type Clients, type Remote, startClients } from "../helpers/clients.ts";

const NOTES = "com.example.notes";
const W3C = "element-6066-11e4-a52e-4f735466cecf";

let browser: Browser;
let apps: StaticServer;
let phone: VirtualPhone;
let wda: WdaFront;
let clients: Clients;

before(async () => {
  clients = await startClients();
  browser = await launchChromium();
  apps = await serveStatic(fileURLToPath(new URL("../fixtures/mobile/", import.meta.url)));
  phone = await startVirtualPhone({
    browser,
    width: 1170,
    height: 2532,
    density: 3,
    apps: {
      [NOTES]: { url: `${apps.url}notes/index.html`, label: "Notes" },
      "com.example.settings": { url: `${apps.url}settings/index.html`, label: "Settings" },
    },
  });
  wda = await startWdaFront(phone);
});

after(async () => {
  await wda?.close();
  await phone?.close();
  await apps?.close();
  await browser?.close();
  await clients?.close();
});

type Client = Remote;

/** A W3C session through the client, launching `bundleId` as an iOS client asks for it. */
function newSession(bundleId = NOTES): Promise<Client> {
  return clients.webdriver.newSession({
    protocol: "http",
    hostname: "127.0.0.1",
    port: wda.port,
    path: "/",
    logLevel: "silent",
    // No retries: an error answer must reach the test as the client reads it.
    connectionRetryCount: 0,
    capabilities: { platformName: "iOS", "appium:bundleId": bundleId },
  });
}

async function waitFor(check: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

test("a W3C session: status, window rect, screenshot and source through the webdriver client", async () => {
  const client = await newSession();
  try {
    assert.match(client.sessionId, /^[0-9A-F-]{36}$/);
    assert.deepEqual(wda.sessionIds(), [client.sessionId]);
    assert.equal(phone.foregroundApp().packageName, NOTES);
    const status = await client.status() as { ready: boolean; os: { name: string } };
    assert.deepEqual([status.ready, status.os.name], [true, "iOS"]);
    assert.deepEqual(await client.getWindowRect(), { x: 0, y: 0, width: 390, height: 844 });
    const png = PNG.sync.read(Buffer.from(await client.takeScreenshot(), "base64"));
    assert.deepEqual([png.width, png.height], [1170, 2532]);
    const source = await client.getPageSource();
    assert.match(source, /<XCUIElementTypeCell [^>]*name="note-2"[^>]*label="Note 2"/);
    await client.setTimeouts(0);
  } finally {
    await client.deleteSession();
  }
  assert.deepEqual(wda.sessionIds(), []);
});

test("find elements and act on them with W3C element references", async () => {
  const client = await newSession();
  try {
    const page = phone.foregroundPage();
    const note = await client.findElement("accessibility id", "note-3");
    // WebDriverAgent's reference: the W3C key (and the JSON Wire Protocol's ELEMENT).
    const id = note[W3C];
    assert.match(id, /^[0-9A-F-]{36}$/);
    assert.equal(await client.getElementText(id), "Note 3");
    assert.equal(await client.getElementTagName(id), "XCUIElementTypeCell");
    assert.equal(await client.getElementAttribute(id, "label"), "Note 3");
    assert.equal(await client.isElementDisplayed(id), true);
    assert.equal(await client.isElementEnabled(id), true);
    const box = (await page.locator("#note-3").boundingBox())!;
    assert.deepEqual(await client.getElementRect(id), {
      x: Math.round(box.x),
      y: Math.round(box.y),
      width: Math.round(box.width),
      height: Math.round(box.height),
    });
    const cells = await client.findElements("class name", "XCUIElementTypeCell");
    assert.ok(cells.length >= 10);
    assert.equal(cells[2][W3C], id, "the same element keeps its reference");
    const table = await client.findElement("xpath", "//XCUIElementTypeTable");
    const inTable = await client.findElementsFromElement(
      table[W3C],
      "predicate string",
      "label ENDSWITH '5'",
    );
    const texts: string[] = await Promise.all(
      inTable.map((e: Record<string, string>) => client.getElementText(e[W3C])),
    );
    assert.equal(texts[0], "Note 5");
    assert.ok(texts.every((text) => text.endsWith("5")), texts.join());
    const chained = await client.findElement(
      "class chain",
      '**/XCUIElementTypeCell[`name == "note-4"`]',
    );
    assert.equal(await client.getElementText(chained[W3C]), "Note 4");

    await client.elementClick(id);
    await waitFor(async () => (await page.textContent("#detail-title")) === "Note 3", "Note 3");
    const field = await client.findElement("class name", "XCUIElementTypeTextField");
    await client.elementSendKeys(field[W3C], "typed by webdriver");
    assert.equal(await page.inputValue("#note-text"), "typed by webdriver");
    const active = await client.getActiveElement();
    assert.equal(active[W3C], field[W3C], "the focused field is the active element");
    await client.elementClear(field[W3C]);
    assert.equal(await page.inputValue("#note-text"), "");
  } finally {
    await client.deleteSession();
  }
});

test("W3C actions and the URL command through the client", async () => {
  const client = await newSession();
  try {
    const page = phone.foregroundPage();
    const rect = await client.getElementRect(
      (await client.findElement("accessibility id", "note-6"))[W3C],
    );
    await client.performActions([{
      type: "pointer",
      id: "finger1",
      parameters: { pointerType: "touch" },
      actions: [
        { type: "pointerMove", duration: 0, x: rect.x + 20, y: rect.y + rect.height / 2 },
        { type: "pointerDown", button: 0 },
        { type: "pause", duration: 50 },
        { type: "pointerUp", button: 0 },
      ],
    }]);
    await client.releaseActions();
    await waitFor(async () => (await page.textContent("#detail-title")) === "Note 6", "Note 6");
    await client.navigateTo(`${apps.url}settings/index.html`);
    assert.equal(phone.foregroundApp().packageName, "com.android.chrome");
    await waitFor(
      async () => (await phone.foregroundPage().textContent("#wifi-status")) === "Wi-Fi is off",
      "the settings page in Safari",
    );
  } finally {
    await client.deleteSession();
  }
});

test("WDA's errors reach the client as W3C errors with WDA's names", async () => {
  const client = await newSession();
  try {
    // The client hands a W3C "no such element" (404) back as the error value, as it does for
    // every W3C server.
    const missing = await client.findElement("accessibility id", "nope") as unknown as {
      error: string;
      message: string;
    };
    assert.equal(missing.error, "no such element");
    assert.match(missing.message, /unable to find an element using 'accessibility id'/);
    await assert.rejects(
      client.findElement("xpath", "//["),
      (error: Error) => error.name === "invalid selector",
    );
    await assert.rejects(
      client.getElementText("NOT-AN-ELEMENT"),
      (error: Error) => error.name === "stale element reference",
    );
    // WebDriverAgent has no cookies: an unknown command.
    await assert.rejects(
      client.getAllCookies(),
      (error: Error) => error.name === "unknown command",
    );
  } finally {
    await client.deleteSession();
  }
  await assert.rejects(
    newSession("com.example.nothing"),
    /session not created|com\.example\.nothing/,
  );
});
