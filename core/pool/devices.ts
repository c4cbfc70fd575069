/**
 * What a device pool holds and how it is found: a {@link PoolDevice} per reachable device, the
 * platform listers that find them ({@link DeviceLister}, one per platform package:
 * `listMobileADevices`, ...), {@link listDevices} over them, and {@link selectDevices}, which reads
 * the `--devices` selector (`all`, `<id>,<id>`, `<platform>:all`). Core knows no platform: the
 * command line (or a program) hands the listers in.
 *
 * @module
 */

import { DeviceNotFoundError, SdkTypeError } from "../errors.ts";

/** A device a pool can hand out (one line of `sdk devices`). */
export interface PoolDevice {
  /** The script section of its platform, e.g. `"mobilea"`. */
  readonly platform: string;
  /** Its id on that platform: an adb serial, an hdc connect key, a WebDriverAgent `host:port`. */
  readonly id: string;
  /** Its model name, when the device reports one. */
  readonly model?: string;
  /** Its operating system's version, when the device reports one. */
  readonly osVersion?: string;
  /** Its screen in physical pixels, when the device reports it. */
  readonly screen?: { readonly width: number; readonly height: number };
  /**
   * The fields of its platform's script section that select this device (`deviceId`,
   * `remoteBridgePort`, `driverPort`, ...): a runner sets them over the file's own section.
   */
  readonly section: Readonly<Record<string, unknown>>;
  /**
   * What using this device holds: devices with the same key are used one at a time, by a pool
   * and across processes (the monitors of one X display share its pointer and keyboard, so
   * `listComputerDevices` gives them the display's key). Default: its own, `<platform>-<id>`.
   */
  readonly lockKey?: string;
}

/** What using `device` holds ({@link PoolDevice.lockKey}). */
export function lockKeyOf(device: PoolDevice): string {
  return device.lockKey ?? `${device.platform}-${device.id}`;
}

/** Lists one platform's reachable devices; rejects when the platform cannot be asked. */
export type DeviceLister = () => Promise<PoolDevice[]>;

/**
 * A platform lister's loop: describes each listed id at once, leaving out (and telling `onError`
 * about) each one whose description fails: a device that is listed but does not answer.
 *
 * @returns the descriptions that succeeded, in the order of `ids`.
 */
export async function describeEach(
  ids: readonly string[],
  describe: (id: string) => Promise<PoolDevice>,
  onError?: (id: string, error: unknown) => void,
): Promise<PoolDevice[]> {
  const described = await Promise.all(ids.map((id) =>
    describe(id).catch((error) => {
      onError?.(id, error);
      return undefined;
    })
  ));
  return described.filter((d): d is PoolDevice => d !== undefined);
}

/** What {@link listDevices} found: the devices, and each platform that could not be asked. */
export interface DeviceListing {
  /** Every device found, platform by platform in the listers' order. */
  devices: PoolDevice[];
  /** Each lister that failed: its platform key and its error. */
  errors: { platform: string; error: unknown }[];
}

/**
 * Lists the devices of every platform at once (`sdk devices`). A platform whose lister fails (adb
 * not installed, a WebDriverAgent URL that does not answer) is reported in `errors` and the
 * others are still listed.
 *
 * @param listers platform key -> its lister, e.g. `{ mobilea: () => listMobileADevices() }`.
 * @returns the devices and the failures; never rejects.
 */
export async function listDevices(
  listers: Readonly<Record<string, DeviceLister>>,
): Promise<DeviceListing> {
  const entries = Object.entries(listers);
  const settled = await Promise.allSettled(entries.map(([, list]) => list()));
  const listing: DeviceListing = { devices: [], errors: [] };
  settled.forEach((result, i) => {
    if (result.status === "fulfilled") listing.devices.push(...result.value);
    else listing.errors.push({ platform: entries[i][0], error: result.reason });
  });
  return listing;
}

/**
 * The devices a selector picks: `all`; `<platform>:all` (every device of a platform); or ids
 * separated by commas (`emulator-5554,127.0.0.1:8100`), each an id or `<platform>:<id>`. Parts
 * can be mixed (`mobilea:all,127.0.0.1:8100`).
 *
 * @returns the picked devices in the order of `devices`.
 * @throws {SdkTypeError} for an empty selector.
 * @throws {DeviceNotFoundError} for an id (or a platform) no device has; `available` lists the
 * ids that are there.
 */
export function selectDevices(devices: readonly PoolDevice[], selector: string): PoolDevice[] {
  const parts = selector.split(",").map((p) => p.trim()).filter((p) => p !== "");
  if (parts.length === 0) {
    throw new SdkTypeError(
      `the device selector is empty: give "all", "<platform>:all" or device ids separated by ` +
        `commas`,
    );
  }
  const picked = new Set<PoolDevice>();
  for (const part of parts) {
    const matches = part === "all"
      ? devices
      : part.endsWith(":all")
      ? devices.filter((d) => d.platform === part.slice(0, -4))
      : devices.filter((d) => d.id === part || `${d.platform}:${d.id}` === part);
    if (matches.length === 0) {
      const available = devices.map((d) => `${d.platform}:${d.id}`);
      throw new DeviceNotFoundError(
        `no reachable device matches ${JSON.stringify(part)}` +
          (available.length
            ? `; reachable: ${available.join(", ")}`
            : "; none is reachable (run `sdk devices` to see what is found)"),
        { wanted: part, available },
      );
    }
    for (const device of matches) picked.add(device);
  }
  return devices.filter((d) => picked.has(d));
}
