/**
 * The iOS screen as WDA gives it: the window in logical points (`GET /session/:id/window/size`)
 * and the scale, physical pixels per point (`GET /wda/screen`); and points snapped to the
 * physical pixel grid, so that a box the model gives on the screenshot maps exactly.
 *
 * @module
 */

import type { Point } from "@sdk/core";
import { ToolError, toPhysicalPixel } from "@sdk/core";
import { WDA_TOOL } from "./wda.ts";
import type { WdaSession } from "./session.ts";

/** The window and the scale. */
export interface ScreenInfo {
  /** Window size, points. */
  width: number;
  height: number;
  /** Physical pixels per point. */
  scale: number;
}

/** One device's screen, read once. Private to the package. */
export class Screen {
  readonly #session: WdaSession;
  #info: Promise<ScreenInfo> | undefined;

  constructor(session: WdaSession) {
    this.#session = session;
  }

  /** The screen, read on first use (again after a failed read). */
  info(): Promise<ScreenInfo> {
    this.#session.checkLive();
    this.#info ??= this.#read().catch((error) => {
      this.#info = undefined;
      throw error;
    });
    return this.#info;
  }

  /**
   * A logical point on the screen, snapped to the physical pixel grid (WDA takes points; the
   * model's box was on physical pixels).
   */
  async point(point: Point): Promise<Point> {
    const { width, height, scale } = await this.info();
    const physical = { width: Math.round(width * scale), height: Math.round(height * scale) };
    const [x, y] = toPhysicalPixel(point, scale, physical);
    return [x / scale, y / scale];
  }

  async #read(): Promise<ScreenInfo> {
    const session = await this.#session.path();
    const client = this.#session.client;
    const [screen, window] = await Promise.all([
      client.request("GET", "/wda/screen"),
      client.request("GET", `${session}/window/size`),
    ]);
    const scale = (screen as { scale?: unknown } | null)?.scale;
    const { width, height } = (window ?? {}) as { width?: unknown; height?: unknown };
    if (
      !isPositive(scale) || !isPositive(width) || !isPositive(height)
    ) {
      const output = `GET /wda/screen answered ${JSON.stringify(screen)?.slice(0, 200)}, GET ` +
        `${session}/window/size ${JSON.stringify(window)?.slice(0, 200)}`;
      throw new ToolError(`WebDriverAgent at ${client.where} gave no usable screen: ${output}`, {
        tool: WDA_TOOL,
        output,
      });
    }
    return { width, height, scale };
  }
}

function isPositive(value: unknown): value is number {
  return typeof value === "number" && Number.isFinite(value) && value > 0;
}
