/**
 * `listComputerDevices`: the monitors of X displays as a device pool's entries (`sdk devices
 * --display :N`, `sdk run --devices computer:all --display :N`): display and monitor, and the
 * monitor's size.
 *
 * @module
 */

import process from "node:process";
import type { PoolDevice } from "@sdk/core";
import { listX11Displays } from "./display.ts";

/** Options of {@link listComputerDevices}. */
export interface ListComputerDevicesOptions {
  /**
   * The X displays' authority file (set in each entry's section too). Default: `XAUTHORITY` of
   * this process.
   */
  xauthority?: string;
  /** Told about a display that does not answer (it is left out). */
  onError?: (display: string, error: unknown) => void;
}

/**
 * One entry per monitor of each X display that answers: id `<display>/<monitor>` (`:0/DP-1`),
 * the monitor's size, and the `computer` section fields that select it: `display` and
 * `displayId` (and `xauthority` when given here), so a pooled script drives that monitor of that
 * display; and the display as `lockKey`, so a pool runs one script per display at once.
 *
 * @param displays X display names, e.g. `[":0", ":99"]`.
 * @returns the monitors, display by display in `xrandr`'s order.
 */
export async function listComputerDevices(
  displays: readonly string[],
  options: ListComputerDevicesOptions = {},
): Promise<PoolDevice[]> {
  const xauthority = options.xauthority ?? process.env.XAUTHORITY;
  const perDisplay = await Promise.all(displays.map(async (display) => {
    try {
      return (await listX11Displays(display, xauthority)).map((monitor): PoolDevice => ({
        platform: "computer",
        id: `${display}/${monitor.id}`,
        model: "X11 display",
        screen: { width: monitor.width, height: monitor.height },
        section: {
          display,
          displayId: monitor.id,
          ...(options.xauthority !== undefined && { xauthority: options.xauthority }),
        },
        // The monitors of one display share its pointer and keyboard: one script at a time.
        lockKey: `computer-${display}`,
      }));
    } catch (error) {
      options.onError?.(display, error);
      return [];
    }
  }));
  return perDisplay.flat();
}
