import { test } from "../../tests/helpers/test.ts";
import assert from "node:assert/strict";
import { createTestPng } from "./png.ts";
import { readDataUriImage } from "./_image.ts";

function bytesOf(dataUri: string): Uint8Array {
  const binary = atob(dataUri.slice(dataUri.indexOf(",") + 1));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

async function inflate(data: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([data as Uint8Array<ArrayBuffer>]).stream().pipeThrough(
    new DecompressionStream("deflate"),
  );
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

test("createTestPng() writes a valid RGB PNG of the asked size and color", async () => {
  const uri = await createTestPng(7, 3, { color: [10, 20, 30] });
  assert.match(uri, /^data:image\/png;base64,/);
  const bytes = bytesOf(uri);
  const view = new DataView(bytes.buffer);
  assert.deepEqual([...bytes.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  // Walk the chunks: IHDR, IDAT, IEND.
  const chunks: Array<[string, Uint8Array]> = [];
  for (let offset = 8; offset < bytes.length;) {
    const length = view.getUint32(offset);
    const type = String.fromCharCode(...bytes.subarray(offset + 4, offset + 8));
    chunks.push([type, bytes.subarray(offset + 8, offset + 8 + length)]);
    offset += 12 + length;
  }
  assert.deepEqual(chunks.map(([t]) => t), ["IHDR", "IDAT", "IEND"]);
  const header = new DataView(chunks[0][1].buffer, chunks[0][1].byteOffset);
  assert.equal(header.getUint32(0), 7);
  assert.equal(header.getUint32(4), 3);
  const raw = await inflate(chunks[1][1]);
  assert.equal(raw.length, 3 * (1 + 7 * 3));
  assert.deepEqual([...raw.subarray(0, 4)], [0, 10, 20, 30]);
  assert.deepEqual([...raw.subarray(raw.length - 3)], [10, 20, 30]);
});

test("createTestPng() rejects sizes and colors out of range", async () => {
  await assert.rejects(createTestPng(0, 10), RangeError);
  await assert.rejects(
    createTestPng(10, 1.5),
    /'height' must be an integer >= 1: current value is 1.5/,
  );
  await assert.rejects(createTestPng(10, 10, { color: [0, 0, 256] }), RangeError);
});

test("readDataUriImage() reads PNG and JPEG headers", async () => {
  assert.deepEqual(readDataUriImage(await createTestPng(1280, 800)).width, 1280);
  // SOI, an APP0 segment, then SOF0 with height 800 and width 1280.
  const jpeg = new Uint8Array([
    0xff,
    0xd8,
    0xff,
    0xe0,
    0x00,
    0x10,
    0x4a,
    0x46,
    0x49,
    0x46,
    0x00,
    0x01,
    0x01,
    0x00,
    0x00,
    0x01,
    0x00,
    0x01,
    0x00,
    0x00,
    0xff,
    0xc0,
    0x00,
    0x11,
    0x08,
    0x03,
    0x20,
    0x05,
    0x00,
    0x03,
    0x01,
    0x22,
    0x00,
    0x02,
    0x11,
    0x01,
    0x03,
    0x11,
    0x01,
    0xff,
    0xd9,
  ]);
  const uri = `data:image/jpeg;base64,${btoa(String.fromCharCode(...jpeg))}`;
  assert.deepEqual(readDataUriImage(uri), {
    width: 1280,
    height: 800,
    format: "jpeg",
    bytes: jpeg.length,
    mime: "image/jpeg",
    base64Length: uri.length - "data:image/jpeg;base64,".length,
  });
  // A media type that names the other format is an SDK bug a server would trip on.
  assert.throws(
    () => readDataUriImage(uri.replace("image/jpeg", "image/png")),
    /image_url says image\/png but its bytes are a JPEG/,
  );
  assert.throws(() => readDataUriImage("https://example.com/a.png"), TypeError);
  assert.throws(
    () => readDataUriImage(`data:image/gif;base64,${btoa("GIF89a....")}`),
    /neither PNG nor JPEG/,
  );
});
