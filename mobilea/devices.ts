/**
 * `listMobileADevices`: the Android devices of one adb server as a device pool's entries (`sdk
 * devices`, `sdk run --devices`): id, model, Android version and screen, read with one shell
 * command per device.
 *
 * @module
 */

import { describeEach, type PoolDevice } from "@sdk/core";
import { getConnectedDevices } from "./agent.ts";
import type { BridgeOptions } from "./bridge.ts";
import { MobileADevice } from "./device.ts";

/** Options of {@link listMobileADevices}: where the adb server is, and what to do with a mute device. */
export interface ListMobileADevicesOptions extends BridgeOptions {
  /** Told about a listed device that does not answer its shell (it is left out). */
  onError?: (deviceId: string, error: unknown) => void;
}

/** The shell command that reads a device's model, Android release and screen, one per line. */
const DESCRIBE = "getprop ro.product.model; getprop ro.build.version.release; wm size";

/**
 * The devices of the adb server that answer (online, authorized, and their shell runs), each
 * with its model, Android version and screen in physical pixels; the entry's `section` is what a
 * `mobilea` script needs to drive it (`deviceId`, and the server's host and port when given).
 *
 * @throws {MissingDependencyError} (`adb`) when a local server must be started and adb is not
 * installed; {ConnectionError} when the server cannot be reached; {SdkTypeError} /
 * {SdkRangeError} for malformed bridge options.
 */
export async function listMobileADevices(
  options: ListMobileADevicesOptions = {},
): Promise<PoolDevice[]> {
  const { onError, ...bridge } = options;
  const listed = await getConnectedDevices(bridge);
  return await describeEach(listed.map((d) => d.udid), async (udid) => {
    const device = new MobileADevice(udid, { ...bridge, exposeRunBridgeShellAction: true });
    try {
      const out = await device.runBridgeShell(DESCRIBE, { timeout: 10_000 });
      if (out.exitCode !== 0) throw new Error(`the shell exited with ${out.exitCode}`);
      const [model, release] = out.stdout.split(/\r?\n/).map((l) => l.trim());
      const size = /(?:Override|Physical) size:\s*(\d+)x(\d+)/.exec(out.stdout);
      const entry: PoolDevice = {
        platform: "mobilea",
        id: udid,
        ...(model ? { model } : {}),
        ...(release ? { osVersion: `Android ${release}` } : {}),
        ...(size ? { screen: { width: Number(size[1]), height: Number(size[2]) } } : {}),
        section: { deviceId: udid, ...bridge },
      };
      return entry;
    } finally {
      await device.destroy().catch(() => {});
    }
  }, onError);
}
