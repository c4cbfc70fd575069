/**
 * The virtual phone's screenshots (private to `@sdk/web/testing`): the page captured through
 * DevTools at the phone's density, so the PNG has exactly the screen's physical pixels.
 *
 * @module
 */

import type { CDPSession } from "playwright-core";
import { Buffer } from "node:buffer";
import { PNG } from "pngjs";

function pngSize(png: Uint8Array): [number, number] {
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  return [view.getUint32(16), view.getUint32(20)];
}

/** Crops or pads (black) a PNG to exactly `width` x `height`; used only if Chromium is off. */
function fitPng(png: Uint8Array, width: number, height: number): Uint8Array {
  const source = PNG.sync.read(Buffer.from(png));
  const target = new PNG({ width, height });
  PNG.bitblt(
    source,
    target,
    0,
    0,
    Math.min(width, source.width),
    Math.min(height, source.height),
    0,
    0,
  );
  return new Uint8Array(PNG.sync.write(target));
}

/**
 * The page of `session` as a PNG of exactly `width` x `height` physical pixels.
 *
 * @param density physical pixels per CSS pixel.
 */
export async function captureScreen(
  session: CDPSession,
  width: number,
  height: number,
  density: number,
): Promise<Uint8Array> {
  const { data } = await session.send("Page.captureScreenshot", {
    format: "png",
    fromSurface: true,
    clip: { x: 0, y: 0, width: width / density, height: height / density, scale: density },
  }) as { data: string };
  const png = new Uint8Array(Buffer.from(data, "base64"));
  const [w, h] = pngSize(png);
  return w === width && h === height ? png : fitPng(png, width, height);
}
