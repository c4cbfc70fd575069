/**
 * `@sdk/mobileb` end to end, with no iOS anywhere: SDK -> `fetch` -> the WDA front of the device
 * **simulator** (real HTTP on 127.0.0.1) -> the virtual phone (1170 x 2532 physical pixels at
 * scale 3: 390 x 844 points) -> Chromium. The test model answers with boxes measured on the
 * phone's page in CSS pixels; one CSS pixel of the phone's page is one point, and `scale`
 * physical pixels, which is the image scale the test model is given
 * (`imagePixelsPerCssPixel = scale / screenshotShrinkFactor`).
 *
 * One browser serves the file; the two-devices test gets a second phone in it.
 *
 * @module
 */

import { before } from "node:test";
import { after, test } from "../helpers/test.ts";
import assert from "node:assert/strict";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { type AddressInfo, createServer, type Socket } from "node:net";
import type { Browser, Page } from "playwright-core";
import {
  agentFromDeviceDriver,
  MobileBAgent,
  type MobileBAgentOptions,
  MobileBDevice,
  type MobileBDeviceOptions,
} from "@sdk/mobileb";
import { ConnectionError, InvalidStateError, ToolError } from "@sdk/core";
import type { TargetBox, TestModel, TestModelScript } from "@sdk/core/testing";
import {
  BROWSER_PACKAGE,
  KEYCODE,
  LAUNCHER_ACTIVITY,
  RECENTS_ACTIVITY,
  type SimulatorInput,
  startVirtualPhone,
  type TouchPoint,
  type VirtualPhone,
} from "@sdk/web/testing";
import { startWdaFront, type WdaFront } from "@sdk/mobileb/testing";
import { encodeBase64 } from "../../core/image/base64.ts";
import { imageSizeFromDataUri } from "../../core/image/size.ts";
import { freePort } from "../helpers/free_port.ts";
import { launchChromium } from "../helpers/browser.ts";
import { serveStatic, type StaticServer } from "../helpers/static_server.ts";
import { locateBy, phoneAgent, phoneBox } from "../helpers/phone.ts";

const NOTES = "com.example.notes";
const SETTINGS = "com.example.settings";
const ZOOM = "com.example.zoom";
const WIDTH = 1170;
const HEIGHT = 2532;
const SCALE = 3;
// The MJPEG frames are half the screen's size, so frames from the stream can be told apart from
// screenshots.
const MJPEG_SCALING = 50;

let browser: Browser;
let apps: StaticServer;
let phone: VirtualPhone;
let front: WdaFront;
const models: TestModel[] = [];
const agents: MobileBAgent[] = [];
const KIT = { density: SCALE, models, agents };

function phoneApps(url: string) {
  return {
    [NOTES]: { url: `${url}notes/index.html`, label: "Notes" },
    [SETTINGS]: { url: `${url}settings/index.html`, label: "Settings" },
    [ZOOM]: { url: `${url}zoom/index.html`, label: "Zoom" },
  };
}

async function waitFor(check: () => Promise<boolean> | boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

before(async () => {
  browser = await launchChromium();
  apps = await serveStatic(fileURLToPath(new URL("../fixtures/mobile/", import.meta.url)));
  phone = await startVirtualPhone({
    browser,
    width: WIDTH,
    height: HEIGHT,
    density: SCALE,
    apps: phoneApps(apps.url),
    startApp: NOTES,
  });
  front = await startWdaFront(phone, {
    urlSchemes: { notes: NOTES },
    mjpegScalingFactor: MJPEG_SCALING,
  });
});

after(async () => {
  await Promise.allSettled(agents.map((a) => a.destroy()));
  await Promise.allSettled(models.map((m) => m.close()));
  await front?.close();
  await phone?.close();
  await apps?.close();
  await browser?.close();
});

function page(target: VirtualPhone = phone): Page {
  return target.foregroundPage();
}

/** A box on the phone's page, CSS pixels. */
function boxOf(selector: string, target: VirtualPhone = phone): Promise<TargetBox> {
  return phoneBox(target, selector);
}

async function freshNotes(target: VirtualPhone = phone): Promise<void> {
  await target.stopApp(NOTES);
  await target.launchApp(NOTES);
  await waitFor(() => page(target).url().endsWith("index.html"), "the notes list");
}

function mobileAgent(
  script: TestModelScript,
  options: MobileBAgentOptions & MobileBDeviceOptions = {},
): Promise<{ agent: MobileBAgent; model: TestModel; device: MobileBDevice }> {
  return phoneAgent(KIT, script, options.screenshotShrinkFactor, (agentOptions) => {
    const device = new MobileBDevice({
      driverHost: "127.0.0.1",
      driverPort: front.port,
      driverMjpegPort: front.mjpegPort,
      ...options,
    });
    return { device, agent: new MobileBAgent(device, { ...agentOptions, ...options }) };
  });
}

/** The fingers of the touch events the phone got since `from` (an index into its inputs). */
function touchesSince(from: number, target: VirtualPhone = phone): TouchPoint[][] {
  return target.inputs.slice(from).filter((
    i,
  ): i is Extract<SimulatorInput, { type: "multiTouch" }> => i.type === "multiTouch").map((i) =>
    i.points
  );
}

for (const shrink of [1, 3]) {
  test(
    `aiTap lands on the element at scale 3${
      shrink === 1 ? "" : ` with screenshotShrinkFactor ${shrink}`
    }`,
    async () => {
      await freshNotes();
      const { agent, model } = await mobileAgent({
        locate: locateBy(phone, { "Note 12": "#note-12" }),
      }, { screenshotShrinkFactor: shrink });
      const box = await boxOf("#note-12");
      const from = phone.inputs.length;
      await agent.aiTap("Note 12");
      // The finger went down in physical pixels inside the element's box x scale.
      const down = touchesSince(from).find((points) => points.length === 1)?.[0];
      assert.ok(down, "no finger touched the phone");
      const inside = (v: number, start: number, size: number) =>
        v >= start * SCALE && v <= (start + size) * SCALE;
      assert.ok(
        inside(down.x, box.left, box.width) && inside(down.y, box.top, box.height),
        `touch at (${down.x}, ${down.y}) is outside Note 12 (${JSON.stringify(box)} points)`,
      );
      // Within 1.5 points of the center (the 0-1000 grid and the shrink round).
      const tolerance = (1.5 + shrink / SCALE) * SCALE;
      assert.ok(Math.abs(down.x - (box.left + box.width / 2) * SCALE) <= tolerance);
      assert.ok(Math.abs(down.y - (box.top + box.height / 2) * SCALE) <= tolerance);
      await waitFor(() => page().url().endsWith("#/note/12"), "the detail screen of Note 12");
      // The model saw the physical screenshot, shrunk.
      const image = model.calls[0].call?.image;
      assert.deepEqual(
        image && [image.width, image.height],
        [Math.round(WIDTH / shrink), Math.round(HEIGHT / shrink)],
      );
    },
  );
}

test("the device reports the window in points and WDA's scale as dpr", async () => {
  const { device } = await mobileAgent({});
  assert.deepEqual(await device.size(), { width: WIDTH / SCALE, height: HEIGHT / SCALE, dpr: 3 });
  const shot = await device.screenshotBase64();
  assert.match(shot, /^data:image\/png;base64,/);
  assert.equal(device.sessionId, front.sessionIds()[0]);
});

test("aiInput types ASCII and non-ASCII text, replaces it, and dismisses the keyboard", async () => {
  await freshNotes();
  await phone.launchApp(NOTES);
  const { agent } = await mobileAgent({
    locate: locateBy(phone, { "Note 1": "#note-1", "the note text field": "#note-text" }),
    // Two taps on one spot within the double-tap interval (300 ms) are a double tap, which
    // selects text, on iOS as in Chromium: the agent's default wait keeps its taps apart.
  }, { waitAfterAction: 500 });
  await agent.aiTap("Note 1");
  await waitFor(() => page().isVisible("#note-text"), "the note's text field");
  await agent.aiInput("the note text field", { value: "Grüße, 你好 👋 ok" });
  assert.equal(await page().inputValue("#note-text"), "Grüße, 你好 👋 ok");
  assert.equal(await phone.keyboardShown(), false, "the keyboard was dismissed");
  await agent.aiInput("the note text field", { value: "plain ASCII" });
  assert.equal(await page().inputValue("#note-text"), "plain ASCII");
  await agent.aiInput("the note text field", { value: "!", mode: "typeOnly" });
  assert.equal(await page().inputValue("#note-text"), "plain ASCII!");
  // Each keys call reaches the phone as one typed text: 'bulk' is one call, 'sequential' and
  // 'legacy' with a delay one per code point.
  const typed = (from: number) =>
    phone.inputs.slice(from).filter((i) => i.type === "text").map((i) =>
      i.type === "text" ? i.text : ""
    );
  let from = phone.inputs.length;
  await agent.aiInput("the note text field", { value: "bulk ü", inputStrategy: "bulk" });
  assert.deepEqual(typed(from), ["bulk ü"]);
  from = phone.inputs.length;
  await agent.aiInput("the note text field", { value: "a你b", keyboardTypeDelay: 5 });
  assert.deepEqual(typed(from), ["a", "你", "b"]);
  assert.equal(await page().inputValue("#note-text"), "a你b");
  from = phone.inputs.length;
  await agent.aiInput("the note text field", {
    value: "one by one",
    inputStrategy: "sequential",
    autoDismissKeyboard: false,
  });
  assert.equal(typed(from).length, "one by one".length);
  assert.equal(await page().inputValue("#note-text"), "one by one");
  await agent.aiClearInput("the note text field");
  assert.equal(await page().inputValue("#note-text"), "");
  await agent.aiInput("the note text field", { value: "one by one", autoDismissKeyboard: false });
  await agent.aiKeyboardPress("the note text field", { keyName: "Enter" });
  assert.equal(await page().textContent("#submitted"), "Submitted: one by one");
  await assert.rejects(
    agent.aiKeyboardPress(undefined, { keyName: "Control+A" }),
    /combinations with modifiers are not supported/,
  );
});

test("aiScroll, the planner's Swipe, aiLongPress and aiDoubleClick act on the notes app", async () => {
  await freshNotes();
  // The page's own scroll position, read in the page.
  const listScroll = async () => Number(await page().evaluate("scrollY"));
  const plans = [{ type: "Swipe", param: { direction: "up", distance: 200 } }];
  let step = 0;
  const { agent } = await mobileAgent({
    locate: locateBy(phone, {
      "Note 2": "#note-2",
      "Note 1": "#note-1",
      "the +1 button": "#increment",
    }),
    plan() {
      const action = plans[step++];
      return action ? { log: "swipe", action } : { log: "done", finished: true };
    },
  });
  await agent.aiScroll(undefined, { direction: "down", distance: 300 });
  await waitFor(async () => (await listScroll()) > 200, "the list scrolled down");
  await agent.aiScroll(undefined, { scrollType: "scrollToTop" });
  await waitFor(async () => (await listScroll()) === 0, "the list back at the top");
  await agent.aiAct("swipe up by 200 points");
  await waitFor(async () => (await listScroll()) > 100, "the list swiped up");
  await agent.aiScroll(undefined, { scrollType: "scrollToTop" });
  await waitFor(async () => (await listScroll()) === 0, "the list back at the top");
  await agent.aiLongPress("Note 2");
  assert.equal(await page().getAttribute("#note-2", "data-pinned"), "true", "Note 2 pinned");
  await agent.aiTap("Note 1");
  await waitFor(() => page().url().endsWith("#/note/1"), "Note 1");
  const count = Number(await page().textContent("#count"));
  await agent.aiDoubleClick("the +1 button");
  assert.equal(Number(await page().textContent("#count")), count + 2);
});

test("the planner's DragAndDrop holds on 'from', moves to 'to' and lifts there", async () => {
  await freshNotes();
  const plans = [{
    type: "DragAndDrop",
    param: {
      from: { prompt: "Note 2", box: await boxOf("#note-2") },
      to: { prompt: "Note 6", box: await boxOf("#note-6") },
    },
  }];
  let step = 0;
  const { agent } = await mobileAgent({
    plan() {
      const action = plans[step++];
      return action ? { log: "drag", action } : { log: "done", finished: true };
    },
  });
  const [from, to] = [await boxOf("#note-2"), await boxOf("#note-6")];
  const start = phone.inputs.length;
  await agent.aiAct("drag Note 2 onto Note 6");
  const fingers = touchesSince(start).filter((points) => points.length === 1).map((p) => p[0]);
  assert.ok(fingers.length >= 2, `touch events: ${fingers.length}`);
  const near = (p: TouchPoint, box: TargetBox) =>
    Math.abs(p.x - (box.left + box.width / 2) * SCALE) <= 2 * SCALE &&
    Math.abs(p.y - (box.top + box.height / 2) * SCALE) <= 2 * SCALE;
  assert.ok(near(fingers[0], from), `down at ${JSON.stringify(fingers[0])}`);
  assert.ok(near(fingers.at(-1)!, to), `last at ${JSON.stringify(fingers.at(-1))}`);
  assert.deepEqual(touchesSince(start).at(-1), [], "the finger lifted");
});

test("launch, terminate, home and the app switcher change the phone's state", async () => {
  const { agent } = await mobileAgent({}, { appNameMapping: { "My Settings": SETTINGS } });
  await agent.launch("My Settings");
  assert.equal(phone.foregroundApp().packageName, SETTINGS);
  await agent.launch("notes://open");
  assert.equal(phone.foregroundApp().packageName, NOTES);
  await agent.launch(`${apps.url}settings/index.html`);
  assert.equal(phone.foregroundApp().packageName, BROWSER_PACKAGE);
  await agent.terminate("My Settings");
  assert.ok(!phone.runningApps().includes(SETTINGS), `running: ${phone.runningApps()}`);
  await agent.home();
  assert.equal(phone.foregroundApp().activity, LAUNCHER_ACTIVITY);
  await agent.launch(ZOOM);
  await agent.appSwitcher();
  assert.equal(phone.foregroundApp().activity, RECENTS_ACTIVITY);
  await agent.home();
  await assert.rejects(agent.launch("com.example.missing"), (e: unknown) => {
    assert.ok(e instanceof ToolError, String(e));
    assert.equal(e.tool, "WebDriverAgent");
    assert.equal(e.code, "TOOL_FAILED");
    assert.ok(e.status !== undefined && e.status >= 400, `status ${e.status}`);
    assert.match(e.message, /answered POST \/session\/[^/]+\/wda\/apps\/launch with error/);
    assert.match(e.message, /com\.example\.missing/);
    return true;
  });
  const calls = agent._unstableLogContent().executions.map((e) => e.apiName);
  assert.ok(calls.includes("appSwitcher") && calls.includes("home"), `calls: ${calls}`);
});

test("the planner's Launch, MobileBAppSwitcher, MobileBHomeButton, RunDriverRequest and Terminate act on the phone", async () => {
  const plans = [
    { type: "Launch", param: { uri: "my zoom" } },
    { type: "MobileBAppSwitcher", param: {} },
    { type: "MobileBHomeButton", param: {} },
    {
      type: "RunDriverRequest",
      param: {
        method: "POST",
        endpoint: "/session/:sessionId/wda/apps/launch",
        data: JSON.stringify({ bundleId: SETTINGS }),
      },
    },
    { type: "Terminate", param: { uri: "My Zoom" } },
  ];
  const seen: string[] = [];
  let step = 0;
  const { agent } = await mobileAgent({
    plan() {
      seen.push(phone.foregroundApp().activity);
      const action = plans[step++];
      return action ? { log: action.type, action } : { log: "done", finished: true };
    },
  }, { appNameMapping: { "My Zoom": ZOOM } });
  await agent.aiAct("open my zoom app, show the app switcher, go home, open settings, stop zoom");
  // What each planning call saw: the result of the action before it.
  assert.equal(seen[1], phone.activityOf(ZOOM), "Launch brought the zoom app up");
  assert.equal(seen[2], RECENTS_ACTIVITY);
  assert.equal(seen[3], LAUNCHER_ACTIVITY);
  assert.equal(phone.foregroundApp().packageName, SETTINGS, "RunDriverRequest launched it");
  assert.ok(!phone.runningApps().includes(ZOOM), `running: ${phone.runningApps()}`);
});

test("Pinch with two touch fingers zooms the zoom app in and out", async () => {
  await phone.stopApp(ZOOM);
  await phone.launchApp(ZOOM);
  const zoom = async () => Number(/([\d.]+)x/.exec((await page().textContent("#zoom")) ?? "")?.[1]);
  await waitFor(async () => (await zoom()) === 1, "the zoom app");
  const plans = [{ type: "Pinch", param: { scale: 2 } }];
  let step = 0;
  const { agent } = await mobileAgent({
    plan() {
      const action = plans[step++];
      return action ? { log: "pinch", action } : { log: "done", finished: true };
    },
  });
  const from = phone.inputs.length;
  await agent.aiPinch(undefined, { direction: "out" });
  const zoomedIn = await zoom();
  assert.ok(zoomedIn > 1.5, `zoom after pinching out: ${zoomedIn}`);
  assert.ok(touchesSince(from).some((points) => points.length === 2), "two fingers touched");
  await agent.aiPinch(undefined, { direction: "in", distance: 100 });
  assert.ok((await zoom()) < zoomedIn, `zoom after pinching in: ${await zoom()}`);
  const before = await zoom();
  await agent.aiAct("zoom in twice as much");
  const after = await zoom();
  assert.ok(Math.abs(after / before - 2) < 0.15, `scale 2 zoomed ${before} -> ${after}`);
});

test("a reused session is used as given and left alive after destroy", async () => {
  const created = await fetch(`${front.url}/session`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ capabilities: { alwaysMatch: {}, firstMatch: [{}] } }),
  }).then((r) => r.json());
  const sessionId: string = created.value.sessionId;
  await freshNotes();
  const { agent, device } = await mobileAgent({
    locate: locateBy(phone, { "Note 3": "#note-3" }),
  }, { sessionId });
  await agent.aiTap("Note 3");
  await waitFor(() => page().url().endsWith("#/note/3"), "Note 3");
  assert.equal(device.sessionId, sessionId);
  assert.deepEqual(front.sessionIds(), [sessionId], "no other session was created");
  await agent.destroy();
  assert.deepEqual(front.sessionIds(), [sessionId], "the reused session is alive");

  // A device that created its session deletes it.
  const own = await mobileAgent({});
  await own.device.size();
  const ownId = own.device.sessionId;
  assert.ok(ownId && ownId !== sessionId);
  await own.agent.destroy();
  assert.deepEqual(front.sessionIds(), []);
  await own.agent.destroy(); // idempotent

  // An unknown session id is refused with WDA's answer.
  const { device: stale } = await mobileAgent({}, { sessionId: "no-such-session" });
  await assert.rejects(stale.connect(), /no-such-session.*not usable.*invalid session id/s);
});

test("clearing a field goes through the W3C element reference, with no ELEMENT key to fall back on", async () => {
  // A WDA that answers element references with the W3C key only, as a W3C-only server does.
  const w3cOnly = await startWdaFront(phone, { legacyElementKey: false });
  const { agent } = await mobileAgent({
    locate: locateBy(phone, { "Note 1": "#note-1", "the note text field": "#note-text" }),
  }, {
    driverPort: w3cOnly.port,
    driverMjpegPort: w3cOnly.mjpegPort,
    waitAfterAction: 500,
    autoDismissKeyboard: false,
  });
  try {
    await freshNotes();
    await agent.aiTap("Note 1");
    await waitFor(() => page().isVisible("#note-text"), "the note's text field");
    await agent.aiInput("the note text field", { value: "to clear" });
    const [sessionId] = w3cOnly.sessionIds();
    const active = await (await fetch(`${w3cOnly.url}/session/${sessionId}/element/active`)).json();
    assert.deepEqual(
      Object.keys(active.value),
      ["element-6066-11e4-a52e-4f735466cecf"],
      JSON.stringify(active),
    );
    const from = phone.inputs.length;
    await agent.aiClearInput("the note text field");
    assert.equal(await page().inputValue("#note-text"), "");
    const since = phone.inputs.slice(from);
    // Cleared by WDA's element clear (the phone's clearText), not by backspaces typed instead.
    assert.ok(since.some((i) => i.type === "clearText"), since.map((i) => i.type).join());
    assert.equal(since.filter((i) => i.type === "key" && i.keyCode === KEYCODE.DEL).length, 0);
  } finally {
    await agent.destroy();
    await w3cOnly.close();
  }
});

test("two devices at once on distinct ports each drive their own phone", async () => {
  const second = await startVirtualPhone({
    browser,
    width: WIDTH,
    height: HEIGHT,
    density: SCALE,
    apps: phoneApps(apps.url),
    startApp: NOTES,
  });
  const secondFront = await startWdaFront(second, {});
  try {
    await freshNotes();
    await freshNotes(second);
    const one = await mobileAgent({ locate: locateBy(phone, { "Note 5": "#note-5" }) });
    const two = await mobileAgent(
      { locate: locateBy(second, { "Note 7": "#note-7" }) },
      { driverPort: secondFront.port, driverMjpegPort: secondFront.mjpegPort },
    );
    await Promise.all([one.agent.aiTap("Note 5"), two.agent.aiTap("Note 7")]);
    await waitFor(() => page().url().endsWith("#/note/5"), "Note 5 on the first phone");
    await waitFor(() => page(second).url().endsWith("#/note/7"), "Note 7 on the second phone");
    await Promise.all([one.agent.destroy(), two.agent.destroy()]);
  } finally {
    await secondFront.close();
    await second.close();
  }
});

test("destroy resolves when WebDriverAgent went away, and the device is then unusable", async () => {
  const gone = await startWdaFront(phone, {});
  const { agent, device } = await mobileAgent({}, { driverPort: gone.port });
  await device.connect();
  assert.ok(device.sessionId);
  await gone.close();
  const warnings: string[] = [];
  const warn = console.warn;
  console.warn = (...args: unknown[]) => warnings.push(args.join(" "));
  try {
    await agent.destroy(); // the session cannot be deleted: logged, not thrown
  } finally {
    console.warn = warn;
  }
  assert.equal(warnings.length, 1, `warnings: ${warnings}`);
  assert.match(warnings[0], new RegExp(`deleting the WDA session at 127\\.0\\.0\\.1:${gone.port}`));
  await assert.rejects(device.screenshotBase64(), (e: Error) => {
    assert.match(e.message, /destroyed; create a new device/);
    assert.ok(e instanceof InvalidStateError && e.code === "INVALID_STATE", String(e));
    return true;
  });
});

test("WebDriverAgent not running: the error names host and port and how to start it", {
  timeout: 30_000,
}, async () => {
  const port = await freePort();
  const error = await agentFromDeviceDriver({
    driverHost: "127.0.0.1",
    driverPort: port,
    generateReport: false,
  }).catch((e) => e);
  assert.ok(error instanceof ConnectionError, String(error));
  assert.equal(error.code, "CONNECTION_REFUSED");
  assert.equal(error.endpoint, `127.0.0.1:${port}`);
  assert.match(error.message, new RegExp(`not running at 127\\.0\\.0\\.1:${port}`));
  assert.match(error.message, /xcodebuild .*test/);
  assert.match(error.message, /iproxy/);
});

test(
  "a WebDriverAgent port that accepts but never answers fails in about driverConnectTimeout (5 s)",
  {
    timeout: 30_000,
  },
  async () => {
    // Accepts each connection and reads it, never answering: a hung WDA, or a wrong port.
    const sockets = new Set<Socket>();
    const silent = createServer((socket) => {
      sockets.add(socket);
      socket.on("error", () => {});
    });
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const port = (silent.address() as AddressInfo).port;
    try {
      const started = performance.now();
      const error = await agentFromDeviceDriver({
        driverHost: "127.0.0.1",
        driverPort: port,
        generateReport: false,
      }).catch((e) => e);
      const elapsed = performance.now() - started;
      assert.ok(error instanceof ConnectionError, String(error));
      assert.equal(error.code, "CONNECTION_TIMEOUT");
      assert.equal(error.endpoint, `127.0.0.1:${port}`);
      assert.match(error.message, /did not answer within 5000 ms \(driverConnectTimeout/);
      assert.ok(elapsed >= 4500 && elapsed < 10_000, `failed after ${Math.round(elapsed)} ms`);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  },
);

test("a driver error answer fails the step with WDA's error, message and the route", async () => {
  await freshNotes();
  const { agent } = await mobileAgent({ locate: locateBy(phone, { "Note 2": "#note-2" }) });
  await agent.aiLocate("Note 2"); // the session exists before the fault is set
  front.injectFault({
    method: "POST",
    path: /\/actions$/,
    kind: "error",
    status: 500,
    error: "unknown error",
    message: "XCTest could not synthesize the event",
  });
  await assert.rejects(agent.aiTap("Note 2"), (e: Error) => {
    const cause = e instanceof ToolError ? e : e.cause;
    assert.ok(cause instanceof ToolError, `${e}`);
    assert.equal(cause.status, 500);
    assert.equal(cause.output, "unknown error: XCTest could not synthesize the event");
    assert.match(e.message, /XCTest could not synthesize the event/);
    assert.match(e.message, /POST \/session\/[^/]+\/actions/);
    assert.match(e.message, /"unknown error"/);
    return true;
  });
  // The fault was for one request: the next tap works.
  await agent.aiTap("Note 2");
  await waitFor(() => page().url().endsWith("#/note/2"), "Note 2");
});

test("a connection dropped mid-step fails it naming the route and host:port", async () => {
  await freshNotes();
  const { agent } = await mobileAgent({ locate: locateBy(phone, { "Note 4": "#note-4" }) });
  front.injectFault({ method: "GET", path: "/screenshot", kind: "drop" });
  await assert.rejects(agent.aiTap("Note 4"), (e: Error) => {
    const cause = e instanceof ConnectionError ? e : e.cause;
    assert.ok(cause instanceof ConnectionError, `${e}`);
    assert.equal(cause.code, "CONNECTION_LOST");
    assert.equal(cause.endpoint, `127.0.0.1:${front.port}`);
    assert.match(cause.message, /dropped during GET \/screenshot/);
    assert.match(e.message, new RegExp(`127\\.0\\.0\\.1:${front.port} dropped during GET`));
    return true;
  });
  await agent.aiTap("Note 4");
  await waitFor(() => page().url().endsWith("#/note/4"), "Note 4");
});

test("runDriverRequest sends one request and returns WDA's value", async () => {
  const { agent } = await mobileAgent({});
  const status = await agent.runDriverRequest({ method: "GET", endpoint: "/status" }) as {
    ready?: boolean;
  };
  assert.equal(status.ready, true);
  await phone.launchApp(NOTES);
  const state = await agent.runDriverRequest({
    method: "POST",
    endpoint: "/session/:sessionId/wda/apps/state",
    data: { bundleId: NOTES },
  });
  assert.equal(state, 4, "foreground");
  await assert.rejects(
    agent.runDriverRequest({ method: "GET", endpoint: "/no/such/route" }),
    (e: unknown) => e instanceof ToolError && /GET \/no\/such\/route/.test(e.message),
  );
  await assert.rejects(
    // @ts-expect-error: a method WDA's requests do not take
    agent.runDriverRequest({ method: "PATCH", endpoint: "/status" }),
    /'method' must be one of GET, POST, DELETE, PUT/,
  );
  const names = agent._unstableLogContent().executions.map((e) => e.apiName);
  assert.equal(names.filter((n) => n === "runDriverRequest").length, 3);
});

test("the observer records WDA's MJPEG frames with driverMjpegFrameSource", async () => {
  await freshNotes();
  const { agent, device } = await mobileAgent({}, { driverMjpegFrameSource: { enabled: true } });
  assert.equal(typeof device.startFrameStream, "function");
  const observer = await agent.startObserving({ intervalMs: 200 });
  await new Promise((resolve) => setTimeout(resolve, 400));
  await phone.launchApp(SETTINGS);
  await new Promise((resolve) => setTimeout(resolve, 800));
  const observation = await observer.stop();
  assert.ok(observation.frameCount >= 2, `frames: ${observation.frameCount}`);
  const dir = observation.framesDir;
  assert.ok(dir);
  const files = (await readdir(dir)).filter((f) => /\.(jpe?g|png)$/.test(f));
  assert.ok(files.length >= 2, `files: ${files}`);
  // Every recorded frame is one of the stream's JPEGs, at its half size (not a screenshot).
  for (const file of files.filter((f) => !/final/.test(f))) {
    const bytes: Uint8Array = await readFile(join(dir, file));
    assert.deepEqual([...bytes.subarray(0, 2)], [0xff, 0xd8], `${file} is a JPEG`);
    assert.equal(
      imageSizeFromDataUri(`data:image/jpeg;base64,${encodeBase64(bytes)}`).width,
      WIDTH * MJPEG_SCALING / 100,
      `${file}'s width`,
    );
  }
  await observation.dispose();
  await agent.destroy(); // stops the stream
});

test("agentFromDeviceDriver uses the class of iOSDeviceClassOverride", async () => {
  const dir = await mkdtemp(join(tmpdir(), "sdk-mobileb-"));
  try {
    const modUrl = pathToFileURL(fileURLToPath(new URL("../../mobileb/mod.ts", import.meta.url)));
    const file = join(dir, "my_device.ts");
    await writeFile(
      file,
      `import { MobileBDevice } from ${JSON.stringify(modUrl.href)};\n` +
        `export default class CountingDevice extends MobileBDevice {\n` +
        `  launches = 0;\n` +
        `  override async launch(target: string): Promise<void> {\n` +
        `    this.launches++;\n` +
        `    await super.launch(target);\n` +
        `  }\n` +
        `}\n`,
    );
    const agent = await agentFromDeviceDriver({
      iOSDeviceClassOverride: file,
      driverHost: "127.0.0.1",
      driverPort: front.port,
      generateReport: false,
      autoPrintReportMsg: false,
    });
    agents.push(agent);
    assert.equal(agent.interface.constructor.name, "CountingDevice");
    await agent.launch(SETTINGS);
    assert.equal((agent.interface as unknown as { launches: number }).launches, 1);
    assert.equal(phone.foregroundApp().packageName, SETTINGS);
    await agent.destroy();

    await writeFile(join(dir, "none.ts"), "export const notAClass = 1;\n");
    await assert.rejects(
      agentFromDeviceDriver({ iOSDeviceClassOverride: join(dir, "none.ts") }),
      /exports no class/,
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
