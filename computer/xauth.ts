/**
 * X authority for the displays the SDK starts, and for its own X connection.
 *
 * Every Xvfb the SDK starts gets a fresh MIT-MAGIC-COOKIE-1 (16 random bytes) in an Xauthority
 * file of its own, mode 0600 in a private folder (0700), passed to Xvfb with `-auth` and to the
 * SDK's clients as `XAUTHORITY`: another local user can no longer connect to the display, read
 * its screen or send it input. The file is written here (the format of libXau), so `xauth` is
 * not needed.
 *
 * @module
 */

import { Buffer } from "node:buffer";
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { homedir, hostname } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { privateTempDir } from "@sdk/core";

/** The only authorization protocol the SDK writes and sends. */
export const MIT_MAGIC_COOKIE = "MIT-MAGIC-COOKIE-1";

/** libXau's address families the SDK reads. */
const FAMILY_LOCAL = 256;
const FAMILY_WILD = 65535;

/** One entry of an Xauthority file. */
export interface XAuthEntry {
  /** Address family (256 local, 65535 any). */
  family: number;
  /** The host name for a local entry. */
  address: string;
  /** The display number, empty for any display. */
  number: string;
  /** The protocol, e.g. `MIT-MAGIC-COOKIE-1`. */
  name: string;
  /** The cookie. */
  data: Uint8Array;
}

function field(bytes: Uint8Array): Buffer {
  const head = Buffer.alloc(2);
  head.writeUInt16BE(bytes.length);
  return Buffer.concat([head, Buffer.from(bytes)]);
}

/** The bytes of an Xauthority file holding `entries`. */
export function encodeXAuthority(entries: readonly XAuthEntry[]): Uint8Array {
  const parts: Buffer[] = [];
  for (const entry of entries) {
    const family = Buffer.alloc(2);
    family.writeUInt16BE(entry.family);
    parts.push(
      family,
      field(Buffer.from(entry.address)),
      field(Buffer.from(entry.number)),
      field(Buffer.from(entry.name)),
      field(entry.data),
    );
  }
  return Buffer.concat(parts);
}

/** The entries of an Xauthority file (a truncated tail is ignored). */
export function decodeXAuthority(bytes: Uint8Array): XAuthEntry[] {
  const buffer = Buffer.from(bytes);
  const entries: XAuthEntry[] = [];
  let at = 0;
  const next = (): Buffer | undefined => {
    if (at + 2 > buffer.length) return undefined;
    const length = buffer.readUInt16BE(at);
    if (at + 2 + length > buffer.length) return undefined;
    const value = buffer.subarray(at + 2, at + 2 + length);
    at += 2 + length;
    return value;
  };
  while (at + 2 <= buffer.length) {
    const family = buffer.readUInt16BE(at);
    at += 2;
    const address = next(), number = next(), name = next(), data = next();
    if (!address || !number || !name || !data) break;
    entries.push({
      family,
      address: address.toString("latin1"),
      number: number.toString("latin1"),
      name: name.toString("latin1"),
      data: new Uint8Array(data),
    });
  }
  return entries;
}

/** A private X authority: the folder, the file and the cookie it holds. */
export interface PrivateXAuthority {
  /** The Xauthority file (mode 0600): `-auth` for Xvfb, `XAUTHORITY` for its clients. */
  readonly file: string;
  /** The cookie, 16 bytes. */
  readonly cookie: Uint8Array;
  /** Removes the folder and the file. Safe to call twice. */
  remove(): Promise<void>;
}

/**
 * Creates a private folder (0700) with an Xauthority file (0600) holding one fresh
 * MIT-MAGIC-COOKIE-1 for any display (the X server loads every cookie of its `-auth` file, and
 * libXau matches an entry without a display number to every display). The folder goes with
 * `remove()`, or when the process ends.
 */
export async function createPrivateXAuthority(): Promise<PrivateXAuthority> {
  const dir = await privateTempDir("sdk-x11-");
  const file = join(dir.path, "Xauthority");
  const cookie = new Uint8Array(randomBytes(16));
  const entry = { family: FAMILY_WILD, address: "", number: "", name: MIT_MAGIC_COOKIE };
  await writeFile(file, encodeXAuthority([{ ...entry, data: cookie }]), { mode: 0o600 });
  return {
    file,
    cookie,
    remove: dir.remove,
  };
}

/**
 * The MIT-MAGIC-COOKIE-1 a client uses for display number `number` (libXau's rules: the file
 * `xauthority`, else `XAUTHORITY`, else `~/.Xauthority`; an entry of this host or of any host,
 * of this display or of any), or `undefined` when there is none (the server may allow the
 * client without one).
 */
export function cookieFor(number: number, xauthority?: string): Uint8Array | undefined {
  const file = xauthority ?? process.env.XAUTHORITY ?? join(homedir(), ".Xauthority");
  let entries: XAuthEntry[];
  try {
    entries = decodeXAuthority(readFileSync(file));
  } catch {
    return undefined;
  }
  const host = hostname();
  const found = entries.find((e) =>
    e.name === MIT_MAGIC_COOKIE &&
    (e.family === FAMILY_WILD || (e.family === FAMILY_LOCAL && e.address === host)) &&
    (e.number === "" || e.number === String(number))
  );
  return found?.data;
}
