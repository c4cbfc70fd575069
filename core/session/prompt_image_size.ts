/**
 * The size limit of prompt images (spec 8: above about 10 MB a provider may fail the call): a
 * prompt image is sent as given, unless its data is over {@link PROMPT_IMAGE_MAX_BYTES}.
 *
 * @module
 */

import { prepareImage } from "../image/prepare.ts";
import { PromptImageError } from "../errors.ts";

/** The largest prompt image sent as given: 10 MiB of image data (spec 8). */
export const PROMPT_IMAGE_MAX_BYTES = 10 * 1024 * 1024;

/** JPEG quality of a prompt image re-encoded for being over the limit. */
const QUALITY = 85;

/** Bytes of a base64 data URI's payload, without decoding it. */
function payloadBytes(uri: string): number {
  const body = uri.length - uri.indexOf(",") - 1;
  const pad = uri.endsWith("==") ? 2 : uri.endsWith("=") ? 1 : 0;
  return Math.floor(body * 3 / 4) - pad;
}

/**
 * Returns an inline prompt image that fits the limit: the image itself when it does; a PNG or
 * JPEG over it re-encoded as JPEG (quality 85), and shrunk further until it fits.
 *
 * @param name the image's name, for errors.
 * @param uri a base64 data URI whose type was read from its bytes.
 * @throws {PromptImageError} for a GIF or WebP over the limit (they are not re-encoded), naming
 *   the limit and the fix.
 */
export async function fitPromptImage(name: string, uri: string): Promise<string> {
  const bytes = payloadBytes(uri);
  if (bytes <= PROMPT_IMAGE_MAX_BYTES) return uri;
  if (!/^data:image\/(png|jpeg);/.test(uri)) {
    throw new PromptImageError(
      name,
      `the image is ${bytes} bytes, over the ${PROMPT_IMAGE_MAX_BYTES}-byte limit of prompt ` +
        `images, and only PNG and JPEG images are re-encoded to fit; give a smaller image or a ` +
        `PNG or JPEG`,
    );
  }
  let shrinkFactor = 1;
  for (;;) {
    const out = (await prepareImage(uri, {
      shrinkFactor,
      encoding: { format: "jpeg", quality: QUALITY },
    })).dataUri;
    const size = payloadBytes(out);
    if (size <= PROMPT_IMAGE_MAX_BYTES) return out;
    // Bytes grow with the area: shrink both sides by the square root of the excess, a bit more.
    shrinkFactor *= Math.sqrt(size / PROMPT_IMAGE_MAX_BYTES) * 1.1;
  }
}
