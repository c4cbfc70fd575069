/**
 * The HarmonyOS screen: its render resolution (`hidumper -s RenderService -a screen`) and
 * density (`Density` of `hidumper -s DisplayManagerService -a -a`, 1 when the device does not
 * report it), and logical points (vp: physical / density) as physical pixels.
 *
 * @module
 */

import type { Point } from "@sdk/core";
import { toPhysicalPixel } from "@sdk/core";
import { deviceFailure } from "./errors.ts";
import type { ToolShell } from "./tool_shell.ts";

/** How the actions name their lengths and points. */
export const VP_UNIT = "vp (logical pixels: screenshot pixels / screen density)";

/** The screen in physical pixels, and its density. */
export interface ScreenInfo {
  width: number;
  height: number;
  density: number;
}

/** One device's screen, read once. Private to the package. */
export class Screen {
  readonly #shell: ToolShell;
  #info: ScreenInfo | undefined;

  constructor(shell: ToolShell) {
    this.#shell = shell;
  }

  /**
   * The screen, read on first use.
   *
   * @throws {ToolError} (`hdc`) when hidumper prints no render resolution.
   */
  async info(): Promise<ScreenInfo> {
    if (this.#info) return this.#info;
    const render = await this.#shell.shell("hidumper -s RenderService -a screen");
    const size = /render (?:resolution|size)\s*[=:]\s*(\d+)x(\d+)/i.exec(render);
    if (!size) {
      const device = JSON.stringify(this.#shell.deviceId);
      throw deviceFailure(
        `Cannot read the screen size of HarmonyOS device ${device}: ` +
          `hidumper -s RenderService printed no render resolution`,
        render,
      );
    }
    const display = await this.#shell.shell("hidumper -s DisplayManagerService -a -a");
    const density = Number(/^\s*Density\s*[:=]\s*([\d.]+)/mi.exec(display)?.[1]);
    this.#info = {
      width: Number(size[1]),
      height: Number(size[2]),
      density: Number.isFinite(density) && density > 0 ? density : 1,
    };
    return this.#info;
  }

  /** A logical point as physical pixels on the screen. */
  async physical(point: Point): Promise<[number, number]> {
    const { width, height, density } = await this.info();
    return toPhysicalPixel(point, density, { width, height });
  }
}
