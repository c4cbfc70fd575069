import { test } from "../tests/helpers/test.ts";
import assert from "node:assert/strict";
import { pinchPath } from "./scrcpy_pinch.ts";

const screen = { width: 1080, height: 2400, dpr: 2.625 };
const gap = (fingers: [number, number][]) =>
  Math.hypot(fingers[0][0] - fingers[1][0], fingers[0][1] - fingers[1][1]);

test("pinchPath: out spreads the fingers by distance from 40 dp, in brings them together", () => {
  const out = pinchPath([540, 1200], "out", 300, screen);
  assert.equal(gap(out.from), 40 * 2.625);
  assert.equal(gap(out.to), 40 * 2.625 + 300);
  // Around the center, along the axis with more room: the long side of a portrait screen.
  assert.deepEqual(out.from.map(([x]) => x), [540, 540]);
  assert.equal((out.to[0][1] + out.to[1][1]) / 2, 1200);
  const inward = pinchPath([540, 1200], "in", 300, screen);
  assert.deepEqual(inward.from, out.to);
  assert.deepEqual(inward.to, out.from);
});

test("pinchPath keeps the fingers on the screen and uses the roomier axis near an edge", () => {
  const nearLeft = pinchPath([100, 1200], "out", 2000, screen);
  assert.deepEqual(nearLeft.to.map(([x]) => x), [100, 100], "vertical near the left edge");
  for (const [x, y] of [...nearLeft.from, ...nearLeft.to]) {
    assert.ok(x >= 0 && x < screen.width && y >= 0 && y < screen.height, `(${x}, ${y})`);
  }
});
