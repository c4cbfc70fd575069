/**
 * Base64 helpers for the image pipeline, written against web APIs only (no `Buffer`, no `node:`)
 * so core loads in a browser page. They use the native `Uint8Array.fromBase64` /
 * `toBase64` where the runtime has them (Deno, recent browsers), which is many times faster than
 * `atob` / `btoa` on screenshot-sized strings.
 *
 * @module
 */

import { SdkTypeError } from "../errors.ts";

interface Base64Natives {
  fromBase64?: (text: string) => Uint8Array;
}
interface Base64Encodable {
  toBase64?: () => string;
}
interface BufferLike {
  from(
    data: Uint8Array["buffer"],
    offset: number,
    length: number,
  ): { toString(enc: string): string };
}

const natives = Uint8Array as unknown as Base64Natives;
const hasNativeEncode = typeof (Uint8Array.prototype as Base64Encodable).toBase64 === "function";

/**
 * Decodes standard base64 (ASCII whitespace and missing `=` padding tolerated).
 *
 * @throws {TypeError} when the text is not valid base64.
 */
export function decodeBase64(text: string): Uint8Array {
  try {
    if (natives.fromBase64) return natives.fromBase64(text);
    const binary = atob(text);
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return bytes;
  } catch {
    throw new SdkTypeError("Image data is not valid base64");
  }
}

/**
 * Decodes only enough of a base64 text to get at least `byteCount` bytes (fewer when the text is
 * shorter), so reading an image header does not decode megabytes of pixels.
 *
 * @throws {TypeError} when the decoded part is not valid base64.
 */
export function decodeBase64Prefix(text: string, byteCount: number): Uint8Array {
  const chars = Math.ceil(byteCount / 3) * 4;
  if (chars >= text.length) return decodeBase64(text);
  const slice = text.slice(0, chars);
  // Whitespace would shift the 4-character groups; it is rare, so compact the whole text then.
  if (/\s/.test(slice)) return decodeBase64Prefix(text.replace(/\s+/g, ""), byteCount);
  return decodeBase64(slice);
}

/** Encodes bytes as standard base64 with padding. */
export function encodeBase64(bytes: Uint8Array): string {
  if (hasNativeEncode) return (bytes as unknown as Required<Base64Encodable>).toBase64();
  // Node 20 has neither toBase64 nor a fast btoa path; its Buffer is global there.
  const NodeBuffer = (globalThis as unknown as { Buffer?: BufferLike }).Buffer;
  if (NodeBuffer) {
    return NodeBuffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64");
  }
  let binary = "";
  const chunk = 0x8000; // keeps String.fromCharCode's argument count under engine limits
  for (let i = 0; i < bytes.length; i += chunk) {
    binary += String.fromCharCode(...bytes.subarray(i, i + chunk));
  }
  return btoa(binary);
}
