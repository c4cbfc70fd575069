/**
 * `@sdk/mobilea` end to end, with no Android anywhere: SDK -> `@yume-chan/adb` -> a private real
 * adb server (`adb -P <free port>`, the SDK pointed at it with `remoteBridgePort`) -> the adb front
 * of the device **simulator** -> the virtual phone (1080 x 2400 at density 2.625, 420 dpi) ->
 * Chromium. The test model answers with boxes measured on the phone's page in CSS pixels; one CSS
 * pixel of the phone's page is `density` physical pixels, which is the image scale the test model
 * is given (`imagePixelsPerCssPixel = density / screenshotShrinkFactor`).
 *
 * One browser and one adb server serve the file; the "device gone" test gets a phone of its own.
 *
 * @module
 */

import { before } from "node:test";
import { after, test } from "../helpers/test.ts";
import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Browser, Page } from "playwright-core";
import {
  ConnectionError,
  DeviceNotFoundError,
  MissingDependencyError,
  ToolError,
  UnsupportedActionError,
} from "@sdk/core";
import {
  agentFromBridgeDevice,
  getConnectedDevices,
  getConnectedDevicesWithDetails,
  MobileAAgent,
  type MobileAAgentOptions,
  MobileADevice,
  type MobileADeviceOptions,
} from "@sdk/mobilea";
import type { TargetBox, TestModel, TestModelScript } from "@sdk/core/testing";
import { startVirtualPhone, type VirtualPhone } from "@sdk/web/testing";
import { type AdbFront, startAdbFront } from "@sdk/mobilea/testing";
import { type PrivateAdbServer, startPrivateAdbServer } from "../helpers/adb.ts";
import { freePort } from "../helpers/free_port.ts";
import { launchChromium } from "../helpers/browser.ts";
import { serveStatic, type StaticServer } from "../helpers/static_server.ts";
import {
  lastInput,
  locateBy,
  NOTES_TASK_OUTPUT,
  notesTaskPlanner,
  phoneAgent,
  phoneBox,
} from "../helpers/phone.ts";

const NOTES = "com.example.notes";
const SETTINGS = "com.example.settings";
const WIDTH = 1080;
const HEIGHT = 2400;
const DENSITY = 2.625;

let browser: Browser;
let apps: StaticServer;
let phone: VirtualPhone;
let front: AdbFront;
let server: PrivateAdbServer;
const models: TestModel[] = [];
const agents: MobileAAgent[] = [];
const KIT = { density: DENSITY, models, agents };

/** Runs `adb -P <private server port> ...args`; stdout as text. */
async function adb(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const run = await server.run(args);
  return { code: run.code, stdout: run.text, stderr: run.stderr };
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
    density: DENSITY,
    apps: {
      [NOTES]: { url: `${apps.url}notes/index.html`, label: "Notes" },
      [SETTINGS]: { url: `${apps.url}settings/index.html`, label: "Settings" },
    },
    startApp: NOTES,
  });
  front = await startAdbFront(phone);
  server = await startPrivateAdbServer();
  await server.connect(front.serial);
  await pushYadbStandIn();
});

/** A stand-in file at yadb's class path: the simulator then runs the yadb helper's commands. */
async function pushYadbStandIn(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), "sdk-mobilea-"));
  try {
    await writeFile(join(dir, "yadb"), "a stand-in for the yadb dex");
    const push = await adb("-s", front.serial, "push", join(dir, "yadb"), "/data/local/tmp/yadb");
    assert.equal(push.code, 0, push.stderr);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

after(async () => {
  await Promise.allSettled(agents.map((a) => a.destroy()));
  await Promise.allSettled(models.map((m) => m.close()));
  await server?.close();
  await front?.close();
  await phone?.close();
  await apps?.close();
  await browser?.close();
});

/** The phone's page now, and a box on it in CSS pixels. */
function page(target: VirtualPhone = phone): Page {
  return target.foregroundPage();
}

/** A box on the phone's page, CSS pixels. */
function boxOf(selector: string, target: VirtualPhone = phone): Promise<TargetBox> {
  return phoneBox(target, selector);
}

/** The notes app's list, freshly started. */
async function freshNotes(): Promise<void> {
  phone.stopApp(NOTES);
  await phone.launchApp(NOTES);
  await waitFor(() => page().url().endsWith("index.html"), "the notes list");
}

function mobileAgent(
  script: TestModelScript,
  options: MobileAAgentOptions & MobileADeviceOptions & { serial?: string } = {},
): Promise<{ agent: MobileAAgent; model: TestModel; device: MobileADevice }> {
  const { serial, ...rest } = options;
  return phoneAgent(KIT, script, rest.screenshotShrinkFactor, (agentOptions) => {
    const device = new MobileADevice(serial ?? front.serial, {
      remoteBridgePort: server.port,
      ...rest,
    });
    return { device, agent: new MobileAAgent(device, { ...agentOptions, ...rest }) };
  });
}

for (const shrink of [1, 3]) {
  test(
    `aiTap lands on the element at density 2.625${
      shrink === 1 ? "" : ` with screenshotShrinkFactor ${shrink}`
    }`,
    async () => {
      await freshNotes();
      const { agent, model } = await mobileAgent({
        locate: locateBy(phone, { "Note 12": "#note-12" }),
      }, { screenshotShrinkFactor: shrink });
      const box = await boxOf("#note-12");
      await agent.aiTap("Note 12");
      // The tap reached the phone in physical pixels inside the element's box x density.
      const tap = lastInput(phone, "tap");
      assert.ok(tap);
      const inside = (v: number, start: number, size: number) =>
        v >= start * DENSITY && v <= (start + size) * DENSITY;
      assert.ok(
        inside(tap.x, box.left, box.width) && inside(tap.y, box.top, box.height),
        `tap at (${tap.x}, ${tap.y}) is outside Note 12 (${JSON.stringify(box)} CSS px)`,
      );
      // Within 1.5 CSS px of the center (the 0-1000 grid and the shrink round).
      const tolerance = (1.5 + shrink / DENSITY) * DENSITY;
      assert.ok(Math.abs(tap.x - (box.left + box.width / 2) * DENSITY) <= tolerance);
      assert.ok(Math.abs(tap.y - (box.top + box.height / 2) * DENSITY) <= tolerance);
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

test("the device reports the logical size and dpr from wm size and wm density", async () => {
  const device = new MobileADevice(front.serial, { remoteBridgePort: server.port });
  try {
    const size = await device.size();
    assert.equal(size.dpr, 2.625);
    assert.ok(Math.abs(size.width - WIDTH / DENSITY) < 1e-9);
    assert.ok(Math.abs(size.height - HEIGHT / DENSITY) < 1e-9);
    const png = await device.screenshotBase64();
    assert.match(png, /^data:image\/png;base64,iVBORw0KGgo/);
    // The action space the planner sees: the MobileA actions, with the system buttons.
    assert.deepEqual(device.actionSpace().map((a) => a.name), [
      "Tap",
      "DoubleClick",
      "Input",
      "ClearInput",
      "KeyboardPress",
      "Scroll",
      "Swipe",
      "DragAndDrop",
      "LongPress",
      "PullGesture",
      "Launch",
      "Terminate",
      "RunBridgeShell",
      "MobileABackButton",
      "MobileAHomeButton",
      "MobileARecentAppsButton",
    ]);
  } finally {
    await device.destroy();
    await device.destroy(); // idempotent
  }
  await assert.rejects(device.size(), /was destroyed/);
});

test("aiInput types ASCII, accented, Chinese and %s text into the field, and hides the keyboard", async () => {
  await freshNotes();
  await phone.launchApp(NOTES);
  await page().evaluate(() => location.hash = "#/note/4");
  await waitFor(async () => await page().locator("#note-text").isVisible(), "the text field");
  const { agent } = await mobileAgent({
    locate: locateBy(phone, { "the Text field": "#note-text" }),
  });
  const cases: [string, "keys" | "ime"][] = [
    ["hello world 42", "keys"],
    ["café crème", "ime"],
    ["你好，世界", "ime"],
    ["100%s done", "ime"],
  ];
  for (const [value, method] of cases) {
    await agent.aiInput("the Text field", { value });
    assert.equal(await page().locator("#note-text").inputValue(), value, `typing ${value}`);
    const typed = lastInput(phone, "text");
    assert.equal(typed?.method, method, `${value} went through ${typed?.method}`);
    assert.equal(await phone.keyboardShown(), false, "the keyboard is still up");
  }
  // typeOnly appends; clear empties.
  await agent.aiInput("the Text field", { value: " more", mode: "typeOnly" });
  assert.equal(await page().locator("#note-text").inputValue(), "100%s done more");
  await agent.aiClearInput("the Text field");
  assert.equal(await page().locator("#note-text").inputValue(), "");
  // KeyboardPress with a shared key name: Enter submits.
  await agent.aiInput("the Text field", { value: "go" });
  await agent.aiKeyboardPress("the Text field", { keyName: "enter" });
  assert.equal(await page().locator("#submitted").textContent(), "Submitted: go");
});

/** The yadb helper's command line for typing text (a quoted shell word follows). */
const YADB_KEYBOARD =
  "app_process -Djava.class.path=/data/local/tmp/yadb /data/local/tmp com.ysbing.yadb.Main -keyboard";

test(
  "the exact commands for typed text and keys: shell-special ASCII quoted for input text, %s and non-ASCII through yadb, key events",
  {
    timeout: 120_000,
  },
  async () => {
    await freshNotes();
    await page().evaluate(() => location.hash = "#/note/5");
    await waitFor(async () => await page().locator("#note-text").isVisible(), "the text field");
    const { agent } = await mobileAgent({
      locate: locateBy(phone, { "the Text field": "#note-text" }),
    });
    /** The text-entry and key commands the device received since `from` (no taps, no dumpsys). */
    const entered = (from: number) =>
      front.commands.slice(from).filter((c) =>
        c.startsWith("input text ") || c.startsWith("input keyevent ") ||
        c.startsWith(YADB_KEYBOARD)
      );
    // Each shell-special character of ASCII text reaches `input text` inside one single-quoted
    // word ('\'' for the quote), spaces as %s: the text typed is the text given, and no part of
    // it runs as a command on the device.
    const cases: [string, string][] = [
      [
        `it's a "test"; echo $HOME & ls \\ \`id\``,
        `input text 'it'\\''s%sa%s"test";%secho%s$HOME%s&%sls%s\\%s\`id\`'`,
      ],
      ["100%s done", `${YADB_KEYBOARD} '100%s done'`],
      ["l'été à $5; ok", `${YADB_KEYBOARD} 'l'\\''été à $5; ok'`],
      ["你好 'x'", `${YADB_KEYBOARD} '你好 '\\''x'\\'''`],
    ];
    for (const [value, command] of cases) {
      const from = front.commands.length;
      await agent.aiInput("the Text field", { value });
      assert.equal(await page().locator("#note-text").inputValue(), value, `typing ${value}`);
      // Replace mode: the helper empties the field, the text goes in, ESCAPE hides the keyboard.
      assert.deepEqual(entered(from), [`${YADB_KEYBOARD} ~CLEAR~`, command, "input keyevent 111"]);
    }
    // Per code point ('sequential'): the quote alone is one quoted word too.
    const from = front.commands.length;
    await agent.aiInput("the Text field", { value: "a'b", inputStrategy: "sequential" });
    assert.equal(await page().locator("#note-text").inputValue(), "a'b");
    assert.deepEqual(entered(from).slice(1, 4), [
      "input text 'a'",
      "input text ''\\'''",
      "input text 'b'",
    ]);
    // Keys: KeyboardPress, back, home, recent apps, each one `input keyevent CODE`.
    const keys = front.commands.length;
    await agent.aiKeyboardPress("the Text field", { keyName: "Enter" });
    await agent.back();
    await agent.home();
    await agent.recentApps();
    assert.deepEqual(entered(keys), [
      "input keyevent 66",
      "input keyevent 4",
      "input keyevent 3",
      "input keyevent 187",
    ]);
  },
);

test("without the yadb helper, text only it types is a MissingDependencyError before the field is tapped or emptied", async () => {
  await freshNotes();
  await page().evaluate(() => location.hash = "#/note/5");
  await waitFor(async () => await page().locator("#note-text").isVisible(), "the text field");
  const removed = await adb("-s", front.serial, "shell", "rm", "/data/local/tmp/yadb");
  assert.equal(removed.code, 0, removed.stderr);
  try {
    const { agent } = await mobileAgent({
      locate: locateBy(phone, { "the Text field": "#note-text" }),
    });
    await agent.aiInput("the Text field", { value: "kept" });
    const from = front.commands.length;
    const error = await agent.aiInput("the Text field", { value: "café" }).then(
      () => assert.fail("aiInput typed text only yadb types"),
      (e: unknown) => e,
    );
    assert.ok(error instanceof MissingDependencyError, String(error));
    assert.equal(error.code, "DEPENDENCY_MISSING");
    assert.match(error.message, /has no yadb helper at \/data\/local\/tmp\/yadb, needed to type/);
    assert.equal(await page().locator("#note-text").inputValue(), "kept");
    assert.deepEqual(
      front.commands.slice(from).filter((c) => c.startsWith("input ")),
      [],
      "no tap, key or text reached the phone",
    );
  } finally {
    await pushYadbStandIn();
  }
});

test("launch, terminate, back, home and recentApps show in the phone's state", async () => {
  await freshNotes();
  const { agent } = await mobileAgent({}, { appNameMapping: { "My Settings": SETTINGS } });
  await agent.launch("My Settings");
  assert.equal(phone.foregroundApp().packageName, SETTINGS);
  await agent.home();
  assert.equal(phone.foregroundApp().packageName, "com.android.launcher3");
  await agent.launch(`${NOTES}/.MainActivity`);
  assert.equal(phone.foregroundApp().packageName, NOTES);
  await agent.recentApps();
  assert.match(phone.foregroundApp().activity ?? "", /RecentsActivity/);
  await agent.back();
  assert.equal(phone.foregroundApp().packageName, NOTES);
  await agent.terminate("My Settings");
  assert.ok(!phone.runningApps().includes(SETTINGS), "settings still runs");
  assert.deepEqual(lastInput(phone, "stop"), { type: "stop", packageName: SETTINGS });
  // Back from the notes app's first page leaves it for the home screen.
  await agent.back();
  assert.equal(phone.foregroundApp().packageName, "com.android.launcher3");
  // A package that is not installed: a ToolError with monkey's own words, without its echo of
  // its arguments (`bash arg:` lines).
  await assert.rejects(
    agent.launch("com.example.missing"),
    (e: Error) =>
      e instanceof ToolError && e.code === "TOOL_FAILED" && e.tool === "adb" &&
      e.status === 252 &&
      e.message ===
        `Cannot launch "com.example.missing" on Android device "${front.serial}": ` +
          "** No activities found to run, monkey aborted." &&
      !/bash arg|args:/.test(e.message + e.output),
  );
  assert.equal(
    (await agent.runBridgeShell("wm size")).trim(),
    "Physical size: 1080x2400",
  );
  await assert.rejects(
    agent.runBridgeShell("nosuchcommand"),
    (e: Error) =>
      e instanceof ToolError && e.code === "TOOL_FAILED" && e.status === 127 &&
      /exited with 127: .*nosuchcommand: inaccessible or not found/.test(e.message),
  );
  // Each method is one execution of the report, with one Action step and its status.
  const executions = agent._unstableLogContent().executions;
  assert.deepEqual(
    executions.map((e) => [e.apiName, e.status, e.steps.map((s) => s.title).join()]),
    [
      ["launch", "passed", "Launch"],
      ["home", "passed", "MobileAHomeButton"],
      ["launch", "passed", "Launch"],
      ["recentApps", "passed", "MobileARecentAppsButton"],
      ["back", "passed", "MobileABackButton"],
      ["terminate", "passed", "Terminate"],
      ["back", "passed", "MobileABackButton"],
      ["launch", "failed", "Launch"],
      ["runBridgeShell", "passed", "RunBridgeShell"],
      ["runBridgeShell", "failed", "RunBridgeShell"],
    ],
  );
  // The mapped name is shown as asked, the package it resolved to in the step's param.
  assert.equal(executions[0].prompt, "My Settings");
  assert.deepEqual(executions[0].steps[0].param, { uri: SETTINGS });
  assert.equal(executions[8].output, "Physical size: 1080x2400\n");
  assert.match(executions[9].error ?? "", /exited with 127/);
});

test("the planner's Launch and Terminate resolve app names through appNameMapping", async () => {
  await freshNotes();
  let step = 0;
  const { agent } = await mobileAgent({
    plan() {
      step++;
      if (step === 1) {
        return { log: "open settings", action: { type: "Launch", param: { uri: "my settings" } } };
      }
      if (step === 2) {
        return { log: "stop it", action: { type: "Terminate", param: { uri: "My Settings" } } };
      }
      return { log: "done", finished: true };
    },
  }, { appNameMapping: { "My Settings": SETTINGS } });
  await agent.aiAct("open my settings, then stop it");
  const launched = phone.inputs.filter((i) => i.type === "launch").at(-1);
  assert.equal(launched && "packageName" in launched ? launched.packageName : undefined, SETTINGS);
  assert.deepEqual(lastInput(phone, "stop"), { type: "stop", packageName: SETTINGS });
});

test("PullGesture swipes from near the top edge down, or from near the bottom edge up", async () => {
  await freshNotes();
  let step = 0;
  const plans = [
    { type: "PullGesture", param: { direction: "down" } },
    { type: "PullGesture", param: { direction: "up", distance: 200, duration: 250 } },
  ];
  const { agent } = await mobileAgent({
    plan() {
      const action = plans[step++];
      return action ? { log: "pull", action } : { log: "done", finished: true };
    },
  });
  await agent.aiAct("pull down, then pull up by 200 dp");
  const swipes = phone.inputs.filter((i) => i.type === "swipe").slice(-2);
  assert.equal(swipes.length, 2);
  const [down, up] = swipes as Extract<VirtualPhone["inputs"][number], { type: "swipe" }>[];
  // Down: from the top tenth of the screen, half the screen's height, 500 ms, at the middle.
  assert.ok(down.y1 <= HEIGHT * 0.1 + 1 && down.y1 > 0, `pull down starts at y=${down.y1}`);
  assert.ok(Math.abs(down.y2 - down.y1 - HEIGHT / 2) <= 2, `pull down ends at y=${down.y2}`);
  assert.equal(down.x1, WIDTH / 2);
  assert.equal(down.x2, WIDTH / 2);
  assert.equal(down.durationMs, 500);
  // Up: from the bottom tenth, 200 dp = 525 physical pixels, 250 ms.
  assert.ok(up.y1 >= HEIGHT * 0.9 - DENSITY - 1 && up.y1 < HEIGHT, `pull up starts at y=${up.y1}`);
  assert.ok(Math.abs(up.y1 - up.y2 - 200 * DENSITY) <= 2, `pull up ends at y=${up.y2}`);
  assert.equal(up.durationMs, 250);
  // A pull without a direction is refused before anything moves.
  const device = new MobileADevice(front.serial, { remoteBridgePort: server.port });
  try {
    const pull = device.actionSpace().find((a) => a.name === "PullGesture")!;
    await assert.rejects(pull.call({}, {}), /PullGesture: give 'direction'/);
    await assert.rejects(pull.call({ direction: "left" }, {}), /PullGesture/);
  } finally {
    await device.destroy();
  }
});

test("without the scrcpy server jar aiPinch rejects with MissingDependencyError, saying what to push where; Pinch is not in the action space", async () => {
  const { agent, model, device } = await mobileAgent({ locate: locateBy(phone, { map: "#list" }) });
  await assert.rejects(
    agent.aiPinch("map", { direction: "out" }),
    (e: Error) =>
      e instanceof MissingDependencyError && e.code === "DEPENDENCY_MISSING" &&
      e.dependency === "scrcpy-server" && /one pointer only/.test(e.message) &&
      e.message.includes("adb push scrcpy-server-v3.3.3 /data/local/tmp/scrcpy-server.jar"),
  );
  assert.equal(model.calls.length, 0, "aiPinch called the model");
  assert.equal(await device.pinchAvailable(), false);
  assert.ok(!device.actionSpace().some((a) => a.name === "Pinch"));
});

test("with the scrcpy server jar pushed, aiPinch zooms the zoom app in and out through scrcpy's control channel", async () => {
  const ZOOM = "com.example.zoom";
  const zoomPhone = await startVirtualPhone({
    browser,
    width: WIDTH,
    height: HEIGHT,
    density: DENSITY,
    apps: { [ZOOM]: `${apps.url}zoom/index.html` },
    startApp: ZOOM,
  });
  const zoomFront = await startAdbFront(zoomPhone);
  const dir = await mkdtemp(join(tmpdir(), "sdk-pinch-"));
  try {
    await server.connect(zoomFront.serial);
    // A stand-in file at the jar's path: the simulator then runs its scrcpy server.
    await writeFile(join(dir, "scrcpy-server"), "a stand-in for scrcpy-server-v3.3.3");
    const push = await adb(
      "-s",
      zoomFront.serial,
      "push",
      join(dir, "scrcpy-server"),
      "/data/local/tmp/scrcpy-server.jar",
    );
    assert.equal(push.code, 0, push.stderr);
    const { agent, model, device } = await mobileAgent(
      { locate: locateBy(zoomPhone, { "the photo": "#photo" }) },
      { serial: zoomFront.serial },
    );
    const zoom = async () =>
      Number(/([\d.]+)x/.exec(await zoomPhone.foregroundPage().locator("#zoom").innerText())![1]);
    // Control messages are injected after they are sent, as on a device: a pinch is over on
    // the phone once its last finger lifted (a multiTouch with no fingers).
    const lifted = (count: number) =>
      waitFor(
        () =>
          zoomPhone.inputs.filter((i) => i.type === "multiTouch" && i.points.length === 0)
            .length === count,
        `pinch ${count} to end on the phone`,
      );
    assert.equal(await zoom(), 1);
    await agent.aiPinch("the photo", { direction: "out" });
    await lifted(1);
    assert.equal(model.calls.length, 1, "the photo was not located through the model");
    const zoomedIn = await zoom();
    assert.ok(zoomedIn > 1.5, `zoom after pinching out: ${zoomedIn}`);
    assert.ok(device.actionSpace().some((a) => a.name === "Pinch"));
    // Two fingers were down at once.
    assert.ok(zoomPhone.inputs.some((i) => i.type === "multiTouch" && i.points.length === 2));
    await agent.aiPinch("the photo", { direction: "in", duration: 300 });
    await lifted(2);
    const zoomedOut = await zoom();
    assert.ok(zoomedOut < zoomedIn / 1.5, `zoom after pinching in: ${zoomedOut} (was ${zoomedIn})`);
    assert.ok(zoomFront.commands.some((c) => c.includes("com.genymobile.scrcpy.Server 3.3.3")));
  } finally {
    await zoomFront.close();
    await adb("disconnect", zoomFront.serial);
    await zoomPhone.close();
    await rm(dir, { recursive: true, force: true });
  }
});

test("aiAct runs a task over the two screens of the notes app", async () => {
  await freshNotes();
  const { agent, model } = await mobileAgent({ plan: notesTaskPlanner(phone, "buy milk") });
  const output = await agent.aiAct("open Note 2, write 'buy milk' and count once");
  assert.equal(output, NOTES_TASK_OUTPUT);
  assert.ok(page().url().endsWith("#/note/2"));
  assert.equal(await page().locator("#note-text").inputValue(), "buy milk");
  assert.equal(await page().locator("#count").textContent(), "1");
  // The planner was offered the MobileA action space.
  const system = model.calls[0].call?.systemPrompt ?? "";
  for (const name of ["Tap", "Launch", "MobileABackButton", "RunBridgeShell"]) {
    assert.ok(system.includes(`- ${name}: `), `${name} is not in the planning prompt`);
  }
});

test("device listing finds the simulator with its details", async () => {
  const devices = await getConnectedDevices({ remoteBridgePort: server.port });
  assert.ok(devices.some((d) => d.udid === front.serial && d.state === "device"));
  const details = await getConnectedDevicesWithDetails({ remoteBridgePort: server.port });
  const mine = details.find((d) => d.udid === front.serial);
  assert.ok(mine);
  assert.deepEqual(mine.resolution, { width: 1080, height: 2400 });
  assert.equal(mine.density, 420);
  assert.equal(typeof mine.model, "string");
  assert.equal(typeof mine.brand, "string");
  const agent = await agentFromBridgeDevice(undefined, {
    remoteBridgePort: server.port,
    generateReport: false,
  });
  agents.push(agent);
  assert.equal(agent.interface.deviceId, devices[0].udid);
});

test("an unknown device id is a DeviceNotFoundError naming the connected devices", async () => {
  await assert.rejects(
    agentFromBridgeDevice("emulator-9999", {
      remoteBridgePort: server.port,
      generateReport: false,
    }),
    (error: Error) =>
      error instanceof DeviceNotFoundError && error.code === "DEVICE_NOT_FOUND" &&
      error.wanted === "emulator-9999" && error.available.includes(front.serial) &&
      /"emulator-9999" is not connected/.test(error.message) &&
      error.message.includes(front.serial),
  );
  const device = new MobileADevice("emulator-9999", { remoteBridgePort: server.port });
  await assert.rejects(
    device.screenshotBase64(),
    (error: Error) =>
      error instanceof DeviceNotFoundError && error.code === "DEVICE_NOT_FOUND" &&
      /"emulator-9999" is not connected/.test(error.message),
  );
  await device.destroy();
});

test("adb missing: a MissingDependencyError that says how to install it", async () => {
  const port = await freePort(); // no server there, so the SDK tries to start one
  const missing = (error: Error) =>
    error instanceof MissingDependencyError && error.code === "DEPENDENCY_MISSING" &&
    error.dependency === "adb" &&
    /adb executable "\/nonexistent\/adb" was not found/.test(error.message) &&
    error.message.includes("apt-get install adb") && error.message.includes("bridgePath");
  await assert.rejects(
    getConnectedDevices({ remoteBridgePort: port, bridgePath: "/nonexistent/adb" }),
    missing,
  );
  // A device fails its first command the same way; a remote server that refuses is a
  // ConnectionError (never started by the SDK).
  const device = new MobileADevice("emulator-5554", {
    remoteBridgePort: port,
    bridgePath: "/nonexistent/adb",
  });
  await assert.rejects(device.size(), missing);
  await device.destroy();
  await assert.rejects(
    getConnectedDevices({ remoteBridgeHost: "127.0.0.2", remoteBridgePort: port }),
    (error: Error) =>
      error instanceof ConnectionError && error.code === "CONNECTION_REFUSED" &&
      error.endpoint === `127.0.0.2:${port}` && /adb -a start-server/.test(error.message),
  );
});

test("a shell command past its time limit is a ConnectionError (timeout); the next command runs", {
  timeout: 60_000,
}, async () => {
  const { agent, device } = await mobileAgent({});
  await assert.rejects(
    agent.runBridgeShell("sleep 5", { timeout: 300 }),
    (e: Error) =>
      e instanceof ConnectionError && e.code === "CONNECTION_TIMEOUT" &&
      e.endpoint === front.serial && /`sleep 5` failed: no answer within 300 ms/.test(e.message),
  );
  assert.equal((await device.runBridgeShell("echo again")).stdout, "again\n");
});

test("shell disabled: no RunBridgeShell for the planner, and runBridgeShell throws", async () => {
  const { agent, device } = await mobileAgent({}, { exposeRunBridgeShellAction: false });
  assert.ok(!device.actionSpace().some((a) => a.name === "RunBridgeShell"));
  await assert.rejects(
    agent.runBridgeShell("echo hi"),
    (e: Error) =>
      e instanceof UnsupportedActionError && e.code === "ACTION_UNSUPPORTED" &&
      /exposeRunBridgeShellAction: false/.test(e.message),
  );
});

test("a device gone in the middle of a step is a ConnectionError (lost) naming it", async () => {
  const second = await startVirtualPhone({
    browser,
    width: WIDTH,
    height: HEIGHT,
    density: DENSITY,
    apps: { [NOTES]: `${apps.url}notes/index.html` },
    startApp: NOTES,
  });
  const secondFront = await startAdbFront(second);
  try {
    await server.connect(secondFront.serial);
    const { agent } = await mobileAgent({
      async locate() {
        const box = await boxOf("#note-1", second);
        // The screenshot was taken; the device goes away before the tap.
        await secondFront.close();
        await waitFor(
          async () => !(await adb("devices")).stdout.includes(`${secondFront.serial}\tdevice`),
          "the adb server to drop the device",
        );
        return box;
      },
    }, { serial: secondFront.serial });
    await assert.rejects(
      agent.aiTap("Note 1"),
      (error: Error) =>
        error instanceof ConnectionError && error.code === "CONNECTION_LOST" &&
        error.kind === "lost" && error.endpoint === secondFront.serial &&
        error.message.includes(`Android device "${secondFront.serial}"`),
    );
    assert.equal(second.inputs.filter((i) => i.type === "tap").length, 0);
    // The next command finds the device no longer listed: still lost, not "never there".
    await assert.rejects(
      agent.home(),
      (error: Error) =>
        error instanceof ConnectionError && error.code === "CONNECTION_LOST" &&
        /is gone: .*is not connected/.test(error.message),
    );
  } finally {
    await secondFront.close();
    await adb("disconnect", secondFront.serial);
    await second.close();
  }
});

test("aiScroll swipes the list the right way, aiLongPress holds long enough to pin a note", async () => {
  await freshNotes();
  const { agent } = await mobileAgent({ locate: locateBy(phone, { "Note 3": "#note-3" }) });
  await agent.aiScroll(undefined, { direction: "down", distance: 300 });
  const scrolled = await page().evaluate<number>("scrollY");
  assert.ok(scrolled > 100, `the list scrolled by ${scrolled} CSS px, expected about 300 or more`);
  const swipe = lastInput(phone, "swipe");
  assert.ok(swipe);
  assert.ok(swipe.y2 < swipe.y1, "revealing content below moves the finger up");
  await agent.aiScroll(undefined, { direction: "up", scrollType: "scrollToTop" });
  await waitFor(
    async () => (await page().evaluate<number>("scrollY")) === 0,
    "the top of the list",
  );
  await agent.aiLongPress("Note 3");
  assert.equal(await page().locator("#note-3").getAttribute("data-pinned"), "true");
  assert.ok(page().url().endsWith("index.html"), "a long press is not a tap");
});

test("autoDismissKeyboard: false leaves the keyboard up after aiInput", async () => {
  await freshNotes();
  await page().evaluate(() => location.hash = "#/note/6");
  await waitFor(async () => await page().locator("#note-text").isVisible(), "the text field");
  const { agent } = await mobileAgent({
    locate: locateBy(phone, { "the Text field": "#note-text" }),
  }, {
    autoDismissKeyboard: false,
  });
  await agent.aiInput("the Text field", { value: "stay" });
  assert.equal(await phone.keyboardShown(), true);
  await agent.back(); // back only hides the keyboard while it is up
  assert.equal(await phone.keyboardShown(), false);
  assert.ok(page().url().endsWith("#/note/6"));
});
