/**
 * Finding the devices of `sdk devices` and `sdk run --devices`: one lister per phone platform,
 * each loaded from its package only when asked (the platforms are optional peers of `@sdk/cli`),
 * composed with core's `listDevices`. Also the `sdk devices` table.
 *
 * @module
 */

import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import {
  type DeviceLister,
  type DeviceListing,
  DevicePool,
  listDevices,
  MissingDependencyError,
  type PoolDevice,
  selectDevices,
} from "@sdk/core";
import type { DiscoveryFlags } from "./device_flags.ts";
import type { DevicesCommand } from "./device_flags.ts";
import { formatColumns } from "./summary.ts";

/** The WebDriverAgent URLs of `--wda` and `--wda-file` (one a line, `#` comments). */
async function wdaUrls(flags: DiscoveryFlags, cwd: string): Promise<string[]> {
  const urls = [...flags.wda];
  if (flags.wdaFile !== undefined) {
    const text = await readFile(resolve(cwd, flags.wdaFile), "utf8");
    for (const line of text.split(/\r?\n/)) {
      const url = line.replace(/#.*/, "").trim();
      if (url) urls.push(url);
    }
  }
  return urls;
}

/**
 * The listers for the flags: MobileA (the adb server) and MobileC (hdc) always, MobileB when
 * WebDriverAgent URLs are given, desktops when X displays are; only the platforms `platforms` names, when given. A device that
 * does not answer is left out and told to `warn`.
 */
async function deviceListers(
  flags: DiscoveryFlags,
  cwd: string,
  warn: (message: string) => void,
  platforms?: ReadonlySet<string>,
): Promise<Record<string, DeviceLister>> {
  const wanted = (p: string) => platforms === undefined || platforms.has(p);
  const mute = (id: string, error: unknown) =>
    warn(`device ${id} does not answer, left out: ${(error as Error)?.message ?? error}`);
  const listers: Record<string, DeviceLister> = {};
  if (wanted("mobilea")) {
    listers.mobilea = async () =>
      await (await import("@sdk/mobilea")).listMobileADevices({
        ...(flags.adbHost !== undefined && { remoteBridgeHost: flags.adbHost }),
        ...(flags.adbPort !== undefined && { remoteBridgePort: flags.adbPort }),
        onError: mute,
      });
  }
  const urls = await wdaUrls(flags, cwd);
  if (wanted("mobileb") && urls.length) {
    listers.mobileb = async () =>
      await (await import("@sdk/mobileb")).listMobileBDevices(urls, { onError: mute });
  }
  if (wanted("mobilec")) {
    listers.mobilec = async () =>
      await (await import("@sdk/mobilec")).listMobileCDevices({
        ...(flags.hdc !== undefined && { toolPath: flags.hdc }),
        onError: mute,
      });
  }
  if (wanted("computer") && flags.display?.length) {
    const displays = flags.display;
    listers.computer = async () =>
      await (await import("@sdk/computer")).listComputerDevices(displays, { onError: mute });
  }
  return listers;
}

/** The platforms a `--devices` selector can pick from (`undefined`: any). */
function platformsOf(selector: string): Set<string> | undefined {
  const parts = selector.split(",").map((p) => p.trim());
  if (!parts.every((p) => p.endsWith(":all"))) return undefined;
  return new Set(parts.map((p) => p.slice(0, -4)));
}

/** One line per device: platform, id, model, OS version, screen. */
function formatDeviceTable(devices: readonly PoolDevice[]): string {
  const head = ["platform", "id", "model", "os", "screen"];
  const rows = devices.map((d) => [
    d.platform,
    d.id,
    d.model ?? "-",
    d.osVersion ?? "-",
    d.screen ? `${d.screen.width}x${d.screen.height}` : "-",
  ]);
  return formatColumns(head, rows).join("\n");
}

/**
 * Says which platform could not be asked, one line each; a missing tool in one line, as
 * `sdk devices` asks every platform whether or not the machine has its tool.
 */
function listingErrors(listing: DeviceListing): string[] {
  return listing.errors.map(({ platform, error }) =>
    error instanceof MissingDependencyError
      ? `${platform}: not listed: ${error.dependency} was not found (sdk devices --help says ` +
        "how to point to it)"
      : `${platform}: not listed: ${(error as Error)?.message ?? error}`
  );
}

/**
 * `sdk devices`: prints the table (or JSON), and on standard error each platform that could not
 * be asked and each device that did not answer.
 *
 * @returns the exit code, 0.
 */
export async function devicesCommand(
  command: DevicesCommand,
  io: { stdout: { write(t: string): unknown }; stderr: { write(t: string): unknown }; cwd: string },
): Promise<number> {
  const warn = (message: string) => io.stderr.write(`sdk devices: ${message}\n`);
  const listing = await listDevices(await deviceListers(command, io.cwd, warn));
  for (const line of listingErrors(listing)) warn(line);
  io.stdout.write(
    command.json
      ? `${JSON.stringify(listing.devices, null, 2)}\n`
      : listing.devices.length
      ? `${formatDeviceTable(listing.devices)}\n`
      : "No device found.\n",
  );
  return 0;
}

/**
 * The pool of a `sdk run --devices` run: the devices the selector picks among those found. A
 * device whose file failed is listed again to see whether it still answers; a device another run
 * holds is waited for, and said once.
 *
 * @throws {DeviceNotFoundError} when the selector names a device (or platform) not found.
 */
export async function openDevicePool(
  flags: DiscoveryFlags & { devices: string },
  cwd: string,
  warn: (message: string) => void,
): Promise<DevicePool> {
  const listers = await deviceListers(flags, cwd, warn, platformsOf(flags.devices));
  const listing = await listDevices(listers);
  for (const line of listingErrors(listing)) warn(line);
  return new DevicePool(selectDevices(listing.devices, flags.devices), {
    isReachable: async (device) =>
      (await listers[device.platform]()).some((d) => d.id === device.id),
    onHeld: (device) =>
      warn(
        `device ${device.platform}:${device.id} is held by another run: its files wait for it ` +
          `or go to another device`,
      ),
  });
}
