import { test } from "node:test";
import assert from "node:assert/strict";
import { MjpegParser } from "./mjpeg.ts";

const enc = new TextEncoder();
const jpeg = (n: number) => new Uint8Array([0xff, 0xd8, n, 0xff, 0x00, n, 0xff, 0xd9]);

function concat(...parts: (Uint8Array | string)[]): Uint8Array {
  const bytes = parts.map((p) => typeof p === "string" ? enc.encode(p) : p);
  const out = new Uint8Array(bytes.reduce((n, b) => n + b.length, 0));
  let at = 0;
  for (const b of bytes) {
    out.set(b, at);
    at += b.length;
  }
  return out;
}

// WDA's FBMjpegServer part: boundary, Content-type, Content-Length, blank line, JPEG, two CRLFs.
function wdaPart(frame: Uint8Array): Uint8Array {
  return concat(
    `--BoundaryString\r\nContent-type: image/jpg\r\nContent-Length: ${frame.length}\r\n\r\n`,
    frame,
    "\r\n\r\n",
  );
}

test("MjpegParser splits WDA's parts by Content-Length, across any chunking", () => {
  const stream = concat(wdaPart(jpeg(1)), wdaPart(jpeg(2)), wdaPart(jpeg(3)));
  for (const size of [1, 3, 7, stream.length]) {
    const frames: number[] = [];
    const parser = new MjpegParser((f) => frames.push(f[2]));
    for (let i = 0; i < stream.length; i += size) parser.push(stream.subarray(i, i + size));
    assert.deepEqual(frames, [1, 2, 3], `chunks of ${size} bytes`);
  }
});

test("MjpegParser reads parts without Content-Length up to the JPEG end marker", () => {
  const frames: Uint8Array[] = [];
  const parser = new MjpegParser((f) => frames.push(f));
  parser.push(concat(
    "--b\r\nContent-Type: image/jpeg\r\n\r\n",
    jpeg(7),
    "\r\n--b\r\nContent-Type: image/jpeg\r\n\r\n",
    jpeg(8),
  ));
  assert.deepEqual(frames.map((f) => [...f]), [[...jpeg(7)], [...jpeg(8)]]);
});

test("MjpegParser refuses a stream that has no part headers", () => {
  const parser = new MjpegParser(() => {});
  assert.throws(() => parser.push(new Uint8Array(5000).fill(65)), /without headers/);
});
