import { test } from "../../tests/helpers/test.ts";
import assert from "node:assert/strict";
import { inputAction, longPressAction, scrollAction, swipeAction, tapAction } from "./actions.ts";
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
