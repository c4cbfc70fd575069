/**
 * adb's file sync service, version 1 (private to `@sdk/mobilea/testing`), over the simulator's
 * small in-memory file system: requests are a 4-letter id, a little-endian u32 length and that many
 * bytes. STAT (mode, size, mtime; zeros when missing), LIST (DENT entries then DONE), SEND
 * (`path,mode`, DATA chunks, DONE with the mtime; answered OKAY), RECV (DATA chunks then DONE, or
 * FAIL), QUIT. The v2 requests (STA2, LIS2, SND2, RCV2) are not spoken: the front does not
 * advertise `stat_v2`, `ls_v2` or `sendrecv_v2`, so clients use version 1.
 *
 * @module
 */

import { Buffer } from "node:buffer";
import { resolvePath } from "@sdk/web/testing";

/** Bytes a stream delivered, read as they arrive. */
export class StreamBytes {
  #chunks: Buffer = Buffer.alloc(0);
  #ended = false;
  #wake?: () => void;

  /** Adds bytes the host wrote. */
  push(data: Uint8Array): void {
    this.#chunks = Buffer.concat([this.#chunks, data]);
    this.#wake?.();
  }

  /** Marks the end: pending and later reads give undefined. */
  end(): void {
    this.#ended = true;
    this.#wake?.();
  }

  /** Resolves with exactly `length` bytes, or undefined when the stream ended first. */
  async read(length: number): Promise<Buffer | undefined> {
    while (this.#chunks.length < length) {
      if (this.#ended) return undefined;
      await new Promise<void>((resolve) => this.#wake = resolve);
      this.#wake = undefined;
    }
    const head = this.#chunks.subarray(0, length);
    this.#chunks = this.#chunks.subarray(length);
    return head;
  }
}

const FILE_MODE = 0o100644;
const DIRECTORY_MODE = 0o040771;
const DIRECTORIES = new Set(["/", "/sdcard", "/data", "/data/local", "/data/local/tmp"]);
const MAX_DATA = 64 * 1024;

function header(id: string, value: number): Buffer {
  const bytes = Buffer.alloc(8);
  bytes.write(id, 0, "latin1");
  bytes.writeUInt32LE(value >>> 0, 4);
  return bytes;
}

function isDirectory(files: Map<string, Uint8Array>, path: string): boolean {
  if (DIRECTORIES.has(path)) return true;
  for (const name of files.keys()) if (name.startsWith(`${path}/`)) return true;
  return false;
}

/**
 * Serves one sync session until QUIT or the end of the stream.
 *
 * @param input the bytes the host writes.
 * @param write sends bytes to the host (in order).
 * @param files the file system, by absolute path.
 */
export async function serveSync(
  input: StreamBytes,
  write: (data: Uint8Array) => Promise<void>,
  files: Map<string, Uint8Array>,
): Promise<void> {
  const mtimes = new Map<string, number>();
  const now = () => Math.floor(Date.now() / 1000);
  const fail = (message: string) => {
    const text = Buffer.from(message);
    return write(Buffer.concat([header("FAIL", text.length), text]));
  };
  while (true) {
    const request = await input.read(8);
    if (!request) return;
    const id = request.toString("latin1", 0, 4);
    const length = request.readUInt32LE(4);
    if (id === "QUIT") return;
    const argument = await input.read(length);
    if (!argument) return;
    const text = argument.toString("utf8");
    if (id === "STAT") {
      const path = resolvePath(text);
      const file = files.get(path);
      const reply = Buffer.alloc(16);
      reply.write("STAT", 0, "latin1");
      if (file) {
        reply.writeUInt32LE(FILE_MODE, 4);
        reply.writeUInt32LE(file.length, 8);
        reply.writeUInt32LE(mtimes.get(path) ?? now(), 12);
      } else if (isDirectory(files, path)) {
        reply.writeUInt32LE(DIRECTORY_MODE, 4);
        reply.writeUInt32LE(4096, 8);
        reply.writeUInt32LE(now(), 12);
      }
      await write(reply);
    } else if (id === "LIST") {
      const path = resolvePath(text);
      const prefix = path === "/" ? "/" : `${path}/`;
      const entries = new Map<string, Uint8Array | undefined>();
      for (const [name, data] of files) {
        if (!name.startsWith(prefix)) continue;
        const [first, ...more] = name.slice(prefix.length).split("/");
        entries.set(first, more.length > 0 ? undefined : data);
      }
      for (const [name, data] of entries) {
        const encoded = Buffer.from(name);
        const dent = Buffer.alloc(20);
        dent.write("DENT", 0, "latin1");
        dent.writeUInt32LE(data ? FILE_MODE : DIRECTORY_MODE, 4);
        dent.writeUInt32LE(data ? data.length : 4096, 8);
        dent.writeUInt32LE(now(), 12);
        dent.writeUInt32LE(encoded.length, 16);
        await write(Buffer.concat([dent, encoded]));
      }
      await write(Buffer.concat([header("DONE", 0), Buffer.alloc(12)]));
    } else if (id === "SEND") {
      const comma = text.lastIndexOf(",");
      const path = resolvePath(comma < 0 ? text : text.slice(0, comma));
      const chunks: Uint8Array[] = [];
      while (true) {
        const part = await input.read(8);
        if (!part) return;
        const partId = part.toString("latin1", 0, 4);
        const value = part.readUInt32LE(4);
        if (partId === "DATA") {
          const data = await input.read(value);
          if (!data) return;
          chunks.push(data);
        } else if (partId === "DONE") {
          files.set(path, new Uint8Array(Buffer.concat(chunks)));
          mtimes.set(path, value);
          await write(header("OKAY", 0));
          break;
        } else {
          await fail(`unexpected ${partId} in SEND`);
          return;
        }
      }
    } else if (id === "RECV") {
      const path = resolvePath(text);
      const file = files.get(path);
      if (!file) {
        await fail(`remote object '${text}' does not exist`);
        continue;
      }
      for (let offset = 0; offset < file.length; offset += MAX_DATA) {
        const chunk = file.subarray(offset, offset + MAX_DATA);
        await write(Buffer.concat([header("DATA", chunk.length), chunk]));
      }
      await write(header("DONE", 0));
    } else {
      await fail(`unknown sync request ${JSON.stringify(id)}`);
      return;
    }
  }
}
