/**
 * Reading and checking the `param` object of a web action (private to `@sdk/web`).
 *
 * Params come from a model's answer, so they are checked at run time; every error names the
 * action and the parameter.
 *
 * @module
 */

import type { LocatedElement } from "../_core.ts";

/** A `param` object as a device action receives it. */
export type Params = Record<string, unknown>;

function show(value: unknown): string {
  if (value === undefined) return "undefined";
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

function isFiniteNumber(value: unknown): value is number {
  return typeof value === "number" && Number.isFinite(value);
}

/** A locate parameter (`name`, default `locate`), checked; `undefined` when optional and absent. */
export function readLocate(
  action: string,
  param: Params,
  required: true,
  name?: string,
): LocatedElement;
export function readLocate(
  action: string,
  param: Params,
  required: false,
  name?: string,
): LocatedElement | undefined;
export function readLocate(
  action: string,
  param: Params,
  required: boolean,
  name = "locate",
): LocatedElement | undefined {
  const value = param[name];
  if (value === undefined || value === null) {
    if (!required) return undefined;
    throw new TypeError(
      `Cannot run ${action}: '${name}' is required: current value is ${show(value)}`,
    );
  }
  const center = (value as { center?: unknown }).center;
  if (
    typeof value !== "object" || !Array.isArray(center) || center.length !== 2 ||
    !isFiniteNumber(center[0]) || !isFiniteNumber(center[1])
  ) {
    throw new TypeError(
      `Cannot run ${action}: '${name}' must be a located element with a center [x, y] in CSS pixels: current value is ${
        show(value)
      }`,
    );
  }
  return value as LocatedElement;
}

/** A string parameter; numbers are accepted and turned into text (models write `"value": 42`). */
export function readString(
  action: string,
  param: Params,
  name: string,
  required: true,
): string;
export function readString(
  action: string,
  param: Params,
  name: string,
  required: false,
): string | undefined;
export function readString(
  action: string,
  param: Params,
  name: string,
  required: boolean,
): string | undefined {
  const value = param[name];
  if (typeof value === "string") return value;
  if (isFiniteNumber(value)) return String(value);
  if ((value === undefined || value === null) && !required) return undefined;
  throw new TypeError(
    `Cannot run ${action}: '${name}' must be a string${
      required ? " and is required" : ""
    }: current value is ${show(value)}`,
  );
}

/** An enum parameter; `fallback` when absent. */
export function readEnum<T extends string>(
  action: string,
  param: Params,
  name: string,
  values: readonly T[],
  fallback: T,
): T {
  const value = param[name];
  if (value === undefined || value === null || value === "") return fallback;
  if (typeof value === "string" && (values as readonly string[]).includes(value)) return value as T;
  throw new TypeError(
    `Cannot run ${action}: '${name}' must be one of ${
      values.map((v) => `'${v}'`).join(", ")
    }: current value is ${show(value)}`,
  );
}

/** An optional positive number; numeric strings are accepted. */
export function readPositiveNumber(
  action: string,
  param: Params,
  name: string,
): number | undefined {
  const value = param[name];
  if (value === undefined || value === null || value === "") return undefined;
  const number = typeof value === "string" ? Number(value) : value;
  if (!isFiniteNumber(number)) {
    throw new TypeError(
      `Cannot run ${action}: '${name}' must be a number: current value is ${show(value)}`,
    );
  }
  if (number <= 0) {
    throw new RangeError(
      `Cannot run ${action}: '${name}' must be > 0: current value is ${show(value)}`,
    );
  }
  return number;
}
