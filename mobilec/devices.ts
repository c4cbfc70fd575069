/**
 * `listMobileCDevices`: the HarmonyOS devices `hdc list targets` lists, as a device pool's entries
 * (`sdk devices`, `sdk run --devices`): connect key, model, system version and screen.
 *
 * @module
 */

import { describeEach, type PoolDevice } from "@sdk/core";
import { MobileCDevice } from "./device.ts";
import { listTargets, type ToolOptions } from "./tool.ts";

/** Options of {@link listMobileCDevices}: where hdc is, and what to do with a mute device. */
export interface ListMobileCDevicesOptions extends ToolOptions {
  /** Told about a listed device that does not answer (it is left out). */
  onError?: (deviceId: string, error: unknown) => void;
}

/**
 * The devices hdc lists that answer, each with its model (`const.product.model`), system version
 * (`const.product.software.version`) and screen in physical pixels; the entry's `section` is what
 * a `mobilec` script needs to drive it (`deviceId`, and `toolPath` when given).
 *
 * @throws {MissingDependencyError} (`hdc`) when hdc is not found; {ConnectionError} when its
 * server does not answer; {ToolError} when it fails.
 */
export async function listMobileCDevices(
  options: ListMobileCDevicesOptions = {},
): Promise<PoolDevice[]> {
  const { onError, ...tool } = options;
  const keys = await listTargets(tool);
  return await describeEach(keys, async (key) => {
    const device = new MobileCDevice(key, { ...tool, exposeRunToolShellAction: true });
    try {
      const param = async (name: string) =>
        (await device.runToolShell(`param get ${name}`)).trim() || undefined;
      const model = await param("const.product.model");
      const version = await param("const.product.software.version");
      const size = await device.size();
      const entry: PoolDevice = {
        platform: "mobilec",
        id: key,
        ...(model ? { model } : {}),
        ...(version ? { osVersion: version } : {}),
        screen: {
          width: Math.round(size.width * (size.dpr ?? 1)),
          height: Math.round(size.height * (size.dpr ?? 1)),
        },
        section: { deviceId: key, ...tool },
      };
      return entry;
    } finally {
      await device.destroy().catch(() => {});
    }
  }, onError);
}
