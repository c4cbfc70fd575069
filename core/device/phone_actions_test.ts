import { test } from "../../tests/helpers/test.ts";
import assert from "node:assert/strict";
import {
  buttonAction,
  type PhoneActionHost,
  phoneActions,
  type PhoneActionText,
} from "./phone_actions.ts";
import { scrollStrokes, type Stroke } from "./gestures.ts";
import type { ActionParams } from "./params.ts";
import type { DeviceAction, Point } from "./types.ts";

const at = (x: number, y: number) => ({
  description: "it",
  center: [x, y] as Point,
  rect: { left: x - 5, top: y - 5, width: 10, height: 10 },
});

const TEXT: PhoneActionText = {
  unit: "dp",
  swipeMs: 300,
  keyboardPress: { description: "Press a phone key.", param: "Enter, a" },
  longPress: { defaultDurationMs: 2000 },
  launch: { description: "Open an app.", param: "an app name or package" },
  terminate: { description: "Stop an app.", param: "the app's name" },
};

function phone(
  extra: Partial<PhoneActionHost> = {},
): { host: PhoneActionHost; calls: unknown[][] } {
  const calls: unknown[][] = [];
  const record = (...call: unknown[]) => {
    calls.push(call);
    return Promise.resolve();
  };
  const host: PhoneActionHost = {
    size: () => Promise.resolve({ width: 400, height: 800, dpr: 2 }),
    tap: (p) => record("tap", p),
    doubleTap: (p) => record("doubleTap", p),
    swipe: (from, to, ms) => record("swipe", from, to, ms),
    dragAndDrop: (from, to) => record("drag", from, to),
    longPress: (p, ms) => record("hold", p, ms),
    clearField: () => record("clear"),
    typeText: (text) => record("type", text),
    key: (name) => () => record("key", name),
    resolveApp: (target) => target === "Settings" ? "com.android.settings" : target,
    launch: (target) => record("launch", target),
    terminate: (target) => record("terminate", target),
    ...extra,
  };
  return { host, calls };
}

const named = (actions: DeviceAction[], name: string) => actions.find((a) => a.name === name)!;
const call = (action: DeviceAction, param: ActionParams) => action.call(param, {});

test("phoneActions: the shared actions in the planner's order, worded by the platform", () => {
  const { screen, apps } = phoneActions(phone().host, TEXT);
  assert.equal(
    screen.map((a) => a.name).join(" "),
    "Tap DoubleClick Input ClearInput KeyboardPress Scroll Swipe DragAndDrop LongPress",
  );
  assert.deepEqual(apps.map((a) => a.name), ["Launch", "Terminate"]);
  const press = named(screen, "KeyboardPress");
  assert.equal(press.description, "Press a phone key.");
  assert.equal(press.params.find((p) => p.name === "keyName")!.description, "Enter, a");
  assert.match(named(screen, "Scroll").params.at(-1)!.description, /^dp to scroll/);
  assert.match(named(screen, "Swipe").params.at(-1)!.description, /300 when left out/);
  assert.equal(named(screen, "DoubleClick").description, "Double-tap an element (two quick taps).");
  assert.deepEqual(apps[0].params, [
    { name: "uri", type: "string", required: true, description: "an app name or package" },
  ]);
  assert.equal(apps[1].description, "Stop an app.");
});

test("phoneActions hands the host logical points, the platform's defaults and resolved apps", async () => {
  const { host, calls } = phone();
  const { screen, apps } = phoneActions(host, TEXT);
  await call(named(screen, "Tap"), { locate: at(1, 2) });
  await call(named(screen, "DoubleClick"), { locate: at(3, 4) });
  await call(named(screen, "Swipe"), { start: at(5, 6), end: at(7, 8) });
  await call(named(screen, "DragAndDrop"), { from: at(1, 1), to: at(2, 2) });
  await call(named(screen, "LongPress"), { locate: at(9, 9) });
  await call(named(screen, "LongPress"), { locate: at(9, 9), duration: 250 });
  await call(apps[0], { uri: "Settings" });
  await call(apps[1], { uri: "com.x" });
  assert.deepEqual(calls, [
    ["tap", [1, 2]],
    ["doubleTap", [3, 4]],
    ["swipe", [5, 6], [7, 8], 300],
    ["drag", [1, 1], [2, 2]],
    ["hold", [9, 9], 2000],
    ["hold", [9, 9], 250],
    ["launch", "com.android.settings"],
    ["terminate", "com.x"],
  ]);
  await assert.rejects(call(apps[0], {}), /Cannot run Launch: 'uri' must be a string/);
  await assert.rejects(
    call(named(screen, "DragAndDrop"), { from: at(1, 1) }),
    /Cannot run DragAndDrop: 'to' is required/,
  );
});

test("a fixed hold neither reads nor checks LongPress's duration", async () => {
  const { host, calls } = phone();
  const fixed = { ...TEXT, longPress: { defaultDurationMs: 1500, fixedHold: true } };
  const hold = named(phoneActions(host, fixed).screen, "LongPress");
  await call(hold, { locate: at(9, 9), duration: "soon" });
  assert.deepEqual(calls, [["hold", [9, 9], 1500]]);
  const checked = named(phoneActions(host, TEXT).screen, "LongPress");
  await assert.rejects(call(checked, { locate: at(9, 9), duration: "soon" }), /'duration'/);
});

test("Scroll goes to the host's own scroll when it has one, else stroke by stroke as swipes", async () => {
  const plain = phone();
  await call(named(phoneActions(plain.host, TEXT).screen, "Scroll"), {
    scrollType: "scrollToBottom",
  });
  assert.equal(plain.calls.length, 5);
  assert.ok(plain.calls.every((c) => c[0] === "swipe" && c[3] === 150));
  const seen: Stroke[][] = [];
  const own = phone({ scroll: (strokes) => Promise.resolve(void seen.push([...strokes])) });
  await call(named(phoneActions(own.host, TEXT).screen, "Scroll"), { direction: "down" });
  assert.deepEqual(own.calls, []);
  assert.deepEqual(seen, [scrollStrokes({ direction: "down" }, await own.host.size())]);
});

test("buttonAction: no parameters, presses the button", async () => {
  let pressed = 0;
  const back = buttonAction("PhoneBack", "Press Back.", () => Promise.resolve(void pressed++));
  assert.deepEqual([back.name, back.description, back.params], ["PhoneBack", "Press Back.", []]);
  await back.call({}, {});
  assert.equal(pressed, 1);
});
