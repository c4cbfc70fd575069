import { test } from "../../tests/helpers/test.ts";
import assert from "node:assert/strict";
import { parseRequest, ProtocolError } from "./_request.ts";
import { readDialectPlanRequest } from "./_dialects.ts";
import { createTestPng } from "./png.ts";

const GIF_1X1 =
  "data:image/gif;base64,R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==";
const WEBP_1X1 = "data:image/webp;base64,UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==";

const image = (url: string) => ({ type: "image_url", image_url: { url } });
const text = (t: string) => ({ type: "text", text: t });

function locateBody(content: unknown[]) {
  return {
    model: "m",
    messages: [
      { role: "system", content: "You are a UI element locator.\n..." },
      { role: "user", content },
    ],
  };
}

test("named images after the text become call.promptImages; the screenshot stays call.image", async () => {
  const shot = await createTestPng(200, 100);
  const tile = await createTestPng(37, 21);
  const { call, imageCount } = parseRequest(locateBody([
    image(shot),
    text('<target>\nthe tile like "t"\n</target>\nThe screenshot is 200 x 100 pixels.'),
    text('Image "t":'),
    image(tile),
    text('Image "say \\"hi\\"":'),
    image(GIF_1X1),
    text('Image "w":'),
    image(WEBP_1X1),
    text('Image "remote":'),
    image("https://example.com/a.png"),
  ]));
  assert.deepEqual([call.image?.width, call.image?.height], [200, 100]);
  assert.deepEqual(call.promptImages, [
    { name: "t", size: { width: 37, height: 21 }, mime: "image/png" },
    { name: 'say "hi"', size: { width: 1, height: 1 }, mime: "image/gif" },
    { name: "w", size: { width: 1, height: 1 }, mime: "image/webp" },
    { name: "remote", size: null, url: "https://example.com/a.png" },
  ]);
  assert.equal(call.kind === "locate" && call.target, 'the tile like "t"');
  assert.doesNotMatch(call.userText, /Image "/);
  assert.equal(imageCount, 5);
});

test("a request without named images has an empty promptImages", async () => {
  const { call } = parseRequest(locateBody([
    image(await createTestPng(20, 10)),
    text("<target>\nx\n</target>\nThe screenshot is 20 x 10 pixels."),
  ]));
  assert.deepEqual(call.promptImages, []);
});

test("named images without a screenshot are read, and call.image is null", () => {
  const { call } = parseRequest({
    model: "m",
    messages: [
      { role: "system", content: "You are a UI data extractor." },
      {
        role: "user",
        content: [
          text('<demand>\nis it "g"?\n</demand>\n<return-type>\nboolean\n</return-type>\n'),
          text('Image "g":'),
          image(GIF_1X1),
        ],
      },
    ],
  });
  assert.equal(call.image, null);
  assert.deepEqual(call.promptImages, [
    { name: "g", size: { width: 1, height: 1 }, mime: "image/gif" },
  ]);
});

test("a naming part without an image, a name used twice, or unreadable data is a ProtocolError", async () => {
  const shot = await createTestPng(20, 10);
  const head = [image(shot), text("<target>\nx\n</target>\nThe screenshot is 20 x 10 pixels.")];
  const bad: [unknown[], RegExp][] = [
    [[...head, text('Image "a":')], /names an image, but no image follows it/],
    [
      [...head, text('Image "a":'), image(GIF_1X1), text('Image "a":'), image(GIF_1X1)],
      /two prompt images are named "a"/,
    ],
    [
      [...head, text('Image "a":'), image("data:image/png;base64,aGVsbG8=")],
      /prompt image "a" is neither an http\(s\) link nor a readable image/,
    ],
    [[...head, image(GIF_1X1)], /holds 2 images that no 'Image "<name>":' text part names/],
  ];
  for (const [content, message] of bad) {
    assert.throws(
      () => parseRequest(locateBody(content)),
      (e: Error) => e instanceof ProtocolError && message.test(e.message),
      String(message),
    );
  }
});

test("a dialect planning request reads the named images of the current screenshot's message", async () => {
  const shot = await createTestPng(100, 50);
  const parsed = readDialectPlanRequest({
    model: "m",
    messages: [
      { role: "system", content: "You are a UI automation planner.\n..." },
      { role: "user", content: [text('<instruction>\ntap the tile like "t"\n</instruction>')] },
      {
        role: "user",
        content: [
          image(shot),
          text("The screenshot is 100 x 50 pixels."),
          text('Image "t":'),
          image("http://127.0.0.1:9/t.png"),
        ],
      },
    ],
  });
  assert.deepEqual([parsed?.call.image?.width, parsed?.call.image?.height], [100, 50]);
  assert.deepEqual(parsed?.call.promptImages, [
    { name: "t", size: null, url: "http://127.0.0.1:9/t.png" },
  ]);
});

test("an inlined prompt image's data URI is on call.promptImages as a non-enumerable dataUri", async () => {
  const shot = await createTestPng(20, 10);
  const tile = await createTestPng(7, 5);
  const { call } = parseRequest(locateBody([
    image(shot),
    text("<target>\nx\n</target>\nThe screenshot is 20 x 10 pixels."),
    text('Image "t":'),
    image(tile),
    text('Image "remote":'),
    image("https://example.com/a.png"),
  ]));
  assert.equal(call.promptImages[0].dataUri, tile);
  assert.equal(call.promptImages[1].dataUri, undefined);
  assert.deepEqual(call.promptImages[0], {
    name: "t",
    size: { width: 7, height: 5 },
    mime: "image/png",
  });
  assert.doesNotMatch(JSON.stringify(call.promptImages), /base64/);
});
