import assert from "node:assert/strict";
import { test } from "../../tests/helpers/test.ts";
import { encodeBase64 } from "./base64.ts";
import { loadJsCodecs } from "./backend.ts";
import { REGION_MATCH_THRESHOLD, regionSimilarity } from "./region_match.ts";

/**
 * A 400x300 screen: background `bg`, and "text" in the row at y 100-130, drawn as vertical
 * strokes every `pitch` pixels (another pitch is other text), plus an optional caret.
 */
async function screen(
  { bg = 255, pitch = 7, caretAt }: { bg?: number; pitch?: number; caretAt?: number } = {},
): Promise<string> {
  const width = 400, height = 300;
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const ink = y >= 105 && y < 125 && x >= 20 && x < 220 && x % pitch < 2;
      const caret = caretAt !== undefined && x === caretAt && y >= 103 && y < 127;
      const v = ink || caret ? 0 : y >= 100 && y < 130 ? bg : 255;
      data.set([v, v, v, 255], (y * width + x) * 4);
    }
  }
  const codecs = await loadJsCodecs();
  return `data:image/png;base64,${
    encodeBase64(codecs.encode({ width, height, data }, "image/png", false))
  }`;
}

const ROW = { left: 10, top: 100, width: 240, height: 30 };

test("regionSimilarity() keeps a row that only got a hover tint or a caret above the threshold", async () => {
  const plain = await screen();
  assert.equal(await regionSimilarity(plain, plain, ROW), 1);
  const tinted = await regionSimilarity(plain, await screen({ bg: 232 }), ROW);
  assert.ok(tinted > REGION_MATCH_THRESHOLD, `hover tint: ${tinted}`);
  const caret = await regionSimilarity(plain, await screen({ caretAt: 230 }), ROW);
  assert.ok(caret > REGION_MATCH_THRESHOLD, `caret: ${caret}`);
});

test("regionSimilarity() drops below the threshold when the row shows other text", async () => {
  const other = await regionSimilarity(await screen(), await screen({ pitch: 5 }), ROW);
  assert.ok(other < REGION_MATCH_THRESHOLD, `other text: ${other}`);
});

test("regionSimilarity() clips the region to the screen and gives 0 for screens of different sizes or an empty region", async () => {
  const plain = await screen();
  assert.equal(
    await regionSimilarity(plain, plain, { left: 380, top: 290, width: 50, height: 50 }),
    1,
  );
  assert.equal(
    await regionSimilarity(plain, plain, { left: 500, top: 10, width: 5, height: 5 }),
    0,
  );
  const codecs = await loadJsCodecs();
  const small = `data:image/png;base64,${
    encodeBase64(
      codecs.encode(
        { width: 20, height: 20, data: new Uint8Array(1600).fill(255) },
        "image/png",
        false,
      ),
    )
  }`;
  assert.equal(await regionSimilarity(plain, small, ROW), 0);
});
