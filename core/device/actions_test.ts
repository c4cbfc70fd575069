import { test } from "node:test";
import assert from "node:assert/strict";
import {
  inputAction,
  longPressAction,
  readEnumParam,
  readLocateParam,
  readPositiveNumberParam,
  readStringParam,
  scrollAction,
  swipeAction,
  tapAction,
} from "./actions.ts";
import type { ActionContext } from "./types.ts";

test("a shared action carries its schema, the platform's wording and extra params", () => {
  const tap = tapAction(() => Promise.resolve(), {
    description: "Click it.",
    params: { locate: "the element to click" },
    extraParams: [{ name: "files", type: "files", required: false, description: "files" }],
  });
  assert.equal(tap.name, "Tap");
  assert.equal(tap.description, "Click it.");
  assert.deepEqual(tap.params.map((p) => [p.name, p.type, p.required, p.description]), [
    ["locate", "locate", true, "the element to click"],
    ["files", "files", false, "files"],
  ]);
  assert.equal(tapAction(() => Promise.resolve()).description, "Tap an element once.");
});

test("lengths and durations are worded in the platform's unit and default", () => {
  const scroll = scrollAction(() => Promise.resolve(), { unit: "pixels" });
  assert.match(scroll.params.find((p) => p.name === "distance")!.description, /^pixels to scroll/);
  const swipe = swipeAction(() => Promise.resolve(), { unit: "pixels", defaultDurationMs: 700 });
  assert.match(swipe.params.find((p) => p.name === "duration")!.description, /700 when left out/);
  const hold = longPressAction(() => Promise.resolve(), { defaultDurationMs: 2000 });
  assert.match(hold.params[1].description, /2000 when left out/);
  assert.deepEqual(inputAction(() => Promise.resolve()).params[2].values, [
    "replace",
    "typeOnly",
    "clear",
  ]);
});

test("call hands the implementation {} for a missing param and refuses an aborted signal", async () => {
  const seen: unknown[] = [];
  const tap = tapAction((param, context) => {
    seen.push(param, context);
    return Promise.resolve();
  });
  await tap.call(undefined as unknown as Record<string, unknown>, {});
  assert.deepEqual(seen, [{}, {}]);
  const aborted: ActionContext = { signal: AbortSignal.abort(new Error("stop")) };
  await assert.rejects(tap.call({}, aborted), /stop/);
  assert.equal(seen.length, 2);
});

test("the readers check params and name the action and parameter", () => {
  const at = { description: "x", center: [1, 2], rect: { left: 0, top: 0, width: 2, height: 4 } };
  assert.equal(readLocateParam("Tap", { locate: at }, true), at);
  assert.equal(readLocateParam("Tap", {}, false), undefined);
  assert.throws(() => readLocateParam("Tap", {}, true), /Cannot run Tap: 'locate' is required/);
  assert.throws(() => readLocateParam("Tap", { locate: { center: [1] } }, true), TypeError);
  assert.equal(readStringParam("Input", { value: 42 }, "value", true), "42");
  assert.throws(() => readStringParam("Input", {}, "value", true), /'value' must be a string/);
  assert.equal(readEnumParam("Scroll", {}, "direction", ["up", "down"], "down"), "down");
  assert.throws(
    () => readEnumParam("Scroll", { direction: "sideways" }, "direction", ["up"], "up"),
    /must be one of 'up'/,
  );
  assert.equal(readPositiveNumberParam("Swipe", { distance: "12" }, "distance"), 12);
  assert.throws(() => readPositiveNumberParam("Swipe", { distance: 0 }, "distance"), RangeError);
  assert.throws(() => readPositiveNumberParam("Swipe", { distance: "x" }, "distance"), TypeError);
});
