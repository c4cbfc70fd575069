/**
 * The Android shell's screen commands (private to `@sdk/mobilea/testing`): `screencap` (PNG or
 * raw RGBA) and `wm size` / `wm density`, answered from the virtual phone in physical pixels.
 *
 * @module
 */

import { Buffer } from "node:buffer";
import { PNG } from "pngjs";
import { resolvePath, type VirtualPhone } from "@sdk/web/testing";
import type { AndroidCommand } from "./_android_device.ts";

/** The screen as RGBA pixels, 4 bytes a pixel, rows top to bottom (physical pixels). */
export async function screenPixels(
  phone: VirtualPhone,
): Promise<{ width: number; height: number; rgba: Uint8Array }> {
  const decoded = PNG.sync.read(Buffer.from(await phone.screenshot()));
  return { width: decoded.width, height: decoded.height, rgba: decoded.data };
}

/** `screencap [-p] [-d 0] [FILE]`. */
export const screencap: AndroidCommand = async (args, io, { phone, files }) => {
  let png = false;
  let file: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === "-p") png = true;
    else if (arg === "-d") {
      const display = args[++i];
      if (display !== "0") {
        io.stderr(`Display Id '${display}' is not valid.\n`);
        return 1;
      }
    } else if (arg === "-h") {
      io.stderr("usage: screencap [-hp] [-d display-id] [FILENAME]\n");
      return 0;
    } else if (arg.startsWith("-")) {
      io.stderr(`usage: screencap [-hp] [-d display-id] [FILENAME]\n`);
      return 1;
    } else file = arg;
  }
  if (file?.endsWith(".png")) png = true;
  let data: Uint8Array;
  if (png) data = await phone.screenshot();
  else {
    // Raw: width, height, pixel format (1 = RGBA_8888), data space (0 = unknown), then pixels.
    const { width, height, rgba } = await screenPixels(phone);
    const header = Buffer.alloc(16);
    header.writeUInt32LE(width, 0);
    header.writeUInt32LE(height, 4);
    header.writeUInt32LE(1, 8);
    header.writeUInt32LE(0, 12);
    data = Buffer.concat([header, rgba]);
  }
  if (file) files.set(resolvePath(file), data);
  else io.stdout(data);
  return 0;
};

/** `wm size`, `wm density` (overrides are refused). */
export const wm: AndroidCommand = (args, io, { phone }) => {
  const [verb, ...rest] = args;
  if (verb === "size" && rest.length === 0) {
    io.stdout(`Physical size: ${phone.width}x${phone.height}\n`);
    return Promise.resolve(0);
  }
  if (verb === "density" && rest.length === 0) {
    io.stdout(`Physical density: ${phone.densityDpi}\n`);
    return Promise.resolve(0);
  }
  if (verb === "size" || verb === "density") {
    io.stderr(`The simulator cannot override the display ${verb}.\n`);
    return Promise.resolve(1);
  }
  io.stderr(`Unknown command: ${verb ?? ""}\n`);
  return Promise.resolve(verb === undefined ? 0 : 255);
};
