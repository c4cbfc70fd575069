import { test } from "../../tests/helpers/test.ts";
import assert from "node:assert/strict";
import { loadJsCodecs } from "../image/backend.ts";
import { encodeBase64 } from "../image/base64.ts";
import { imageSizeFromDataUri } from "../image/size.ts";
import { resolvePrompt } from "./prompt_input.ts";
import { PromptImageError } from "../errors.ts";
import { PROMPT_IMAGE_MAX_BYTES } from "./prompt_image_size.ts";

const payload = (uri: string) => Math.floor((uri.length - uri.indexOf(",") - 1) * 3 / 4);

/** A PNG of random pixels: it does not compress, so its size is about 3 bytes a pixel. */
async function noisePng(width: number, height: number): Promise<string> {
  const data = new Uint8Array(width * height * 4);
  let x = 2463534242; // xorshift32: random enough that deflate cannot shrink it
  for (let i = 0; i < data.length; i += 4) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    data.set([x & 255, (x >>> 8) & 255, (x >>> 16) & 255, 255], i);
  }
  const png = (await loadJsCodecs()).encode({ width, height, data }, "image/png", false);
  return `data:image/png;base64,${encodeBase64(png)}`;
}

test("a prompt image over 10 MiB is re-encoded as a JPEG under the limit, same aspect", async () => {
  const big = await noisePng(1900, 1900);
  assert.ok(payload(big) > PROMPT_IMAGE_MAX_BYTES, `fixture is ${payload(big)} bytes`);
  const { images } = await resolvePrompt(
    { prompt: "find the noise", images: [{ name: "noise", url: big }] },
    "aiTap locate",
  );
  const url = images[0].url;
  assert.match(url, /^data:image\/jpeg;base64,/);
  assert.ok(payload(url) <= PROMPT_IMAGE_MAX_BYTES, `${payload(url)} bytes`);
  const { width, height } = imageSizeFromDataUri(url);
  assert.equal(width, height);
  assert.ok(width > 0 && width <= 1900);
});

test("a prompt image under the limit is sent as given", async () => {
  const small = await noisePng(64, 48);
  const { images } = await resolvePrompt(
    { prompt: "x", images: [{ name: "small", url: small }] },
    "aiTap locate",
  );
  assert.equal(images[0].url, small);
});

test("a GIF over the limit is rejected, naming the image, the limit and the fix", async () => {
  const gif = new Uint8Array(PROMPT_IMAGE_MAX_BYTES + 10);
  gif.set([...new TextEncoder().encode("GIF89a"), 1, 0, 1, 0]);
  await assert.rejects(
    resolvePrompt(
      {
        prompt: "x",
        images: [{ name: "anim", url: `data:image/gif;base64,${encodeBase64(gif)}` }],
      },
      "aiTap locate",
    ),
    (e: unknown) =>
      e instanceof PromptImageError && e.imageName === "anim" &&
      /over the 10485760-byte limit/.test(e.message) && /give a smaller image/.test(e.message),
  );
});
