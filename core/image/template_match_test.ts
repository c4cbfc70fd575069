import assert from "node:assert/strict";
import { test } from "../../tests/helpers/test.ts";
import { encodeBase64 } from "./base64.ts";
import { loadJsCodecs } from "./backend.ts";
import { cutTemplate, findTemplate, TEMPLATE_MATCH_THRESHOLD } from "./template_match.ts";
import { imageSizeFromDataUri } from "./size.ts";

/**
 * A 640x400 gray screen with "buttons": boxes at the given places, each with its own "label"
 * (vertical strokes every `pitch` pixels).
 */
async function screen(
  buttons: { left: number; top: number; pitch: number }[],
  format: "image/png" | "image/jpeg" = "image/png",
): Promise<string> {
  const width = 640, height = 400;
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let v = 235;
      for (const b of buttons) {
        const inside = x >= b.left && x < b.left + 120 && y >= b.top && y < b.top + 40;
        if (!inside) continue;
        const border = x < b.left + 2 || x >= b.left + 118 || y < b.top + 2 || y >= b.top + 38;
        const ink = y >= b.top + 12 && y < b.top + 28 && x >= b.left + 20 && x < b.left + 100 &&
          (x - b.left) % b.pitch < 2;
        v = border ? 90 : ink ? 20 : 250;
      }
      data.set([v, v, v, 255], (y * width + x) * 4);
    }
  }
  const codecs = await loadJsCodecs();
  return `data:${format};base64,${
    encodeBase64(codecs.encode({ width, height, data }, format, format === "image/jpeg"))
  }`;
}

test("findTemplate() finds a button again after it moved, on PNG and JPEG screenshots", async () => {
  const before = await screen([{ left: 40, top: 40, pitch: 7 }, { left: 300, top: 40, pitch: 5 }]);
  const template = (await cutTemplate(before, { left: 40, top: 40, width: 120, height: 40 }))!;
  assert.equal(template.scale, 1);
  assert.ok(template.dataUri.length < 20_000, `${template.dataUri.length} characters`);
  const same = (await findTemplate(before, template.dataUri, 1))!;
  assert.deepEqual(same.region, { left: 40, top: 40, width: 120, height: 40 });
  assert.ok(same.score > 0.99, `${same.score}`);
  assert.ok(same.runnerUp < TEMPLATE_MATCH_THRESHOLD, `another label: ${same.runnerUp}`);
  for (const format of ["image/png", "image/jpeg"] as const) {
    const after = await screen([
      { left: 300, top: 40, pitch: 5 },
      { left: 200, top: 250, pitch: 7 },
    ], format);
    const moved = (await findTemplate(after, template.dataUri, 1))!;
    assert.deepEqual(moved.region, { left: 200, top: 250, width: 120, height: 40 }, format);
    assert.ok(moved.score > 0.95, `${format}: ${moved.score}`);
  }
});

test("findTemplate() scores a button whose label changed below the threshold; two alike are a close runner-up", async () => {
  const before = await screen([{ left: 40, top: 40, pitch: 7 }]);
  const template = (await cutTemplate(before, { left: 40, top: 40, width: 120, height: 40 }))!;
  const renamed = (await findTemplate(
    await screen([{ left: 40, top: 40, pitch: 4 }]),
    template.dataUri,
    1,
  ))!;
  assert.ok(renamed.score < TEMPLATE_MATCH_THRESHOLD, `another label: ${renamed.score}`);
  const twins = (await findTemplate(
    await screen([{ left: 40, top: 40, pitch: 7 }, { left: 40, top: 200, pitch: 7 }]),
    template.dataUri,
    1,
  ))!;
  assert.ok(twins.runnerUp > 0.99, `the twin: ${twins.runnerUp}`);
});

test("cutTemplate() keeps a large element small; findTemplate() resizes the screenshot to its scale", async () => {
  const before = await screen([{ left: 40, top: 40, pitch: 7 }]);
  const big = (await cutTemplate(before, { left: 0, top: 0, width: 400, height: 200 }))!;
  const size = imageSizeFromDataUri(big.dataUri);
  assert.ok(size.width * size.height <= 8000, `${size.width}x${size.height}`);
  assert.ok(Math.abs(big.scale - size.width / 400) < 1e-9);
  const found = (await findTemplate(before, big.dataUri, big.scale))!;
  assert.ok(
    Math.abs(found.region.left) <= 2 && Math.abs(found.region.top) <= 2,
    JSON.stringify(found),
  );
  assert.ok(found.score > 0.95, `${found.score}`);
  assert.equal(await cutTemplate(before, { left: 700, top: 10, width: 20, height: 20 }), undefined);
  assert.equal(await findTemplate(before, big.dataUri, 0.1), undefined, "larger than the screen");
});

test("cutTemplate() grows a plain region (the middle of an empty field) until it is found in one place only", async () => {
  const shot = await screen([{ left: 40, top: 40, pitch: 7 }, { left: 300, top: 200, pitch: 5 }]);
  // The white inside of the first button's right part: plain, and the same all along.
  const plain = { left: 104, top: 47, width: 10, height: 4 };
  const cut = (await cutTemplate(shot, plain))!;
  assert.ok(cut.region.width > plain.width, JSON.stringify(cut.region));
  const cx = cut.region.left + cut.region.width / 2;
  assert.ok(Math.abs(cx - (plain.left + plain.width / 2)) <= 1, "grown around its center");
  const found = (await findTemplate(shot, cut.dataUri, cut.scale))!;
  assert.ok(found.score > 0.99 && found.runnerUp < TEMPLATE_MATCH_THRESHOLD, JSON.stringify(found));
});
