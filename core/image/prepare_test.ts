import { test } from "../../tests/helpers/test.ts";
import assert from "node:assert/strict";
import {
  imageBackendInUse,
  type ImageBackendName,
  imageSizeFromDataUri,
  type PreparedImage,
  prepareImage,
  setImageBackendForTesting,
} from "./mod.ts";
import type { RgbaImage } from "./resample.ts";
import type { ImageMime } from "./size.ts";
import { nativeAddonsAllowed } from "../runtime/runtime.ts";
import {
  BLUE,
  bytesToBase64,
  colorDistance,
  fromDataUri,
  pattern,
  pixel,
  RED,
  type Rgba,
  toDataUri,
  WHITE,
} from "./test_util.ts";

// 200 x 120 blue image with a 40 x 40 red square at (40, 20).
const W = 200;
const H = 120;
const square = { x: 40, y: 20, w: 40, h: 40 };

// Only a missing --allow-ffi permission excuses the sharp tests: where sharp may load, a sharp
// that fails to load fails them.
const hasSharp = nativeAddonsAllowed();
const backends: ImageBackendName[] = ["js", "sharp"];
const formats: ImageMime[] = ["image/png", "image/jpeg"];
/** JPEG is lossy and sharp resizes with Lanczos (slight ringing): compare with a tolerance. */
const tolerance = (mime: ImageMime) => (mime === "image/png" ? 24 : 48);

function assertColor(image: RgbaImage, x: number, y: number, expected: Rgba, tol: number): void {
  const actual = pixel(image, x, y);
  assert.ok(
    colorDistance(actual, expected) <= tol,
    `pixel (${x}, ${y}) is ${actual}, expected ${expected} +/- ${tol}`,
  );
}

/** Within 8 px (one JPEG block) of an edge of the red square or of the content area. */
function nearEdge(x: number, y: number): boolean {
  const band = (v: number, edge: number) => Math.abs(v - edge) < 8;
  const { x: sx, y: sy, w, h } = square;
  const nearSquare = ((band(x, sx) || band(x, sx + w)) && y > sy - 8 && y < sy + h + 8) ||
    ((band(y, sy) || band(y, sy + h)) && x > sx - 8 && x < sx + w + 8);
  const nearContent = (band(x, W) && y < H + 8) || (band(y, H) && x < W + 8);
  return nearSquare || nearContent;
}

async function withBackend<T>(backend: ImageBackendName, run: () => Promise<T>): Promise<T> {
  setImageBackendForTesting(backend);
  try {
    return await run();
  } finally {
    setImageBackendForTesting("auto");
  }
}

test("returns the identical string when nothing changes, without decoding", async () => {
  for (const mime of formats) {
    const uri = await toDataUri(pattern(224, 140, square), mime);
    for (
      const options of [{}, { shrinkFactor: 1 }, { shrinkFactor: 1.001 }, { padToMultipleOf: 28 }]
    ) {
      const out = await prepareImage(uri, options);
      assert.equal(out.dataUri, uri);
      assert.deepEqual(
        [out.width, out.height, out.contentWidth, out.contentHeight],
        [224, 140, 224, 140],
      );
    }
  }
  // A valid header followed by garbage passes, and no backend is needed: nothing was decoded.
  const png = await toDataUri(pattern(28, 28, square), "image/png");
  const garbage = png.slice(0, 60) + "A".repeat(400);
  await withBackend("canvas", async () => {
    assert.equal((await prepareImage(garbage)).dataUri, garbage);
  });
});

test("turns a raw base64 body into a data URI of its format", async () => {
  const uri = await toDataUri(pattern(20, 10, square), "image/jpeg");
  const body = uri.slice(uri.indexOf(",") + 1);
  assert.equal((await prepareImage(body)).dataUri, uri);
});

for (const backend of backends) {
  const skip = backend === "sharp" && !hasSharp ? "sharp needs --allow-ffi" : false;

  for (const mime of formats) {
    const tol = tolerance(mime);

    test(`${backend}: shrink 2 halves a ${mime} and moves the red square to half its coordinates`, {
      skip,
    }, async () => {
      const uri = await toDataUri(pattern(W, H, square), mime);
      const out = await withBackend(backend, () => prepareImage(uri, { shrinkFactor: 2 }));
      assert.deepEqual(
        [out.width, out.height, out.contentWidth, out.contentHeight],
        [100, 60, 100, 60],
      );
      assert.ok(out.dataUri.startsWith(`data:${mime};base64,`), "keeps the input format");
      assert.deepEqual(imageSizeFromDataUri(out.dataUri), { width: 100, height: 60, mime });
      const img = await fromDataUri(out.dataUri);
      assert.deepEqual([img.width, img.height], [100, 60]);
      // The square now spans x 20..39, y 10..29; probe 2 px inside and outside its edges.
      for (const [x, y] of [[22, 12], [37, 12], [22, 27], [37, 27], [30, 20]]) {
        assertColor(img, x, y, RED, tol);
      }
      for (const [x, y] of [[17, 20], [42, 20], [30, 7], [30, 32], [90, 50], [2, 2]]) {
        assertColor(img, x, y, BLUE, tol);
      }
    });

    test(`${backend}: padding a ${mime} to 28 adds white right and bottom, content unchanged`, {
      skip,
    }, async () => {
      const src = pattern(W, H, square);
      const uri = await toDataUri(src, mime);
      const out = await withBackend(backend, () => prepareImage(uri, { padToMultipleOf: 28 }));
      assert.deepEqual(
        [out.width, out.height, out.contentWidth, out.contentHeight],
        [224, 140, 200, 120],
      );
      assert.equal(out.width % 28, 0);
      assert.equal(out.height % 28, 0);
      const img = await fromDataUri(out.dataUri);
      assert.deepEqual([img.width, img.height], [224, 140]);
      const original = await fromDataUri(uri);
      for (let y = 0; y < img.height; y++) {
        for (let x = 0; x < img.width; x++) {
          // JPEG re-encoding blurs color edges (8x8 blocks, chroma subsampling): skip a band
          // of 8 px around the square and the content edge there.
          if (mime === "image/jpeg" && nearEdge(x, y)) continue;
          const expected = x < W && y < H ? pixel(original, x, y) : WHITE;
          assertColor(img, x, y, expected, mime === "image/png" ? 0 : 24);
        }
      }
    });

    test(`${backend}: shrink then pad a ${mime} gives multiples of 28 around the shrunk content`, {
      skip,
    }, async () => {
      const uri = await toDataUri(pattern(W, H, square), mime);
      const out = await withBackend(
        backend,
        () => prepareImage(uri, { shrinkFactor: 2, padToMultipleOf: 28 }),
      );
      assert.deepEqual(
        [out.width, out.height, out.contentWidth, out.contentHeight],
        [112, 84, 100, 60],
      );
      const img = await fromDataUri(out.dataUri);
      assertColor(img, 30, 20, RED, tol);
      assertColor(img, 90, 50, BLUE, tol);
      assertColor(img, 106, 30, WHITE, tol);
      assertColor(img, 50, 78, WHITE, tol);
      assertColor(img, 111, 83, WHITE, tol);
    });
  }

  test(
    `${backend}: a transparent PNG keeps its alpha; the padding is opaque white`,
    { skip },
    async () => {
      const clear: Rgba = [0, 0, 0, 0];
      const uri = await toDataUri(
        pattern(20, 20, { x: 0, y: 0, w: 10, h: 20 }, clear, RED),
        "image/png",
        true,
      );
      const out = await withBackend(backend, () => prepareImage(uri, { padToMultipleOf: 28 }));
      const img = await fromDataUri(out.dataUri);
      assert.deepEqual(pixel(img, 5, 5), RED);
      assert.equal(pixel(img, 15, 5)[3], 0);
      assert.deepEqual(pixel(img, 25, 25), WHITE);
    },
  );
}

test(
  "sharp and the JS fallback give the same geometry and close pixels",
  { skip: !hasSharp },
  async () => {
    const cases = [
      { shrinkFactor: 2 },
      { shrinkFactor: 3 },
      { shrinkFactor: 1.5, padToMultipleOf: 28 },
      { shrinkFactor: 2.7, padToMultipleOf: 28 },
      { padToMultipleOf: 28 },
    ];
    for (const mime of formats) {
      const uri = await toDataUri(pattern(W, H, square), mime);
      for (const options of cases) {
        const results: PreparedImage[] = [];
        const images: RgbaImage[] = [];
        for (const backend of backends) {
          const out = await withBackend(backend, () => prepareImage(uri, options));
          results.push({ ...out, dataUri: "" });
          images.push(await fromDataUri(out.dataUri));
          assert.deepEqual(imageSizeFromDataUri(out.dataUri), {
            width: out.width,
            height: out.height,
            mime,
          });
        }
        assert.deepEqual(results[0], results[1], `geometry for ${JSON.stringify(options)} ${mime}`);
        const [a, b] = images;
        assert.deepEqual([a.width, a.height], [b.width, b.height]);
        let sum = 0;
        for (let i = 0; i < a.data.length; i++) sum += Math.abs(a.data[i] - b.data[i]);
        const meanDiff = sum / a.data.length;
        assert.ok(
          meanDiff < 6,
          `mean difference ${meanDiff.toFixed(2)} for ${JSON.stringify(options)} ${mime}`,
        );
      }
    }
  },
);

test("non-integer shrink factors round each side", async () => {
  const uri = await toDataUri(pattern(W, H, square), "image/png");
  const out = await withBackend("js", () => prepareImage(uri, { shrinkFactor: 3 }));
  // 200 / 3 = 66.7 -> 67, 120 / 3 = 40.
  assert.deepEqual([out.width, out.height], [67, 40]);
  const tiny = await prepareImage(await toDataUri(pattern(3, 2, square), "image/png"), {
    shrinkFactor: 1000,
  });
  assert.deepEqual([tiny.width, tiny.height], [1, 1], "never below 1 px");
});

test("rejects a shrink factor that is not a finite number >= 1, quoting it", async () => {
  const uri = await toDataUri(pattern(10, 10, square), "image/png");
  for (const bad of [0.5, 0, -2, NaN, Infinity, "2" as unknown as number]) {
    await assert.rejects(prepareImage(uri, { shrinkFactor: bad }), {
      name: "RangeError",
      message: new RegExp(`shrinkFactor must be a finite number >= 1, got "${String(bad)}"`),
    });
  }
});

test("rejects a padding block that is not a positive integer, quoting it", async () => {
  const uri = await toDataUri(pattern(10, 10, square), "image/png");
  for (const bad of [0, -28, 2.5, NaN]) {
    await assert.rejects(prepareImage(uri, { padToMultipleOf: bad }), {
      name: "RangeError",
      message: new RegExp(`padToMultipleOf must be a positive integer, got "${String(bad)}"`),
    });
  }
});

test("rejects input that is not a PNG or JPEG", async () => {
  await assert.rejects(prepareImage("not an image", { shrinkFactor: 2 }), TypeError);
  const gif = bytesToBase64(Array.from("GIF89a\0\0\0\0", (c) => c.charCodeAt(0)));
  await assert.rejects(prepareImage(gif), { name: "TypeError", message: /Image is GIF/ });
});

test("reports a corrupt image body as an error from the backend", async () => {
  const png = await toDataUri(pattern(28, 28, square), "image/png");
  const garbage = png.slice(0, 60) + "A".repeat(400);
  await assert.rejects(withBackend("js", () => prepareImage(garbage, { shrinkFactor: 2 })));
});

test("a forced backend that cannot load fails the transform with its reason", async () => {
  assert.throws(() => setImageBackendForTesting("gpu" as ImageBackendName), TypeError);
  const uri = await toDataUri(pattern(10, 10, square), "image/png");
  // Deno and Node have no OffscreenCanvas.
  await assert.rejects(withBackend("canvas", () => prepareImage(uri, { shrinkFactor: 2 })), {
    message: /OffscreenCanvas with a 2d context is not available/,
  });
});

test("auto mode uses sharp when it loads, the JS fallback otherwise", async () => {
  const expected = hasSharp ? "sharp" : "js";
  assert.equal(await imageBackendInUse(), expected);
  const out = await prepareImage(await toDataUri(pattern(W, H, square), "image/png"), {
    shrinkFactor: 2,
  });
  assert.equal(out.width, 100);
});

// --- Output encoding (screenshotFormat / screenshotQuality)

/** A seeded noisy image: JPEG size depends on quality there, unlike on flat colors. */
function noise(width: number, height: number): RgbaImage {
  const data = new Uint8Array(width * height * 4);
  let seed = 7;
  for (let i = 0; i < data.length; i += 4) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    data.set([seed & 255, (seed >> 8) & 255, (seed >> 16) & 255, 255], i);
  }
  return { width, height, data };
}

function byteLength(dataUri: string): number {
  return atob(dataUri.slice(dataUri.indexOf(",") + 1)).length;
}

test("a JPEG asked for as JPEG at its size is returned as is, whatever the quality asked", async () => {
  const uri = await toDataUri(pattern(W, H, square), "image/jpeg");
  const out = await prepareImage(uri, { encoding: { format: "jpeg", quality: 20 } });
  assert.equal(out.dataUri, uri);
});

for (const backend of backends) {
  const skip = backend === "sharp" && !hasSharp ? "sharp needs --allow-ffi" : false;

  test(`${backend}: encoding jpeg turns a PNG into a JPEG of the same picture`, {
    skip,
  }, async () => {
    const uri = await toDataUri(pattern(W, H, square), "image/png");
    const out = await withBackend(
      backend,
      () => prepareImage(uri, { encoding: { format: "jpeg", quality: 80 } }),
    );
    assert.ok(out.dataUri.startsWith("data:image/jpeg;base64,/9j/"), out.dataUri.slice(0, 30));
    assert.deepEqual(imageSizeFromDataUri(out.dataUri), {
      width: W,
      height: H,
      mime: "image/jpeg",
    });
    const image = await fromDataUri(out.dataUri);
    assertColor(image, square.x + 20, square.y + 20, RED, 48);
    assertColor(image, 150, 90, BLUE, 48);
  });

  test(`${backend}: encoding jpeg with shrink 2 encodes the shrunk PNG once as JPEG`, {
    skip,
  }, async () => {
    const uri = await toDataUri(pattern(W, H, square), "image/png");
    const out = await withBackend(
      backend,
      () => prepareImage(uri, { shrinkFactor: 2, encoding: { format: "jpeg", quality: 80 } }),
    );
    assert.ok(out.dataUri.startsWith("data:image/jpeg;base64,"));
    assert.deepEqual([out.width, out.height], [W / 2, H / 2]);
    assertColor(await fromDataUri(out.dataUri), 30, 20, RED, 48);
  });

  test(`${backend}: encoding png turns a JPEG into a PNG`, { skip }, async () => {
    const uri = await toDataUri(pattern(W, H, square), "image/jpeg");
    const out = await withBackend(
      backend,
      () => prepareImage(uri, { encoding: { format: "png", quality: 80 } }),
    );
    assert.ok(out.dataUri.startsWith("data:image/png;base64,iVBORw0KGgo"));
    assertColor(await fromDataUri(out.dataUri), square.x + 20, square.y + 20, RED, 48);
  });

  test(`${backend}: a lower JPEG quality gives fewer bytes`, { skip }, async () => {
    const uri = await toDataUri(noise(160, 120), "image/png");
    const sizes = [];
    for (const quality of [90, 60, 30]) {
      const out = await withBackend(
        backend,
        () => prepareImage(uri, { encoding: { format: "jpeg", quality } }),
      );
      sizes.push(byteLength(out.dataUri));
    }
    assert.ok(sizes[0] > sizes[1] && sizes[1] > sizes[2], `sizes at 90/60/30: ${sizes}`);
  });
}
