/**
 * The script sections of the device platforms: the one list of platform names core keeps, so
 * that a script reader knows a platform's section (to accept it in a phone agent's `runYaml`, to
 * point a web reader at the platform's runner, to tell which platform a file is for) without
 * loading the platform. How a section is read, and the flow items it adds, come from the
 * platform's own package (`ScriptSectionSchema`, `ScriptPlatform` of `@sdk/core/script`).
 *
 * @module
 */

/** The section key of each device platform's script files (`@sdk/mobilea`'s `mobilea`, ...). */
export const PLATFORM_SECTION_KEYS: readonly string[] = [
  "mobilea",
  "mobileb",
  "mobilec",
  "computer",
];
