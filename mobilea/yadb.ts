/**
 * The yadb helper (https://github.com/ysbing/YADB): a jar the user pushes to the device once,
 * which types any text (`input text` takes printable ASCII only), empties a field, and takes
 * screenshots where `screencap` fails. `@sdk/mobilea` does not ship it.
 *
 * @module
 */

import { MissingDependencyError } from "@sdk/core";
import type { BridgeShell } from "./bridge_shell.ts";

/** Where the yadb helper must be on the device (push it there with `adb push`). */
export const YADB_PATH = "/data/local/tmp/yadb";

/** The shell command that runs the helper with `flag` (`-keyboard`, `-screenshot`). */
export function yadbCommand(flag: string): string {
  return `app_process -Djava.class.path=${YADB_PATH} /data/local/tmp com.ysbing.yadb.Main ${flag}`;
}

/** Whether one device has the helper. Private to the package. */
export class YadbHelper {
  readonly #shell: BridgeShell;
  #present: boolean | undefined;

  constructor(shell: BridgeShell) {
    this.#shell = shell;
  }

  /** Whether the helper is on the device; asked again while absent (it may be pushed since). */
  async available(): Promise<boolean> {
    if (this.#present === true) return true;
    const result = await this.#shell.shell(`ls ${YADB_PATH}`);
    this.#present = result.exitCode === 0 && result.stdout.includes("yadb");
    return this.#present;
  }

  /**
   * @throws {MissingDependencyError} (`yadb`) saying how to push the helper, needed to
   * `purpose`, when it is absent.
   */
  async require(purpose: string): Promise<void> {
    if (await this.available()) return;
    const deviceId = this.#shell.deviceId;
    throw new MissingDependencyError(
      `Android device ${JSON.stringify(deviceId)} has no yadb helper at ${YADB_PATH}, ` +
        `needed to ${purpose}. Push it once with \`adb -s ${deviceId} push yadb ` +
        `/data/local/tmp/\` (yadb: https://github.com/ysbing/YADB); @sdk/mobilea does not ship it.`,
      "yadb",
    );
  }
}
