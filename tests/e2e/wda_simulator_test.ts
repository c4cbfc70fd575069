/// <reference lib="dom" />
/**
 * The device simulator's WDA front, driven with plain `fetch` as an iOS client drives a real
 * iPhone's WebDriverAgent: a virtual phone of 1170 x 2532 physical pixels at density 3 (scale 3:
 * 390 x 844 points) with the notes, settings and zoom fixture apps; effects are asserted on the
 * phone's pages.
 *
 * @module
 */

import { before } from "node:test";
import { after, test } from "../helpers/test.ts";
import assert from "node:assert/strict";
import net from "node:net";
import { Buffer } from "node:buffer";
import { fileURLToPath } from "node:url";
import type { Browser } from "playwright-core";
import { PNG } from "pngjs";
import {
  LAUNCHER_ACTIVITY,
  RECENTS_ACTIVITY,
  startVirtualPhone,
  type VirtualPhone,
} from "@sdk/web/testing";
import { startWdaFront, type WdaFront } from "@sdk/mobileb/testing";
import { imageSizeFromDataUri } from "../../core/image/size.ts";
import { launchChromium } from "../helpers/browser.ts";
import { serveStatic, type StaticServer } from "../helpers/static_server.ts";

const MOBILE_APPS_DIR = fileURLToPath(new URL("../fixtures/mobile/", import.meta.url));
const NOTES = "com.example.notes";
const SETTINGS = "com.example.settings";
const ZOOM = "com.example.zoom";
const SCALE = 3;

let browser: Browser;
let apps: StaticServer;
let phone: VirtualPhone;
let wda: WdaFront;

before(async () => {
  browser = await launchChromium();
  apps = await serveStatic(MOBILE_APPS_DIR);
  phone = await startVirtualPhone({
    browser,
    width: 1170,
    height: 2532,
    density: SCALE,
    apps: {
      [NOTES]: { url: `${apps.url}notes/index.html`, label: "Notes" },
      [SETTINGS]: { url: `${apps.url}settings/index.html`, label: "Settings" },
      [ZOOM]: { url: `${apps.url}zoom/index.html`, label: "Zoom" },
    },
  });
  wda = await startWdaFront(phone, { urlSchemes: { notes: NOTES } });
});

after(async () => {
  await wda?.close();
  await phone?.close();
  await apps?.close();
  await browser?.close();
});

interface Answer {
  status: number;
  // deno-lint-ignore no-explicit-any
  value: any;
  sessionId: string | null;
}

/** One WDA request; the answer's status and envelope. */
async function call(method: string, path: string, body?: unknown): Promise<Answer> {
  const response = await fetch(wda.url + path, {
    method,
    headers: body === undefined ? {} : { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await response.json();
  return { status: response.status, value: json.value, sessionId: json.sessionId };
}

/** A request that must succeed; its value. */
async function ok(method: string, path: string, body?: unknown): Promise<Answer["value"]> {
  const answer = await call(method, path, body);
  assert.equal(answer.status, 200, `${method} ${path}: ${JSON.stringify(answer.value)}`);
  return answer.value;
}

/** A new session with `bundleId` launched afresh; its id. */
async function session(bundleId?: string): Promise<string> {
  const value = await ok("POST", "/session", {
    capabilities: { alwaysMatch: bundleId ? { bundleId } : {}, firstMatch: [{}] },
  });
  return value.sessionId;
}

/** The center of an element of the page on screen, in points (CSS pixels times density/scale). */
async function centerOf(selector: string): Promise<{ x: number; y: number }> {
  const box = await phone.foregroundPage().locator(selector).boundingBox();
  if (!box) throw new Error(`${selector} is not visible`);
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

async function waitFor(check: () => Promise<boolean> | boolean, what: string): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

test("status, session create, get and delete; deleting terminates the session's app", async () => {
  const status = await ok("GET", "/status");
  assert.equal(status.ready, true);
  assert.equal(status.os.name, "iOS");
  const id = await session(NOTES);
  assert.match(id, /^[0-9A-F-]{36}$/);
  assert.deepEqual(wda.sessionIds(), [id]);
  assert.equal(phone.foregroundApp().packageName, NOTES);
  const info = await call("GET", `/session/${id}`);
  assert.equal(info.sessionId, id);
  assert.equal(info.value.capabilities.CFBundleIdentifier, NOTES);
  // WDA keeps one session: a new one replaces it.
  const second = await session();
  assert.notEqual(second, id);
  assert.deepEqual(wda.sessionIds(), [second]);
  assert.equal((await call("GET", `/session/${id}`)).status, 404);
  const third = await session(NOTES);
  assert.deepEqual(await ok("DELETE", `/session/${third}`), null);
  assert.deepEqual(wda.sessionIds(), []);
  assert.equal(phone.runningApps().includes(NOTES), false);
  const missing = await call("POST", "/session", {});
  assert.equal(missing.status, 500);
  assert.equal(missing.value.error, "session not created");
  const unknownApp = await call("POST", "/session", {
    capabilities: { alwaysMatch: { "appium:bundleId": "com.example.nothing" } },
  });
  assert.equal(unknownApp.value.error, "session not created");
  assert.match(unknownApp.value.message, /com\.example\.nothing.*not installed/);
});

test("screenshots are PNGs in physical pixels, window and screen sizes are in points", async () => {
  const id = await session(NOTES);
  for (const path of ["/screenshot", `/session/${id}/screenshot`]) {
    const png = PNG.sync.read(Buffer.from(await ok("GET", path), "base64"));
    assert.deepEqual([png.width, png.height], [1170, 2532]);
    // The notes app's blue header (56 points = 168 physical pixels high) is at the top.
    const at = (png.width * 80 + 585) * 4;
    assert.deepEqual([...png.data.subarray(at, at + 3)], [0x1a, 0x73, 0xe8]);
  }
  assert.deepEqual(await ok("GET", `/session/${id}/window/size`), { width: 390, height: 844 });
  const screen = await ok("GET", `/session/${id}/wda/screen`);
  assert.equal(screen.scale, 3);
  assert.deepEqual(screen.screenSize, { width: 390, height: 844 });
});

test("the scale option sets the points: scale 2 on the density-3 phone", async () => {
  const front = await startWdaFront(phone, { scale: 2 });
  try {
    const created = await fetch(`${front.url}/session`, {
      method: "POST",
      body: JSON.stringify({ capabilities: { alwaysMatch: {} } }),
    });
    const id = (await created.json()).value.sessionId;
    const size = await (await fetch(`${front.url}/session/${id}/window/size`)).json();
    assert.deepEqual(size.value, { width: 585, height: 1266 });
    await fetch(`${front.url}/session/${id}/wda/tap`, {
      method: "POST",
      body: JSON.stringify({ x: 100, y: 300 }),
    }).then((r) => r.body?.cancel());
    assert.deepEqual(phone.inputs.at(-1), { type: "tap", x: 200, y: 600 });
  } finally {
    await front.close();
  }
  await assert.rejects(startWdaFront(phone, { scale: 0 }), /scale must be a positive number/);
});

test("taps in points land on the element measured in the page, in both tap forms", async () => {
  const id = await session(NOTES);
  const note = await centerOf("#note-3");
  await ok("POST", `/session/${id}/wda/tap`, note);
  const page = phone.foregroundPage();
  await waitFor(async () => (await page.textContent("#detail-title")) === "Note 3", "Note 3");
  assert.deepEqual(phone.inputs.filter((i) => i.type === "tap").at(-1), {
    type: "tap",
    x: note.x * SCALE,
    y: note.y * SCALE,
  });
  const increment = await centerOf("#increment");
  await ok("POST", `/session/${id}/wda/tap/0`, increment);
  await ok("POST", `/session/${id}/wda/doubleTap`, increment);
  await waitFor(async () => (await page.textContent("#count")) === "3", "the counter at 3");
  // A W3C tap: one touch pointer down, a short rest, up.
  await ok("POST", `/session/${id}/actions`, {
    actions: [{
      type: "pointer",
      id: "finger1",
      parameters: { pointerType: "touch" },
      actions: [
        { type: "pointerMove", duration: 0, ...increment },
        { type: "pointerDown", button: 0 },
        { type: "pause", duration: 50 },
        { type: "pointerUp", button: 0 },
      ],
    }],
  });
  await waitFor(async () => (await page.textContent("#count")) === "4", "the counter at 4");
  const bad = await call("POST", `/session/${id}/wda/tap`, { x: "left" });
  assert.equal(bad.status, 400);
  assert.equal(bad.value.error, "invalid argument");
  assert.match(bad.value.message, /'x' must be a number of points/);
});

test("touchAndHold holds for its duration in seconds: a long press pins a note", async () => {
  const id = await session(NOTES);
  const page = phone.foregroundPage();
  await ok("POST", `/session/${id}/wda/touchAndHold`, {
    ...(await centerOf("#note-4")),
    duration: 0.8,
  });
  await waitFor(
    async () => (await page.getAttribute("#note-4", "data-pinned")) === "true",
    "pinned",
  );
  const held = phone.inputs.filter((i) => i.type === "multiTouch").slice(-2);
  assert.equal(held[0].type === "multiTouch" && held[0].points.length, 1);
  assert.deepEqual(held[1], { type: "multiTouch", points: [] });
  const bad = await call("POST", `/session/${id}/wda/touchAndHold`, { x: 10, y: 10, duration: -1 });
  assert.equal(bad.status, 400);
  assert.match(bad.value.message, /'duration' must be a non-negative number of seconds/);
});

test("keys type ASCII and non-ASCII text, \\b deletes, \\n returns; the keyboard dismisses", async () => {
  const id = await session(NOTES);
  await ok("POST", `/session/${id}/wda/tap`, await centerOf("#note-1"));
  const page = phone.foregroundPage();
  await waitFor(() => page.isVisible("#note-text"), "the text field");
  await ok("POST", `/session/${id}/wda/tap`, await centerOf("#note-text"));
  await waitFor(() => phone.keyboardShown(), "the keyboard");
  await ok("POST", `/session/${id}/wda/keys`, { value: ["Hello, ", "wörld ", "你好 👋x", "\b"] });
  assert.equal(await page.inputValue("#note-text"), "Hello, wörld 你好 👋");
  await ok("POST", `/session/${id}/wda/keys`, { value: ["\n"] });
  assert.equal(await page.textContent("#submitted"), "Submitted: Hello, wörld 你好 👋");
  // The focused field is the active element (WDA's reference: the W3C key and ELEMENT), and
  // clearing it empties it.
  const active = await ok("GET", `/session/${id}/element/active`);
  assert.match(active["element-6066-11e4-a52e-4f735466cecf"], /^[0-9A-F-]{36}$/);
  assert.equal(active.ELEMENT, active["element-6066-11e4-a52e-4f735466cecf"]);
  await ok("POST", `/session/${id}/element/${active.ELEMENT}/clear`);
  assert.equal(await page.inputValue("#note-text"), "");
  await ok("POST", `/session/${id}/wda/keyboard/dismiss`, {});
  assert.equal(await phone.keyboardShown(), false);
  const none = await call("GET", `/session/${id}/element/active`);
  assert.equal(none.status, 404);
  assert.equal(none.value.error, "no such element");
  // The field is still on screen: typing into it focuses it again, as XCUITest's typeText does.
  await ok("POST", `/session/${id}/element/${active.ELEMENT}/value`, { value: ["again"] });
  assert.equal(await page.inputValue("#note-text"), "again");
  assert.equal(await phone.keyboardShown(), true);
  // Still on the detail screen: dismissing only hid the keyboard. Back on the list, the field is
  // gone from the tree: its reference is stale.
  assert.equal(await page.isVisible("#note-text"), true);
  await page.evaluate(() => history.back());
  await waitFor(() => page.isVisible("#note-1"), "the list");
  const stale = await call("POST", `/session/${id}/element/${active.ELEMENT}/clear`);
  assert.equal(stale.status, 404);
  assert.equal(stale.value.error, "stale element reference");
  assert.match(stale.value.message, /is either not present or it has expired/);
});

test("apps launch, activate, report their state, terminate; home screen and buttons", async () => {
  const id = await session(NOTES);
  const s = `/session/${id}`;
  const state = (bundleId: string) => ok("POST", `${s}/wda/apps/state`, { bundleId });
  await ok("POST", `${s}/wda/apps/launch`, { bundleId: SETTINGS, arguments: ["-demo"] });
  assert.equal(phone.foregroundApp().packageName, SETTINGS);
  assert.equal(await state(SETTINGS), 4);
  assert.equal(await state(NOTES), 3);
  const info = await ok("GET", `${s}/wda/activeAppInfo`);
  assert.equal(info.bundleId, SETTINGS);
  assert.deepEqual(info.processArguments, { args: ["-demo"], env: {} });
  await ok("POST", `${s}/wda/apps/activate`, { bundleId: NOTES });
  assert.equal((await ok("GET", "/wda/activeAppInfo")).bundleId, NOTES);
  assert.equal(await ok("POST", `${s}/wda/apps/terminate`, { bundleId: SETTINGS }), true);
  assert.equal(await state(SETTINGS), 1);
  assert.equal(await ok("POST", `${s}/wda/apps/terminate`, { bundleId: SETTINGS }), false);
  assert.equal(await state("com.example.nothing"), 0);
  const missing = await call("POST", `${s}/wda/apps/launch`, { bundleId: "com.example.nothing" });
  assert.equal(missing.status, 500);
  assert.match(
    missing.value.message,
    /com\.example\.nothing' is not installed.*com\.example\.notes/,
  );

  await ok("POST", "/wda/homescreen");
  assert.equal((await ok("GET", `${s}/wda/activeAppInfo`)).bundleId, "com.apple.springboard");
  assert.equal(await state(NOTES), 3);
  await ok("POST", `${s}/wda/apps/activate`, { bundleId: NOTES });
  await ok("POST", `${s}/wda/pressButton`, { name: "home" });
  assert.equal(phone.foregroundApp().activity, LAUNCHER_ACTIVITY);
  await ok("POST", `${s}/wda/pressButton`, { name: "volumeUp" });
  assert.deepEqual(phone.inputs.at(-1), { type: "key", keyCode: 24 });
  const button = await call("POST", `${s}/wda/pressButton`, { name: "power" });
  assert.equal(button.status, 500);
  assert.match(button.value.message, /'power' is unknown.*home, volumeUp, volumeDown/);
  const inherited = await call("POST", `${s}/wda/pressButton`, { name: "constructor" });
  assert.match(inherited.value.message, /'constructor' is unknown/);
});

test("URLs: web URLs open in Safari, mapped schemes launch their app, others fail", async () => {
  const id = await session();
  await ok("POST", `/session/${id}/url`, { url: `${apps.url}settings/index.html` });
  assert.equal((await ok("GET", "/wda/activeAppInfo")).bundleId, "com.apple.mobilesafari");
  assert.equal(await phone.foregroundPage().textContent("#wifi-status"), "Wi-Fi is off");
  await ok("POST", `/session/${id}/url`, { url: "notes://open" });
  assert.equal(phone.foregroundApp().packageName, NOTES);
  const unknown = await call("POST", `/session/${id}/url`, { url: "tel:123" });
  assert.equal(unknown.status, 500);
  assert.match(unknown.value.message, /'tel:' URLs/);
});

test("the source is an XCUIElementType tree of the visible elements with frames in points", async () => {
  const id = await session(SETTINGS);
  const xml: string = await ok("GET", `/session/${id}/source`);
  assert.match(xml, /^<\?xml version="1.0" encoding="UTF-8"\?>\n<XCUIElementTypeApplication /);
  assert.match(xml, /<XCUIElementTypeWindow [^>]*width="390" height="844"/);
  const button =
    /<XCUIElementTypeButton [^>]*name="wifi"[^>]*label="Off"[^>]*x="(\d+)" y="(\d+)" width="(\d+)" height="(\d+)"/
      .exec(xml);
  assert.ok(button, xml);
  const box = (await phone.foregroundPage().locator("#wifi").boundingBox())!;
  assert.deepEqual(button.slice(1).map(Number), [
    Math.round(box.x),
    Math.round(box.y),
    Math.round(box.width),
    Math.round(box.height),
  ]);
  assert.match(xml, /<XCUIElementTypeTextField [^>]*value="Simulator"[^>]*label="Device name"/);
  const json = await ok("GET", `/source?format=json`);
  assert.equal(json.type, "Application");
  const bad = await call("GET", `/source?format=yaml`);
  assert.equal(bad.status, 500);
  assert.match(bad.value.message, /'yaml'/);
});

test("W3C actions with two touch pointers pinch the zoom app in and out", async () => {
  const id = await session(ZOOM);
  const page = phone.foregroundPage();
  const { x, y } = await centerOf("#photo");
  const finger = (id: string, from: number, to: number) => ({
    type: "pointer",
    id,
    parameters: { pointerType: "touch" },
    actions: [
      { type: "pointerMove", duration: 0, x: x + from, y, origin: "viewport" },
      { type: "pointerDown", button: 0 },
      { type: "pointerMove", duration: 300, x: to - from, y: 0, origin: "pointer" },
      { type: "pointerUp", button: 0 },
    ],
  });
  // 100 points apart -> 200 points apart: twice the zoom.
  await ok("POST", `/session/${id}/actions`, {
    actions: [finger("f1", -50, -100), finger("f2", 50, 100)],
  });
  assert.equal(await page.textContent("#zoom"), "Zoom: 2.00x");
  assert.equal(await page.textContent("#fingers"), "Fingers: 0");
  // 160 points apart -> 40 points apart: a quarter of that.
  await ok("POST", `/session/${id}/actions`, {
    actions: [finger("f1", -80, -20), finger("f2", 80, 20)],
  });
  assert.equal(await page.textContent("#zoom"), "Zoom: 0.50x");
  const moves = phone.inputs.filter((i) => i.type === "multiTouch");
  assert.ok(moves.some((i) => i.type === "multiTouch" && i.points.length === 2));
  const mouse = await call("POST", `/session/${id}/actions`, {
    actions: [{ type: "pointer", id: "m", parameters: { pointerType: "mouse" }, actions: [] }],
  });
  assert.equal(mouse.status, 400);
  assert.match(mouse.value.message, /only pointer type 'touch'.*'mouse'/);
});

test("an edge swipe up held 500 ms shows the app switcher, a fast one goes home", async () => {
  const id = await session(NOTES);
  const swipe = (ms: number) => ({
    actions: [{
      type: "pointer",
      id: "finger",
      parameters: { pointerType: "touch" },
      actions: [
        { type: "pointerMove", duration: 0, x: 195, y: 838 },
        { type: "pointerDown", button: 0 },
        { type: "pointerMove", duration: ms, x: 195, y: 500 },
        { type: "pointerUp", button: 0 },
      ],
    }],
  });
  await ok("POST", `/session/${id}/actions`, swipe(600));
  assert.equal(phone.foregroundApp().activity, RECENTS_ACTIVITY);
  assert.equal(await phone.foregroundPage().isVisible("text=Notes"), true);
  await ok("POST", `/session/${id}/wda/apps/activate`, { bundleId: NOTES });
  await ok("POST", `/session/${id}/actions`, swipe(150));
  assert.equal(phone.foregroundApp().activity, LAUNCHER_ACTIVITY);
  // dragfromtoforduration: a 0.5 s hold then the drag is slow enough; 0 s is not.
  await ok("POST", `/session/${id}/wda/apps/activate`, { bundleId: NOTES });
  const drag = (duration: number) => ({ fromX: 195, fromY: 840, toX: 195, toY: 300, duration });
  await ok("POST", `/session/${id}/wda/dragfromtoforduration`, drag(0.5));
  assert.equal(phone.foregroundApp().activity, RECENTS_ACTIVITY);
  await ok("POST", `/session/${id}/wda/apps/activate`, { bundleId: NOTES });
  await ok("POST", `/session/${id}/wda/dragfromtoforduration`, drag(0));
  assert.equal(phone.foregroundApp().activity, LAUNCHER_ACTIVITY);
  // The same swipe from mid-screen is the app's: the notes list scrolls.
  await ok("POST", `/session/${id}/wda/apps/activate`, { bundleId: NOTES });
  await ok("POST", `/session/${id}/wda/dragfromtoforduration`, {
    ...drag(0),
    fromY: 700,
  });
  assert.equal(phone.foregroundApp().packageName, NOTES);
  await waitFor(() => phone.foregroundPage().evaluate(() => scrollY > 100), "the list scrolled");
});

/** Reads `count` MJPEG parts from the stream: the answer's head and each part's headers and JPEG. */
function readMjpeg(
  count: number,
): Promise<{ head: string; parts: { headers: string; jpeg: Buffer }[] }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(wda.mjpegPort, "127.0.0.1");
    let data = Buffer.alloc(0);
    socket.on("error", reject);
    socket.on("connect", () => socket.write("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"));
    socket.on("data", (chunk) => {
      data = Buffer.concat([data, chunk]);
      const headEnd = data.indexOf("\r\n\r\n");
      if (headEnd < 0) return;
      const parts: { headers: string; jpeg: Buffer }[] = [];
      let at = headEnd + 4;
      while (parts.length < count) {
        const end = data.indexOf("\r\n\r\n", at);
        if (end < 0) return;
        const headers = data.subarray(at, end).toString();
        const length = Number(/Content-Length: (\d+)/.exec(headers)?.[1]);
        if (data.length < end + 4 + length + 4) return;
        parts.push({ headers, jpeg: data.subarray(end + 4, end + 4 + length) });
        at = end + 4 + length + 4;
      }
      socket.destroy();
      resolve({ head: data.subarray(0, headEnd).toString(), parts });
    });
  });
}

/** A JPEG's width and height (core's image size reader). */
function jpegSize(jpeg: Buffer): [number, number] {
  assert.deepEqual([jpeg[0], jpeg[1]], [0xff, 0xd8], "a JPEG starts with SOI");
  assert.deepEqual([jpeg.at(-2), jpeg.at(-1)], [0xff, 0xd9], "a JPEG ends with EOI");
  const { width, height } = imageSizeFromDataUri(
    `data:image/jpeg;base64,${jpeg.toString("base64")}`,
  );
  return [width, height];
}

test("the MJPEG stream sends JPEG frames of the screen in WDA's framing and settings", async () => {
  const id = await session(NOTES);
  const { head, parts } = await readMjpeg(3);
  assert.match(head, /^HTTP\/1\.0 200 OK\r\n/);
  assert.match(head, /Content-Type: multipart\/x-mixed-replace; boundary=--BoundaryString/);
  for (const part of parts) {
    assert.match(
      part.headers,
      /^--BoundaryString\r\nContent-type: image\/jpg\r\nContent-Length: \d+$/,
    );
    assert.deepEqual(jpegSize(part.jpeg), [1170, 2532]);
  }
  const settings = await ok("POST", `/session/${id}/appium/settings`, {
    settings: { mjpegScalingFactor: 50 },
  });
  assert.equal(settings.mjpegScalingFactor, 50);
  const half = await readMjpeg(1);
  assert.deepEqual(jpegSize(half.parts[0].jpeg), [585, 1266]);
  await ok("POST", `/session/${id}/appium/settings`, { settings: { mjpegScalingFactor: 100 } });
});

test("injected faults answer WDA's error shape or drop the connection, then stop", async () => {
  const id = await session();
  wda.injectFault({
    path: `/session/${id}/window/size`,
    kind: "error",
    status: 500,
    error: "unknown error",
    message: "boom",
    times: 2,
  });
  for (let i = 0; i < 2; i++) {
    const failed = await call("GET", `/session/${id}/window/size`);
    assert.equal(failed.status, 500);
    assert.deepEqual(failed.value, { error: "unknown error", message: "boom", traceback: "" });
    assert.equal(failed.sessionId, id);
  }
  assert.deepEqual(await ok("GET", `/session/${id}/window/size`), { width: 390, height: 844 });
  wda.injectFault({ method: "POST", path: /\/wda\/tap$/, kind: "drop" });
  await assert.rejects(
    fetch(`${wda.url}/session/${id}/wda/tap`, { method: "POST", body: '{"x":1,"y":1}' }),
  );
  const taps = phone.inputs.filter((i) => i.type === "tap").length;
  // The fault was used up by one request: the next tap answers, and only it reached the phone.
  assert.equal(await ok("POST", `/session/${id}/wda/tap`, { x: 195, y: 400 }), null);
  assert.equal(phone.inputs.filter((i) => i.type === "tap").length, taps + 1);
});

test("unknown sessions and routes answer WDA's errors with their statuses", async () => {
  const id = await session();
  const stale = await call("GET", "/session/NOT-A-SESSION/window/size");
  assert.equal(stale.status, 404);
  assert.equal(stale.value.error, "invalid session id");
  assert.equal(stale.sessionId, id);
  const route = await call("GET", `/session/${id}/wda/nothing`);
  assert.equal(route.status, 404);
  assert.equal(route.value.error, "unknown command");
  assert.match(route.value.message, /Unhandled endpoint: \/session\/.*\/wda\/nothing/);
  const method = await call("DELETE", `/session/${id}/wda/tap`);
  assert.equal(method.value.error, "unknown command");
});

test("window rect and size, device info, battery, healthcheck and the app's name, as WDA answers them", async () => {
  const id = await session(NOTES);
  assert.deepEqual(await ok("GET", "/window/size"), { width: 390, height: 844 });
  assert.deepEqual(await ok("GET", `/session/${id}/window/rect`), {
    x: 0,
    y: 0,
    width: 390,
    height: 844,
  });
  // WDA has the rect under a session only, and the battery too.
  assert.equal((await call("GET", "/window/rect")).value.error, "unknown command");
  assert.equal((await call("GET", "/wda/batteryInfo")).value.error, "unknown command");
  assert.deepEqual(await ok("GET", `/session/${id}/wda/batteryInfo`), { level: 1, state: 3 });
  const info = await ok("GET", "/wda/device/info");
  assert.equal(info.model, "iPhone");
  assert.equal(info.userInterfaceIdiom, 0);
  assert.equal(info.isSimulator, false);
  assert.match(info.uuid, /^[0-9A-F-]{36}$/);
  assert.match(info.currentLocale, /^[a-z]{2,3}_[A-Z]{2}$/);
  assert.equal(info.timeZone, Intl.DateTimeFormat().resolvedOptions().timeZone);
  assert.deepEqual(await ok("GET", `/session/${id}/wda/device/info`), info);
  // The app's name is its label, in activeAppInfo and on the source's Application element.
  assert.equal((await ok("GET", "/wda/activeAppInfo")).name, "Notes");
  assert.match(await ok("GET", "/source"), /<XCUIElementTypeApplication [^>]*name="Notes"/);
  // The health check presses home, as WDA's does, and leaves the session.
  assert.equal(await ok("GET", "/wda/healthcheck"), null);
  assert.equal(phone.foregroundApp().activity, LAUNCHER_ACTIVITY);
  assert.equal((await ok("GET", "/wda/activeAppInfo")).name, "SpringBoard");
  assert.equal(
    (await call("GET", `/session/${id}/wda/healthcheck`)).value.error,
    "unknown command",
  );
});

const W3C = "element-6066-11e4-a52e-4f735466cecf";

test("elements are found by accessibility id, class name, predicate, class chain and XPath", async () => {
  const id = await session(NOTES);
  const s = `/session/${id}`;
  const find = (using: string, value: string) => ok("POST", `${s}/element`, { using, value });
  const findAll = async (using: string, value: string) =>
    (await ok("POST", `${s}/elements`, { using, value })) as Record<string, string>[];
  const text = async (ref: Record<string, string>) =>
    await ok("GET", `${s}/element/${ref[W3C]}/text`);
  const note3 = await find("accessibility id", "note-3");
  assert.deepEqual(Object.keys(note3).sort(), ["ELEMENT", W3C]);
  assert.equal(await text(note3), "Note 3");
  // The same element keeps its UUID.
  assert.equal((await find("id", "note-3"))[W3C], note3[W3C]);
  const box = (await phone.foregroundPage().locator("#note-3").boundingBox())!;
  assert.deepEqual(await ok("GET", `${s}/element/${note3[W3C]}/rect`), {
    x: Math.round(box.x),
    y: Math.round(box.y),
    width: Math.round(box.width),
    height: Math.round(box.height),
  });
  const attribute = (name: string) => ok("GET", `${s}/element/${note3[W3C]}/attribute/${name}`);
  assert.equal(await attribute("name"), "note-3");
  assert.equal(await attribute("type"), "XCUIElementTypeCell");
  assert.equal(await attribute("label"), "Note 3");
  assert.equal(await attribute("visible"), true);
  assert.equal(await attribute("index"), 2);
  assert.equal(await ok("GET", `${s}/element/${note3[W3C]}/displayed`), true);
  assert.equal(await ok("GET", `${s}/element/${note3[W3C]}/name`), "XCUIElementTypeCell");
  const unknown = await call("GET", `${s}/element/${note3[W3C]}/attribute/bogus`);
  assert.equal(unknown.status, 500);
  assert.match(unknown.value.message, /The attribute 'bogus' is unknown/);

  // Class name: every visible cell, in document order.
  const cells = await findAll("class name", "XCUIElementTypeCell");
  assert.ok(cells.length >= 10, `${cells.length} cells`);
  assert.equal(await text(cells[0]), "Note 1");
  // Predicates: comparisons, options, compounds.
  assert.equal(await text(await find("predicate string", 'label == "Note 2"')), "Note 2");
  const ones = await findAll(
    "predicate string",
    "type == 'XCUIElementTypeCell' AND label BEGINSWITH[c] 'note 1' AND visible == 1",
  );
  assert.deepEqual(await Promise.all(ones.slice(0, 2).map(text)), ["Note 1", "Note 10"]);
  const badPredicate = await call("POST", `${s}/element`, {
    using: "predicate string",
    value: "label ==",
  });
  assert.equal(badPredicate.status, 500);
  assert.match(badPredicate.value.message, /Unable to parse the format string "label =="/);
  // Class chains: descendants, predicates in backticks, indexes from the end.
  assert.equal(
    await text(await find("class chain", '**/XCUIElementTypeCell[`label == "Note 4"`]')),
    "Note 4",
  );
  assert.equal(
    await text(await find("class chain", "XCUIElementTypeWindow/**/XCUIElementTypeCell[2]")),
    "Note 2",
  );
  assert.equal(
    (await find("class chain", "**/XCUIElementTypeTable/*[-1]"))[W3C],
    cells.at(-1)![W3C],
  );
  const badChain = await call("POST", `${s}/element`, {
    using: "class chain",
    value: "**/XCUIElementTypeCell[",
  });
  assert.deepEqual([badChain.status, badChain.value.error], [400, "invalid selector"]);
  // XPath over the XML source.
  assert.equal(
    await text(await find("xpath", '//XCUIElementTypeCell[@label="Note 5"]')),
    "Note 5",
  );
  const table = await find("xpath", '//XCUIElementTypeCell[@name="note-5"]/..');
  assert.equal(await ok("GET", `${s}/element/${table[W3C]}/name`), "XCUIElementTypeTable");
  assert.deepEqual(await findAll("xpath", "count(//*)"), []);
  const badXPath = await call("POST", `${s}/element`, { using: "xpath", value: "//[" });
  assert.deepEqual([badXPath.status, badXPath.value.error], [400, "invalid selector"]);
  // From an element: its subtree, itself included.
  const inTable = await ok("POST", `${s}/element/${table[W3C]}/elements`, {
    using: "class name",
    value: "XCUIElementTypeCell",
  });
  assert.equal(inTable.length, cells.length);
  // WDA's errors.
  const missing = await call("POST", `${s}/element`, { using: "accessibility id", value: "nope" });
  assert.deepEqual([missing.status, missing.value.error], [404, "no such element"]);
  assert.equal(
    missing.value.message,
    "unable to find an element using 'accessibility id', value 'nope'",
  );
  assert.deepEqual(await findAll("accessibility id", "nope"), []);
  const strategy = await call("POST", `${s}/element`, { using: "css selector", value: "li" });
  assert.deepEqual([strategy.status, strategy.value.error], [400, "invalid argument"]);
  assert.equal(strategy.value.message, "Invalid locator requested: css selector");
  const unknownRef = await call("GET", `${s}/element/NOT-AN-ELEMENT/rect`);
  assert.deepEqual([unknownRef.status, unknownRef.value.error], [404, "stale element reference"]);
});

test("element click, value and clear act on the element; a hidden one is stale", async () => {
  const id = await session(NOTES);
  const s = `/session/${id}`;
  const find = (using: string, value: string) => ok("POST", `${s}/element`, { using, value });
  const page = phone.foregroundPage();
  const note3 = await find("accessibility id", "note-3");
  assert.equal(await ok("POST", `${s}/element/${note3[W3C]}/click`, {}), null);
  await waitFor(async () => (await page.textContent("#detail-title")) === "Note 3", "Note 3");
  // The list is hidden now: its cells are out of the tree.
  const gone = await call("GET", `${s}/element/${note3[W3C]}/text`);
  assert.equal(gone.value.error, "stale element reference");
  const field = await find("class name", "XCUIElementTypeTextField");
  assert.equal(
    await ok("GET", `${s}/element/${field[W3C]}/attribute/placeholderValue`),
    "Write something",
  );
  await ok("POST", `${s}/element/${field[W3C]}/value`, { text: "Grüße 你好" });
  assert.equal(await page.inputValue("#note-text"), "Grüße 你好");
  assert.equal(await ok("GET", `${s}/element/${field[W3C]}/text`), "Grüße 你好");
  await ok("POST", `${s}/element/${field[W3C]}/clear`, {});
  assert.equal(await page.inputValue("#note-text"), "");
  const noValue = await call("POST", `${s}/element/${field[W3C]}/value`, {});
  assert.deepEqual([noValue.status, noValue.value.error], [400, "invalid argument"]);
  const plus = await find("predicate string", "label == '+1' AND type == 'XCUIElementTypeButton'");
  await ok("POST", `${s}/element/${plus[W3C]}/click`, {});
  await waitFor(async () => (await page.textContent("#count")) === "1", "the counter at 1");
});
