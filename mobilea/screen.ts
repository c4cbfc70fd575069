/**
 * The Android screen as `wm size` and `wm density` give it (their override values when set):
 * physical pixels and density, the logical size (Android's dp: physical / (densityDpi / 160)),
 * and logical points as the physical pixels that `input` takes.
 *
 * @module
 */

import type { Point, Size } from "@sdk/core";
import { ToolError, toPhysicalPixel } from "@sdk/core";
import type { BridgeShell } from "./bridge_shell.ts";

/** How the actions name their lengths and points. */
export const DP_UNIT = "dp (logical pixels: screenshot pixels / (screen dpi / 160))";

/** The screen in physical pixels, and its density. */
export interface ScreenInfo {
  physicalWidth: number;
  physicalHeight: number;
  densityDpi: number;
}

/** One device's screen, read once and kept until a refresh. Private to the package. */
export class Screen {
  readonly #shell: BridgeShell;
  #info: ScreenInfo | undefined;

  constructor(shell: BridgeShell) {
    this.#shell = shell;
  }

  /**
   * The screen as last read; read again with `refresh` (or when never read).
   *
   * @throws {ToolError} when `wm size` or `wm density` fails or prints no size.
   */
  async info(refresh: boolean): Promise<ScreenInfo> {
    if (this.#info && !refresh) return this.#info;
    const sizeText = await this.#shell.shellOk("wm size");
    const densityText = await this.#shell.shellOk("wm density");
    const size = /Override size:\s*(\d+)x(\d+)/.exec(sizeText) ??
      /Physical size:\s*(\d+)x(\d+)/.exec(sizeText);
    const density = /Override density:\s*(\d+)/.exec(densityText) ??
      /Physical density:\s*(\d+)/.exec(densityText);
    if (!size || !density) {
      const device = JSON.stringify(this.#shell.deviceId);
      const output = `${sizeText.trim()}\n${densityText.trim()}`.trim();
      throw new ToolError(
        `Cannot read the screen of Android device ${device}: \`wm size\` printed ` +
          `${JSON.stringify(sizeText.trim())}, \`wm density\` ${
            JSON.stringify(densityText.trim())
          }`,
        { tool: "adb", status: 0, output },
      );
    }
    this.#info = {
      physicalWidth: Number(size[1]),
      physicalHeight: Number(size[2]),
      densityDpi: Number(density[1]),
    };
    return this.#info;
  }

  /** Logical size (physical / dpr) and `dpr` = densityDpi / 160. */
  async size(refresh: boolean): Promise<Size> {
    const info = await this.info(refresh);
    const dpr = info.densityDpi / 160;
    return { width: info.physicalWidth / dpr, height: info.physicalHeight / dpr, dpr };
  }

  /** A logical point as physical pixels on the screen. */
  async physical(point: Point): Promise<[number, number]> {
    const info = await this.info(false);
    return toPhysicalPixel(point, info.densityDpi / 160, {
      width: info.physicalWidth,
      height: info.physicalHeight,
    });
  }
}
