/**
 * The hdc runs of one `MobileCDevice`: `hdc -t <deviceId> ...`, one at a time in call order (the
 * screenshot file on the device is shared), each within the device's `toolTimeout`; none after
 * the device is destroyed.
 *
 * A connect key hdc does not know is a `DeviceNotFoundError` that lists the connected devices
 * (`hdc list targets`); once a run of the device succeeded, the device (or hdc's server) going
 * away is a `ConnectionError` of kind `lost`.
 *
 * @module
 */

import { ConnectionError, DeviceNotFoundError, InvalidStateError } from "@sdk/core";
import { findTool, listTargets, runTool, type ToolOptions } from "./tool.ts";

/** One device's hdc runs. Private to the package. */
export class ToolShell {
  /** The connect key of the device. */
  readonly deviceId: string;
  readonly #toolOptions: ToolOptions;
  readonly #timeout: number;
  #toolPath: string | undefined;
  #queue: Promise<unknown> = Promise.resolve();
  #destroyed = false;
  #reached = false;

  /** hdc is looked for (`toolOptions`) on the first run. */
  constructor(deviceId: string, toolOptions: ToolOptions, timeoutMs: number) {
    this.deviceId = deviceId;
    this.#toolOptions = toolOptions;
    this.#timeout = timeoutMs;
  }

  /** @throws {InvalidStateError} once the device was destroyed. */
  checkLive(): void {
    if (this.#destroyed) throw this.#destroyedError();
  }

  /**
   * One hdc run for this device (`hdc -t <id> ...args`), after those queued before it; its
   * stdout.
   *
   * @throws the errors of `runTool` (tool.ts); a `DeviceNotFoundError` listing the connected
   * devices; a `ConnectionError` (`lost`) when the device answered before and is gone now.
   */
  hdc(args: string[]): Promise<string> {
    if (this.#destroyed) return Promise.reject(this.#destroyedError());
    const run = this.#queue.then(async () => {
      this.#toolPath ??= findTool(this.#toolOptions);
      try {
        const { stdout } = await runTool(
          this.#toolPath,
          ["-t", this.deviceId, ...args],
          this.#timeout,
        );
        this.#reached = true;
        return stdout;
      } catch (error) {
        throw await this.#gone(error);
      }
    });
    this.#queue = run.catch(() => {});
    return run;
  }

  /** `command` in the device's shell; what it printed (hdc does not pass on its exit code). */
  shell(command: string): Promise<string> {
    return this.hdc(["shell", command]);
  }

  /**
   * Refuses every later run, waits for the queued ones, then runs `afterwards` (cleaning up what
   * they used). Idempotent.
   */
  async close(afterwards: () => Promise<void>): Promise<void> {
    if (this.#destroyed) return;
    this.#destroyed = true;
    await this.#queue;
    await afterwards();
  }

  // An unknown connect key lists the devices hdc knows; a device (or hdc's server) that answered
  // before and does not now is lost.
  async #gone(error: unknown): Promise<unknown> {
    const missing = error instanceof DeviceNotFoundError;
    const refused = error instanceof ConnectionError && error.kind === "refused";
    if ((missing || refused) && this.#reached) {
      return new ConnectionError(
        `HarmonyOS device ${JSON.stringify(this.deviceId)} is gone: ${(error as Error).message}`,
        { kind: "lost", endpoint: this.deviceId },
        { cause: error },
      );
    }
    if (!missing) return error;
    const available = await listTargets({ toolPath: this.#toolPath }).catch(() => undefined);
    if (!available) return error;
    return new DeviceNotFoundError(
      `${error.message}; ${
        available.length ? `connected devices: ${available.join(", ")}` : "no device is connected"
      } (\`hdc list targets\`)`,
      { wanted: this.deviceId, available },
      { cause: error },
    );
  }

  #destroyedError(): InvalidStateError {
    return new InvalidStateError(
      `MobileCDevice ${JSON.stringify(this.deviceId)} was destroyed: no more hdc commands; ` +
        `create a new device`,
    );
  }
}
