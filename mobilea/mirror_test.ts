import { test } from "../tests/helpers/test.ts";
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { PNG } from "pngjs";
import { JpegSplitter } from "./mirror_decoder.ts";
import { limitToMaxSize, scalePngToMaxSize } from "./mirror_scale.ts";

// Two fake JPEG files: SOI, a segment whose data holds FF 00 (a stuffed FF), EOI.
const first = Uint8Array.of(0xff, 0xd8, 0x01, 0xff, 0x00, 0x02, 0xff, 0xd9);
const second = Uint8Array.of(0xff, 0xd8, 0x03, 0x04, 0xff, 0xd9);
const stream = Uint8Array.of(...first, ...second);

test("JpegSplitter cuts ffmpeg's stream at each end-of-image marker, whatever the chunking", () => {
  for (let cut = 0; cut <= stream.length; cut++) {
    const splitter = new JpegSplitter();
    const images = [
      ...splitter.push(stream.subarray(0, cut)),
      ...splitter.push(stream.subarray(cut)),
    ];
    assert.deepEqual(images, [first, second], `cut at ${cut}`);
  }
  const bytewise = new JpegSplitter();
  const images = [...stream].flatMap((byte) => bytewise.push(Uint8Array.of(byte)));
  assert.deepEqual(images, [first, second]);
});

test("limitToMaxSize keeps the aspect ratio and the longer side at most maxSize", () => {
  assert.deepEqual(limitToMaxSize(1080, 2400, 800), { width: 360, height: 800 });
  assert.deepEqual(limitToMaxSize(2400, 1080, 1200), { width: 1200, height: 540 });
  assert.deepEqual(limitToMaxSize(1080, 2400, 0), { width: 1080, height: 2400 });
  assert.deepEqual(limitToMaxSize(300, 200, 800), { width: 300, height: 200 });
});

test("scalePngToMaxSize averages areas into the smaller size and leaves small images alone", async () => {
  // 4 x 2: left half black, right half white.
  const png = new PNG({ width: 4, height: 2 });
  for (let i = 0; i < 8; i++) {
    png.data.set(i % 4 < 2 ? [0, 0, 0, 255] : [255, 255, 255, 255], i * 4);
  }
  const source = new Uint8Array(PNG.sync.write(png));
  const scaled = PNG.sync.read(Buffer.from(await scalePngToMaxSize(source, 2)));
  assert.deepEqual([scaled.width, scaled.height], [2, 1]);
  assert.deepEqual([...scaled.data], [0, 0, 0, 255, 255, 255, 255, 255]);
  assert.equal(await scalePngToMaxSize(source, 8), source);
});
