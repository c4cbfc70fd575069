/**
 * The adb front of the device simulator: a TCP endpoint that speaks adb's device transport (what
 * an emulator's `adbd` speaks), so that the real `adb` server connects to a virtual phone with
 * `adb connect 127.0.0.1:<port>` and every adb client then drives it.
 *
 * Transport: CNXN (protocol version 0x01000001, payloads up to 1 MiB; checksums are written for
 * peers of older versions and not checked), optional AUTH (see {@link AdbFrontOptions.auth}),
 * OPEN / OKAY / WRTE / CLSE with one unacknowledged write per stream. Services: `shell:` (raw),
 * `shell,v2,...:` (the shell protocol: stdin, stdout, stderr and exit packets), `exec:`, and
 * `sync:` (file sync version 1 over an in-memory file system: push, pull, stat, list),
 * `framebuffer:` (version 2 header and RGBA pixels), and `localabstract:NAME` for sockets a
 * simulated process listens on (the scrcpy server's `scrcpy_<scid>`; the real adb server's
 * `forward` opens this service on the device for each connection to its local port).
 * Commands are answered by a small simulated Android shell (see docs/simulator.md for the list).
 *
 * @module
 */

import net from "node:net";
import { Buffer } from "node:buffer";
import { randomBytes } from "node:crypto";
import {
  A_AUTH,
  A_CLSE,
  A_CNXN,
  A_OKAY,
  A_OPEN,
  A_VERSION_SKIP_CHECKSUM,
  A_WRTE,
  type AdbMessage,
  AUTH_RSAPUBLICKEY,
  AUTH_SIGNATURE,
  AUTH_TOKEN,
  encodeMessage,
  MAX_PAYLOAD,
  MessageReader,
  SHELL_CLOSE_STDIN,
  SHELL_EXIT,
  SHELL_STDERR,
  SHELL_STDIN,
  SHELL_STDOUT,
  shellPacket,
  ShellPacketReader,
} from "./_adb_wire.ts";
import { runShell, type SimulatedShellCommand, type VirtualPhone } from "@sdk/web/testing";
import type { AndroidDevice } from "./_android_device.ts";
import { ANDROID_COMMANDS } from "./_android_shell.ts";
import { screenPixels } from "./_android_screen.ts";
import { serveSync, StreamBytes } from "./_adb_sync.ts";

/** Options of {@link startAdbFront}. */
export interface AdbFrontOptions {
  /** Address to listen on. Default `127.0.0.1`. */
  host?: string;
  /** TCP port. Default 0: a free port (read {@link AdbFront.port}). */
  port?: number;
  /**
   * `'none'` (default): the device accepts the host at once, like an emulator or a userdebug
   * build with `ro.adb.secure=0`. `'accept-any-key'`: it sends an AUTH token first and accepts
   * whatever signature or public key the host answers with (nothing is verified).
   */
  auth?: "none" | "accept-any-key";
  /** System properties to add or override (`getprop`; some also go into the CNXN banner). */
  properties?: Record<string, string>;
  /** Features advertised in the CNXN banner. Default `["shell_v2", "cmd"]`. */
  features?: readonly string[];
  /**
   * Shell commands to add or replace, by name; `null` removes a built-in one (it then answers
   * `inaccessible or not found`, exit 127). For example a `screencap` that fails, to test a
   * client's fallbacks.
   */
  shellCommands?: Record<string, SimulatedShellCommand | null>;
  /** Services to refuse (answered with CLSE, as adbd refuses one), e.g. `s => s === "framebuffer:"`. */
  refuseService?: (service: string) => boolean;
}

/** A running adb front. */
export interface AdbFront {
  /** The address listened on. */
  readonly host: string;
  /** The TCP port listened on. */
  readonly port: number;
  /** `host:port`: what `adb connect` takes, and the device's serial in `adb devices` then. */
  readonly serial: string;
  /** Every service the host opened, oldest first, e.g. `shell,v2,raw:wm size`. */
  readonly services: readonly string[];
  /** Every shell command line run (from `shell` and `exec` services), oldest first. */
  readonly commands: readonly string[];
  /** Number of host connections open now. */
  connections(): number;
  /**
   * Resets the video of every running scrcpy server in-band, as a display change does on a
   * device: each sends a new config packet and key frame on its open video socket.
   *
   * @returns how many servers were reset.
   */
  resetScrcpyVideo(): number;
  /**
   * Adds or replaces a shell command from now on; `null` removes it, `undefined` restores the
   * built-in one.
   */
  setShellCommand(name: string, command: SimulatedShellCommand | null | undefined): void;
  /**
   * Drops every host connection (the device goes offline for the adb server, as if unplugged)
   * and keeps listening, so the host may reconnect.
   */
  disconnectAll(): void;
  /** Stops listening and drops every connection. Does not close the phone. */
  close(): Promise<void>;
}

const encoder = new TextEncoder();

interface Stream {
  localId: number;
  remoteId: number;
  /** Resolves the pending write when the host acknowledges it (OKAY). */
  acked?: () => void;
  closed: boolean;
  /** Data the host wrote to this stream. */
  onData?: (data: Uint8Array) => void;
  onClose?: () => void;
}

/** Default system properties of the simulated device. */
function defaultProperties(phone: VirtualPhone): Map<string, string> {
  return new Map<string, string>([
    ["ro.build.version.sdk", "34"],
    ["ro.build.version.release", "14"],
    ["ro.build.type", "userdebug"],
    ["ro.build.characteristics", "phone"],
    ["ro.product.model", phone.model],
    ["ro.product.brand", phone.manufacturer],
    ["ro.product.manufacturer", phone.manufacturer],
    ["ro.product.name", "simulator_phone"],
    ["ro.product.device", "simulator"],
    ["ro.product.cpu.abi", "x86_64"],
    ["ro.serialno", "SIMULATOR0001"],
    ["ro.sf.lcd_density", String(phone.densityDpi)],
    ["ro.adb.secure", "0"],
    ["persist.sys.locale", "en-US"],
    ["persist.sys.timezone", "UTC"],
    ["sys.boot_completed", "1"],
  ]);
}

/**
 * Starts the adb front of a virtual phone on a TCP port.
 *
 * @example
 * ```ts ignore
 * const phone = await startVirtualPhone({ apps: { "com.example.notes": url } });
 * const front = await startAdbFront(phone);
 * // adb connect 127.0.0.1:<front.port>; adb -s <front.serial> shell wm size
 * await front.close();
 * await phone.close();
 * ```
 */
export async function startAdbFront(
  phone: VirtualPhone,
  options: AdbFrontOptions = {},
): Promise<AdbFront> {
  const properties = defaultProperties(phone);
  for (const [key, value] of Object.entries(options.properties ?? {})) properties.set(key, value);
  const device: AndroidDevice = {
    phone,
    commands: ANDROID_COMMANDS,
    properties,
    settings: new Map([
      ["secure/default_input_method", "com.android.inputmethod.latin/.LatinIME"],
      ["system/screen_brightness", "128"],
      ["global/development_settings_enabled", "1"],
      // ViewConfiguration.DEFAULT_LONG_PRESS_TIMEOUT (Android 12 and later); `input swipe` reads it.
      ["secure/long_press_timeout", "400"],
    ]),
    files: new Map(),
    localSockets: new Map(),
    videoResets: new Set(),
    overrides: new Map(Object.entries(options.shellCommands ?? {})),
  };
  const features = options.features ?? ["shell_v2", "cmd"];
  const banner = "device::" +
    ["ro.product.name", "ro.product.model", "ro.product.device"]
      .map((key) => `${key}=${properties.get(key)};`).join("") +
    `features=${features.join(",")}`;
  const services: string[] = [];
  const commands: string[] = [];
  const sockets = new Set<net.Socket>();

  const serve = (socket: net.Socket): void => {
    sockets.add(socket);
    socket.setNoDelay(true);
    const reader = new MessageReader();
    const streams = new Map<number, Stream>();
    let nextId = 1;
    let checksum = true;
    let maxPayload = 4096;
    let online = false;
    let token: Uint8Array | undefined;
    const send = (command: number, arg0: number, arg1: number, payload?: Uint8Array) => {
      if (socket.destroyed) return;
      socket.write(encodeMessage(
        { command, arg0, arg1, payload: payload ?? new Uint8Array(0) },
        checksum,
      ));
    };
    const connect = () => {
      online = true;
      send(A_CNXN, A_VERSION_SKIP_CHECKSUM, MAX_PAYLOAD, encoder.encode(banner));
    };
    const write = async (stream: Stream, data: Uint8Array): Promise<void> => {
      for (let offset = 0; offset < data.length; offset += maxPayload) {
        if (stream.closed) return;
        const acked = new Promise<void>((resolve) => stream.acked = resolve);
        send(A_WRTE, stream.localId, stream.remoteId, data.subarray(offset, offset + maxPayload));
        await acked;
      }
    };
    const close = (stream: Stream) => {
      if (stream.closed) return;
      stream.closed = true;
      streams.delete(stream.localId);
      send(A_CLSE, stream.localId, stream.remoteId);
      stream.acked?.();
    };
    const open = (remoteId: number, service: string) => {
      services.push(service);
      const stream: Stream = { localId: nextId++, remoteId, closed: false };
      const started = options.refuseService?.(service)
        ? undefined
        : startService(service, stream, write);
      if (!started) {
        send(A_CLSE, 0, remoteId);
        return;
      }
      streams.set(stream.localId, stream);
      send(A_OKAY, stream.localId, remoteId);
      started().catch(() => {}).finally(() => close(stream));
    };
    const handle = (message: AdbMessage) => {
      const { command, arg0, arg1, payload } = message;
      if (command === A_CNXN) {
        checksum = (arg0 >>> 0) < A_VERSION_SKIP_CHECKSUM;
        maxPayload = Math.min(arg1 >>> 0, MAX_PAYLOAD) || 4096;
        if (options.auth === "accept-any-key") {
          token = randomBytes(20);
          send(A_AUTH, AUTH_TOKEN, 0, token);
        } else connect();
      } else if (command === A_AUTH) {
        if (token && (arg0 === AUTH_SIGNATURE || arg0 === AUTH_RSAPUBLICKEY)) connect();
      } else if (!online) {
        socket.destroy();
      } else if (command === A_OPEN) {
        const service = new TextDecoder().decode(payload).replace(/\0+$/, "");
        open(arg0, service);
      } else if (command === A_OKAY) {
        const stream = streams.get(arg1);
        const acked = stream?.acked;
        if (stream) stream.acked = undefined;
        acked?.();
      } else if (command === A_WRTE) {
        const stream = streams.get(arg1);
        if (!stream) {
          send(A_CLSE, 0, arg0);
          return;
        }
        send(A_OKAY, stream.localId, stream.remoteId);
        stream.onData?.(payload);
      } else if (command === A_CLSE) {
        const stream = streams.get(arg1);
        if (stream) {
          stream.closed = true;
          streams.delete(arg1);
          stream.acked?.();
          stream.onClose?.();
        }
      }
    };
    socket.on("data", (chunk: Uint8Array) => {
      let messages: AdbMessage[];
      try {
        messages = reader.push(chunk);
      } catch {
        socket.destroy();
        return;
      }
      for (const message of messages) handle(message);
    });
    const drop = () => {
      sockets.delete(socket);
      for (const stream of streams.values()) {
        stream.closed = true;
        stream.acked?.();
        stream.onClose?.();
      }
      streams.clear();
    };
    socket.on("close", drop);
    socket.on("error", () => socket.destroy());
  };

  /** Returns the service's body, or undefined when the service is unknown. */
  const startService = (
    service: string,
    stream: Stream,
    write: (stream: Stream, data: Uint8Array) => Promise<void>,
  ): (() => Promise<void>) | undefined => {
    const colon = service.indexOf(":");
    if (colon < 0) return undefined;
    const name = service.slice(0, colon);
    const command = service.slice(colon + 1);
    const [kind, ...args] = name.split(",");
    if (kind === "exec") {
      return async () => {
        commands.push(command);
        // Output is written in order: chain the writes.
        let chain = Promise.resolve();
        const out = (data: Uint8Array | string) => {
          const bytes = typeof data === "string" ? encoder.encode(data) : data;
          chain = chain.then(() => write(stream, bytes));
        };
        const killed = new Promise<void>((resolve) => stream.onClose = resolve);
        await runShell(command, device, { stdout: out, stderr: out, killed });
        await chain;
      };
    }
    if (kind === "framebuffer") {
      // Version 2 header: bpp, color space, size, width, height, then offset and length of red,
      // blue, green and alpha (little-endian u32 each), then RGBA_8888 pixels.
      return async () => {
        const { width, height, rgba } = await screenPixels(phone);
        const header = Buffer.alloc(56);
        [2, 32, 0, rgba.length, width, height, 0, 8, 16, 8, 8, 8, 24, 8].forEach((value, i) =>
          header.writeUInt32LE(value, i * 4)
        );
        await write(stream, Buffer.concat([header, rgba]));
      };
    }
    if (kind === "localabstract") {
      // Refused like a socket nobody listens on when no process listens on it.
      const listener = device.localSockets?.get(command);
      if (!listener) return undefined;
      return async () => {
        const input = new StreamBytes();
        let closeNow!: () => void;
        const closed = new Promise<void>((resolve) => closeNow = resolve);
        stream.onData = (data) => input.push(data);
        stream.onClose = () => {
          input.end();
          closeNow();
        };
        let chain = Promise.resolve();
        listener({
          write: (data) => chain = chain.then(() => write(stream, data)),
          input,
          closed,
          close: () => {
            input.end();
            closeNow();
          },
        });
        await closed;
      };
    }
    if (kind === "sync") {
      return async () => {
        const input = new StreamBytes();
        stream.onData = (data) => input.push(data);
        stream.onClose = () => input.end();
        await serveSync(input, (data) => write(stream, data), device.files);
      };
    }
    if (kind !== "shell") return undefined;
    const v2 = args.includes("v2");
    const pty = args.includes("pty") || (!args.includes("raw") && command === "");
    return async () => {
      let chain = Promise.resolve();
      const emit = (id: number, data: Uint8Array | string) => {
        let bytes = typeof data === "string" ? encoder.encode(data) : data;
        if (pty) {
          bytes = Buffer.from(
            Buffer.from(bytes).toString("latin1").replace(/\n/g, "\r\n"),
            "latin1",
          );
        }
        const framed = v2 ? shellPacket(id, bytes) : bytes;
        chain = chain.then(() => write(stream, framed));
      };
      const output = {
        stdout: (data: Uint8Array | string) => emit(SHELL_STDOUT, data),
        stderr: (data: Uint8Array | string) => emit(SHELL_STDERR, data),
      };
      if (command !== "") {
        commands.push(command);
        if (v2) {
          // Stdin is read and dropped: no simulated command reads it.
          const packets = new ShellPacketReader();
          stream.onData = (data) => void packets.push(data);
        }
        // Closing the stream kills the process (a long-running one such as the scrcpy server).
        const killed = new Promise<void>((resolve) => stream.onClose = resolve);
        const code = await runShell(command, device, { ...output, killed });
        await chain;
        if (v2) await write(stream, shellPacket(SHELL_EXIT, Uint8Array.of(code & 0xff)));
        return;
      }
      // Interactive shell: one command line per input line; a prompt before each on a terminal
      // (pty), none when the host pipes commands in (raw), as `sh` does.
      const prompt = pty ? "simulator:/ $ " : "";
      await new Promise<void>((resolve) => {
        let pending = "";
        let status = 0;
        let running = Promise.resolve();
        const packets = new ShellPacketReader();
        const onLine = (line: string) => {
          running = running.then(async () => {
            if (stream.closed) return;
            const exit = /^\s*exit(?:\s+(\d+))?\s*$/.exec(line);
            if (exit) return finish(exit[1] === undefined ? status : Number(exit[1]) & 0xff);
            if (line.trim()) {
              commands.push(line);
              status = await runShell(line, device, output);
            }
            if (prompt) emit(SHELL_STDOUT, prompt);
            await chain;
          });
        };
        let done = false;
        const finish = async (code: number) => {
          if (done) return;
          done = true;
          await chain;
          if (v2 && !stream.closed) {
            await write(stream, shellPacket(SHELL_EXIT, Uint8Array.of(code)));
          }
          resolve();
        };
        const text = (bytes: Uint8Array) => {
          pending += new TextDecoder().decode(bytes).replace(/\r/g, "\n");
          let newline;
          while ((newline = pending.indexOf("\n")) >= 0) {
            onLine(pending.slice(0, newline));
            pending = pending.slice(newline + 1);
          }
        };
        stream.onData = (data) => {
          if (!v2) return text(data);
          for (const packet of packets.push(data)) {
            if (packet.id === SHELL_STDIN) text(packet.data);
            else if (packet.id === SHELL_CLOSE_STDIN) {
              running = running.then(() => finish(status));
            }
          }
        };
        stream.onClose = () => {
          done = true;
          resolve();
        };
        if (prompt) emit(SHELL_STDOUT, prompt);
      });
    };
  };

  const server = net.createServer(serve);
  const host = options.host ?? "127.0.0.1";
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const port = (server.address() as net.AddressInfo).port;
  return {
    host,
    port,
    serial: `${host}:${port}`,
    services,
    commands,
    connections: () => sockets.size,
    resetScrcpyVideo(): number {
      const resets = [...device.videoResets!];
      for (const reset of resets) reset();
      return resets.length;
    },
    setShellCommand(name: string, command: SimulatedShellCommand | null | undefined): void {
      if (command === undefined) device.overrides!.delete(name);
      else device.overrides!.set(name, command);
    },
    disconnectAll(): void {
      for (const socket of sockets) socket.destroy();
    },
    close(): Promise<void> {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
