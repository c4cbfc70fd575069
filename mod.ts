/**
 * Root entry of the SDK repository: the common public surface of `@sdk/core`.
 *
 * @module
 */

export * from "./core/mod.ts";
