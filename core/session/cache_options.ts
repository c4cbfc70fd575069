/**
 * The agent's `cache` and `cacheId` options (spec 2.1, 2.2): their shape, checks and defaults.
 *
 * @module
 */

import { SdkRangeError, SdkTypeError } from "../errors.ts";
import { hasFileSystem } from "../runtime/runtime.ts";

/**
 * Cache access mode (spec 2.2): `'read-write'` uses cached results and records new ones,
 * `'read-only'` uses them but never writes the file, `'write-only'` never uses them (every call
 * asks the model) but records what the model answers.
 */
export type CacheStrategy = "read-only" | "read-write" | "write-only";

/** The `cache` object of the agent options (spec 2.2). */
export interface CacheConfig {
  /**
   * Names the cache file `<cacheDir>/<id>.cache.yaml`; required, a non-empty string. Characters
   * a file name cannot hold (path separators, `:*?"<>|`, control characters) become `-`.
   */
  id: string;
  /** Access mode. Default `'read-write'`. */
  strategy?: CacheStrategy;
  /**
   * Directory of cache files. Default `<SDK_RUN_DIR>/cache` (`sdk_run/cache` when `SDK_RUN_DIR`
   * is unset). A relative path resolves from the working directory, not from `SDK_RUN_DIR`.
   */
  cacheDir?: string;
  /** @deprecated Earlier name of {@link cacheDir}; `cacheDir` wins when both are given. */
  dir?: string;
}

/** The checked cache settings of an agent. */
export interface CacheSettings {
  /** The cache id as given. */
  id: string;
  /** Access mode. */
  strategy: CacheStrategy;
  /** The directory as given; `undefined` for the default. */
  cacheDir: string | undefined;
}

const STRATEGIES: readonly CacheStrategy[] = ["read-only", "read-write", "write-only"];

function checkId(id: unknown, field: string): string {
  if (typeof id !== "string" || id.trim() === "") {
    throw new SdkTypeError(
      `'${field}' must be a non-empty string naming the cache file, e.g. { cache: { id: "login-flow" } }: current value is ${
        JSON.stringify(id)
      }`,
    );
  }
  return id;
}

/**
 * Reads the agent's `cache` and deprecated `cacheId` options (spec 2.1, 2.2). `cache: false`
 * turns caching off even with `cacheId`; `cacheId` alone means `{ id: cacheId }` (read-write).
 * In a browser runtime, where no file system exists, caching is off with a warning.
 *
 * @returns the settings, or `undefined` when caching is off.
 * @throws {TypeError} for a `cache` that is neither `false` nor an object, a missing or empty
 * `cache.id` or `cacheId`, or a `cacheDir`/`dir` that is not a non-empty string.
 * @throws {RangeError} for an unknown `cache.strategy`.
 */
export function resolveCacheSettings(
  options: { cache?: unknown; cacheId?: unknown },
): CacheSettings | undefined {
  const { cache, cacheId } = options;
  let settings: CacheSettings | undefined;
  if (cache === false) return undefined;
  if (cache === undefined || cache === null) {
    if (cacheId === undefined) return undefined;
    settings = { id: checkId(cacheId, "cacheId"), strategy: "read-write", cacheDir: undefined };
  } else if (typeof cache !== "object" || Array.isArray(cache)) {
    throw new SdkTypeError(
      `'cache' must be false or an object { id, strategy?, cacheDir? }: current value is ${
        JSON.stringify(cache)
      }`,
    );
  } else {
    const c = cache as Record<string, unknown>;
    const strategy = c.strategy ?? "read-write";
    if (!STRATEGIES.includes(strategy as CacheStrategy)) {
      throw new SdkRangeError(
        `'cache.strategy' must be 'read-only', 'read-write' or 'write-only': current value is ${
          JSON.stringify(c.strategy)
        }`,
      );
    }
    for (const field of ["cacheDir", "dir"]) {
      const v = c[field];
      if (v !== undefined && (typeof v !== "string" || v.trim() === "")) {
        throw new SdkTypeError(
          `'cache.${field}' must be a non-empty directory path (relative paths resolve from the working directory): current value is ${
            JSON.stringify(v)
          }`,
        );
      }
    }
    settings = {
      id: checkId(c.id, "cache.id"),
      strategy: strategy as CacheStrategy,
      cacheDir: (c.cacheDir ?? c.dir) as string | undefined,
    };
  }
  if (!hasFileSystem) {
    console.warn("cache: a browser runtime has no file system to keep a cache in; caching is off");
    return undefined;
  }
  return settings;
}

/**
 * The cache file name of an id: `<id>.cache.yaml`, with characters a file name cannot hold
 * (path separators, `:*?"<>|`, control characters) replaced by `-`, so the file always lies
 * directly in the cache directory.
 */
export function cacheFileName(id: string): string {
  // deno-lint-ignore no-control-regex
  return `${id.trim().replace(/[/\\:*?"<>|\x00-\x1f]/g, "-")}.cache.yaml`;
}
