/**
 * adb's transport messages (private to `@sdk/mobilea/testing`): a 24-byte little-endian header of
 * six 32-bit words (command, arg0, arg1, payload length, payload checksum, command ^ 0xffffffff)
 * and a payload. The checksum (sum of the payload bytes) is dropped from protocol version
 * 0x01000001 on; it is still written here, so that peers of older versions can check it.
 *
 * @module
 */

import { Buffer } from "node:buffer";

/** Message commands (their four ASCII letters, read as a little-endian word). Connect: arg0 protocol version, arg1 max payload, payload the system identity banner. */
export const A_CNXN = 0x4e584e43;
/** Authentication: arg0 type (1 token, 2 signature, 3 RSA public key). */
export const A_AUTH = 0x48545541;
/** Open a stream: arg0 the opener's local id, payload the service name (NUL-terminated). */
export const A_OPEN = 0x4e45504f;
/** Ready: the stream is open, or the last WRTE was taken. arg0 sender's id, arg1 peer's id. */
export const A_OKAY = 0x59414b4f;
/** Close a stream. */
export const A_CLSE = 0x45534c43;
/** Write stream data. */
export const A_WRTE = 0x45545257;

/** Protocol version that skips the checksum (adb 29 speaks this one). */
export const A_VERSION_SKIP_CHECKSUM = 0x01000001;
/** Largest payload the simulator accepts and sends, bytes (adb's MAX_PAYLOAD since Android 9). */
export const MAX_PAYLOAD = 1024 * 1024;

/** AUTH arg0: a token the device asks the host to sign. */
export const AUTH_TOKEN = 1;
/** AUTH arg0: the host's signature of the token. */
export const AUTH_SIGNATURE = 2;
/** AUTH arg0: the host's RSA public key, offered when no signature was accepted. */
export const AUTH_RSAPUBLICKEY = 3;

/** One transport message. */
export interface AdbMessage {
  /** One of the `A_*` commands. */
  command: number;
  /** First argument. */
  arg0: number;
  /** Second argument. */
  arg1: number;
  /** Payload (may be empty). */
  payload: Uint8Array;
}

/** Encodes a message; `checksum` false writes 0 in the checksum word. */
export function encodeMessage(message: AdbMessage, checksum = true): Uint8Array {
  const { command, arg0, arg1, payload } = message;
  const bytes = Buffer.alloc(24 + payload.length);
  let sum = 0;
  if (checksum) { for (const byte of payload) sum += byte; }
  bytes.writeUInt32LE(command >>> 0, 0);
  bytes.writeUInt32LE(arg0 >>> 0, 4);
  bytes.writeUInt32LE(arg1 >>> 0, 8);
  bytes.writeUInt32LE(payload.length, 12);
  bytes.writeUInt32LE(sum >>> 0, 16);
  bytes.writeUInt32LE((command ^ 0xffffffff) >>> 0, 20);
  bytes.set(payload, 24);
  return bytes;
}

/**
 * Splits a byte stream into messages. Feed it the socket's chunks; it returns the complete
 * messages and keeps the rest.
 */
export class MessageReader {
  #buffer: Buffer = Buffer.alloc(0);

  /**
   * Adds bytes and returns every message now complete.
   *
   * @throws {Error} on a header whose magic word does not match its command, or a payload longer
   *   than {@link MAX_PAYLOAD} (adb closes the connection then).
   */
  push(chunk: Uint8Array): AdbMessage[] {
    this.#buffer = this.#buffer.length === 0
      ? Buffer.from(chunk)
      : Buffer.concat([this.#buffer, chunk]);
    const messages: AdbMessage[] = [];
    while (this.#buffer.length >= 24) {
      const command = this.#buffer.readUInt32LE(0);
      const length = this.#buffer.readUInt32LE(12);
      const magic = this.#buffer.readUInt32LE(20);
      if (((command ^ 0xffffffff) >>> 0) !== magic) {
        throw new Error(`bad adb message header: magic ${magic} does not match command ${command}`);
      }
      if (length > MAX_PAYLOAD) throw new Error(`adb message payload too long: ${length} bytes`);
      if (this.#buffer.length < 24 + length) break;
      messages.push({
        command,
        arg0: this.#buffer.readUInt32LE(4),
        arg1: this.#buffer.readUInt32LE(8),
        payload: new Uint8Array(this.#buffer.subarray(24, 24 + length)),
      });
      this.#buffer = this.#buffer.subarray(24 + length);
    }
    return messages;
  }
}

/** Shell protocol (v2) packet ids: one byte id, a little-endian u32 length, the data. */
export const SHELL_STDIN = 0;
/** Shell protocol: standard output data. */
export const SHELL_STDOUT = 1;
/** Shell protocol: standard error data. */
export const SHELL_STDERR = 2;
/** Shell protocol: exit code, one byte. */
export const SHELL_EXIT = 3;
/** Shell protocol: the host closed standard input. */
export const SHELL_CLOSE_STDIN = 4;

/** Encodes one shell protocol packet. */
export function shellPacket(id: number, data: Uint8Array): Uint8Array {
  const bytes = Buffer.alloc(5 + data.length);
  bytes.writeUInt8(id, 0);
  bytes.writeUInt32LE(data.length, 1);
  bytes.set(data, 5);
  return bytes;
}

/** Splits shell protocol bytes into packets, like {@link MessageReader}. */
export class ShellPacketReader {
  #buffer: Buffer = Buffer.alloc(0);

  /** Adds bytes and returns every packet now complete. */
  push(chunk: Uint8Array): { id: number; data: Uint8Array }[] {
    this.#buffer = Buffer.concat([this.#buffer, chunk]);
    const packets: { id: number; data: Uint8Array }[] = [];
    while (this.#buffer.length >= 5) {
      const length = this.#buffer.readUInt32LE(1);
      if (this.#buffer.length < 5 + length) break;
      packets.push({
        id: this.#buffer[0],
        data: new Uint8Array(this.#buffer.subarray(5, 5 + length)),
      });
      this.#buffer = this.#buffer.subarray(5 + length);
    }
    return packets;
  }
}
