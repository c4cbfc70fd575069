/**
 * An agent's cache (spec 2.2): the records of its cache file in memory, looked up by prompt text,
 * and written back after each call that changed them.
 *
 * @module
 */

import { cwd, nodePath, runDir } from "../runtime/runtime.ts";
import { SDK_VERSION } from "../version.ts";
import { errorMessage } from "./execution.ts";
import { cacheFileName } from "./cache_options.ts";
import type { CacheSettings } from "./cache_options.ts";
import { readCacheFile, writeCacheFile } from "./cache_file.ts";
import type { CacheRecord, LocateCacheRecord, PlanCacheRecord } from "./cache_file.ts";
import type { TargetIdentity } from "../device/types.ts";

/** The records of one cache file. */
export class TaskCache {
  /** Absolute path of the cache file. */
  readonly file: string;
  /** The checked settings. */
  readonly settings: CacheSettings;
  #records: CacheRecord[];
  #dirty = false;
  #writing: Promise<void> = Promise.resolve();

  private constructor(file: string, settings: CacheSettings, records: CacheRecord[]) {
    this.file = file;
    this.settings = settings;
    this.#records = records;
  }

  /**
   * Opens the cache file of `settings` (not created until something is written). Existing records
   * are loaded in every strategy, so that `'write-only'` keeps the records it does not replace.
   */
  static async open(settings: CacheSettings): Promise<TaskCache> {
    const path = await nodePath();
    const dir = settings.cacheDir === undefined
      ? path.join(await runDir(), "cache")
      : path.resolve(cwd(), settings.cacheDir);
    const file = path.join(dir, cacheFileName(settings.id));
    return new TaskCache(file, settings, await readCacheFile(file));
  }

  /** Whether lookups may use cached records (`'read-only'`, `'read-write'`). */
  get canRead(): boolean {
    return this.settings.strategy !== "write-only";
  }

  /** Whether new results are recorded (`'read-write'`, `'write-only'`). */
  get canWrite(): boolean {
    return this.settings.strategy !== "read-only";
  }

  #find<T extends CacheRecord>(type: T["type"], prompt: string): T | undefined {
    return this.#records.find((r) => r.type === type && r.prompt === prompt) as T | undefined;
  }

  #put(record: CacheRecord): void {
    const i = this.#records.findIndex((r) => r.type === record.type && r.prompt === record.prompt);
    if (i >= 0 && JSON.stringify(this.#records[i]) === JSON.stringify(record)) return;
    if (i >= 0) this.#records[i] = record;
    else this.#records.push(record);
    this.#dirty = true;
  }

  /** The cached location of a prompt. */
  findLocate(prompt: string): LocateCacheRecord | undefined {
    return this.#find<LocateCacheRecord>("locate", prompt);
  }

  /**
   * Records (or replaces) the location of a prompt, with what was at its point when the device
   * names it; ignored unless {@link canWrite}.
   */
  putLocate(prompt: string, xpaths: string[], target?: TargetIdentity): void {
    if (this.canWrite && xpaths.length) {
      this.#put({ type: "locate", prompt, xpaths, ...(target ? { target } : {}) });
    }
  }

  /** The cached plan of an `aiAct` instruction. */
  findPlan(prompt: string): PlanCacheRecord | undefined {
    return this.#find<PlanCacheRecord>("plan", prompt);
  }

  /** Records (or replaces) the plan of an instruction; ignored unless {@link canWrite}. */
  putPlan(record: PlanCacheRecord): void {
    if (this.canWrite) this.#put(record);
  }

  /**
   * Writes the file when records changed since the last write. A failure is a warning: a cache
   * never fails a run.
   */
  flush(): Promise<void> {
    if (!this.#dirty) return this.#writing;
    this.#dirty = false;
    const content = {
      sdkVersion: SDK_VERSION,
      cacheId: this.settings.id,
      caches: structuredClone(this.#records),
    };
    // Writes run one after another, so an older content never lands after a newer one.
    return this.#writing = this.#writing.then(() => writeCacheFile(this.file, content)).catch(
      (e) => console.warn(`cache: could not write ${this.file}: ${errorMessage(e)}`),
    );
  }
}

/** The cache as one call may use it (`cacheable` and the strategy combined). */
export interface CallCache {
  /** The agent's cache. */
  store: TaskCache;
  /** Whether this call may use cached results. */
  read: boolean;
  /** Whether this call records what the model answers. */
  write: boolean;
}
