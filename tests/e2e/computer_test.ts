/**
 * `@sdk/computer` end to end on a real X server: a private Xvfb (1280 x 800, plus an xrandr
 * monitor "SIDE" over part of it), the Tk fixture app of `tests/fixtures/desktop/app.py` on it,
 * nut-js driving mouse, keyboard and clipboard through XTest. The test model answers locate calls
 * with the widget rectangles the app reports about itself, relative to the display the device
 * controls, and every check reads the app's real state.
 *
 * The headless and no-display cases run in child processes
 * (`tests/fixtures/desktop/headless_child.ts`), which start with no DISPLAY of their own.
 *
 * @module
 */

import { before } from "node:test";
import { after, test } from "../helpers/test.ts";
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { execFile } from "node:child_process";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { PNG } from "pngjs";
import {
  agentForComputer,
  agentFromComputer,
  checkComputerEnvironment,
  ComputerAgent,
  ComputerDevice,
  type ComputerDeviceOptions,
  desktopKeys,
} from "@sdk/computer";
import { DeviceNotFoundError, SdkRangeError, SdkTypeError } from "@sdk/core";
import { startTestModel } from "@sdk/core/testing";
import type { TargetBox, TestModel, TestModelScript } from "@sdk/core/testing";
import {
  type DesktopApp,
  type DesktopAppState,
  ensureDesktopTools,
  nutJsDir,
  startDesktopApp,
  startTestDisplay,
  type TestDisplay,
  untilAppState,
  type WidgetBox,
} from "../helpers/desktop.ts";

const SIDE = { name: "SIDE", geometry: "600x300+400+0" };
const CHILD = fileURLToPath(new URL("../fixtures/desktop/headless_child.ts", import.meta.url));

let display: TestDisplay;
let app: DesktopApp;
const models: TestModel[] = [];
const agents: ComputerAgent[] = [];

before(async () => {
  await ensureDesktopTools();
  display = await startTestDisplay("1280x800x24", [SIDE]);
  process.env.DISPLAY = display.display;
  process.env.SDK_NUT_JS_DIR = nutJsDir();
  app = await startDesktopApp(display.display);
});

after(async () => {
  for (const agent of agents) await agent.destroy();
  for (const model of models) await model.close();
  await app?.close();
  await display?.close();
});

/** The widget a locate target names, from the app's own geometry. */
function widgetFor(target: string, state: DesktopAppState): WidgetBox | undefined {
  const t = target.toLowerCase();
  const w = state.widgets;
  if (t.includes("name field")) return w.name;
  if (t.includes("save")) return w.save;
  if (t.includes("double")) return w.double;
  if (t.includes("right-click")) return w.context;
  if (t.includes("hover")) return w.hover;
  if (t.includes("details")) return w.details;
  if (t.includes("list")) return w.rows;
  if (t.includes("card")) return w.card;
  if (t.includes("drop zone")) return w.zone;
  return undefined;
}

/** A planned `locate` of `widget` on the whole display (origin 0, 0). */
function box(widget: WidgetBox, prompt: string): { prompt: string; box: TargetBox } {
  return { prompt, box: onDisplay(widget, { x: 0, y: 0 }) };
}

/** A box on the controlled display: root-window pixels minus the display's origin. */
function onDisplay(box: WidgetBox, origin: { x: number; y: number }): TargetBox {
  return { left: box.x - origin.x, top: box.y - origin.y, width: box.width, height: box.height };
}

async function model(
  plan?: TestModelScript["plan"],
  origin = { x: 0, y: 0 },
): Promise<TestModel> {
  const m = await startTestModel({
    script: {
      locate: async (call) => {
        const box = widgetFor(call.target, await app.state());
        return box ? onDisplay(box, origin) : null;
      },
      ...(plan && { plan }),
    },
  });
  models.push(m);
  return m;
}

async function agentWith(
  options: ComputerDeviceOptions = {},
  plan?: TestModelScript["plan"],
  origin?: { x: number; y: number },
): Promise<ComputerAgent> {
  const m = await model(plan, origin);
  const agent = await agentForComputer({
    ...options,
    modelConfig: m.modelConfig(),
    generateReport: false,
    waitAfterAction: 50,
  });
  agents.push(agent);
  return agent;
}

const until = (check: (s: DesktopAppState) => boolean, what: string) =>
  untilAppState(() => app.state(), check, what, 10_000);

async function resetName(agent: ComputerAgent): Promise<void> {
  await agent.aiInput("the name field", { value: "", mode: "clear" });
  await until((s) => s.name === "", "the name field to be empty");
}

test("the environment check finds the display, nut-js, libXtst, Xvfb and xrandr", {
  timeout: 60_000,
}, async () => {
  const check = await checkComputerEnvironment();
  assert.equal(check.ok, true, check.problems.join("\n"));
  assert.deepEqual(check.items.map((i) => [i.name, i.ok]), [
    ["display", true],
    ["nut-js", true],
    ["libXtst", true],
    ["xvfb", true],
    ["xrandr", true],
  ]);
  assert.deepEqual(check.problems, []);
});

test("listDisplays lists the X screen's monitors; the one at the origin is the default", {
  timeout: 60_000,
}, async () => {
  const displays = await ComputerDevice.listDisplays();
  const byId = Object.fromEntries(displays.map((d) => [d.id, d]));
  assert.deepEqual(Object.keys(byId).sort(), ["SIDE", "screen"]);
  assert.deepEqual(
    { ...byId.SIDE, index: 0 },
    {
      id: "SIDE",
      index: 0,
      x: 400,
      y: 0,
      width: 600,
      height: 300,
      primary: false,
      isDefault: false,
    },
  );
  assert.equal(byId.screen.width, 1280);
  assert.equal(byId.screen.height, 800);
  assert.equal(byId.screen.isDefault, true);
});

test("the screenshot is the display in physical pixels, RGB in order, alpha 255", {
  timeout: 60_000,
}, async () => {
  const device = new ComputerDevice();
  assert.deepEqual(await device.size(), { width: 1280, height: 800, dpr: 1 });
  const uri = await device.screenshotBase64();
  assert.match(uri, /^data:image\/png;base64,/);
  const png = PNG.sync.read(Buffer.from(uri.split(",")[1], "base64"));
  assert.equal(png.width, 1280);
  assert.equal(png.height, 800);
  let transparent = 0;
  for (let i = 3; i < png.data.length; i += 4) if (png.data[i] !== 255) transparent++;
  assert.equal(transparent, 0, "every pixel is opaque");
  // The "Double-click me" label's background is #ccddee: red, green, blue in that order.
  const { double } = (await app.state()).widgets;
  const at = ((double.y + 3) * png.width + double.x + 3) * 4;
  assert.deepEqual([...png.data.subarray(at, at + 4)], [0xcc, 0xdd, 0xee, 0xff]);
  await device.destroy();
});

test("aiTap clicks the Save button where the model located it", { timeout: 60_000 }, async () => {
  const agent = await agentWith();
  const before = (await app.state()).clicks;
  await agent.aiTap("the Save button");
  await until((s) => s.clicks === before + 1, "one more click on Save");
});

test("double click, right click and hover reach their widgets", { timeout: 60_000 }, async () => {
  const agent = await agentWith();
  const start = await app.state();
  await agent.aiDoubleClick("the Double-click me label");
  await until((s) => s.doubleClicks === start.doubleClicks + 1, "a double click");
  await agent.aiRightClick("the Right-click me label");
  await until((s) => s.rightClicks === start.rightClicks + 1, "a right click");
  await agent.aiHover("the Hover me label");
  await until((s) => s.hovered, "the pointer over the hover label");
  const end = await app.state();
  assert.equal(end.clicks, start.clicks, "no stray left click on Save");
});

test("sequential input with keyboardLayout en-US types mixed case and shifted punctuation", {
  timeout: 60_000,
}, async () => {
  const agent = await agentWith({ keyboardLayout: "en-US", inputStrategy: "sequential" });
  await resetName(agent);
  const text = 'Hello, World! @#$%^&*()_+{}|:"<>?~ MiXeD 42';
  await agent.aiInput("the name field", { value: text });
  await until((s) => s.name === text, `the name field to read ${JSON.stringify(text)}`);
  assert.notEqual((await app.state()).clipboard, text, "typed with key events, not pasted");
});

test("keyboardModifierDelay: capitals, shifted punctuation and shortcuts still arrive whole", {
  timeout: 60_000,
}, async () => {
  const agent = await agentWith({
    keyboardLayout: "en-US",
    inputStrategy: "sequential",
    keyboardModifierDelay: 15,
  });
  await resetName(agent);
  await agent.aiInput("the name field", { value: "AbC!? Ok" });
  await until((s) => s.name === "AbC!? Ok", "the typed value with modifier pauses");
  const before = (await app.state()).saves;
  await agent.aiKeyboardPress("the name field", { keyName: "Control+S" });
  await until((s) => s.saves === before + 1, "Control+S with modifier pauses");
});

test(
  "legacy input pastes through the clipboard: non-ASCII text, replace mode",
  { timeout: 60_000 },
  async () => {
    const agent = await agentWith();
    await agent.aiInput("the name field", { value: "old text" });
    await until((s) => s.name === "old text", "the first value");
    const text = "Grüße, 世界! Ça va? ½ €";
    await agent.aiInput("the name field", { value: text });
    const state = await until((s) => s.name === text, "the replaced value");
    assert.equal(state.clipboard, text, "legacy input without a delay pastes");
  },
);

test("typeOnly (and its alias append) types after the content; clear and aiClearInput empty it", {
  timeout: 60_000,
}, async () => {
  const agent = await agentWith();
  await agent.aiInput("the name field", { value: "abc" });
  await agent.aiInput("the name field", { value: "-def", mode: "typeOnly" });
  await until((s) => s.name === "abc-def", "typeOnly to append");
  await agent.aiInput("the name field", { value: "+g", mode: "append" as "typeOnly" });
  await until((s) => s.name === "abc-def+g", "append to append");
  await agent.aiInput("the name field", { value: "ignored", mode: "clear" });
  await until((s) => s.name === "", "clear to empty the field");
  await agent.aiInput("the name field", { value: "again" });
  await agent.aiClearInput("the name field");
  await until((s) => s.name === "", "aiClearInput to empty the field");
});

test("a positive keyboardTypeDelay types key by key; 0 for one call pastes again", {
  timeout: 60_000,
}, async () => {
  const agent = await agentWith({ keyboardTypeDelay: 5, keyboardLayout: "en-US" });
  await resetName(agent);
  await agent.aiInput("the name field", { value: "Key by key!" });
  let state = await until((s) => s.name === "Key by key!", "the typed value");
  assert.notEqual(state.clipboard, "Key by key!");
  await agent.aiInput("the name field", { value: "Pasted!", keyboardTypeDelay: 0 });
  state = await until((s) => s.name === "Pasted!", "the pasted value");
  assert.equal(state.clipboard, "Pasted!");
  await assert.rejects(
    agent.aiInput("the name field", { value: "x", inputStrategy: "bulk" }),
    /'bulk' as 'keyboardTypeDelay' must be 0 or unset: current value is 5/,
  );
});

test("hotkeys: Control+S reaches the app; a key that does not exist is refused", {
  timeout: 60_000,
}, async () => {
  const agent = await agentWith();
  await app.focus();
  const before = (await app.state()).saves;
  await agent.aiKeyboardPress("the name field", { keyName: "ctrl+s" });
  await until((s) => s.saves === before + 1, "Control+S to be seen");
  await agent.aiInput("the name field", { value: "select me" });
  await agent.aiKeyboardPress(undefined, { keyName: "End" });
  await agent.aiKeyboardPress(undefined, { keyName: "Shift+Home" });
  await agent.aiKeyboardPress(undefined, { keyName: "Delete" });
  await until((s) => s.name === "", "End, Shift+Home, Delete to empty the field");
  await assert.rejects(
    agent.aiKeyboardPress(undefined, { keyName: "Hyper+Q" }),
    /"Hyper" in "Hyper\+Q" is not a modifier/,
  );
  await assert.rejects(
    agent.aiKeyboardPress(undefined, { keyName: "Control+é" }),
    /"é" is not a key name/,
  );
});

/**
 * Each key name and the X keysyms the app must see for it. Letters, digits and punctuation cover
 * the character keys; the rest are every named key of `computer/keys.ts` (the locks twice, to
 * leave them as they were), a few aliases, and combinations (modifiers arrive first).
 */
const KEY_NAMES: readonly [string, string[]][] = [
  ["Enter", ["Return"]],
  ["Return", ["Return"]],
  ["Tab", ["Tab"]],
  ["Escape", ["Escape"]],
  ["Esc", ["Escape"]],
  ["Backspace", ["BackSpace"]],
  ["Delete", ["Delete"]],
  ["Insert", ["Insert"]],
  ["Home", ["Home"]],
  ["End", ["End"]],
  ["PageUp", ["Prior"]],
  ["PageDown", ["Next"]],
  ["ArrowUp", ["Up"]],
  ["ArrowDown", ["Down"]],
  ["ArrowLeft", ["Left"]],
  ["ArrowRight", ["Right"]],
  ["Up", ["Up"]],
  ["Space", ["space"]],
  ["PrintScreen", ["Print"]],
  ["ScrollLock", ["Scroll_Lock"]],
  ["ScrollLock", ["Scroll_Lock"]],
  ["CapsLock", ["Caps_Lock"]],
  ["CapsLock", ["Caps_Lock"]],
  ["NumLock", ["Num_Lock"]],
  ["NumLock", ["Num_Lock"]],
  ...Array.from({ length: 12 }, (_, i): [string, string[]] => [`F${i + 1}`, [`F${i + 1}`]]),
  ["Control", ["Control_L"]],
  ["Shift", ["Shift_L"]],
  ["Alt", ["Alt_L"]],
  ["Meta", ["Super_L"]],
  ["a", ["a"]],
  ["Z", ["z"]],
  ["0", ["0"]],
  ["5", ["5"]],
  ["9", ["9"]],
  ["`", ["grave"]],
  ["-", ["minus"]],
  ["=", ["equal"]],
  ["[", ["bracketleft"]],
  ["]", ["bracketright"]],
  ["\\", ["backslash"]],
  [";", ["semicolon"]],
  ["'", ["apostrophe"]],
  [",", ["comma"]],
  [".", ["period"]],
  ["/", ["slash"]],
  ["Shift+a", ["Shift_L", "A"]],
  ["Shift+1", ["Shift_L", "exclam"]],
  ["Control+Alt+End", ["Control_L", "Alt_L", "End"]],
];

/** The key pressed after each one: what the app saw before it is what the key sent. */
const SENTINEL = "Escape";

test(
  "every named key arrives as its own key, read from what the app saw",
  { timeout: 120_000 },
  async () => {
    const agent = await agentWith();
    const wrong: string[] = [];
    for (const [keyName, expected] of KEY_NAMES) {
      // The window's own focus each time: Tab may move it.
      const before = (await app.focus()).keys.length;
      try {
        await agent.aiKeyboardPress(undefined, { keyName });
      } catch (e) {
        wrong.push(`${keyName}: ${(e as Error).message}`);
      }
      await agent.aiKeyboardPress(undefined, { keyName: SENTINEL });
      const state = await until(
        (s) => s.keys.length > before && s.keys.at(-1) === SENTINEL,
        `${keyName}, then ${SENTINEL}, to arrive`,
      );
      const seen = state.keys.slice(before, -1);
      if (JSON.stringify(seen) !== JSON.stringify(expected)) {
        wrong.push(`${keyName}: expected ${expected.join(" ")}, the app saw ${seen.join(" ")}`);
      }
    }
    assert.deepEqual(wrong, [], "every key name reaches the app as its own key");
  },
);

test("keys X11 has no key for are refused before anything is sent; the device goes on", {
  timeout: 60_000,
}, async () => {
  const agent = await agentWith();
  for (const keyName of ["F13", "F24", "Pause", "ContextMenu"]) {
    await assert.rejects(
      agent.aiKeyboardPress(undefined, { keyName }),
      (e: unknown) => {
        assert.ok(e instanceof TypeError, String(e));
        assert.equal((e as SdkTypeError).code, "INVALID_ARGUMENT");
        assert.match((e as Error).message, /nut-js cannot press ".*" under X11/);
        return true;
      },
    );
  }
  const before = (await app.focus()).keys.length;
  await agent.aiKeyboardPress(undefined, { keyName: "Home" });
  await until((s) => s.keys.slice(before).includes("Home"), "a key after the refused ones");
});

test(
  "aiScroll turns the wheel over the list: down, then back to the top",
  { timeout: 60_000 },
  async () => {
    const agent = await agentWith();
    await agent.aiScroll("the list of rows", { direction: "down", distance: 300 });
    const down = await until((s) => s.firstVisibleRow > 0, "the list to scroll down");
    await agent.aiScroll("the list of rows", { direction: "down", distance: 300 });
    await until((s) => s.firstVisibleRow > down.firstVisibleRow, "the list to scroll further");
    await agent.aiScroll("the list of rows", { scrollType: "scrollToTop" });
    await until((s) => s.firstVisibleRow === 0, "the list back at its top");
  },
);

test("aiAct: DragAndDrop moves the card into the drop zone, Swipe drags it back", {
  timeout: 60_000,
}, async () => {
  const seen: DesktopAppState[] = [];
  const agent = await agentWith({}, async () => {
    const state = seen.length === 0
      ? await app.state()
      : await until((s) => s.dropped !== null && s.dropped !== seen.at(-1)!.dropped, "a drop");
    seen.push(state);
    const card = { prompt: "the blue card", box: onDisplay(state.widgets.card, { x: 0, y: 0 }) };
    const zone = { prompt: "the drop zone", box: onDisplay(state.widgets.zone, { x: 0, y: 0 }) };
    if (seen.length === 1) {
      return {
        log: "drag the card",
        action: { type: "DragAndDrop", param: { from: card, to: zone } },
      };
    }
    if (seen.length === 2) {
      return {
        log: "swipe it back",
        action: { type: "Swipe", param: { start: card, direction: "left", distance: 200 } },
      };
    }
    return { log: "done", finished: true };
  });
  await agent.aiAct("put the blue card into the drop zone, then swipe it back 200 px to the left");
  assert.equal(seen.length, 3);
  const [, afterDrop, afterSwipe] = seen;
  const { card, zone } = afterDrop.widgets;
  const center = { x: card.x + card.width / 2, y: card.y + card.height / 2 };
  assert.ok(
    center.x >= zone.x && center.x <= zone.x + zone.width && center.y >= zone.y &&
      center.y <= zone.y + zone.height,
    `the card's center lies in the zone: ${JSON.stringify({ center, zone })}`,
  );
  assert.equal(afterSwipe.widgets.card.x, card.x - 200, "the swipe moved the card 200 px left");
  assert.equal(afterSwipe.widgets.card.y, card.y);
});

test(
  "aiAct: CursorMove moves the text cursor before a key press",
  { timeout: 60_000 },
  async () => {
    let step = 0;
    const agent = await agentWith({}, async () => {
      step++;
      const name = {
        prompt: "the name field",
        box: onDisplay((await app.state()).widgets.name, { x: 0, y: 0 }),
      };
      if (step === 1) {
        return {
          log: "type abc",
          action: { type: "Input", param: { locate: name, value: "abc" } },
        };
      }
      if (step === 2) {
        return {
          log: "two to the left",
          action: { type: "CursorMove", param: { direction: "left", times: 2 } },
        };
      }
      if (step === 3) {
        return { log: "press z", action: { type: "KeyboardPress", param: { keyName: "z" } } };
      }
      return { log: "done", finished: true };
    });
    await agent.aiAct("type abc, then put a z after the a");
    await until((s) => s.name === "azbc", "the z typed between a and b");
  },
);

test(
  "aiAct: a small dialog taking the focus drops the rest of the plan (the focused window is the screen context)",
  {
    timeout: 60_000,
  },
  async () => {
    await app.focus();
    const before = await app.state();
    const agent = await agentWith({}, async (call) => {
      if (call.kind !== "plan") return { log: "done", finished: true };
      if (call.history.length === 0) {
        return {
          log: "open the details, then type and save",
          actions: [
            { type: "Tap", param: { locate: box(before.widgets.details, "the Details button") } },
            {
              type: "Input",
              param: { locate: box(before.widgets.name, "the name field"), value: "late" },
              log: "type late into the name field",
            },
            { type: "Tap", param: { locate: box(before.widgets.save, "the Save button") } },
          ],
        };
      }
      if ((await app.state()).dialogOpen) {
        return {
          log: "close the dialog",
          action: { type: "KeyboardPress", param: { keyName: "Escape" } },
        };
      }
      return { log: "done", finished: true };
    });
    const planning = () =>
      models.at(-1)!.calls.flatMap((c) => c.call?.kind === "plan" ? [c.call] : []);
    await agent.aiAct("open the details, type late into the name field and save");
    const after = await until((s) => !s.dialogOpen, "the dialog to be closed");
    assert.equal(after.name, before.name, "the dropped Input did not run");
    assert.equal(after.clicks, before.clicks, "the dropped Save did not run");
    const second = planning()[1];
    assert.match(
      second.history.join("\n"),
      /\(not done: type late into the name field; the screen's context changed \(window 0x[0-9a-f]+ \(Tk\) -> window 0x[0-9a-f]+ \(Toplevel\)\)\)/,
    );
  },
);

test(
  "aiAct: a row pushed down by the plan's first action is not tapped; the pixels of its box changed, the rest is dropped and planned again",
  { timeout: 60_000 },
  async () => {
    await app.focus();
    const before = await app.state();
    const agent = await agentWith({}, async (call) => {
      if (call.kind !== "plan") return { log: "done", finished: true };
      const now = await app.state();
      if (call.history.length === 0) {
        return {
          log: "add a todo, then tick Walk the dog",
          actions: [
            { type: "Tap", param: { locate: box(before.widgets.addTodo, "the Add todo button") } },
            {
              type: "Tap",
              param: { locate: box(before.widgets["todo:Walk the dog"], "the Walk the dog row") },
              log: "tick Walk the dog",
            },
          ],
        };
      }
      if (!now.todos.find((t) => t.text === "Walk the dog")!.done) {
        return {
          log: "tick Walk the dog",
          action: {
            type: "Tap",
            param: { locate: box(now.widgets["todo:Walk the dog"], "the Walk the dog row") },
          },
        };
      }
      return { log: "done", finished: true };
    });
    await agent.aiAct("add a todo and tick Walk the dog");
    const after = await app.state();
    assert.deepEqual(after.todos.map((t) => [t.text, t.done]), [
      ["Pay rent", false],
      ["Walk the dog", true],
      ["Call mom", false],
    ]);
    const planning = models.at(-1)!.calls.flatMap((c) => c.call?.kind === "plan" ? [c.call] : []);
    assert.match(
      planning[1].history.join("\n"),
      /\(not done: tick Walk the dog; its target changed: its box \(.*\) shows something else now \(similarity 0\.\d\d\)\)/,
    );
  },
);

test("displayId: the SIDE monitor is the whole screen of its device, taps are offset to it", {
  timeout: 60_000,
}, async () => {
  const origin = { x: 400, y: 0 };
  const agent = await agentWith({ displayId: "SIDE" }, undefined, origin);
  assert.deepEqual(await agent.interface.size(), { width: 600, height: 300, dpr: 1 });
  const png = PNG.sync.read(
    Buffer.from((await agent.interface.screenshotBase64()).split(",")[1], "base64"),
  );
  assert.deepEqual([png.width, png.height], [600, 300]);
  const before = (await app.state()).clicks;
  await agent.aiTap("the Save button");
  await until((s) => s.clicks === before + 1, "a click on Save through the SIDE display");
  assert.equal(models.at(-1)!.calls.at(-1)!.call?.image?.width, 600);
});

test(
  "aiAct: typing that changes the window's title (an editor's unsaved mark) does not drop the rest of the plan",
  {
    timeout: 60_000,
  },
  async () => {
    await app.focus();
    const before = await app.state();
    const agent = await agentWith({}, (call) => {
      if (call.kind !== "plan" || call.history.length > 0) return { log: "done", finished: true };
      return {
        log: "type, then save",
        actions: [
          {
            type: "Input",
            param: { locate: box(before.widgets.name, "the name field"), value: "titled" },
          },
          { type: "Tap", param: { locate: box(before.widgets.save, "the Save button") } },
        ],
      };
    });
    await agent.aiAct("type titled into the name field and save");
    const after = await until((s) => s.clicks === before.clicks + 1, "the Save click");
    assert.equal(after.name, "titled");
    assert.equal(models.at(-1)!.calls.filter((c) => c.call?.kind === "plan").length, 2);
  },
);

test("an unknown displayId is a DeviceNotFoundError naming the displays there are", {
  timeout: 60_000,
}, async () => {
  const m = await model();
  const error = await agentFromComputer({ displayId: "HDMI-9", modelConfig: m.modelConfig() })
    .then(() => undefined, (e) => e);
  assert.ok(error instanceof DeviceNotFoundError, String(error));
  assert.equal(error.code, "DEVICE_NOT_FOUND");
  assert.equal(error.wanted, "HDMI-9");
  assert.deepEqual(error.available, ["SIDE", "screen"]);
  assert.match(
    error.message,
    /Cannot use displayId "HDMI-9": DISPLAY=:\d+ has 0: SIDE \(600x300\+400\+0\), 1: screen \(1280x800\+0\+0\)/,
  );
});

/** Asserts that `make` throws the SDK's coded `TypeError` or `RangeError` matching `message`. */
function throwsCoded(
  make: () => unknown,
  builtIn: typeof TypeError | typeof RangeError,
  message: RegExp,
): void {
  assert.throws(make, (e: unknown) => {
    assert.ok(e instanceof builtIn, `a ${builtIn.name}: ${e}`);
    assert.ok(e instanceof (builtIn === TypeError ? SdkTypeError : SdkRangeError));
    assert.equal(
      (e as SdkTypeError).code,
      builtIn === TypeError ? "INVALID_ARGUMENT" : "ARGUMENT_OUT_OF_RANGE",
    );
    assert.match((e as Error).message, message);
    return true;
  });
}

test("option errors are the SDK's coded TypeError and RangeError", { timeout: 60_000 }, () => {
  throwsCoded(
    () => new ComputerDevice({ keyboardTypeDelay: -1 }),
    RangeError,
    /'keyboardTypeDelay'/,
  );
  throwsCoded(
    () => new ComputerDevice({ keyboardModifierDelay: -1 }),
    RangeError,
    /'keyboardModifierDelay'/,
  );
  throwsCoded(
    () => new ComputerDevice({ headless: "yes" as unknown as boolean }),
    TypeError,
    /'headless' must be a boolean/,
  );
  throwsCoded(() => new ComputerDevice({ xvfbResolution: "big" }), TypeError, /'xvfbResolution'/);
  throwsCoded(() => new ComputerDevice({ displayId: " " }), TypeError, /'displayId'/);
  throwsCoded(
    () => new ComputerDevice({ customActions: "no" as unknown as [] }),
    TypeError,
    /customActions/,
  );
  throwsCoded(() => desktopKeys("Control+é"), TypeError, /"é" is not a key name/);
  throwsCoded(() => desktopKeys("Hyper+Q"), TypeError, /"Hyper" in "Hyper\+Q" is not a modifier/);
});

test("device options are checked in the constructor", { timeout: 60_000 }, () => {
  assert.throws(() => new ComputerDevice({ keyboardTypeDelay: -1 }), /'keyboardTypeDelay' must be/);
  assert.throws(
    () => new ComputerDevice({ inputStrategy: "bulk", keyboardTypeDelay: 3 }),
    /'bulk' as 'keyboardTypeDelay' must be 0 or unset/,
  );
  assert.throws(
    () => new ComputerDevice({ keyboardModifierDelay: Number.NaN }),
    /'keyboardModifierDelay' must be a finite number >= 0/,
  );
  assert.throws(
    () => new ComputerDevice({ keyboardLayout: "de-DE" as "en-US" }),
    /'keyboardLayout' must be 'en-US'/,
  );
  assert.throws(
    () => new ComputerDevice({ xvfbResolution: "big" }),
    /'xvfbResolution' must be <width>x<height>x<depth>/,
  );
  assert.throws(
    () => new ComputerDevice({ headless: "yes" as unknown as boolean }),
    /'headless' must be a boolean/,
  );
});

test("after destroy() the device refuses to work", { timeout: 60_000 }, async () => {
  const device = new ComputerDevice();
  await device.size();
  await device.destroy();
  await device.destroy();
  await assert.rejects(device.screenshotBase64(), /Cannot use ComputerDevice after destroy\(\)/);
});

/** Runs the child script in a fresh process; resolves its last stdout line as JSON. */
function child(
  mode: string,
  env: Record<string, string | undefined>,
): Promise<Record<string, unknown>> {
  const childEnv: Record<string, string> = {};
  for (const [k, v] of Object.entries({ ...process.env, ...env })) {
    if (v !== undefined) childEnv[k] = v;
  }
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ["run", "--allow-all", CHILD, mode],
      { env: childEnv, timeout: 120_000 },
      (e, stdout, stderr) => {
        const last = String(stdout).trim().split("\n").at(-1) ?? "";
        try {
          // The exit code shows whether Xlib ended the process (a display gone under it).
          resolve({ ...JSON.parse(last), exitCode: e ? (e as { code?: number }).code : 0 });
        } catch {
          reject(new Error(`child ${mode} failed: ${e?.message}\n${stdout}\n${stderr}`));
        }
      },
    );
  });
}

test("without a display the agent fails with what to do, and nut-js is never touched", {
  timeout: 60_000,
}, async () => {
  const result = await child("no-display", {
    DISPLAY: undefined,
    SDK_COMPUTER_HEADLESS_LINUX: undefined,
  });
  assert.equal(result.exitedCleanly, true);
  assert.match(
    String(result.error),
    /Cannot control the desktop: no X display, as DISPLAY is not set\. .*apt-get install xvfb.*headless: true/,
  );
  const dead = await child("no-display", { DISPLAY: ":987" });
  assert.match(String(dead.error), /no X server answers at DISPLAY=:987 \(\/tmp\/\.X11-unix\/X987/);
});

test(
  "headless: the agent starts its own Xvfb at xvfbResolution, works on it, stops it on destroy",
  { timeout: 60_000 },
  async () => {
    const result = await child("headless", { DISPLAY: undefined });
    assert.equal(result.error, undefined, String(result.error));
    assert.match(String(result.display), /^:\d+$/);
    assert.notEqual(result.display, display.display);
    assert.deepEqual(result.size, { width: 1024, height: 768, dpr: 1 });
    assert.deepEqual(result.image, [1024, 768]);
    assert.equal(result.clicks, 1, "aiTap clicked Save on the headless display");
    assert.equal(result.aliveBeforeDestroy, true);
    assert.equal(result.aliveAfterDestroy, false, "destroy() stopped Xvfb");
    assert.equal(result.socketAfterDestroy, false, "its X socket is gone");
    assert.equal(result.exitCode, 0, "the process ends normally after its display stopped");
  },
);

test("the environment check names nut-js and how to install it when it cannot load", {
  timeout: 60_000,
}, async () => {
  // In a child: test files may share this process's environment when they run in parallel.
  const result = await child("env-check", { SDK_NUT_JS_DIR: "/nonexistent/nut-js" });
  const check = result.check as Awaited<ReturnType<typeof checkComputerEnvironment>>;
  assert.equal(check.ok, false);
  const nut = check.items.find((i) => i.name === "nut-js")!;
  assert.equal(nut.ok, false);
  assert.match(nut.detail, /SDK_NUT_JS_DIR=\/nonexistent\/nut-js/);
  assert.match(nut.fix!, /npm install @nut-tree-fork\/nut-js/);
  assert.equal(check.problems.length, 1);
  assert.match(check.problems[0], /^nut-js: .* Fix: npm install/);
});

test("SDK_COMPUTER_HEADLESS_LINUX=true turns headless on", { timeout: 60_000 }, async () => {
  const result = await child("env-headless", {
    DISPLAY: undefined,
    SDK_COMPUTER_HEADLESS_LINUX: "true",
  });
  assert.equal(result.error, undefined, String(result.error));
  assert.deepEqual(result.size, { width: 1920, height: 1080, dpr: 1 });
  assert.equal(result.aliveAfterDestroy, false);
  assert.equal(result.exitCode, 0);
});
