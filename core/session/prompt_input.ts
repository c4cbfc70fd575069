/**
 * Prompt objects with images (spec 2.5): checks a `TUserPrompt` and turns its images into what
 * the model is sent. The agent resolves them once per call, before any action or model call, so
 * a bad image fails the call before the device is touched; every model request of the call then
 * carries them (docs/model-protocol.md, "Prompt images").
 *
 * An image's `url` may be:
 * - a base64 data URI (`data:image/png;base64,...`);
 * - a raw base64 body (`iVBORw0KGgo...`);
 * - an `http:` / `https:` link, sent to the model as the link itself, or downloaded by the SDK
 *   and sent as a data URI when the prompt sets `convertHttpImage2Base64: true`;
 * - a local file path (relative paths resolve from the working directory) or a `file:` URL.
 *   Not in a browser runtime, which has no file system.
 *
 * The type is read from the bytes (PNG, JPEG, GIF or WebP), never from a file name or a declared
 * media type; anything else is an error naming the image.
 *
 * @module
 */

import { decodeBase64Prefix, encodeBase64 } from "../image/base64.ts";
import { PromptImageError, SdkTypeError } from "../errors.ts";
import type { ResolvedPromptImage } from "../model/prompt_images.ts";
import { hasFileSystem, readLocalFile } from "../runtime/runtime.ts";
import type { TUserPrompt } from "./options.ts";
import { fitPromptImage } from "./prompt_image_size.ts";

/** A prompt with its text checked and its images resolved. */
export interface ResolvedPrompt {
  /** The prompt text. */
  text: string;
  /** Its images, in the order given; empty for a string prompt or one without images. */
  images: ResolvedPromptImage[];
}

/** The image types a prompt image may have, as media types. */
export type PromptImageMime = "image/png" | "image/jpeg" | "image/gif" | "image/webp";

const FORMATS = "PNG, JPEG, GIF or WebP";

const ascii = (bytes: Uint8Array, from: number, text: string): boolean =>
  [...text].every((c, i) => bytes[from + i] === c.charCodeAt(0));

/**
 * The image type of some bytes, from their magic numbers: PNG (`89 50 4E 47 0D 0A 1A 0A`), JPEG
 * (`FF D8 FF`), GIF (`GIF87a` / `GIF89a`), WebP (`RIFF` .... `WEBP`); `undefined` for anything
 * else. Needs the first 12 bytes.
 */
export function sniffImageType(bytes: Uint8Array): PromptImageMime | undefined {
  if (ascii(bytes, 0, "\x89PNG\r\n\x1a\n")) return "image/png";
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return "image/jpeg";
  if (ascii(bytes, 0, "GIF87a") || ascii(bytes, 0, "GIF89a")) return "image/gif";
  if (ascii(bytes, 0, "RIFF") && ascii(bytes, 8, "WEBP")) return "image/webp";
  return undefined;
}

function firstBytes(bytes: Uint8Array): string {
  return Array.from(bytes.subarray(0, 8), (b) => b.toString(16).padStart(2, "0")).join(" ") ||
    "(empty)";
}

/** Standard base64 without whitespace, padding optional. */
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** The image type of a base64 body (whitespace already removed), or undefined. */
function sniffBase64(body: string): PromptImageMime | undefined {
  if (!BASE64.test(body)) return undefined;
  try {
    return sniffImageType(decodeBase64Prefix(body, 12));
  } catch {
    return undefined;
  }
}

function dataUri(name: string, bytes: Uint8Array, where: string): string {
  const mime = sniffImageType(bytes);
  if (!mime) {
    throw new PromptImageError(
      name,
      `${where} is not a ${FORMATS} image (its first bytes are ${firstBytes(bytes)}); ` +
        `give an image in one of these formats`,
    );
  }
  return `data:${mime};base64,${encodeBase64(bytes)}`;
}

function fromDataUri(name: string, url: string): string {
  const comma = url.indexOf(",");
  const header = comma < 0 ? "" : url.slice(5, comma).toLowerCase();
  if (comma < 0 || !header.split(";").map((p) => p.trim()).includes("base64")) {
    throw new PromptImageError(
      name,
      `the data URI is not base64-encoded (it needs the form "data:image/png;base64,..."); ` +
        `encode the image as base64`,
    );
  }
  const body = url.slice(comma + 1).replace(/\s+/g, "");
  const mime = sniffBase64(body);
  if (!mime) {
    throw new PromptImageError(
      name,
      `the data URI holds no ${FORMATS} image (its data starts with "${body.slice(0, 16)}"); ` +
        `give base64 data of an image in one of these formats`,
    );
  }
  // The type from the bytes wins over the declared one, so the model is told the truth.
  return `data:${mime};base64,${body}`;
}

async function download(name: string, url: string, signal?: AbortSignal): Promise<string> {
  let response: Response;
  try {
    response = await fetch(url, { signal });
  } catch (e) {
    if (signal?.aborted) throw signal.reason;
    throw new PromptImageError(
      name,
      `downloading ${url} failed: ${(e as Error)?.message ?? e}. Check that the link is ` +
        `reachable from here, or leave convertHttpImage2Base64 unset to send the link itself`,
      { cause: e },
    );
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new PromptImageError(
      name,
      `downloading ${url} failed: HTTP ${response.status} ${response.statusText}`.trimEnd() +
        `. Check that the link serves the image`,
    );
  }
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(await response.arrayBuffer());
  } catch (e) {
    if (signal?.aborted) throw signal.reason;
    throw new PromptImageError(name, `downloading ${url} failed: ${(e as Error)?.message ?? e}`, {
      cause: e,
    });
  }
  const type = response.headers.get("content-type");
  return dataUri(name, bytes, `the download of ${url}${type ? ` (content-type ${type})` : ""}`);
}

async function fromFile(name: string, file: string | URL): Promise<string> {
  const shown = typeof file === "string" ? file : file.href;
  if (!hasFileSystem) {
    throw new PromptImageError(
      name,
      `"${shown}" is a local file, but a browser runtime has no file system; give a data URI, ` +
        `base64 data or an http(s) link instead`,
    );
  }
  let read: { path: string; bytes: Uint8Array };
  try {
    read = await readLocalFile(file);
  } catch (e) {
    const code = (e as { code?: string })?.code;
    const why = code === "ENOENT" || (e as Error)?.name === "NotFound"
      ? "no such file"
      : code === "EISDIR"
      ? "it is a directory"
      : (e as Error)?.message ?? String(e);
    // The error's path shows where a relative path led.
    const path = (e as { path?: unknown })?.path;
    const resolved = typeof path === "string" && path !== shown ? ` (${path})` : "";
    throw new PromptImageError(
      name,
      `cannot read the local file "${shown}"${resolved}: ${why}. Give the path of an existing image file ` +
        `(relative paths resolve from the working directory), a data URI, base64 image data or ` +
        `an http(s) link`,
      { cause: e },
    );
  }
  return dataUri(name, read.bytes, `the file "${read.path}"`);
}

async function resolveImage(
  name: string,
  url: string,
  convertHttp: boolean,
  signal: AbortSignal | undefined,
): Promise<ResolvedPromptImage> {
  const trimmed = url.trim();
  if (/^data:/i.test(trimmed)) return { name, url: fromDataUri(name, trimmed) };
  if (/^https?:\/\//i.test(trimmed)) {
    if (!URL.canParse(trimmed)) {
      throw new PromptImageError(name, `"${trimmed}" is not a valid http(s) link`);
    }
    return { name, url: convertHttp ? await download(name, trimmed, signal) : trimmed };
  }
  if (/^file:/i.test(trimmed)) {
    if (!URL.canParse(trimmed)) {
      throw new PromptImageError(name, `"${trimmed}" is not a valid file: URL`);
    }
    return { name, url: await fromFile(name, new URL(trimmed)) };
  }
  const scheme = /^([a-z][a-z0-9+.-]+):\/\//i.exec(trimmed);
  if (scheme) {
    throw new PromptImageError(
      name,
      `links of the scheme "${scheme[1]}:" are not supported; give a local path, a data URI, ` +
        `base64 image data or an http(s) link`,
    );
  }
  const body = trimmed.replace(/\s+/g, "");
  const mime = sniffBase64(body);
  if (mime) return { name, url: `data:${mime};base64,${body}` };
  return { name, url: await fromFile(name, trimmed) };
}

/**
 * Checks a prompt (a string, or a prompt object of spec 2.5) and resolves its images: local files
 * are read, base64 data is checked, http(s) links are kept, or downloaded when
 * `convertHttpImage2Base64` is true. All images are resolved in parallel.
 *
 * @param prompt the prompt as the caller gave it.
 * @param what how errors name the parameter, e.g. `"aiTap locate"`.
 * @param signal cancels downloads; an abort rejects with the signal's reason.
 * @returns the text and the images ready to send.
 * @throws {TypeError} when the text is missing or empty, `images` is not an array of
 *   `{ name, url }` strings, a name is empty or used twice, or `convertHttpImage2Base64` is not a
 *   boolean.
 * @throws {PromptImageError} when an image cannot be used (see the class), or is a GIF or WebP
 *   over the 10 MiB limit (PNG and JPEG images over it are re-encoded to fit, see
 *   `fitPromptImage`).
 */
export async function resolvePrompt(
  prompt: TUserPrompt,
  what: string,
  signal?: AbortSignal,
): Promise<ResolvedPrompt> {
  const text = typeof prompt === "string" ? prompt : prompt?.prompt;
  if (typeof text !== "string" || text.trim() === "") {
    throw new SdkTypeError(
      `${what} must be a non-empty string or an object { prompt: string }, got ${
        JSON.stringify(prompt)
      }`,
    );
  }
  if (typeof prompt === "string" || prompt.images === undefined) return { text, images: [] };
  const { images, convertHttpImage2Base64: convert } = prompt;
  if (convert !== undefined && typeof convert !== "boolean") {
    throw new SdkTypeError(
      `${what}: convertHttpImage2Base64 must be true or false, got ${JSON.stringify(convert)}`,
    );
  }
  if (!Array.isArray(images)) {
    throw new SdkTypeError(
      `${what}: images must be an array of { name, url }, got ${JSON.stringify(images)}`,
    );
  }
  const seen = new Set<string>();
  const checked = images.map((image, i) => {
    const name = typeof image?.name === "string" ? image.name.trim() : "";
    if (name === "") {
      throw new SdkTypeError(
        `${what}: images[${i}] needs a non-empty string name (the name the prompt text uses), ` +
          `got ${JSON.stringify(image?.name)}`,
      );
    }
    if (seen.has(name)) {
      throw new SdkTypeError(
        `${what}: two images are named ${JSON.stringify(name)}; give each image its own name`,
      );
    }
    seen.add(name);
    if (typeof image.url !== "string" || image.url.trim() === "") {
      throw new SdkTypeError(
        `${what}: image ${JSON.stringify(name)} needs a url (a local path, a data URI, base64 ` +
          `data or an http(s) link), got ${JSON.stringify(image.url)}`,
      );
    }
    return { name, url: image.url };
  });
  signal?.throwIfAborted();
  return {
    text,
    images: await Promise.all(
      checked.map(async (image) => {
        const resolved = await resolveImage(image.name, image.url, convert === true, signal);
        if (!resolved.url.startsWith("data:")) return resolved;
        return { name: resolved.name, url: await fitPromptImage(resolved.name, resolved.url) };
      }),
    ),
  };
}
