/**
 * App names of phone agents (spec 4.8-4.10 `appNameMapping`): friendly names -> what the
 * platform launches (a package, a bundle id, `bundle/Ability`). The user's names outrank the
 * platform's defaults; names match without regard to case or surrounding spaces, and a target
 * that is no name is used as given.
 *
 * @module
 */

import { SdkTypeError } from "../errors.ts";

/** A resolved `appNameMapping`. */
export class AppNameMapping {
  readonly #apps = new Map<string, string>();

  /**
   * @param defaults the platform's own names (its system apps).
   * @param mapping the user's `appNameMapping` (unchecked input).
   * @param targets what the values are, for the error: `"package name"`, `"bundle id"`.
   * @throws {TypeError} when `mapping` is given and is not an object of non-empty strings.
   */
  constructor(
    defaults: Readonly<Record<string, string>>,
    mapping: unknown,
    targets: string,
  ) {
    if (
      mapping !== undefined &&
      (typeof mapping !== "object" || mapping === null ||
        !Object.values(mapping).every((v) => typeof v === "string" && v.trim() !== ""))
    ) {
      throw new SdkTypeError(
        `'appNameMapping' must be an object of app name -> ${targets} (non-empty strings): ` +
          `current value is ${JSON.stringify(mapping)}`,
      );
    }
    const all = { ...defaults, ...(mapping as Record<string, string> | undefined) };
    for (const [name, target] of Object.entries(all)) {
      this.#apps.set(name.trim().toLowerCase(), target.trim());
    }
  }

  /** What `target` names, or `target` itself (trimmed) when it is no app name. */
  resolve(target: string): string {
    return this.#apps.get(target.trim().toLowerCase()) ?? target.trim();
  }
}

/**
 * `value` when it is a non-empty string, for the target of `launch` and `terminate`.
 *
 * @throws {TypeError} `<api> needs a non-empty string: current value is ...` otherwise.
 */
export function requireTarget(api: string, value: unknown): string {
  if (typeof value !== "string" || value.trim() === "") {
    throw new SdkTypeError(
      `${api} needs a non-empty string: current value is ${JSON.stringify(value)}`,
    );
  }
  return value;
}

/**
 * The resolver a phone device's `useAppNameMapping` receives (the agent's `appNameMapping`),
 * checked.
 *
 * @param resolve app name -> what the platform launches (unchecked input).
 * @param targets what names resolve to, for the error: `"package name"`, `"bundle id"`.
 * @returns `resolve`.
 * @throws {TypeError} `useAppNameMapping needs a function from app name to <targets>` when it is
 *   not a function.
 */
export function checkAppNameResolver(
  resolve: unknown,
  targets: string,
): (target: string) => string {
  if (typeof resolve !== "function") {
    throw new SdkTypeError(`useAppNameMapping needs a function from app name to ${targets}`);
  }
  return resolve as (target: string) => string;
}
