/**
 * Quoting for the POSIX shells of devices (Android's and HarmonyOS's `sh`), which run the
 * command lines the SDK sends through adb and hdc.
 *
 * @module
 */

/** `value` as one single-quoted shell word: any text, `'` included, reaches the command as is. */
export function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}
