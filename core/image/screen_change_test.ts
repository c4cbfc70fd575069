import assert from "node:assert/strict";
import { test } from "../../tests/helpers/test.ts";
import { encodeBase64 } from "./base64.ts";
import { loadJsCodecs } from "./backend.ts";
import { changedShare, screenThumbnail } from "./screen_change.ts";

/** A 640x400 white PNG with black rectangles, as a data URI. */
async function screen(rects: [number, number, number, number][]): Promise<string> {
  const width = 640, height = 400;
  const data = new Uint8Array(width * height * 4).fill(255);
  for (const [l, t, w, h] of rects) {
    for (let y = t; y < t + h; y++) {
      for (let x = l; x < l + w; x++) data.fill(0, (y * width + x) * 4, (y * width + x) * 4 + 3);
    }
  }
  const codecs = await loadJsCodecs();
  return `data:image/png;base64,${
    encodeBase64(codecs.encode({ width, height, data }, "image/png", false))
  }`;
}

test("changedShare() is 0 for the same screen and for a change where the agent acted", async () => {
  const before = await screenThumbnail(await screen([[40, 40, 200, 30]]));
  const same = await screenThumbnail(await screen([[40, 40, 200, 30]]));
  assert.equal(changedShare(before, same, []), 0);
  // Text typed into the field at (300, 40): its neighbourhood changes, nothing else.
  const typed = await screenThumbnail(await screen([[40, 40, 200, 30], [310, 45, 80, 20]]));
  assert.ok(changedShare(before, typed, []) > 0, "the change shows without a mask");
  assert.equal(changedShare(before, typed, [{ left: 300, top: 40, width: 200, height: 30 }]), 0);
});

test("changedShare() sees a new screen (a dialog over half the page) outside the acted element", async () => {
  const before = await screenThumbnail(await screen([[40, 40, 200, 30]]));
  const dialog = await screenThumbnail(await screen([[40, 40, 200, 30], [100, 100, 440, 250]]));
  const share = changedShare(before, dialog, [{ left: 40, top: 40, width: 200, height: 30 }]);
  assert.ok(share > 0.3, `changed share ${share}`);
  const other = await screenThumbnail(await screen([]));
  assert.equal(changedShare(before, { ...other, sourceWidth: 320 }, []), 1, "another size");
});
