/**
 * The hdc runs of one `MobileCDevice`: `hdc -t <deviceId> ...`, one at a time in call order (the
 * screenshot file on the device is shared), each within the device's `toolTimeout`; none after
 * the device is destroyed.
 *
 * @module
 */

import { findTool, runTool, type ToolOptions } from "./tool.ts";

/** One device's hdc runs. Private to the package. */
export class ToolShell {
  /** The connect key of the device. */
  readonly deviceId: string;
  readonly #toolOptions: ToolOptions;
  readonly #timeout: number;
  #toolPath: string | undefined;
  #queue: Promise<unknown> = Promise.resolve();
  #destroyed = false;

  /** hdc is looked for (`toolOptions`) on the first run. */
  constructor(deviceId: string, toolOptions: ToolOptions, timeoutMs: number) {
    this.deviceId = deviceId;
    this.#toolOptions = toolOptions;
    this.#timeout = timeoutMs;
  }

  /** @throws {Error} once the device was destroyed. */
  checkLive(): void {
    if (this.#destroyed) throw this.#destroyedError();
  }

  /** One hdc run for this device (`hdc -t <id> ...args`), after those queued before it; its stdout. */
  hdc(args: string[]): Promise<string> {
    if (this.#destroyed) return Promise.reject(this.#destroyedError());
    const run = this.#queue.then(async () => {
      this.#toolPath ??= findTool(this.#toolOptions);
      return (await runTool(this.#toolPath, ["-t", this.deviceId, ...args], this.#timeout))
        .stdout;
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

  #destroyedError(): Error {
    return new Error(
      `MobileCDevice ${JSON.stringify(this.deviceId)} was destroyed: no more hdc commands`,
    );
  }
}
