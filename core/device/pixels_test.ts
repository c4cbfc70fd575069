import { test } from "../../tests/helpers/test.ts";
import assert from "node:assert/strict";
import { toPhysicalPixel } from "./pixels.ts";

test("toPhysicalPixel scales by the ratio and rounds to the nearest pixel", () => {
  const screen = { width: 1080, height: 2400 };
  assert.deepEqual(toPhysicalPixel([100, 200], 2.625, screen), [263, 525]);
  assert.deepEqual(toPhysicalPixel([0.2, 0.19], 1, screen), [0, 0]);
  assert.deepEqual(toPhysicalPixel([10.5, 3], 3, screen), [32, 9]);
});

test("toPhysicalPixel keeps the pixel on the screen", () => {
  const screen = { width: 1260, height: 2720 };
  assert.deepEqual(toPhysicalPixel([-5, -0.1], 3, screen), [0, 0]);
  assert.deepEqual(toPhysicalPixel([420, 906.7], 3, screen), [1259, 2719]);
  assert.deepEqual(toPhysicalPixel([9999, 100], 3, screen), [1259, 300]);
});
