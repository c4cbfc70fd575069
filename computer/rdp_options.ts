/**
 * The options of `RDPDevice` (spec 4.11, RDP options) and their checks.
 *
 * @module
 */

import type { DeviceAction, InputStrategy } from "@sdk/core";
import { SdkRangeError, SdkTypeError } from "@sdk/core";

/** Default RDP port (spec 4.11 `port`). */
export const DEFAULT_RDP_PORT = 3389;
/** Remote desktop size when `desktopWidth` / `desktopHeight` are left out, pixels. */
export const DEFAULT_RDP_SIZE: { width: number; height: number } = { width: 1280, height: 800 };
/** Default `sessionStartTimeout`, ms. */
const DEFAULT_SESSION_START_TIMEOUT = 10_000;

/** Options of `RDPDevice` (spec 4.11, RDP options). */
export interface RDPDeviceOptions {
  /** Remote host name or IP address. Required. */
  host: string;
  /** RDP port. Default 3389. */
  port?: number;
  /** User name. */
  username?: string;
  /** Password; sent to the client on its standard input only. */
  password?: string;
  /** Windows domain. */
  domain?: string;
  /**
   * Local source address. FreeRDP 2's client has no option to choose it, so any value is refused
   * with a `TypeError`; route the host through the wanted interface instead.
   */
  localAddress?: string;
  /** Ask for the admin (console) session. Default `false`. */
  adminSession?: boolean;
  /**
   * Accept any server certificate. Default `false`: a certificate the machine cannot verify
   * fails the connection (`/cert:deny`).
   */
  ignoreCertificate?: boolean;
  /** `'auto'` (default: negotiated), `'tls'`, `'nla'` or `'rdp'`. */
  securityProtocol?: "auto" | "tls" | "nla" | "rdp";
  /** Remote desktop width, pixels. Default 1280. */
  desktopWidth?: number;
  /** Remote desktop height, pixels. Default 800. */
  desktopHeight?: number;
  /** Extra actions after the built-in ones. */
  // deno-lint-ignore no-explicit-any
  customActions?: DeviceAction<any>[];
  /**
   * ms (finite, 0-600000, default 10000) the remote screen may stay all black after the
   * connection: a session that never started (xrdp's session failing) shows nothing, and
   * `connect()` fails with a `ConnectionError` (kind `timeout`) once this passes. 0 turns the
   * check off (a remote desktop that is black on purpose).
   */
  sessionStartTimeout?: number;
  /** ms between code points (finite, >= 0). Text is always typed key by key over RDP. */
  keyboardTypeDelay?: number;
  /** `'legacy'` (default), `'sequential'` or `'bulk'` (needs the delay unset or 0). */
  inputStrategy?: InputStrategy;
}

/** The RDP options, checked, defaults filled in. */
export interface RdpSettings {
  /** The options as given, with the port filled in. */
  options: RDPDeviceOptions & { port: number };
  /** Remote desktop width, pixels. */
  width: number;
  /** Remote desktop height, pixels. */
  height: number;
  /** ms the remote screen may stay all black after the connection; 0: not checked. */
  sessionTimeout: number;
}

/**
 * Checks the RDP options (the input options and `customActions` aside: `ComputerDevice` checks
 * them first).
 *
 * @throws {SdkTypeError} (a `TypeError`) for a missing `host`, a `port` that is not an integer
 *   1-65535, an unknown `securityProtocol`, a flag that is not a boolean, a `localAddress`
 *   (unsupported).
 * @throws {SdkRangeError} (a `RangeError`) for a desktop size outside 200-8192 pixels, or a
 *   `sessionStartTimeout` that is not a number 0-600000.
 */
export function checkRdpDeviceOptions(options: RDPDeviceOptions): RdpSettings {
  if (!options || typeof options.host !== "string" || options.host.trim() === "") {
    throw new SdkTypeError(
      `Cannot create RDPDevice as 'host' (the remote host name or IP address) is required: ` +
        `current value is ${JSON.stringify(options?.host)}`,
    );
  }
  const port = options.port ?? DEFAULT_RDP_PORT;
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    throw new SdkTypeError(
      `Cannot create RDPDevice as 'port' must be an integer 1-65535: current value is ${port}`,
    );
  }
  for (const key of ["adminSession", "ignoreCertificate"] as const) {
    if (options[key] !== undefined && typeof options[key] !== "boolean") {
      throw new SdkTypeError(
        `Cannot create RDPDevice as '${key}' must be a boolean: current value is ${
          JSON.stringify(options[key])
        }`,
      );
    }
  }
  const protocol = options.securityProtocol ?? "auto";
  if (!["auto", "tls", "nla", "rdp"].includes(protocol)) {
    throw new SdkTypeError(
      `Cannot create RDPDevice as 'securityProtocol' must be 'auto', 'tls', 'nla' or 'rdp': ` +
        `current value is ${JSON.stringify(protocol)}`,
    );
  }
  if (options.localAddress !== undefined) {
    throw new SdkTypeError(
      "Cannot create RDPDevice with 'localAddress': FreeRDP 2's client (xfreerdp) cannot " +
        "choose its source address; leave it out and route the host through the wanted " +
        "interface (ip route)",
    );
  }
  const width = options.desktopWidth ?? DEFAULT_RDP_SIZE.width;
  const height = options.desktopHeight ?? DEFAULT_RDP_SIZE.height;
  for (const [key, value] of [["desktopWidth", width], ["desktopHeight", height]]) {
    if (!Number.isInteger(value) || (value as number) < 200 || (value as number) > 8192) {
      throw new SdkRangeError(
        `Cannot create RDPDevice as '${key}' must be an integer 200-8192 (pixels): current ` +
          `value is ${value}`,
      );
    }
  }
  const timeout = options.sessionStartTimeout ?? DEFAULT_SESSION_START_TIMEOUT;
  if (typeof timeout !== "number" || !(timeout >= 0 && timeout <= 600_000)) {
    throw new SdkRangeError(
      `Cannot create RDPDevice as 'sessionStartTimeout' must be a number 0-600000 (ms; 0 ` +
        `turns the check off): current value is ${JSON.stringify(timeout)}`,
    );
  }
  return { options: { ...options, port }, width, height, sessionTimeout: timeout };
}
