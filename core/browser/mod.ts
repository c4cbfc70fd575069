/**
 * The browser entry of `@sdk/core`: everything `@sdk/core` exports, plus what a script running
 * inside a web page needs: {@link InPageDevice}, which drives the page from inside with
 * synthetic events, and {@link reportToHtml}, the run's report as one HTML file to download (a
 * page has no file system, so no report file is written and `agent.reportFile` stays undefined).
 *
 * `deno task build:browser` bundles this module with esbuild into `dist/browser/sdk-core.js`, one
 * ES module with no Node built-in (docs/in-browser.md).
 *
 * @example Drive the page from a script inside it
 * ```ts ignore
 * import { Agent, InPageDevice, reportToHtml } from "./sdk-core.js";
 *
 * const agent = new Agent(new InPageDevice({ captureScreenshot: myCapture }), {
 *   modelConfig: { SDK_MODEL_NAME: "...", SDK_MODEL_BASE_URL: "...", SDK_MODEL_API_KEY: "..." },
 * });
 * await agent.aiTap("the Sign in button");
 * const html = reportToHtml(agent); // offer it for download
 * ```
 *
 * @module
 */

export * from "../mod.ts";
export { InPageDevice } from "./in_page_device.ts";
export type { InPageDeviceOptions, InPageWindow } from "./in_page_device.ts";
export { reportToHtml } from "../report/writer.ts";
export type { ReportSource } from "../report/writer.ts";
