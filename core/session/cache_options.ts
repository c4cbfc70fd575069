/**
 * The agent's `cache` and `cacheId` options (spec 2.1, 2.2): their shape, checks and defaults.
 *
 * @module
 */

import { SdkRangeError, SdkTypeError } from "../errors.ts";
import { hasFileSystem } from "../runtime/runtime.ts";
import type { CacheStore } from "./cache_file.ts";

export { cacheFileName } from "./cache_file.ts";

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
  /**
   * Where the records are kept instead of the cache file: any object with `read(id)` and
   * `write(id, records)` (docs/agent.md, "Cache"). Default: a `FileCacheStore` of `cacheDir`.
   * Not together with `cacheDir`. With a store, a browser runtime caches too.
   */
  store?: CacheStore;
}

/** The checked cache settings of an agent. */
export interface CacheSettings {
  /** The cache id as given. */
  id: string;
  /** Access mode. */
  strategy: CacheStrategy;
  /** The directory as given; `undefined` for the default. */
  cacheDir: string | undefined;
  /** The store given by `cache.store`; unset for the cache file. */
  store?: CacheStore;
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
 * In a browser runtime, where no file system exists, caching is off with a warning (unless a
 * `cache.store` keeps the records).
 *
 * @returns the settings, or `undefined` when caching is off.
 * @throws {TypeError} for a `cache` that is neither `false` nor an object, a missing or empty
 * `cache.id` or `cacheId`, a `cacheDir`/`dir` that is not a non-empty string, or a `cache.store`
 * without `read` and `write` or given with `cacheDir`.
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
      `'cache' must be false or an object { id, strategy?, cacheDir?, store? }: current value is ${
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
    const store = c.store as CacheStore | undefined;
    if (
      store !== undefined &&
      (typeof store !== "object" || store === null || typeof store.read !== "function" ||
        typeof store.write !== "function")
    ) {
      throw new SdkTypeError(
        `'cache.store' must be an object with read(id) and write(id, records) (a CacheStore): current value is ${
          typeof store === "object" && store !== null
            ? `an object with ${Object.keys(store).join(", ") || "no keys"}`
            : JSON.stringify(store)
        }`,
      );
    }
    if (store !== undefined && (c.cacheDir ?? c.dir) !== undefined) {
      throw new SdkTypeError(
        "'cache.store' and 'cache.cacheDir' are both given: a store keeps its records where it " +
          "wants; leave out cacheDir (or the store, for the cache files of cacheDir)",
      );
    }
    settings = {
      id: checkId(c.id, "cache.id"),
      strategy: strategy as CacheStrategy,
      cacheDir: (c.cacheDir ?? c.dir) as string | undefined,
      ...(store && { store }),
    };
  }
  if (!hasFileSystem && !settings.store) {
    console.warn("cache: a browser runtime has no file system to keep a cache in; caching is off");
    return undefined;
  }
  return settings;
}
