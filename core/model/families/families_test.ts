import { test } from "node:test";
import assert from "node:assert/strict";
import { getModelFamily } from "./mod.ts";
import { ModelResponseError } from "../../errors.ts";

const img = (w: number, h: number, cw = w, ch = h) => ({
  width: w,
  height: h,
  contentWidth: cw,
  contentHeight: ch,
});

test("default family maps 0-1000 boxes with round(v * (size - 1) / 1000)", () => {
  const r = getModelFamily(undefined).toPixelRect([100, 200, 300, 400], img(1001, 501));
  assert.deepEqual(r, { left: 100, top: 100, width: 200, height: 100 });
});

test("qwen3-vl reads loosely formatted boxes and points", () => {
  const f = getModelFamily("qwen3-vl");
  assert.deepEqual(
    f.toPixelRect("100 200 300 400", img(1001, 501)),
    f.toPixelRect([[100, 200, 300, 400]], img(1001, 501)),
  );
  // A point becomes a +-1% box around it; its center stays on the point.
  const p = f.toPixelRect([500, 500], img(1001, 1001));
  assert.equal(p.left + p.width / 2, 500);
  assert.equal(p.top + p.height / 2, 500);
  assert.equal(p.width, 20);
});

test("gemini boxes are y first", () => {
  const g = getModelFamily("gemini").toPixelRect([200, 100, 400, 300], img(1001, 501));
  assert.deepEqual(g, { left: 100, top: 100, width: 200, height: 100 });
});

test("qwen2.5-vl boxes are absolute pixels clamped back from the padding", () => {
  const f = getModelFamily("qwen2.5-vl");
  assert.equal(f.padToMultipleOf, 28);
  const r = f.toPixelRect([10, 20, 110, 70], img(1288, 812, 1280, 800));
  assert.deepEqual(r, { left: 10, top: 20, width: 100, height: 50 });
  const clamped = f.toPixelRect([1200, 700, 1285, 810], img(1288, 812, 1280, 800));
  assert.deepEqual(clamped, { left: 1200, top: 700, width: 79, height: 99 });
});

test("reversed or out-of-range boxes are errors naming family, value and image size", () => {
  const f = getModelFamily("qwen3-vl");
  assert.throws(() => f.toPixelRect([300, 200, 100, 400], img(1000, 500)), (e: unknown) => {
    assert.ok(e instanceof ModelResponseError);
    assert.match(e.message, /qwen3-vl.*\[300,200,100,400\].*reversed.*1000x500/);
    return true;
  });
  assert.throws(() => f.toPixelRect([0, 0, 1200, 10], img(1000, 500)), /outside the 0-1000 range/);
  assert.throws(
    () => getModelFamily("qwen2.5-vl").toPixelRect([0, 0, 2000, 10], img(1288, 812, 1280, 800)),
    /outside the image.*1288x812/,
  );
  assert.throws(() => f.toPixelRect("no numbers", img(1000, 500)), /neither a point nor a box/);
});
