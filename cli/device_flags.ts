/**
 * The device flags of `sdk devices` and `sdk run --devices`: where to look for devices (an adb
 * server, WebDriverAgent URLs, hdc) and, for `sdk run`, which devices to use and how
 * (`--per-device`, `--spread`). docs/device-pool.md describes them.
 *
 * @module
 */

import type { FlagKind } from "./agent_flags.ts";

/** Where `sdk devices` and `sdk run --devices` look for devices. */
export interface DiscoveryFlags {
  /** Host of the adb server (`--adb-host`). Default: the local one. */
  adbHost?: string;
  /** Port of the adb server (`--adb-port`). Default 5037. */
  adbPort?: number;
  /** WebDriverAgent URLs (`--wda URL`, repeated). */
  wda: string[];
  /** A file of WebDriverAgent URLs, one a line; `#` starts a comment (`--wda-file`). */
  wdaFile?: string;
  /** Path of hdc (`--hdc`). Default: `TOOL_HOME`, `PATH`, install paths. */
  hdc?: string;
  /** X displays whose monitors are desktops of the pool (`--display :N`, repeated). */
  display?: string[];
}

/** How `sdk run` spreads its device files (`--devices`, `--per-device`, `--spread`). */
export interface DeviceRunFlags extends DiscoveryFlags {
  /** `--devices all|<ids>|<platform>:all`: run the device files on the pool of these devices. */
  devices?: string;
  /** `--per-device`: every file on every matching device (the matrix). */
  perDevice: boolean;
  /** `--spread`: each file on the next free device (the default with `--devices`). */
  spread: boolean;
}

/** `sdk devices`: list the reachable devices. */
export interface DevicesCommand extends DiscoveryFlags {
  /** The command. */
  command: "devices";
  /** Print JSON instead of the table (`--json`). */
  json: boolean;
  /** Agent options: unused, kept for the shared flag reader. */
  agentOptions: Record<string, never>;
}

/** The discovery flags, by field. */
export const DISCOVERY_FLAGS: Record<string, FlagKind & { field: keyof DiscoveryFlags }> = {
  "adb-host": { type: "string", field: "adbHost" },
  "adb-port": { type: "number", field: "adbPort" },
  "wda": { type: "string", field: "wda" },
  "wda-file": { type: "string", field: "wdaFile" },
  "hdc": { type: "string", field: "hdc" },
  "display": { type: "string", field: "display" },
};

/** The flags `sdk run` adds for devices, by field. */
export const DEVICE_RUN_FLAGS: Record<string, FlagKind & { field: keyof DeviceRunFlags }> = {
  ...DISCOVERY_FLAGS,
  "devices": { type: "string", field: "devices" },
  "per-device": { type: "boolean", field: "perDevice" },
  "spread": { type: "boolean", field: "spread" },
};

/** The help lines of the discovery flags. */
const DISCOVERY_FLAG_HELP =
  `  --adb-host HOST         the adb server's host (default: the local server)
  --adb-port PORT         the adb server's port (default 5037)
  --wda URL               a WebDriverAgent, e.g. http://127.0.0.1:8100 (repeat it)
  --wda-file FILE         WebDriverAgent URLs, one a line
  --hdc PATH              the hdc executable (default: TOOL_HOME, PATH, install paths)
  --display :N            an X display whose monitors are desktops (repeat it)`;

/** The help lines of `sdk run`'s device flags. */
export const DEVICE_RUN_FLAG_HELP =
  `  --devices SELECTOR      run the phone and desktop files on a pool of devices: all,
                          <platform>:all (computer:all: the --display ones), or
                          ids separated by commas (sdk devices lists them); one script per
                          device at a time, --concurrent caps the devices used at once
  --spread                each file on the next free device of its platform (the default)
  --per-device            every file on every matching device: a device x script matrix
${DISCOVERY_FLAG_HELP}`;

/** The help of `sdk devices`. */
export function devicesHelpText(): string {
  return `sdk devices: list the devices sdk run --devices can use

Usage:
  sdk devices [flags]

Lists one line per reachable device: platform, id, model, OS version and screen. Android
devices come from the adb server, iOS devices from the WebDriverAgent URLs given, HarmonyOS
devices from hdc list targets, desktops from the X displays given. A platform that cannot be
asked is named on standard error.

Flags:
${DISCOVERY_FLAG_HELP}
  --json                  print the devices as JSON
  --help, -h              this help

Exit code: 0 (also when no device is found), 2 for a usage error.`;
}
