/**
 * Reading a device action's `param` object, checked. Params come from a model's answer, so every
 * platform checks them at run time; each error names the action and the parameter.
 *
 * @module
 */

import { SdkRangeError, SdkTypeError } from "../errors.ts";
import type { LocatedElement, Point } from "./types.ts";

/** A `param` object as a device action receives it (from a model's answer, so unchecked). */
export type ActionParams = Record<string, unknown>;

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

/**
 * A locate parameter (`name`, default `"locate"`) of `action`, checked.
 *
 * @returns the located element (logical pixels), or `undefined` when `required` is false and
 * the parameter is absent.
 * @throws {TypeError} naming the action and parameter when it is required and absent, or is not
 * a located element with a finite `center`.
 */
export function readLocateParam(
  action: string,
  param: ActionParams,
  required: true,
  name?: string,
): LocatedElement;
/** A locate parameter that may be absent: the element, or `undefined` when it is. */
export function readLocateParam(
  action: string,
  param: ActionParams,
  required: boolean,
  name?: string,
): LocatedElement | undefined;
export function readLocateParam(
  action: string,
  param: ActionParams,
  required: boolean,
  name = "locate",
): LocatedElement | undefined {
  const value = param[name];
  if (value === undefined || value === null) {
    if (!required) return undefined;
    throw new SdkTypeError(
      `Cannot run ${action}: '${name}' is required: current value is ${show(value)}`,
    );
  }
  const center = (value as { center?: unknown }).center;
  if (
    typeof value !== "object" || !Array.isArray(center) || center.length !== 2 ||
    !isFiniteNumber(center[0]) || !isFiniteNumber(center[1])
  ) {
    throw new SdkTypeError(
      `Cannot run ${action}: '${name}' must be a located element with a center [x, y] in logical pixels: current value is ${
        show(value)
      }`,
    );
  }
  return value as LocatedElement;
}

/**
 * The center of a required locate parameter (`name`, default `"locate"`) of `action`: where a
 * tap or a drag goes.
 *
 * @returns the point, logical pixels.
 * @throws {TypeError} as {@link readLocateParam} when it is absent or malformed.
 */
export function readLocateCenter(action: string, param: ActionParams, name = "locate"): Point {
  return readLocateParam(action, param, true, name).center;
}

/**
 * A string parameter; a finite number is turned into text (models write `"value": 42`).
 *
 * @returns the text, or `undefined` when `required` is false and it is absent.
 * @throws {TypeError} naming the action and parameter otherwise.
 */
export function readStringParam(
  action: string,
  param: ActionParams,
  name: string,
  required: true,
): string;
/** A string parameter that may be absent: the text, or `undefined` when it is. */
export function readStringParam(
  action: string,
  param: ActionParams,
  name: string,
  required: boolean,
): string | undefined;
export function readStringParam(
  action: string,
  param: ActionParams,
  name: string,
  required: boolean,
): string | undefined {
  const value = param[name];
  if (typeof value === "string") return value;
  if (isFiniteNumber(value)) return String(value);
  if ((value === undefined || value === null) && !required) return undefined;
  throw new SdkTypeError(
    `Cannot run ${action}: '${name}' must be a string${
      required ? " and is required" : ""
    }: current value is ${show(value)}`,
  );
}

/**
 * An enum parameter: one of `values`, or `fallback` when absent or `""`.
 *
 * @throws {TypeError} naming the action, parameter and allowed values otherwise.
 */
export function readEnumParam<T extends string>(
  action: string,
  param: ActionParams,
  name: string,
  values: readonly T[],
  fallback: T,
): T {
  const value = param[name];
  if (value === undefined || value === null || value === "") return fallback;
  if (typeof value === "string" && (values as readonly string[]).includes(value)) return value as T;
  throw new SdkTypeError(
    `Cannot run ${action}: '${name}' must be one of ${
      values.map((v) => `'${v}'`).join(", ")
    }: current value is ${show(value)}`,
  );
}

/**
 * An optional positive number; numeric strings are accepted.
 *
 * @returns the number, or `undefined` when absent or `""`.
 * @throws {TypeError} when it is not a number; {RangeError} when it is not > 0.
 */
export function readPositiveNumberParam(
  action: string,
  param: ActionParams,
  name: string,
): number | undefined {
  const value = param[name];
  if (value === undefined || value === null || value === "") return undefined;
  const number = typeof value === "string" ? Number(value) : value;
  if (!isFiniteNumber(number)) {
    throw new SdkTypeError(
      `Cannot run ${action}: '${name}' must be a number: current value is ${show(value)}`,
    );
  }
  if (number <= 0) {
    throw new SdkRangeError(
      `Cannot run ${action}: '${name}' must be > 0: current value is ${show(value)}`,
    );
  }
  return number;
}
