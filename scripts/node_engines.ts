/**
 * The `engines.node` an npm package can truthfully declare: the strictest of its own floor and of
 * the `engines.node` of every package it depends on, so that installing it on a supported Node
 * never prints npm's EBADENGINE warning.
 *
 * Only the `>=X[.Y[.Z]]` form is understood. Any other range (`^20 || >=22`, say) stops the build
 * with a {@link NodeEngineError}, since a single floor could not state it truthfully.
 *
 * @module
 */

/** Raised when a dependency declares an `engines.node` range this module cannot read. */
export class NodeEngineError extends Error {
  /** @param message which package declares which range. */
  constructor(message: string) {
    super(message);
    this.name = "NodeEngineError";
  }
}

/** The `engines.node` a dependency declares; `undefined` when it declares none. */
export interface DeclaredNodeEngine {
  /** Package name with version, e.g. `"openai@7.57.0"`, for error messages. */
  name: string;
  /** Its `engines.node`, e.g. `">=22.0.0"`. */
  range: string | undefined;
}

/**
 * The lowest Node version a `>=X[.Y[.Z]]` range allows, as `[major, minor, patch]`.
 *
 * @param range an `engines.node` value.
 * @param owner who declares it, named in the error.
 * @throws {NodeEngineError} for any other form of range.
 */
export function nodeFloor(range: string, owner: string): [number, number, number] {
  const match = /^\s*>=\s*v?(\d+)(?:\.(\d+))?(?:\.(\d+))?\s*$/.exec(range);
  if (!match) {
    throw new NodeEngineError(
      `Cannot derive engines.node: ${owner} declares engines.node "${range}"; ` +
        `only ">=X.Y.Z" ranges are understood`,
    );
  }
  return [Number(match[1]), Number(match[2] ?? 0), Number(match[3] ?? 0)];
}

function compareVersions(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < 3; i++) {
    if (a[i] !== b[i]) return a[i] - b[i];
  }
  return 0;
}

/**
 * The strictest of `ownFloor` and the dependencies' `engines.node`, as `">=X.Y.Z"`.
 *
 * @param ownFloor what the package's own code needs, e.g. `">=20"`.
 * @param dependencies the `engines.node` of each runtime dependency; those declaring none add
 * nothing.
 * @returns the `engines.node` to declare.
 * @throws {NodeEngineError} when a range is not of the form `>=X[.Y[.Z]]`.
 *
 * @example A dependency needing Node 22 raises a floor of 20
 * ```ts
 * import assert from "node:assert/strict";
 * import { strictestNodeEngine } from "./node_engines.ts";
 *
 * const range = strictestNodeEngine(">=20", [
 *   { name: "openai@7.57.0", range: ">=22.0.0" },
 *   { name: "jpeg-js@0.4.4", range: undefined },
 * ]);
 * assert.equal(range, ">=22.0.0");
 * ```
 */
export function strictestNodeEngine(
  ownFloor: string,
  dependencies: readonly DeclaredNodeEngine[],
): string {
  let strictest = nodeFloor(ownFloor, "the package itself");
  for (const { name, range } of dependencies) {
    if (range === undefined) continue;
    const floor = nodeFloor(range, name);
    if (compareVersions(floor, strictest) > 0) strictest = floor;
  }
  return `>=${strictest.join(".")}`;
}
