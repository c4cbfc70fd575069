import { test } from "../../tests/helpers/test.ts";
import assert from "node:assert/strict";
import { clampToViewport, linePath, pinchPath, swipeEnd } from "./_gestures.ts";

const viewport = { width: 1280, height: 800 };

test("linePath gives count + 1 evenly spaced points, both ends included", () => {
  assert.deepEqual(linePath([0, 0], [100, 50], 4), [
    [0, 0],
    [25, 12.5],
    [50, 25],
    [75, 37.5],
    [100, 50],
  ]);
});

test("pinchPath out spreads two fingers on the roomier axis by the distance, in reverses it", () => {
  const out = pinchPath([640, 400], "out", 200, viewport);
  assert.deepEqual(out, { from: [[620, 400], [660, 400]], to: [[520, 400], [760, 400]] });
  const inward = pinchPath([640, 400], "in", 200, viewport);
  assert.deepEqual(inward, { from: out.to, to: out.from });
});

test("pinchPath near a side edge pinches vertically and cuts the distance to stay on screen", () => {
  const { from, to } = pinchPath([30, 400], "out", 1000, viewport);
  assert.deepEqual(from, [[30, 380], [30, 420]]);
  // The room above and below the center is 2 x 399 px.
  assert.deepEqual(to, [[30, 1], [30, 799]]);
});

test("swipeEnd moves the way of the direction and stays inside the viewport", () => {
  assert.deepEqual(swipeEnd([210, 160], "left", 200, viewport), [10, 160]);
  assert.deepEqual(swipeEnd([210, 160], "left", 500, viewport), [0, 160]);
  assert.deepEqual(swipeEnd([210, 160], "down", 2000, viewport), [210, 799]);
  assert.deepEqual(clampToViewport([-5, 900], viewport), [0, 799]);
});
