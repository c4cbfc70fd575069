import { test } from "../../tests/helpers/test.ts";
import assert from "node:assert/strict";
import { DEFAULT_SCREENSHOT_QUALITY, mimeOf, resolveScreenshotEncoding } from "./encoding.ts";

test("resolveScreenshotEncoding() defaults to JPEG at the default quality", () => {
  assert.deepEqual(resolveScreenshotEncoding(undefined, undefined), {
    format: "jpeg",
    quality: DEFAULT_SCREENSHOT_QUALITY,
  });
  assert.deepEqual(resolveScreenshotEncoding("png", undefined), {
    format: "png",
    quality: DEFAULT_SCREENSHOT_QUALITY,
  });
  assert.deepEqual(resolveScreenshotEncoding("jpeg", 85), { format: "jpeg", quality: 85 });
  assert.deepEqual(resolveScreenshotEncoding(undefined, 1), { format: "jpeg", quality: 1 });
  assert.deepEqual(resolveScreenshotEncoding(undefined, 100), { format: "jpeg", quality: 100 });
});

test("resolveScreenshotEncoding() names the option and the value it rejects", () => {
  for (const bad of ["webp", "JPEG", "jpg", "", 1, null]) {
    assert.throws(
      () => resolveScreenshotEncoding(bad, undefined),
      (e: unknown) =>
        e instanceof TypeError && /'screenshotFormat' must be "jpeg" or "png"/.test(e.message) &&
        e.message.includes(JSON.stringify(bad)),
    );
  }
  for (const bad of [0, 101, 80.5, -1, NaN, Infinity, "80", null]) {
    assert.throws(
      () => resolveScreenshotEncoding("jpeg", bad),
      (e: unknown) =>
        e instanceof RangeError &&
        /'screenshotQuality' must be an integer from 1 to 100/.test(e.message) &&
        e.message.includes(String(bad)),
    );
  }
});

test("mimeOf() gives the media type of each format", () => {
  assert.equal(mimeOf("jpeg"), "image/jpeg");
  assert.equal(mimeOf("png"), "image/png");
});
