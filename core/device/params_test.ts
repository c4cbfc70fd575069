import { test } from "../../tests/helpers/test.ts";
import assert from "node:assert/strict";
import {
  readEnumParam,
  readLocateCenter,
  readLocateParam,
  readPositiveNumberParam,
  readStringParam,
} from "./params.ts";

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

test("readLocateCenter gives a required locate's center, by default 'locate'", () => {
  const at = { description: "x", center: [3, 4], rect: { left: 0, top: 0, width: 6, height: 8 } };
  assert.deepEqual(readLocateCenter("Tap", { locate: at }), [3, 4]);
  assert.deepEqual(readLocateCenter("DragAndDrop", { to: at }, "to"), [3, 4]);
  assert.throws(
    () => readLocateCenter("DragAndDrop", { locate: at }, "from"),
    /Cannot run DragAndDrop: 'from' is required/,
  );
});
