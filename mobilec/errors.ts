/**
 * How a MobileC device command's failure becomes the SDK's `ToolError` of `hdc` with the device's
 * own words.
 *
 * @module
 */

import { ToolError } from "@sdk/core";

/**
 * The error of a device command whose answer says it failed (hdc passes on no exit code):
 * a `ToolError` of `hdc` with `message`, then what the device printed (trimmed, at most 300
 * characters).
 */
export function deviceFailure(message: string, output: string): ToolError {
  const said = output.trim().slice(0, 300);
  return new ToolError(`${message}: ${said}`, { tool: "hdc", output: said });
}
