import { test } from "../../tests/helpers/test.ts";
import assert from "node:assert/strict";
import { limitSize } from "./_scrcpy_server.ts";

test("limitSize: scrcpy's max_size limit, then both sides to multiples of 8", () => {
  assert.deepEqual(limitSize(1080, 2400, 0), { width: 1080, height: 2400 });
  assert.deepEqual(limitSize(1080, 2400, 800), { width: 360, height: 800 });
  // 1080 * 1024 / 2400 = 460.8 -> 460 -> rounded to the nearest multiple of 8: 464.
  assert.deepEqual(limitSize(1080, 2400, 1024), { width: 464, height: 1024 });
  // Landscape, and a size that is not a multiple of 8 without a limit.
  assert.deepEqual(limitSize(2400, 1080, 800), { width: 800, height: 360 });
  assert.deepEqual(limitSize(1170, 2532, 0), { width: 1168, height: 2528 });
});
