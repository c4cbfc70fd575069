/**
 * Starts the bench's test model (`_model_process.ts`) in its own process, as a real endpoint would
 * be: the model costs about 0 ms, and its request parsing does not count in the bench's memory.
 *
 * @module
 */

import type { TargetBox, ViewportSize } from "@sdk/core/testing";

/** A test model running in a child process. */
export interface ModelProcess {
  /** The agent's `modelConfig` for it. */
  modelConfig(): Record<string, string>;
  /** Stops the process. */
  close(): Promise<void>;
}

/** How the model maps the screenshot to CSS pixels: one of the two. */
export interface ModelScreen {
  /** The page's viewport, CSS pixels. */
  viewport?: ViewportSize;
  /** Screenshot pixels per CSS pixel (a phone's density). */
  imagePixelsPerCssPixel?: number;
}

/**
 * Starts the test model in a child process, answering every locate call with `box` at once.
 *
 * @param box the box every locate answers, in CSS pixels.
 * @param screen how the model maps the screenshot to CSS pixels.
 * @throws {Error} when the process exits before printing its configuration.
 */
export async function startModelProcess(
  box: TargetBox,
  screen: ModelScreen,
): Promise<ModelProcess> {
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--allow-net=127.0.0.1",
      "--allow-read",
      "--allow-env",
      new URL("_model_process.ts", import.meta.url).pathname,
      JSON.stringify({ box, ...screen }),
    ],
    stdin: "piped",
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  while (!text.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) throw new Error("the test model process exited before printing its config");
    text += value;
  }
  const config = JSON.parse(text.slice(0, text.indexOf("\n"))) as Record<string, string>;
  return {
    modelConfig: () => config,
    async close() {
      await child.stdin.close();
      await reader.cancel();
      await child.status;
    },
  };
}
