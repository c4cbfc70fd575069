/**
 * `@sdk/mobilec` end to end, with no HarmonyOS anywhere: SDK -> `execFile` of the simulator's
 * `hdc` executable -> the hdc front of the device **simulator** -> the virtual phone (1260 x 2720
 * at density 3.25) -> Chromium. The test model answers with boxes measured on the phone's page
 * in CSS pixels; one CSS pixel of the phone's page is `density` physical pixels, which is the
 * image scale the test model is given (`imagePixelsPerCssPixel = density / shrink`).
 *
 * One browser and one hdc front serve the file; tests that need more phones add them to it.
 *
 * @module
 */

import { before } from "node:test";
import { after, test } from "../helpers/test.ts";
import assert from "node:assert/strict";
import process from "node:process";
import { fileURLToPath } from "node:url";
import type { Browser, Page } from "playwright-core";
import {
  ConnectionError,
  DeviceNotFoundError,
  InvalidStateError,
  MissingDependencyError,
  ToolError,
  UnsupportedActionError,
} from "@sdk/core";
import {
  agentFromToolDevice,
  getConnectedDevices,
  MobileCAgent,
  type MobileCAgentOptions,
  MobileCDevice,
  type MobileCDeviceOptions,
} from "@sdk/mobilec";
import type { TargetBox, TestModel, TestModelScript } from "@sdk/core/testing";
import {
  BROWSER_PACKAGE,
  LAUNCHER_PACKAGE,
  startVirtualPhone,
  type VirtualPhone,
} from "@sdk/web/testing";
import { type HdcFront, startHdcFront } from "@sdk/mobilec/testing";
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
const WIDTH = 1260;
const HEIGHT = 2720;
const DENSITY = 3.25;

let browser: Browser;
let apps: StaticServer;
let phone: VirtualPhone;
let front: HdcFront;
const models: TestModel[] = [];
const agents: MobileCAgent[] = [];
const KIT = { density: DENSITY, models, agents };

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
      [NOTES]: {
        url: `${apps.url}notes/index.html`,
        label: "Notes",
        activity: "EntryAbility",
        activities: { DetailAbility: `${apps.url}notes/index.html#/note/3` },
      },
      [SETTINGS]: {
        url: `${apps.url}settings/index.html`,
        label: "Settings",
        activity: "MainAbility",
      },
    },
    startApp: NOTES,
  });
  front = await startHdcFront(phone);
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

/** The notes app's list, freshly started. */
async function freshNotes(): Promise<void> {
  await phone.stopApp(NOTES);
  await phone.launchApp(NOTES);
  await waitFor(() => page().url().endsWith("index.html"), "the notes list");
}

async function openNote(id: number): Promise<void> {
  await freshNotes();
  await page().evaluate((n) => location.hash = `#/note/${n}`, id);
  await waitFor(async () => await page().locator("#note-text").isVisible(), "the text field");
}

function mobileAgent(
  script: TestModelScript,
  options: MobileCAgentOptions & MobileCDeviceOptions & { deviceId?: string } = {},
): Promise<{ agent: MobileCAgent; model: TestModel; device: MobileCDevice }> {
  const { deviceId, ...rest } = options;
  return phoneAgent(KIT, script, rest.screenshotShrinkFactor, (agentOptions) => {
    const device = new MobileCDevice(deviceId ?? front.connectKey, {
      toolPath: front.toolPath,
      ...rest,
    });
    return { device, agent: new MobileCAgent(device, { ...agentOptions, ...rest }) };
  });
}

/** The uitest commands the SDK ran, newest last (`click 123 456`, `keyEvent Back`, ...). */
function uiInputs(): string[] {
  return front.commands.map((c) => c.argv.at(-1) ?? "").filter((a) => a.startsWith("uitest"))
    .map((a) => a.replace(/^uitest uiInput /, ""));
}

for (const shrink of [1, 3]) {
  test(
    `aiTap lands on the element at density ${DENSITY}${
      shrink === 1 ? "" : ` with screenshotShrinkFactor ${shrink}`
    }`,
    async () => {
      await freshNotes();
      const { agent, model } = await mobileAgent({
        locate: locateBy(phone, { "Note 12": "#note-12" }),
      }, { screenshotShrinkFactor: shrink });
      const box = await boxOf("#note-12");
      await agent.aiTap("Note 12");
      const tap = lastInput(phone, "tap");
      assert.ok(tap);
      const inside = (v: number, start: number, size: number) =>
        v >= start * DENSITY && v <= (start + size) * DENSITY;
      assert.ok(
        inside(tap.x, box.left, box.width) && inside(tap.y, box.top, box.height),
        `tap at (${tap.x}, ${tap.y}) is outside Note 12 (${JSON.stringify(box)} CSS px)`,
      );
      // Within 1.5 CSS px of the center (the 0-1000 grid, the shrink and uitest's whole pixels).
      const tolerance = (1.5 + shrink / DENSITY) * DENSITY;
      assert.ok(Math.abs(tap.x - (box.left + box.width / 2) * DENSITY) <= tolerance);
      assert.ok(Math.abs(tap.y - (box.top + box.height / 2) * DENSITY) <= tolerance);
      assert.match(uiInputs().at(-1) ?? "", new RegExp(`^click ${tap.x} ${tap.y}$`));
      await waitFor(() => page().url().endsWith("#/note/12"), "the detail screen of Note 12");
      // The model saw the physical screenshot (a JPEG from snapshot_display), shrunk.
      const image = model.calls[0].call?.image;
      assert.deepEqual(
        image && [image.width, image.height],
        [Math.round(WIDTH / shrink), Math.round(HEIGHT / shrink)],
      );
    },
  );
}

test("the device reports the logical size and dpr, a JPEG screenshot and the MobileC actions", async () => {
  const device = new MobileCDevice(front.connectKey, {
    toolPath: front.toolPath,
    screenshotResizeScale: 0.5, // deprecated: no effect
  });
  try {
    const size = await device.size();
    assert.equal(size.dpr, DENSITY);
    assert.ok(Math.abs(size.width - WIDTH / DENSITY) < 1e-9);
    assert.ok(Math.abs(size.height - HEIGHT / DENSITY) < 1e-9);
    const shot = await device.screenshotBase64();
    assert.match(shot, /^data:image\/jpeg;base64,\/9j\//);
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
      "Launch",
      "Terminate",
      "RunToolShell",
      "MobileCBackButton",
      "MobileCHomeButton",
      "MobileCRecentAppsButton",
    ]);
    // hdc ran with the connect key and no shell in between: the screenshot is two runs.
    const last = front.commands.slice(-2).map((c) => c.argv);
    assert.deepEqual(last[0].slice(0, 3), ["-t", front.connectKey, "shell"]);
    assert.match(last[0][3], /^snapshot_display -f \S+\.jpeg$/);
    assert.deepEqual(last[1].slice(0, 4), ["-t", front.connectKey, "file", "recv"]);
  } finally {
    await device.destroy();
    await device.destroy(); // idempotent
  }
  await assert.rejects(
    device.size(),
    (e: Error) =>
      e instanceof InvalidStateError && e.code === "INVALID_STATE" &&
      /was destroyed: no more hdc commands/.test(e.message),
  );
  await assert.rejects(device.runToolShell("echo hi"), /was destroyed/);
});

test("exposeRunToolShellAction: false: no RunToolShell for the planner, runToolShell throws, no hdc shell runs", async () => {
  const { agent, device } = await mobileAgent({}, { exposeRunToolShellAction: false });
  assert.ok(!device.actionSpace().some((a) => a.name === "RunToolShell"));
  assert.ok(device.actionSpace().some((a) => a.name === "MobileCBackButton"));
  const before = front.commands.length;
  for (const call of [() => agent.runToolShell("echo hi"), () => device.runToolShell("echo hi")]) {
    await assert.rejects(
      call(),
      (e: Error) =>
        e instanceof UnsupportedActionError && e.code === "ACTION_UNSUPPORTED" &&
        e.action === "runToolShell" && /exposeRunToolShellAction: false/.test(e.message),
    );
  }
  assert.equal(front.commands.length, before, "no hdc command ran");
  // The default keeps it (spec 4.10).
  const { device: shellDevice } = await mobileAgent({});
  assert.ok(shellDevice.actionSpace().some((a) => a.name === "RunToolShell"));
  assert.throws(
    // deno-lint-ignore no-explicit-any
    () => new MobileCDevice(front.connectKey, { exposeRunToolShellAction: "no" as any }),
    /exposeRunToolShellAction/,
  );
});

test("aiInput types ASCII, accented, Chinese and quoted text, and hides the keyboard", async () => {
  await openNote(4);
  const { agent } = await mobileAgent({
    locate: locateBy(phone, { "the Text field": "#note-text" }),
  });
  for (const value of ["hello world 42", "café crème", "你好，世界", `it's "quoted" $HOME`]) {
    await agent.aiInput("the Text field", { value });
    assert.equal(await page().locator("#note-text").inputValue(), value, `typing ${value}`);
    assert.deepEqual(lastInput(phone, "text"), { type: "text", text: value, method: "ime" });
    assert.equal(await phone.keyboardShown(), false, "the keyboard is still up");
  }
  // The field was emptied with Ctrl+A and Backspace, the keyboard hidden with Escape (esc-first).
  assert.deepEqual(uiInputs().slice(-4, -2), ["keyEvent 2072 2017", "keyEvent 2055"]);
  assert.equal(uiInputs().at(-1), "keyEvent 2070");
  // typeOnly appends; clear empties.
  await agent.aiInput("the Text field", { value: " more", mode: "typeOnly" });
  assert.equal(await page().locator("#note-text").inputValue(), `it's "quoted" $HOME more`);
  await agent.aiClearInput("the Text field");
  assert.equal(await page().locator("#note-text").inputValue(), "");
  // 'sequential': one uitest text call per code point.
  const before = uiInputs().length;
  await agent.aiInput("the Text field", { value: "héj", inputStrategy: "sequential" });
  assert.equal(await page().locator("#note-text").inputValue(), "héj");
  assert.deepEqual(
    uiInputs().slice(before).filter((c) => c.startsWith("text ")),
    ["text 'h'", "text 'é'", "text 'j'"],
  );
  // KeyboardPress with a shared key name: Enter submits.
  await agent.aiInput("the Text field", { value: "go" });
  await agent.aiKeyboardPress("the Text field", { keyName: "enter" });
  assert.equal(await page().locator("#submitted").textContent(), "Submitted: go");
  // One key at a time, and only keys with a key code of their own.
  await assert.rejects(
    agent.aiKeyboardPress(undefined, { keyName: "Control+A" }),
    /key combinations with modifiers are not supported/,
  );
  await assert.rejects(
    agent.aiKeyboardPress(undefined, { keyName: "?" }),
    /not a key name MobileC knows .*type characters such as punctuation with aiInput/,
  );
});

test(
  "the exact uitest commands for typed text and keys: shell-special ASCII, %s and non-ASCII in one quoted word",
  {
    timeout: 120_000,
  },
  async () => {
    await openNote(5);
    const { agent } = await mobileAgent({
      locate: locateBy(phone, { "the Text field": "#note-text" }),
    });
    /** The text and key commands uitest received since `from` (no clicks). */
    const entered = (from: number) =>
      uiInputs().slice(from).filter((c) => c.startsWith("text ") || c.startsWith("keyEvent "));
    // Each shell-special character reaches uitest inside one single-quoted word ('\'' for the
    // quote): the text typed is the text given, and no part of it runs as a command on the device.
    const cases: [string, string][] = [
      [
        `it's a "test"; echo $HOME & ls \\ \`id\``,
        `text 'it'\\''s a "test"; echo $HOME & ls \\ \`id\`'`,
      ],
      ["100%s done", "text '100%s done'"],
      ["l'été à $5; ok", `text 'l'\\''été à $5; ok'`],
      ["你好 'x'", `text '你好 '\\''x'\\'''`],
    ];
    for (const [value, command] of cases) {
      const from = uiInputs().length;
      await agent.aiInput("the Text field", { value });
      assert.equal(await page().locator("#note-text").inputValue(), value, `typing ${value}`);
      // Replace mode: Ctrl+A and Backspace empty the field, the text goes in, Escape hides the
      // keyboard.
      assert.deepEqual(entered(from), [
        "keyEvent 2072 2017",
        "keyEvent 2055",
        command,
        "keyEvent 2070",
      ]);
    }
    // Per code point ('sequential'): the quote alone is one quoted word too.
    const from = uiInputs().length;
    await agent.aiInput("the Text field", { value: "a'b", inputStrategy: "sequential" });
    assert.equal(await page().locator("#note-text").inputValue(), "a'b");
    assert.deepEqual(entered(from).slice(2, 5), ["text 'a'", `text ''\\'''`, "text 'b'"]);
    // Keys: KeyboardPress, back, home, recent apps.
    const keys = uiInputs().length;
    await agent.aiKeyboardPress("the Text field", { keyName: "Enter" });
    await agent.back();
    await agent.home();
    await agent.recentApps();
    assert.deepEqual(entered(keys), [
      "keyEvent 2054",
      "keyEvent Back",
      "keyEvent Home",
      "keyEvent 2210",
    ]);
    // Each of them was one `hdc -t KEY shell COMMAND` run: the command is one argument.
    const last = front.commands.at(-1)!;
    assert.deepEqual(last.argv, ["-t", front.connectKey, "shell", "uitest uiInput keyEvent 2210"]);
  },
);

test(
  "a device gone in the middle of a step (unplugged: hdc no longer knows its key) is a ConnectionError (lost) naming it",
  {
    timeout: 120_000,
  },
  async () => {
    const second = await startVirtualPhone({
      browser,
      width: WIDTH,
      height: HEIGHT,
      density: DENSITY,
      apps: { [NOTES]: { url: `${apps.url}notes/index.html`, activity: "EntryAbility" } },
      startApp: NOTES,
    });
    const key = front.addPhone(second, "FMR0GONE");
    try {
      const { agent } = await mobileAgent({
        async locate() {
          const box = await boxOf("#note-1", second);
          // The screenshot was taken; the device goes away before the tap.
          front.removePhone(key);
          return box;
        },
      }, { deviceId: key });
      await assert.rejects(
        agent.aiTap("Note 1"),
        (error: Error) =>
          error instanceof ConnectionError && error.code === "CONNECTION_LOST" &&
          error.kind === "lost" && error.endpoint === key &&
          error.message.includes(`HarmonyOS device "${key}" is gone`) &&
          /\[Fail\]Not match target founded/.test(error.message),
      );
      assert.equal(second.inputs.filter((i) => i.type === "tap").length, 0);
    } finally {
      if (front.targets().includes(key)) front.removePhone(key);
      await second.close();
    }
  },
);

test("autoDismissKeyboard: false leaves the keyboard up; back-first dismisses with Back", async () => {
  await openNote(6);
  const kept = await mobileAgent({ locate: locateBy(phone, { "the Text field": "#note-text" }) }, {
    autoDismissKeyboard: false,
  });
  await kept.agent.aiInput("the Text field", { value: "stay" });
  assert.equal(await phone.keyboardShown(), true);
  const back = await mobileAgent({ locate: locateBy(phone, { "the Text field": "#note-text" }) }, {
    keyboardDismissStrategy: "back-first",
  });
  await back.agent.aiInput("the Text field", { value: "gone" });
  assert.equal(uiInputs().at(-1), "keyEvent Back");
  assert.equal(await phone.keyboardShown(), false);
  assert.ok(page().url().endsWith("#/note/6"), "Back only hid the keyboard");
});

test("launch (bundle, bundle/Ability, mapped name, URL), terminate, back, home, recentApps", async () => {
  await freshNotes();
  const { agent } = await mobileAgent({}, { appNameMapping: { "My Settings": SETTINGS } });
  // A mapped name -> a bundle, whose launch ability comes from bm dump -n.
  await agent.launch("My Settings");
  assert.deepEqual(phone.foregroundApp(), { packageName: SETTINGS, activity: "MainAbility" });
  assert.ok(front.commands.some((c) => c.argv.at(-1) === `bm dump -n '${SETTINGS}'`));
  await agent.home();
  assert.equal(phone.foregroundApp().packageName, LAUNCHER_PACKAGE);
  // An explicit bundle/Ability bypasses the lookup.
  const dumps = front.commands.filter((c) => /bm dump/.test(c.argv.at(-1) ?? "")).length;
  await agent.launch(`${NOTES}/DetailAbility`);
  assert.deepEqual(phone.foregroundApp(), { packageName: NOTES, activity: "DetailAbility" });
  await waitFor(() => page().url().endsWith("#/note/3"), "the detail ability's page");
  assert.equal(front.commands.filter((c) => /bm dump/.test(c.argv.at(-1) ?? "")).length, dumps);
  await agent.recentApps();
  assert.match(phone.foregroundApp().activity, /RecentsActivity/);
  await agent.back();
  assert.equal(phone.foregroundApp().packageName, NOTES);
  await agent.terminate("My Settings");
  assert.ok(!phone.runningApps().includes(SETTINGS), "settings still runs");
  assert.deepEqual(lastInput(phone, "stop"), { type: "stop", packageName: SETTINGS });
  // A web URL opens in the phone's browser app.
  await agent.launch(`${apps.url}settings/index.html`);
  assert.equal(phone.foregroundApp().packageName, BROWSER_PACKAGE);
  assert.equal(page().url(), `${apps.url}settings/index.html`);
  // A bundle name: the entry module's main ability.
  await agent.launch(NOTES);
  assert.equal(phone.foregroundApp().packageName, NOTES);
  // A bundle that is not installed, an ability that does not exist: ToolErrors of hdc with the
  // device's own words.
  await assert.rejects(
    agent.launch("com.example.missing"),
    (e: Error) =>
      e instanceof ToolError && e.code === "TOOL_FAILED" && e.tool === "hdc" &&
      /Cannot launch "com.example.missing": it is not installed/.test(e.message),
  );
  await assert.rejects(
    agent.launch(`${NOTES}/NoSuchAbility`),
    (e: Error) =>
      e instanceof ToolError && e.code === "TOOL_FAILED" &&
      /Cannot launch "com.example.notes\/NoSuchAbility"[\s\S]*resolve ability err/.test(
        e.message,
      ) &&
      /resolve ability err/.test(e.output),
  );
  await assert.rejects(
    agent.terminate("com.example.missing"),
    (e: Error) => e instanceof ToolError && /failed to force stop/.test(e.message),
  );
  assert.equal(await agent.runToolShell("param get const.product.model"), "Simulator Phone\n");
  // hdc does not pass on a device command's exit code: the output says what happened.
  assert.match(
    await agent.runToolShell("nosuchcommand"),
    /^\/bin\/sh: nosuchcommand: inaccessible or not found$/m,
  );
  const executions = agent._unstableLogContent().executions;
  assert.deepEqual(
    executions.map((e) => [e.apiName, e.status, e.steps.map((s) => s.title).join()]),
    [
      ["launch", "passed", "Launch"],
      ["home", "passed", "MobileCHomeButton"],
      ["launch", "passed", "Launch"],
      ["recentApps", "passed", "MobileCRecentAppsButton"],
      ["back", "passed", "MobileCBackButton"],
      ["terminate", "passed", "Terminate"],
      ["launch", "passed", "Launch"],
      ["launch", "passed", "Launch"],
      ["launch", "failed", "Launch"],
      ["launch", "failed", "Launch"],
      ["terminate", "failed", "Terminate"],
      ["runToolShell", "passed", "RunToolShell"],
      ["runToolShell", "passed", "RunToolShell"],
    ],
  );
  assert.equal(executions[0].prompt, "My Settings");
  assert.deepEqual(executions[0].steps[0].param, { uri: SETTINGS });
});

test("the planner's Launch and Terminate resolve app names; no Pinch, aiPinch is refused", async () => {
  await freshNotes();
  let step = 0;
  const { agent, device } = await mobileAgent({
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
  }, { appNameMapping: { "My Settings": `${SETTINGS}/MainAbility` } });
  await agent.aiAct("open my settings, then stop it");
  const launched = phone.inputs.filter((i) => i.type === "launch").at(-1);
  assert.deepEqual(launched, { type: "launch", packageName: SETTINGS, activity: "MainAbility" });
  assert.deepEqual(lastInput(phone, "stop"), { type: "stop", packageName: SETTINGS });
  assert.ok(!device.actionSpace().some((a) => a.name === "Pinch"));
  await assert.rejects(
    agent.aiPinch(undefined, { direction: "out" }),
    (error: Error) =>
      error instanceof UnsupportedActionError && error.code === "ACTION_UNSUPPORTED" &&
      error.action === "aiPinch" && /not available on MobileC/.test(error.message),
  );
});

test("aiAct runs a task over the two screens of the notes app", async () => {
  await freshNotes();
  const { agent, model } = await mobileAgent({ plan: notesTaskPlanner(phone, "买牛奶 buy milk") });
  const output = await agent.aiAct("open Note 2, write '买牛奶 buy milk' and count once");
  assert.equal(output, NOTES_TASK_OUTPUT);
  assert.ok(page().url().endsWith("#/note/2"));
  assert.equal(await page().locator("#note-text").inputValue(), "买牛奶 buy milk");
  assert.equal(await page().locator("#count").textContent(), "1");
  const system = model.calls[0].call?.systemPrompt ?? "";
  for (const name of ["Tap", "Launch", "MobileCBackButton", "RunToolShell"]) {
    assert.ok(system.includes(`- ${name}: `), `${name} is not in the planning prompt`);
  }
  assert.ok(!system.includes("- Pinch: "), "Pinch is offered to the planner");
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
  // uitest takes a speed: 300 vp in 500 ms is 1950 px/s at density 3.25.
  assert.match(uiInputs().at(-1) ?? "", /^swipe \d+ \d+ \d+ \d+ 1950$/);
  await agent.aiScroll(undefined, { direction: "up", scrollType: "scrollToTop" });
  await waitFor(async () => (await page().evaluate<number>("scrollY")) === 0, "the list's top");
  await agent.aiLongPress("Note 3");
  assert.equal(await page().locator("#note-3").getAttribute("data-pinned"), "true");
  assert.ok(page().url().endsWith("index.html"), "a long press is not a tap");
  assert.match(uiInputs().at(-1) ?? "", /^longClick \d+ \d+$/);
});

test("aiDoubleClick counts twice; the planner's Swipe and DragAndDrop move one finger", async () => {
  await openNote(8);
  let step = 0;
  const { agent } = await mobileAgent({
    locate: locateBy(phone, { "the +1 button": "#increment" }),
    async plan() {
      step++;
      if (step === 1) {
        return {
          log: "swipe up",
          action: { type: "Swipe", param: { direction: "up", distance: 200 } },
        };
      }
      if (step === 2) {
        return {
          log: "drag",
          action: {
            type: "DragAndDrop",
            param: {
              from: { prompt: "the count", box: await boxOf("#count") },
              to: { prompt: "the +1 button", box: await boxOf("#increment") },
            },
          },
        };
      }
      return { log: "done", finished: true };
    },
  });
  await agent.aiDoubleClick("the +1 button");
  assert.equal(await page().locator("#count").textContent(), "2");
  assert.match(uiInputs().at(-1) ?? "", /^doubleClick \d+ \d+$/);
  const from = await boxOf("#count");
  const to = await boxOf("#increment");
  await agent.aiAct("swipe up, then drag the count onto the +1 button");
  const swipe = lastInput(phone, "swipe");
  assert.ok(swipe && swipe.x1 === swipe.x2, "a vertical swipe");
  // 200 vp up from the screen's center, in physical pixels.
  assert.ok(Math.abs(swipe.y1 - swipe.y2 - 200 * DENSITY) <= 1, JSON.stringify(swipe));
  const touches = phone.inputs.filter((i) => i.type === "touch").slice(-2) as Extract<
    VirtualPhone["inputs"][number],
    { type: "touch" }
  >[];
  const near = (v: number, start: number, size: number) =>
    v >= start * DENSITY - 2 && v <= (start + size) * DENSITY + 2;
  const down = phone.inputs.filter((i) => i.type === "touch" && i.action === "down").at(-1) as
    | Extract<VirtualPhone["inputs"][number], { type: "touch" }>
    | undefined;
  assert.ok(down && near(down.x, from.left, from.width) && near(down.y, from.top, from.height));
  const up = touches.at(-1);
  assert.ok(
    up && up.action === "up" && near(up.x, to.left, to.width) && near(up.y, to.top, to.height),
  );
  assert.match(uiInputs().at(-1) ?? "", /^drag \d+ \d+ \d+ \d+ \d+$/);
});

test("legacy typing with keyboardTypeDelay sends one code point at a time; custom actions follow", async () => {
  await openNote(9);
  const custom = {
    name: "Shake",
    description: "Shake the device.",
    params: [],
    call: () => Promise.resolve(),
  };
  const { agent, device } = await mobileAgent(
    { locate: locateBy(phone, { "the Text field": "#note-text" }) },
    { keyboardTypeDelay: 5, customActions: [custom] },
  );
  assert.equal(device.actionSpace().at(-1)?.name, "Shake");
  const before = uiInputs().length;
  await agent.aiInput("the Text field", { value: "añ" });
  assert.equal(await page().locator("#note-text").inputValue(), "añ");
  assert.deepEqual(
    uiInputs().slice(before).filter((c) => c.startsWith("text ")),
    ["text 'a'", "text 'ñ'"],
  );
  // keyboardTypeDelay: 0 on the call lets 'bulk' send the whole text in one call.
  const bulk = uiInputs().length;
  await agent.aiInput("the Text field", {
    value: "one call",
    inputStrategy: "bulk",
    keyboardTypeDelay: 0,
  });
  assert.deepEqual(
    uiInputs().slice(bulk).filter((c) => c.startsWith("text ")),
    ["text 'one call'"],
  );
  await assert.rejects(
    agent.aiInput("the Text field", { value: "x", inputStrategy: "bulk" }),
    /'bulk' as 'keyboardTypeDelay' must be 0 or unset/,
  );
});

test("device listing: hdc list targets, TOOL_HOME, more phones, [Empty]", async () => {
  assert.deepEqual(await getConnectedDevices({ toolPath: front.toolPath }), [
    { udid: front.connectKey },
  ]);
  const second = await startVirtualPhone({ browser, width: 720, height: 1280, density: 2 });
  const key = front.addPhone(second, "FMR0SIMULATOR2");
  const saved = process.env.TOOL_HOME;
  try {
    // Without toolPath the SDK finds hdc through TOOL_HOME.
    process.env.TOOL_HOME = front.toolDir;
    assert.deepEqual(
      (await getConnectedDevices()).map((d) => d.udid),
      [front.connectKey, key],
    );
    const agent = await agentFromToolDevice(key, { generateReport: false });
    agents.push(agent);
    assert.deepEqual(await agent.interface.size(), { width: 360, height: 640, dpr: 2 });
    await agent.interface.destroy();
    const first = await agentFromToolDevice(undefined, { generateReport: false });
    agents.push(first);
    assert.equal(first.interface.deviceId, front.connectKey);
  } finally {
    if (saved === undefined) delete process.env.TOOL_HOME;
    else process.env.TOOL_HOME = saved;
    front.removePhone(key);
    await second.close();
  }
  const empty = await startHdcFront(second, { connectKey: "gone" });
  try {
    empty.removePhone("gone");
    assert.deepEqual(await getConnectedDevices({ toolPath: empty.toolPath }), []);
    await assert.rejects(
      agentFromToolDevice(undefined, { toolPath: empty.toolPath }),
      (e: Error) =>
        e instanceof DeviceNotFoundError && e.code === "DEVICE_NOT_FOUND" &&
        e.available.length === 0 &&
        /No HarmonyOS device is connected: `hdc list targets` lists none/.test(e.message),
    );
  } finally {
    await empty.close();
  }
});

test("an unknown device id is a DeviceNotFoundError naming the connected devices", async () => {
  await assert.rejects(
    agentFromToolDevice("192.168.0.9:5555", { toolPath: front.toolPath, generateReport: false }),
    (error: Error) =>
      error instanceof DeviceNotFoundError && error.code === "DEVICE_NOT_FOUND" &&
      error.wanted === "192.168.0.9:5555" && error.available.includes(front.connectKey) &&
      /"192.168.0.9:5555" is not connected; connected devices: /.test(error.message) &&
      error.message.includes(front.connectKey),
  );
  // A device over it: hdc's own answer, and the devices hdc lists.
  const device = new MobileCDevice("192.168.0.9:5555", { toolPath: front.toolPath });
  await assert.rejects(
    device.screenshotBase64(),
    (error: Error) =>
      error instanceof DeviceNotFoundError && error.code === "DEVICE_NOT_FOUND" &&
      error.wanted === "192.168.0.9:5555" && error.available.includes(front.connectKey) &&
      /hdc -t 192.168.0.9:5555 shell .*failed.*\[Fail\]Not match target founded/.test(
        error.message,
      ) && error.message.includes(`connected devices: ${front.connectKey}`),
  );
  await device.destroy();
});

test("hdc missing: a MissingDependencyError naming where the SDK looked and how to install hdc", async () => {
  await assert.rejects(
    getConnectedDevices({ toolPath: "/nonexistent/hdc" }),
    (error: Error) =>
      error instanceof MissingDependencyError && error.code === "DEPENDENCY_MISSING" &&
      error.dependency === "hdc" &&
      /not at toolPath "\/nonexistent\/hdc"/.test(error.message) &&
      error.message.includes("DevEco Studio") && error.message.includes("TOOL_HOME"),
  );
  // The device fails its first command the same way, before any hdc run (the list of places
  // looked in without toolPath is unit-tested in mobilec/tool_test.ts with its own environment).
  const runs = front.commands.length;
  const device = new MobileCDevice(front.connectKey, { toolPath: "/nonexistent/hdc" });
  await assert.rejects(
    device.screenshotBase64(),
    (e: Error) =>
      e instanceof MissingDependencyError && /not at toolPath "\/nonexistent\/hdc"/.test(e.message),
  );
  assert.equal(front.commands.length, runs);
  await device.destroy();
});

test("options are checked in the constructor", () => {
  assert.throws(() => new MobileCDevice(""), /'deviceId' must be a non-empty connect key/);
  assert.throws(
    () => new MobileCDevice("x", { keyboardDismissStrategy: "never" as "esc-first" }),
    /'keyboardDismissStrategy' must be 'esc-first' or 'back-first'/,
  );
  assert.throws(
    () => new MobileCDevice("x", { inputStrategy: "bulk", keyboardTypeDelay: 5 }),
    RangeError,
  );
  assert.throws(() => new MobileCDevice("x", { keyboardTypeDelay: -1 }), RangeError);
  assert.throws(
    () => new MobileCDevice("x", { autoDismissKeyboard: "yes" as unknown as boolean }),
    /'autoDismissKeyboard' must be a boolean/,
  );
  assert.throws(
    () =>
      new MobileCAgent(new MobileCDevice("x"), {
        appNameMapping: { Notes: "" },
        generateReport: false,
      }),
    /'appNameMapping' must be an object/,
  );
});

/**
 * A tool in front of the simulator's hdc that misbehaves on `uitest uiInput` runs: it exits 3
 * with its own message, or hangs, as a broken or stuck hdc would; every other run goes through.
 */
async function misbehavingTool(kind: "fail" | "hang"): Promise<{ path: string; dir: string }> {
  const dir = await Deno.makeTempDir({ prefix: "sdk-hdc-wrapper-" });
  const path = `${dir}/hdc`;
  const misbehave = kind === "fail"
    ? `echo "hdc: the device refused the input (error 0x2f)" >&2; exit 3`
    : "exec sleep 30";
  await Deno.writeTextFile(
    path,
    `#!/bin/sh\ncase "$*" in *uiInput*) ${misbehave};; esac\nexec "${front.toolPath}" "$@"\n`,
  );
  await Deno.chmod(path, 0o755);
  return { path, dir };
}

test("hdc exiting non-zero is a ToolError with its own message, verbatim", async () => {
  const tool = await misbehavingTool("fail");
  try {
    const device = new MobileCDevice(front.connectKey, { toolPath: tool.path });
    await assert.rejects(
      device.home(),
      (error: Error) =>
        error instanceof ToolError && error.code === "TOOL_FAILED" && error.tool === "hdc" &&
        error.status === 3 &&
        error.output === "hdc: the device refused the input (error 0x2f)" &&
        error.message.includes("hdc -t") && error.message.includes("exit code 3") &&
        error.message.includes("hdc: the device refused the input (error 0x2f)"),
    );
    await device.destroy();
  } finally {
    await Deno.remove(tool.dir, { recursive: true });
  }
});

test("a hdc run that does not finish within toolTimeout is a ConnectionError (timeout) naming the command", async () => {
  const tool = await misbehavingTool("hang");
  try {
    // Long enough for a screenshot through the simulator's hdc on a loaded machine, far shorter
    // than the hang.
    const device = new MobileCDevice(front.connectKey, { toolPath: tool.path, toolTimeout: 5000 });
    await assert.rejects(
      device.home(),
      (e: Error) =>
        e instanceof ConnectionError && e.code === "CONNECTION_TIMEOUT" &&
        e.endpoint === front.connectKey &&
        /hdc -t \S+ shell "uitest uiInput keyEvent Home" did not finish within 5000 ms/.test(
          e.message,
        ),
    );
    // The device is still usable: the next run is not held by the stopped one.
    assert.ok((await device.screenshotBase64()).length > 1000);
    await device.destroy();
  } finally {
    await Deno.remove(tool.dir, { recursive: true });
  }
  assert.throws(
    () => new MobileCDevice("x", { toolTimeout: 0 }),
    /'toolTimeout' must be a finite number of ms > 0/,
  );
});
