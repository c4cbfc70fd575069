/**
 * The bridge to Android devices: the adb server (`adb` from Android platform-tools, Debian's
 * `adb` package), reached over TCP by `@yume-chan/adb`. Starts a local server with
 * `adb start-server` when none answers, and lists the devices it knows.
 *
 * @module
 */

import { execFile } from "node:child_process";
import { type Adb, AdbServerClient } from "@yume-chan/adb";
import { AdbServerNodeTcpConnector } from "@yume-chan/adb-server-node-tcp";

/** Where the adb server is, and how to start it (the bridge options of spec 4.8). */
export interface BridgeOptions {
  /**
   * Path to the `adb` executable, used to start the local server when none answers (`adb
   * start-server`). Default: `adb` on `PATH`.
   */
  bridgePath?: string;
  /**
   * Host of a remote adb server. Default `127.0.0.1` (the local server, which is started when it
   * does not answer; a remote one never is).
   */
  remoteBridgeHost?: string;
  /** Port of the adb server. Default 5037 (adb's own default). */
  remoteBridgePort?: number;
}

/** Default port of the adb server. */
export const DEFAULT_BRIDGE_PORT = 5037;

/** How to install adb, for error messages. */
export const INSTALL_ADB_HINT: string =
  "install adb (Debian/Ubuntu: `apt-get install adb`; elsewhere the Android SDK platform-tools " +
  "from https://developer.android.com/tools/releases/platform-tools), or set `bridgePath` to " +
  "the adb executable";

/** The resolved address of the adb server. */
export interface BridgeAddress {
  /** Host name or IP. */
  host: string;
  /** TCP port. */
  port: number;
  /** Whether it is this machine's server (which may be started). */
  local: boolean;
}

/**
 * Checks the bridge options and resolves the server's address.
 *
 * @throws {TypeError} for a `bridgePath` or `remoteBridgeHost` that is not a non-empty string.
 * @throws {RangeError} for a `remoteBridgePort` that is not an integer from 1 to 65535.
 */
export function bridgeAddress(options: BridgeOptions = {}): BridgeAddress {
  for (const key of ["bridgePath", "remoteBridgeHost"] as const) {
    const value = options[key];
    if (value !== undefined && (typeof value !== "string" || value.trim() === "")) {
      throw new TypeError(
        `'${key}' must be a non-empty string: current value is ${JSON.stringify(value)}`,
      );
    }
  }
  const port = options.remoteBridgePort ?? DEFAULT_BRIDGE_PORT;
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    throw new RangeError(
      `'remoteBridgePort' must be an integer from 1 to 65535: current value is ${
        JSON.stringify(options.remoteBridgePort)
      }`,
    );
  }
  const host = options.remoteBridgeHost ?? "127.0.0.1";
  const local = ["127.0.0.1", "localhost", "::1"].includes(host);
  return { host, port, local };
}

function errorCode(error: unknown): string | undefined {
  let e: unknown = error;
  for (let i = 0; i < 4 && e; i++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string") return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

/** Runs `adb -P <port> start-server`. */
function startServer(bridgePath: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(
      bridgePath,
      ["-P", String(port), "start-server"],
      { timeout: 30_000 },
      (error, _stdout, stderr) => {
        if (!error) return resolve();
        if (errorCode(error) === "ENOENT") {
          return reject(
            new Error(
              `Cannot start the adb server: the adb executable ${
                JSON.stringify(bridgePath)
              } was not found. To drive Android devices, ${INSTALL_ADB_HINT}.`,
            ),
          );
        }
        reject(
          new Error(
            `Cannot start the adb server with \`${bridgePath} -P ${port} start-server\`: ${
              String(stderr).trim() || error.message
            }`,
          ),
        );
      },
    );
  });
}

/**
 * A connection to one adb server: device listing, and `Adb` objects for devices.
 * Private to the package.
 */
export class Bridge {
  readonly address: BridgeAddress;
  readonly #bridgePath: string;
  readonly #client: AdbServerClient;
  #ready: Promise<void> | undefined;

  constructor(options: BridgeOptions = {}) {
    this.address = bridgeAddress(options);
    this.#bridgePath = options.bridgePath ?? "adb";
    this.#client = new AdbServerClient(
      new AdbServerNodeTcpConnector({ host: this.address.host, port: this.address.port }),
    );
  }

  /** Where the server is, for messages. */
  get where(): string {
    return `${this.address.host}:${this.address.port}`;
  }

  /** The server answers; a local one is started first when it does not. */
  ensureServer(): Promise<void> {
    this.#ready ??= this.#ensureServer().catch((error) => {
      this.#ready = undefined;
      throw error;
    });
    return this.#ready;
  }

  async #ensureServer(): Promise<void> {
    try {
      await this.#client.getVersion();
      return;
    } catch (error) {
      if (errorCode(error) !== "ECONNREFUSED") {
        throw new Error(
          `Cannot reach the adb server at ${this.where}: ${(error as Error).message}`,
          { cause: error },
        );
      }
      if (!this.address.local) {
        throw new Error(
          `Cannot reach the remote adb server at ${this.where}: connection refused. Start it there ` +
            "(`adb -a start-server`), or check remoteBridgeHost and remoteBridgePort.",
          { cause: error },
        );
      }
    }
    await startServer(this.#bridgePath, this.address.port);
    await this.#client.getVersion();
  }

  /** Devices in the `device` state (online and authorized), in the server's order. */
  async devices(): Promise<AdbServerClient.Device[]> {
    await this.ensureServer();
    return await this.#client.getDevices(["device"]);
  }

  /**
   * An `Adb` for the device with this serial.
   *
   * @throws {Error} naming the devices that are connected when it is not one of them.
   */
  async open(serial: string): Promise<Adb> {
    const devices = await this.devices();
    if (!devices.some((d) => d.serial === serial)) {
      const listed = devices.map((d) => d.serial);
      throw new Error(
        `Android device ${
          JSON.stringify(serial)
        } is not connected to the adb server at ${this.where}` +
          (listed.length
            ? `; connected devices: ${listed.join(", ")}`
            : "; no device is connected (check `adb devices`)"),
      );
    }
    return await this.#client.createAdb({ serial });
  }
}
