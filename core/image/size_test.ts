import { test } from "../../tests/helpers/test.ts";
import assert from "node:assert/strict";
import { imageSizeFromDataUri } from "./size.ts";
import { bytesToBase64, pattern, toDataUri } from "./test_util.ts";

const square = { x: 40, y: 20, w: 40, h: 40 };

/** A JPEG segment with a zero payload of `payload` bytes. */
function segment(marker: number, payload: number[] | number): number[] {
  const body = typeof payload === "number" ? new Array<number>(payload).fill(0) : payload;
  const length = body.length + 2;
  return [0xff, marker, length >> 8, length & 0xff, ...body];
}

/** SOFn payload: precision 8, height, width, 1 component. */
function sofPayload(width: number, height: number): number[] {
  return [8, height >> 8, height & 0xff, width >> 8, width & 0xff, 1, 1, 0x11, 0];
}

/** Base64 of an ASCII string's bytes (magic numbers of other formats). */
const ascii = (text: string) => bytesToBase64(Array.from(text, (c) => c.charCodeAt(0)));

const SOI = [0xff, 0xd8];
const EOI = [0xff, 0xd9];

function jpegUri(bytes: number[]): string {
  return `data:image/jpeg;base64,${bytesToBase64(bytes)}`;
}

function pngHeader(width: number, height: number, chunk = "IHDR"): number[] {
  const be = (v: number) => [v >>> 24, (v >>> 16) & 255, (v >>> 8) & 255, v & 255];
  const signature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  const type = Array.from(chunk, (c) => c.charCodeAt(0));
  return [...signature, ...be(13), ...type, ...be(width), ...be(height), 8, 2, 0, 0, 0];
}

test("reads width and height of a PNG data URI", async () => {
  const uri = await toDataUri(pattern(200, 120, square), "image/png");
  assert.deepEqual(imageSizeFromDataUri(uri), { width: 200, height: 120, mime: "image/png" });
});

test("reads width and height of a JPEG data URI", async () => {
  const uri = await toDataUri(pattern(201, 99, square), "image/jpeg");
  assert.deepEqual(imageSizeFromDataUri(uri), { width: 201, height: 99, mime: "image/jpeg" });
});

test("reads raw base64 bodies, taking the format from the magic bytes", async () => {
  const png = await toDataUri(pattern(30, 20, square), "image/png");
  const jpeg = await toDataUri(pattern(31, 21, square), "image/jpeg");
  assert.deepEqual(imageSizeFromDataUri(png.slice(png.indexOf(",") + 1)), {
    width: 30,
    height: 20,
    mime: "image/png",
  });
  assert.deepEqual(imageSizeFromDataUri(jpeg.slice(jpeg.indexOf(",") + 1)), {
    width: 31,
    height: 21,
    mime: "image/jpeg",
  });
});

test("accepts image/jpg, upper case and extra parameters in the data URI header", () => {
  const jpeg = bytesToBase64([...SOI, ...segment(0xc0, sofPayload(64, 48)), ...EOI]);
  assert.equal(imageSizeFromDataUri(`data:image/jpg;base64,${jpeg}`).width, 64);
  assert.equal(imageSizeFromDataUri(`DATA:IMAGE/JPEG;name=a.jpg;BASE64,${jpeg}`).height, 48);
  assert.equal(imageSizeFromDataUri(`data:;base64,${jpeg}`).mime, "image/jpeg");
});

test("finds a JPEG's SOF behind large metadata segments, DHT and fill bytes", () => {
  const bytes = [
    ...SOI,
    ...segment(0xe1, 60000), // EXIF-sized APP1
    ...segment(0xe2, 40000), // ICC-sized APP2
    ...segment(0xc4, 30), // DHT shares the C0-CF range but is not a SOF
    0xff, // fill byte before the next marker
    ...segment(0xc2, sofPayload(1234, 567)), // progressive
    ...segment(0xda, 10),
    ...EOI,
  ];
  assert.deepEqual(imageSizeFromDataUri(jpegUri(bytes)), {
    width: 1234,
    height: 567,
    mime: "image/jpeg",
  });
});

test("tolerates line breaks inside the base64 body", () => {
  const bytes = [...SOI, ...segment(0xe1, 5000), ...segment(0xc0, sofPayload(320, 240)), ...EOI];
  const wrapped = bytesToBase64(bytes).replace(/.{76}/g, "$&\r\n");
  assert.equal(imageSizeFromDataUri(`data:image/jpeg;base64,${wrapped}`).width, 320);
});

test("rejects what is not a PNG/JPEG data URI or base64 body, naming the problem", () => {
  const cases: [unknown, RegExp][] = [
    [42, /got number/],
    ["", /empty/],
    ["data:image/png;base64,", /empty/],
    ["data:image/png;base64", /no comma/],
    ["data:image/png,iVBORw0KGgo", /not base64-encoded/],
    ["data:image/webp;base64,UklGRg==", /Unsupported image type "image\/webp"/],
    ["data:image/png;base64,@@@@####", /not valid base64/],
    [`data:image/gif;base64,${ascii("GIF89a")}`, /Unsupported image type "image\/gif"/],
    [ascii("GIF89a\0\0\0\0"), /Image is GIF/],
    [ascii("RIFF\0\0\0\0WEBPVP8 "), /Image is WebP/],
    [bytesToBase64([1, 2, 3, 4, 5, 6, 7, 8, 9]), /neither PNG nor JPEG \(first bytes: 01 02 03/],
  ];
  for (const [input, message] of cases) {
    assert.throws(() => imageSizeFromDataUri(input as string), { name: "TypeError", message });
  }
});

test("rejects a data URI whose declared type disagrees with its bytes", async () => {
  const jpeg = await toDataUri(pattern(8, 8, square), "image/jpeg");
  const mislabeled = jpeg.replace("image/jpeg", "image/png");
  assert.throws(() => imageSizeFromDataUri(mislabeled), {
    name: "TypeError",
    message: /declares image\/png but its bytes are JPEG/,
  });
});

test("rejects truncated or corrupt headers", () => {
  const png = (bytes: number[]) => `data:image/png;base64,${bytesToBase64(bytes)}`;
  const cases: [string, RegExp][] = [
    [png(pngHeader(10, 10).slice(0, 20)), /PNG is truncated/],
    [png(pngHeader(0, 10)), /PNG has a zero size \(0x10\)/],
    [png(pngHeader(10, 10, "IDAT")), /first chunk is "IDAT"/],
    [jpegUri([...SOI, ...segment(0xe0, 14)]), /JPEG is truncated before its size/],
    [jpegUri([...SOI, ...segment(0xe0, 14)].slice(0, 10)), /JPEG is truncated/],
    [jpegUri([...SOI, ...segment(0xda, 10), ...EOI]), /image data starts before any size/],
    [jpegUri([...SOI, ...segment(0xe0, 2), 0x12, 0x34]), /expected a marker at byte 8/],
    [jpegUri([...SOI, ...segment(0xc0, sofPayload(0, 5))]), /JPEG has a zero size/],
  ];
  for (const [input, message] of cases) {
    assert.throws(() => imageSizeFromDataUri(input), { name: "TypeError", message });
  }
});
