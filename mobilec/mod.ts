/**
 * `@sdk/mobilec`: HarmonyOS agents over the device tool (spec 4.10). Under construction.
 *
 * @module
 */

/** Name of the HarmonyOS device tool's executable. */
export const TOOL_NAME = "hdc";
