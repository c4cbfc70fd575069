import { test } from "../../tests/helpers/test.ts";
import assert from "node:assert/strict";
import { padRightBottomWhite, resizeBox } from "./resample.ts";

const gray = (values: number[]) => Uint8Array.from(values.flatMap((v) => [v, v, v, 255]));

test("box resize by 2 averages each 2x2 block", () => {
  const src = { width: 4, height: 2, data: gray([0, 100, 200, 50, 100, 200, 0, 150]) };
  const out = resizeBox(src, 2, 1);
  assert.deepEqual([out.width, out.height], [2, 1]);
  assert.deepEqual(Array.from(out.data), [100, 100, 100, 255, 100, 100, 100, 255]);
});

test("box resize by a fractional ratio weights partly covered pixels", () => {
  // 3 -> 2: output 0 covers source 0 fully and half of source 1.
  const out = resizeBox({ width: 3, height: 1, data: gray([0, 90, 180]) }, 2, 1);
  assert.deepEqual([out.data[0], out.data[4]], [30, 150]);
});

test("box resize keeps a flat color exactly", () => {
  const out = resizeBox({ width: 7, height: 5, data: gray(new Array(35).fill(77)) }, 3, 2);
  assert.ok(Array.from(out.data).every((v, i) => v === (i % 4 === 3 ? 255 : 77)));
});

test("box resize rejects non-integer or empty targets", () => {
  const src = { width: 2, height: 2, data: gray([0, 0, 0, 0]) };
  assert.throws(() => resizeBox(src, 0, 1), RangeError);
  assert.throws(() => resizeBox(src, 1.5, 1), RangeError);
});

test("padding adds opaque white on the right and bottom only", () => {
  const out = padRightBottomWhite({ width: 1, height: 1, data: gray([10]) }, 2, 2);
  assert.deepEqual(Array.from(out.data), [
    ...[10, 10, 10, 255],
    ...[255, 255, 255, 255],
    ...[255, 255, 255, 255],
    ...[255, 255, 255, 255],
  ]);
  assert.throws(() => padRightBottomWhite(out, 1, 2), RangeError);
});
