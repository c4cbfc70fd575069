/**
 * MobileC screenshots: `snapshot_display -f` to a file on the device, fetched with `hdc file
 * recv` into a private temporary folder of this machine (removed when the device is destroyed,
 * or at the latest when the process ends).
 *
 * @module
 */

import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { type PrivateTempDir, privateTempDir, ToolError } from "@sdk/core";
import { deviceFailure } from "./errors.ts";
import type { ToolShell } from "./tool_shell.ts";

/** Where screenshots are written on the device before `hdc file recv` fetches them. */
export const DEVICE_SCREENSHOT_PATH = "/data/local/tmp/sdk_mobilec_screen.jpeg";

/** One device's screenshots and their local folder. Private to the package. */
export class Screenshots {
  readonly #shell: ToolShell;
  #localDir: Promise<PrivateTempDir> | undefined;

  constructor(shell: ToolShell) {
    this.#shell = shell;
  }

  /**
   * The screen as `data:image/jpeg;base64,...`, physical pixels.
   *
   * @throws {ToolError} (`hdc`) with hdc's or the device's message when it fails, or when the
   * file fetched is not a JPEG; the errors of the device's hdc runs.
   */
  async take(): Promise<string> {
    const deviceId = JSON.stringify(this.#shell.deviceId);
    const local = join((await this.#local()).path, "screen.jpeg");
    const output = await this.#shell.shell(`snapshot_display -f ${DEVICE_SCREENSHOT_PATH}`);
    if (!/success/i.test(output)) {
      throw deviceFailure(
        `Cannot take a screenshot of HarmonyOS device ${deviceId}: snapshot_display said`,
        output,
      );
    }
    await this.#shell.hdc(["file", "recv", DEVICE_SCREENSHOT_PATH, local]);
    const bytes = await readFile(local);
    if (bytes.length < 4 || bytes[0] !== 0xff || bytes[1] !== 0xd8) {
      throw new ToolError(
        `Cannot take a screenshot of HarmonyOS device ${deviceId}: ` +
          `${DEVICE_SCREENSHOT_PATH} is not a JPEG (${bytes.length} bytes)`,
        { tool: "hdc", output: "" },
      );
    }
    return `data:image/jpeg;base64,${bytes.toString("base64")}`;
  }

  /** Deletes the local folder, if one was made. */
  async close(): Promise<void> {
    const dir = this.#localDir;
    this.#localDir = undefined;
    if (dir) await dir.then((d) => d.remove()).catch(() => {});
  }

  #local(): Promise<PrivateTempDir> {
    this.#localDir ??= privateTempDir("sdk-mobilec-");
    return this.#localDir;
  }
}
