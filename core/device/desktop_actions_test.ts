import { test } from "../../tests/helpers/test.ts";
import assert from "node:assert/strict";
import { type DesktopActionHost, desktopActions, type DesktopPointer } from "./desktop_actions.ts";
import type { ActionParams } from "./params.ts";
import type { DeviceAction, Point } from "./types.ts";

const at = (x: number, y: number) => ({
  description: "it",
  center: [x, y] as Point,
  rect: { left: x - 5, top: y - 5, width: 10, height: 10 },
});

function desktop(): { host: DesktopActionHost; calls: unknown[][] } {
  const calls: unknown[][] = [];
  const record = (...call: unknown[]) => {
    calls.push(call);
    return Promise.resolve();
  };
  const pointer: DesktopPointer = {
    move: (p) => record("move", p),
    button: (button, down) => record("button", button, down),
    click: (button, count) => record("click", button, count),
    wheel: (dx, dy) => record("wheel", dx, dy),
  };
  const host: DesktopActionHost = {
    pointer: () => Promise.resolve(pointer),
    size: () => Promise.resolve({ width: 1000, height: 500, dpr: 1 }),
    key: (combo) => {
      if (combo === "F24") throw new TypeError("no F24 here");
      return () => record("key", combo);
    },
    checkText: () => Promise.resolve(),
    typeText: (text) => record("type", text),
    listDisplays: () => record("displays"),
  };
  return { host, calls };
}

const named = (actions: DeviceAction[], name: string) => actions.find((a) => a.name === name)!;
const call = (action: DeviceAction, param: ActionParams) => action.call(param, {});

test("desktopActions: the desktop action space in the planner's order", () => {
  assert.equal(
    desktopActions(desktop().host).map((a) => a.name).join(" "),
    "Tap DoubleClick RightClick Hover DragAndDrop Input ClearInput KeyboardPress CursorMove " +
      "Scroll Swipe ListDisplays",
  );
});

test("desktopActions: clicks move the pointer first; Input empties the field by key names", async () => {
  const { host, calls } = desktop();
  const actions = desktopActions(host);
  await call(named(actions, "RightClick"), { locate: at(10, 20) });
  await call(named(actions, "Input"), { locate: at(30, 40), value: "hi" });
  await call(named(actions, "CursorMove"), { direction: "left", times: 2 });
  assert.deepEqual(calls, [
    ["move", [10, 20]],
    ["click", "right", 1],
    ["move", [30, 40]],
    ["click", "left", 1],
    ...(globalThis.navigator?.platform?.startsWith("Mac")
      ? [["key", "Meta+A"]]
      : [["key", "Control+End"], ["key", "Control+Shift+Home"]]),
    ["key", "Backspace"],
    ["type", "hi"],
    ["key", "ArrowLeft"],
    ["key", "ArrowLeft"],
  ]);
});

test("desktopActions: a key the desktop cannot press fails before the click", async () => {
  const { host, calls } = desktop();
  await assert.rejects(
    call(named(desktopActions(host), "KeyboardPress"), { locate: at(1, 2), keyName: "F24" }),
    /no F24 here/,
  );
  assert.deepEqual(calls, []);
});

test("desktopActions: Scroll turns the wheel, one click per 100 pixels", async () => {
  const { host, calls } = desktop();
  const scroll = named(desktopActions(host), "Scroll");
  await call(scroll, { direction: "down", distance: 300 });
  await call(scroll, { locate: at(5, 6), direction: "left", scrollType: "singleAction" });
  await call(scroll, { scrollType: "scrollToTop" });
  assert.deepEqual(calls, [
    ["wheel", 0, 3],
    ["move", [5, 6]],
    ["wheel", -7, 0],
    ["wheel", 0, -200],
  ]);
});
