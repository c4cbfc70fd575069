import { before } from "node:test";
import { after, test } from "../../tests/helpers/test.ts";
import assert from "node:assert/strict";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import { resolvePrompt, sniffImageType } from "./prompt_input.ts";
import { PromptImageError } from "../errors.ts";
import { promptImageParts } from "../model/prompt_images.ts";
import { createTestPng } from "../testing/png.ts";
import { pattern, toDataUri, WHITE } from "../image/test_util.ts";
import { decodeBase64 } from "../image/base64.ts";
import { protocolMessages } from "../insight/ask.ts";
import { dialectConversation } from "../model/dialect.ts";
import type { Screen } from "./screen.ts";

// Real 1x1 images of the two formats the SDK never produces itself.
const GIF_BASE64 = "R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==";
const WEBP_BASE64 = "UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==";

const body = (uri: string) => uri.slice(uri.indexOf(",") + 1);

let dir: string;
let png: string; // data URI of a 40 x 30 PNG
let pngFile: string;
let server: http.Server;
let base: string;
const hits: string[] = [];

before(async () => {
  dir = await mkdtemp(join(tmpdir(), "prompt-images-"));
  png = await createTestPng(40, 30, { color: [200, 30, 30] });
  pngFile = join(dir, "target.png");
  await writeFile(pngFile, decodeBase64(body(png)));
  await writeFile(join(dir, "notes.txt"), "not an image\n");
  await mkdir(join(dir, "folder.png"));
  server = http.createServer((req, res) => {
    hits.push(req.url ?? "");
    if (req.url === "/target.png") {
      // A wrong content type: the type is read from the bytes.
      res.writeHead(200, { "content-type": "application/octet-stream" });
      res.end(decodeBase64(body(png)));
    } else if (req.url === "/page.html") {
      res.writeHead(200, { "content-type": "text/html" });
      res.end("<!doctype html><p>hello</p>");
    } else if (req.url === "/slow.png") {
      // Answers after 5 s: long enough for an abort to win.
      setTimeout(() => res.end(decodeBase64(body(png))), 5000).unref?.();
    } else {
      res.writeHead(404, { "content-type": "text/plain" });
      res.end("no such image");
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

after(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await rm(dir, { recursive: true, force: true });
});

test("a string prompt, and a prompt object without images, carry no images", async () => {
  assert.deepEqual(await resolvePrompt("the logo", "aiTap locate"), {
    text: "the logo",
    images: [],
  });
  assert.deepEqual(await resolvePrompt({ prompt: "the logo" }, "aiTap locate"), {
    text: "the logo",
    images: [],
  });
});

test("an empty prompt text is a TypeError naming the parameter", async () => {
  await assert.rejects(
    resolvePrompt({ prompt: " ", images: [] }, "aiTap locate"),
    (e: Error) =>
      e instanceof TypeError && /^aiTap locate must be a non-empty string/.test(e.message),
  );
});

test("a local PNG file, by absolute path, relative path or file: URL, is sent as a PNG data URI", async () => {
  const rel = relative(Deno.cwd(), pngFile);
  const { images } = await resolvePrompt({
    prompt: 'tiles like "a", "b" and "c"',
    images: [
      { name: "a", url: pngFile },
      { name: "b", url: rel },
      { name: "c", url: pathToFileURL(pngFile).href },
    ],
  }, "aiTap locate");
  assert.deepEqual(images, [
    { name: "a", url: `data:image/png;base64,${body(png)}` },
    { name: "b", url: `data:image/png;base64,${body(png)}` },
    { name: "c", url: `data:image/png;base64,${body(png)}` },
  ]);
});

test("a data URI is kept, with the media type its bytes show", async () => {
  const { images } = await resolvePrompt({
    prompt: 'the image "x" and "y"',
    images: [
      { name: "x", url: png },
      // Declared as JPEG, but the bytes are a PNG: the model is told PNG.
      { name: "y", url: `data:image/jpeg;base64,${body(png)}` },
    ],
  }, "aiQuery prompt");
  assert.equal(images[0].url, png);
  assert.equal(images[1].url, `data:image/png;base64,${body(png)}`);
});

test("raw base64 of a PNG, JPEG, GIF or WebP becomes a data URI of that type", async () => {
  const jpeg = await toDataUri(pattern(16, 12, { x: 0, y: 0, w: 4, h: 4 }, WHITE), "image/jpeg");
  const { images } = await resolvePrompt({
    prompt: "four images",
    images: [
      { name: "png", url: body(png) },
      { name: "jpeg", url: body(jpeg) },
      { name: "gif", url: GIF_BASE64 },
      { name: "webp", url: WEBP_BASE64 },
    ],
  }, "aiAsk prompt");
  assert.deepEqual(images.map((i) => i.url.slice(0, i.url.indexOf(","))), [
    "data:image/png;base64",
    "data:image/jpeg;base64",
    "data:image/gif;base64",
    "data:image/webp;base64",
  ]);
  assert.equal(images[2].url, `data:image/gif;base64,${GIF_BASE64}`);
});

test("sniffImageType reads the magic bytes and nothing else", () => {
  assert.equal(sniffImageType(decodeBase64(GIF_BASE64)), "image/gif");
  assert.equal(sniffImageType(decodeBase64(WEBP_BASE64)), "image/webp");
  assert.equal(sniffImageType(new TextEncoder().encode("RIFF....WAVEfmt ")), undefined);
  assert.equal(sniffImageType(new Uint8Array()), undefined);
});

test("an http link is sent as given, without being fetched, unless convertHttpImage2Base64", async () => {
  hits.length = 0;
  const link = `${base}/target.png`;
  const { images } = await resolvePrompt(
    { prompt: 'the image "remote"', images: [{ name: "remote", url: link }] },
    "aiTap locate",
  );
  assert.deepEqual(images, [{ name: "remote", url: link }]);
  assert.deepEqual(hits, []);
});

test("convertHttpImage2Base64 downloads the link and sends a data URI typed from its bytes", async () => {
  hits.length = 0;
  const { images } = await resolvePrompt({
    prompt: 'the image "remote"',
    images: [{ name: "remote", url: `${base}/target.png` }],
    convertHttpImage2Base64: true,
  }, "aiTap locate");
  assert.deepEqual(images, [{ name: "remote", url: `data:image/png;base64,${body(png)}` }]);
  assert.deepEqual(hits, ["/target.png"]);
});

test("a missing file, a directory or a non-image file is a PromptImageError naming the image", async () => {
  const cases: [string, RegExp][] = [
    [join(dir, "missing.png"), /cannot read the local file ".*missing\.png": no such file/],
    [join(dir, "folder.png"), /cannot read the local file ".*folder\.png": it is a directory/],
    [
      join(dir, "notes.txt"),
      /the file ".*notes\.txt" is not a PNG, JPEG, GIF or WebP image \(its first bytes are 6e 6f 74/,
    ],
  ];
  for (const [url, message] of cases) {
    await assert.rejects(
      resolvePrompt({ prompt: 'the "logo"', images: [{ name: "logo", url }] }, "aiTap locate"),
      (e: Error) =>
        e instanceof PromptImageError && e.imageName === "logo" &&
        e.message.startsWith('Prompt image "logo": ') && message.test(e.message),
      url,
    );
  }
});

test("a data URI that is not base64 or holds no image is a PromptImageError", async () => {
  await assert.rejects(
    resolvePrompt({ prompt: "p", images: [{ name: "a", url: "data:image/png,abc" }] }, "w"),
    /Prompt image "a": the data URI is not base64-encoded/,
  );
  await assert.rejects(
    resolvePrompt({
      prompt: "p",
      images: [{ name: "a", url: `data:image/png;base64,${btoa("plain text here")}` }],
    }, "w"),
    /Prompt image "a": the data URI holds no PNG, JPEG, GIF or WebP image/,
  );
});

test("a link of another scheme is a PromptImageError", async () => {
  await assert.rejects(
    resolvePrompt({ prompt: "p", images: [{ name: "a", url: "ftp://host/a.png" }] }, "w"),
    /Prompt image "a": links of the scheme "ftp:" are not supported/,
  );
});

test("empty, blank or duplicate names, a missing url and a non-array images are TypeErrors", async () => {
  const bad: [unknown, RegExp][] = [
    [[{ name: "", url: png }], /aiTap locate: images\[0\] needs a non-empty string name/],
    [
      [{ name: "a", url: png }, { name: "  ", url: png }],
      /images\[1\] needs a non-empty string name/,
    ],
    [[{ url: png }], /images\[0\] needs a non-empty string name/],
    [[{ name: "a", url: png }, { name: " a ", url: png }], /two images are named "a"/],
    [[{ name: "a", url: "" }], /image "a" needs a url/],
    [[{ name: "a" }], /image "a" needs a url/],
    ["logo.png", /images must be an array of \{ name, url \}/],
  ];
  for (const [images, message] of bad) {
    await assert.rejects(
      resolvePrompt({ prompt: "p", images } as never, "aiTap locate"),
      (e: Error) => e instanceof TypeError && message.test(e.message),
      JSON.stringify(images),
    );
  }
  await assert.rejects(
    resolvePrompt({ prompt: "p", images: [], convertHttpImage2Base64: "yes" } as never, "w"),
    /w: convertHttpImage2Base64 must be true or false, got "yes"/,
  );
});

test("a download that answers 404 or a page is a PromptImageError naming the image and link", async () => {
  const link = `${base}/gone.png`;
  await assert.rejects(
    resolvePrompt({
      prompt: "p",
      images: [{ name: "remote", url: link }],
      convertHttpImage2Base64: true,
    }, "aiTap locate"),
    (e: Error) =>
      e instanceof PromptImageError && e.imageName === "remote" &&
      e.message.includes(`downloading ${link} failed: HTTP 404 Not Found`),
  );
  await assert.rejects(
    resolvePrompt({
      prompt: "p",
      images: [{ name: "remote", url: `${base}/page.html` }],
      convertHttpImage2Base64: true,
    }, "aiTap locate"),
    /Prompt image "remote": the download of .*page\.html \(content-type text\/html\) is not a PNG, JPEG, GIF or WebP image/,
  );
});

test("a download from a closed port is a PromptImageError naming the image", async () => {
  const closed = http.createServer();
  await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
  const port = (closed.address() as AddressInfo).port;
  await new Promise((resolve) => closed.close(resolve));
  await assert.rejects(
    resolvePrompt({
      prompt: "p",
      images: [{ name: "remote", url: `http://127.0.0.1:${port}/a.png` }],
      convertHttpImage2Base64: true,
    }, "aiTap locate"),
    new RegExp(`Prompt image "remote": downloading http://127.0.0.1:${port}/a.png failed: `),
  );
});

test("aborting the signal stops a download with the signal's reason", async () => {
  const controller = new AbortController();
  const reason = new Error("stop now");
  const started = Date.now();
  setTimeout(() => controller.abort(reason), 100);
  await assert.rejects(
    resolvePrompt(
      {
        prompt: "p",
        images: [{ name: "remote", url: `${base}/slow.png` }],
        convertHttpImage2Base64: true,
      },
      "aiAct prompt",
      controller.signal,
    ),
    (e: unknown) => e === reason,
  );
  assert.ok(Date.now() - started < 3000, "the abort ends the download at once");
});

test("promptImageParts names each image in a text part before it; none gives no parts", () => {
  assert.deepEqual(promptImageParts([]), []);
  assert.deepEqual(promptImageParts(), []);
  assert.deepEqual(
    promptImageParts([{ name: 'say "hi"', url: png }, { name: "b", url: "https://x/b.png" }]),
    [
      { type: "text", text: 'Image "say \\"hi\\"":' },
      { type: "image_url", image_url: { url: png } },
      { type: "text", text: 'Image "b":' },
      { type: "image_url", image_url: { url: "https://x/b.png" } },
    ],
  );
});

test("protocolMessages puts the named images after the text, and is unchanged without them", () => {
  const screen = { image: { dataUri: png } } as Screen;
  const plain = [
    { role: "system", content: "sys" },
    {
      role: "user",
      content: [
        { type: "image_url", image_url: { url: png } },
        { type: "text", text: "user" },
      ],
    },
  ];
  assert.deepEqual(protocolMessages("sys", "user", screen), plain);
  assert.deepEqual(protocolMessages("sys", "user", screen, []), plain);
  assert.deepEqual(protocolMessages("sys", "user", screen, [{ name: "a", url: GIF_BASE64 }]), [
    plain[0],
    {
      role: "user",
      content: [
        ...(plain[1].content as unknown[]),
        { type: "text", text: 'Image "a":' },
        { type: "image_url", image_url: { url: GIF_BASE64 } },
      ],
    },
  ]);
});

test("a dialect conversation carries the named images after the current screenshot only", () => {
  const image = { dataUri: png, width: 40, height: 30 };
  const input = {
    instruction: 'tap the tile like "a"',
    actions: [],
    image,
    history: [{ answer: "Thought: t\nAction: wait()", image }],
  };
  const without = dialectConversation("sys", input, 1);
  const withImages = dialectConversation("sys", {
    ...input,
    promptImages: [{ name: "a", url: "https://x/a.png" }],
  }, 1);
  const last = withImages.length - 1;
  assert.deepEqual(withImages.slice(0, last), without.slice(0, last));
  assert.deepEqual(withImages[last].content, [
    ...(without[last].content as unknown[]),
    { type: "text", text: 'Image "a":' },
    { type: "image_url", image_url: { url: "https://x/a.png" } },
  ]);
});
