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
import {
  adoptChild,
  childEnv,
  DeviceNotFoundError,
  holdOpen,
  isSdkError,
  MissingDependencyError,
  SdkRangeError,
  SdkTypeError,
  ToolError,
} from "@sdk/core";
import { connectionError, connectionKind, errorCode } from "./errors.ts";

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
 * @throws {SdkTypeError} for a `bridgePath` or `remoteBridgeHost` that is not a non-empty string.
 * @throws {SdkRangeError} for a `remoteBridgePort` that is not an integer from 1 to 65535.
 */
function bridgeAddress(options: BridgeOptions = {}): BridgeAddress {
  for (const key of ["bridgePath", "remoteBridgeHost"] as const) {
    const value = options[key];
    if (value !== undefined && (typeof value !== "string" || value.trim() === "")) {
      throw new SdkTypeError(
        `'${key}' must be a non-empty string: current value is ${JSON.stringify(value)}`,
      );
    }
  }
  const port = options.remoteBridgePort ?? DEFAULT_BRIDGE_PORT;
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    throw new SdkRangeError(
      `'remoteBridgePort' must be an integer from 1 to 65535: current value is ${
        JSON.stringify(options.remoteBridgePort)
      }`,
    );
  }
  const host = options.remoteBridgeHost ?? "127.0.0.1";
  const local = ["127.0.0.1", "localhost", "::1"].includes(host);
  return { host, port, local };
}

/**
 * The variables of this process the adb server gets, besides `PATH`, `HOME` and the locale
 * (`childEnv` of `@sdk/core`): those adb reads, by their exact names (`adb --help`), never a
 * pattern such as `ANDROID_*`, which would hand a signing password (`ANDROID_KEYSTORE_PASS`) to a
 * server that outlives the run. `ADB_VENDOR_KEYS` names key files, it holds no key.
 */
const ADB_ENV: readonly string[] = [
  "ADB_TRACE",
  "ADB_VENDOR_KEYS",
  "ADB_LIBUSB",
  "ADB_MDNS_AUTO_CONNECT",
  "ADB_MDNS_OPENSCREEN",
  "ADB_LOCAL_TRANSPORT_MAX_PORT",
  "ADB_SERVER_SOCKET",
  "ANDROID_SERIAL",
  "ANDROID_LOG_TAGS",
  "ANDROID_ADB_SERVER_ADDRESS",
  "ANDROID_ADB_SERVER_PORT",
  "ANDROID_SDK_HOME",
  "ANDROID_USER_HOME",
  "ANDROID_HOME",
  "ANDROID_SDK_ROOT",
];

/** How long `adb start-server` may take, ms. */
const START_SERVER_TIMEOUT_MS = 30_000;

/**
 * Runs `adb -P <port> start-server` (the client is adopted: it ends with this process; the
 * server it starts stays, as adb's own does) with {@link ADB_ENV} of this process's environment.
 *
 * @throws {MissingDependencyError} when `bridgePath` cannot be run, saying how to install adb.
 * @throws {ConnectionError} (`timeout`) when it does not finish in 30 s.
 * @throws {ToolError} with adb's message when it fails.
 */
function startServer(bridgePath: string, port: number): Promise<void> {
  return holdOpen(
    new Promise((resolve, reject) => {
      const child = execFile(
        bridgePath,
        ["-P", String(port), "start-server"],
        // The server it forks outlives this process: it gets what adb reads (its keys under
        // HOME, the ANDROID_ and ADB_ variables), never the program's keys.
        { timeout: START_SERVER_TIMEOUT_MS, env: childEnv(ADB_ENV) },
        (error, _stdout, stderr) => {
          if (!error) return resolve();
          const code = errorCode(error);
          if (code === "ENOENT" || code === "EACCES") {
            return reject(
              new MissingDependencyError(
                `Cannot start the adb server: the adb executable ${
                  JSON.stringify(bridgePath)
                } was not found${
                  code === "EACCES" ? " (not executable)" : ""
                }. To drive Android devices, ${INSTALL_ADB_HINT}.`,
                "adb",
                { cause: error },
              ),
            );
          }
          if ((error as { killed?: boolean }).killed) {
            return reject(
              connectionError(
                `Cannot start the adb server: \`${bridgePath} -P ${port} start-server\` did not ` +
                  `finish within ${START_SERVER_TIMEOUT_MS} ms`,
                "timeout",
                `127.0.0.1:${port}`,
                error,
              ),
            );
          }
          const output = String(stderr).trim();
          reject(
            new ToolError(
              `Cannot start the adb server with \`${bridgePath} -P ${port} start-server\`: ${
                output || error.message
              }`,
              {
                tool: "adb",
                status: typeof error.code === "number" ? error.code : undefined,
                output,
              },
              { cause: error },
            ),
          );
        },
      );
      adoptChild(child);
    }),
  );
}

/**
 * `AdbServerNodeTcpConnector` whose sockets do not keep the process alive (a script that ends
 * without `destroy()` exits); the calls that wait on them hold it open (`holdOpen`).
 */
class UnrefConnector extends AdbServerNodeTcpConnector {
  override connect(
    options?: { unref?: boolean; signal?: AbortSignal },
  ): ReturnType<AdbServerNodeTcpConnector["connect"]> {
    return super.connect({ ...options, unref: true });
  }
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
      new UnrefConnector({ host: this.address.host, port: this.address.port }),
    );
  }

  /** Where the server is, for messages. */
  get where(): string {
    return `${this.address.host}:${this.address.port}`;
  }

  /** The server answers; a local one is started first when it does not. */
  ensureServer(): Promise<void> {
    this.#ready ??= holdOpen(this.#ensureServer()).catch((error) => {
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
        throw connectionError(
          `Cannot reach the adb server at ${this.where}: ${(error as Error).message}`,
          connectionKind(error),
          this.where,
          error,
        );
      }
      if (!this.address.local) {
        throw connectionError(
          `Cannot reach the remote adb server at ${this.where}: connection refused. Start it there ` +
            "(`adb -a start-server`), or check remoteBridgeHost and remoteBridgePort.",
          "refused",
          this.where,
          error,
        );
      }
    }
    await startServer(this.#bridgePath, this.address.port);
    try {
      await this.#client.getVersion();
    } catch (error) {
      throw connectionError(
        `The adb server at ${this.where} was started but does not answer: ${
          (error as Error).message
        }`,
        connectionKind(error),
        this.where,
        error,
      );
    }
  }

  /**
   * Devices in the `device` state (online and authorized), in the server's order.
   *
   * @throws {MissingDependencyError} when adb must be started and is not installed.
   * @throws {ConnectionError} when the server cannot be reached.
   */
  async devices(): Promise<AdbServerClient.Device[]> {
    await this.ensureServer();
    try {
      return await holdOpen(this.#client.getDevices(["device"]));
    } catch (error) {
      throw this.#lost("list the devices", error);
    }
  }

  /**
   * An `Adb` for the device with this serial.
   *
   * @throws {DeviceNotFoundError} naming the devices that are connected when it is not one of
   * them.
   */
  async open(serial: string): Promise<Adb> {
    const devices = await this.devices();
    if (!devices.some((d) => d.serial === serial)) {
      throw notConnected(serial, devices.map((d) => d.serial), this.where);
    }
    try {
      return await holdOpen(this.#client.createAdb({ serial }));
    } catch (error) {
      throw this.#lost(`connect to Android device ${JSON.stringify(serial)}`, error);
    }
  }

  // A failure talking to a server that answered before: the SDK's own errors as they are, the
  // rest as the connection lost (or refused, when it was).
  #lost(what: string, error: unknown): Error {
    if (isSdkError(error)) return error;
    const code = errorCode(error);
    return connectionError(
      `Cannot ${what} through the adb server at ${this.where}: ${
        (error as Error)?.message ?? error
      }`,
      code === undefined ? "lost" : connectionKind(error),
      this.where,
      error,
    );
  }
}

/**
 * The error for a device id the adb server does not list: a `DeviceNotFoundError` naming the
 * connected devices (`wanted` is `""` when no id was given and none is connected).
 */
export function notConnected(
  serial: string | undefined,
  listed: readonly string[],
  where: string,
): DeviceNotFoundError {
  const message = serial === undefined
    ? `No Android device is connected to the adb server at ${where} (check \`adb devices\`)`
    : `Android device ${JSON.stringify(serial)} is not connected to the adb server at ${where}` +
      (listed.length
        ? `; connected devices: ${listed.join(", ")}`
        : "; no device is connected (check `adb devices`)");
  return new DeviceNotFoundError(message, { wanted: serial ?? "", available: listed });
}
