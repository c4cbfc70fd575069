/**
 * `${NAME}` in a script's text values reads the environment variable `NAME`.
 *
 * Rules:
 * - A reference is `${` + a name of letters, digits and `_` (not starting with a digit) + `}`.
 *   Only string values are read (keys, numbers and booleans are not); a string that is only
 *   `${NAME}` may then stand for a number or a boolean where a key expects one
 *   (`timeout: ${WAIT_MS}`).
 * - `$${NAME}` is the escape: it stays as the literal text `${NAME}`. It exists for JavaScript
 *   template literals in `javascript` items (`` javascript: "`${a}`" `` would read the variable
 *   `a`; write `` "`$${a}`" ``).
 * - Anything else with `$` is left alone: `${a + 1}`, `$NAME`, `${}`.
 * - A variable that is not set is an error; one set to the empty string gives the empty string.
 *
 * @module
 */

/** Reads one environment variable; `undefined` when it is not set. */
export type EnvLookup = (name: string) => string | undefined;

/** The outcome of {@link interpolateEnvVars}. */
export interface EnvInterpolation {
  /** The text with every reference replaced (missing ones by the empty string). */
  value: string;
  /** Names of the variables read, in order, each once. */
  used: string[];
  /** Names of the variables that are not set, in order, each once. */
  missing: string[];
}

const REFERENCE = /(\$?)\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/**
 * The names a text reads (`${NAME}`, not the escaped `$${NAME}`), each once, in order.
 *
 * @param text a string value of the script.
 */
export function referencedEnvVars(text: string): string[] {
  const names: string[] = [];
  for (const [, escape, name] of text.matchAll(REFERENCE)) {
    if (!escape && !names.includes(name)) names.push(name);
  }
  return names;
}

/**
 * Replaces `${NAME}` by the variable's value and `$${NAME}` by the literal `${NAME}`.
 *
 * @param text a string value of the script.
 * @param env reads a variable.
 * @returns the new text, the names read and the names that are not set (the caller decides how
 * to report them: the script engine names the file, line and key).
 *
 * @example
 * ```ts
 * import { interpolateEnvVars } from "./env_vars.ts";
 *
 * const env = (name: string) => ({ USER: "alice" } as Record<string, string>)[name];
 * console.log(interpolateEnvVars("sign in as ${USER}", env).value); // "sign in as alice"
 * console.log(interpolateEnvVars("`$${USER}`", env).value); // "`${USER}`"
 * console.log(interpolateEnvVars("${NOPE}", env).missing); // ["NOPE"]
 * ```
 */
export function interpolateEnvVars(text: string, env: EnvLookup): EnvInterpolation {
  const used: string[] = [];
  const missing: string[] = [];
  const value = text.replace(REFERENCE, (_match, escape: string, name: string) => {
    if (escape) return `\${${name}}`;
    if (!used.includes(name)) used.push(name);
    const v = env(name);
    if (v === undefined) {
      if (!missing.includes(name)) missing.push(name);
      return "";
    }
    return v;
  });
  return { value, used, missing };
}
