import { test } from "../../tests/helpers/test.ts";
import assert from "node:assert/strict";
import { cropImage } from "./crop.ts";
import { setImageBackendForTesting } from "./backend.ts";
import { imageSizeFromDataUri } from "./size.ts";
import { nativeAddonsAllowed } from "../runtime/runtime.ts";
import { BLUE, colorDistance, fromDataUri, pattern, pixel, RED, toDataUri } from "./test_util.ts";

for (const backend of ["sharp", "js"] as const) {
  for (const mime of ["image/png", "image/jpeg"] as const) {
    test(`cropImage (${backend}, ${mime}) cuts the region and scales it up`, {
      // Only a missing --allow-ffi permission excuses the sharp case.
      skip: backend === "sharp" && !nativeAddonsAllowed() ? "sharp needs --allow-ffi" : false,
    }, async () => {
      setImageBackendForTesting(backend);
      try {
        // A red square at (40..60, 20..30) of a 100 x 50 blue image.
        const src = await toDataUri(pattern(100, 50, { x: 40, y: 20, w: 20, h: 10 }), mime);
        const out = await cropImage(src, { left: 30, top: 10, width: 40, height: 30 }, 2);
        assert.equal(out.width, 80);
        assert.equal(out.height, 60);
        assert.ok(out.dataUri.startsWith(`data:${mime};base64,`));
        assert.deepEqual(imageSizeFromDataUri(out.dataUri), { width: 80, height: 60, mime });
        const img = await fromDataUri(out.dataUri);
        // The square sits at ((40-30)*2 .. (60-30)*2, (20-10)*2 .. (30-10)*2) = (20..60, 20..40).
        assert.ok(colorDistance(pixel(img, 40, 30), RED) < 40);
        assert.ok(colorDistance(pixel(img, 5, 5), BLUE) < 40);
        assert.ok(colorDistance(pixel(img, 70, 50), BLUE) < 40);
      } finally {
        setImageBackendForTesting("auto");
      }
    });
  }
}

test("cropImage rejects a region outside the image and a bad scale", async () => {
  const src = await toDataUri(pattern(10, 10, { x: 0, y: 0, w: 1, h: 1 }), "image/png");
  await assert.rejects(cropImage(src, { left: 5, top: 5, width: 6, height: 2 }), RangeError);
  await assert.rejects(cropImage(src, { left: 0, top: 0, width: 0, height: 2 }), RangeError);
  await assert.rejects(cropImage(src, { left: 0, top: 0, width: 2, height: 2 }, 0), RangeError);
});
