/**
 * An agent's cache (spec 2.2): the records of its cache id in memory, looked up by prompt text,
 * read from its {@link CacheStore} once and written back, the changed records only, after each
 * call that changed them.
 *
 * @module
 */

import { cwd, nodePath, runDir } from "../runtime/runtime.ts";
import { errorMessage } from "./execution.ts";
import type { CacheSettings } from "./cache_options.ts";
import { FileCacheStore, mergeRecords, recordKey } from "./cache_file.ts";
import type { CacheRecord, CacheStore, LocateCacheRecord, PlanCacheRecord } from "./cache_file.ts";
import type { TargetIdentity } from "../device/types.ts";

/** The records of one cache id. */
export class TaskCache {
  /** Absolute path of the cache file; `""` when a `cache.store` keeps the records. */
  readonly file: string;
  /** The checked settings. */
  readonly settings: CacheSettings;
  readonly #store: CacheStore | undefined;
  #records: CacheRecord[];
  /** The records changed since the last write, by {@link recordKey}. */
  #changed = new Map<string, CacheRecord>();
  #writing: Promise<void> = Promise.resolve();

  private constructor(
    settings: CacheSettings,
    store: CacheStore | undefined,
    file: string,
    records: CacheRecord[],
  ) {
    this.settings = settings;
    this.#store = store;
    this.file = file;
    this.#records = records;
  }

  /**
   * Opens the cache of `settings`: its `store`, else the cache file (not created until something
   * is written). Existing records are loaded in every strategy, so that `'write-only'` keeps the
   * records it does not replace.
   */
  static async open(settings: CacheSettings): Promise<TaskCache> {
    let store = settings.store;
    let file = "";
    if (!store) {
      const path = await nodePath();
      const dir = settings.cacheDir === undefined
        ? path.join(await runDir(), "cache")
        : path.resolve(cwd(), settings.cacheDir);
      const files = new FileCacheStore(dir);
      file = await files.fileOf(settings.id);
      store = files;
    }
    let records: CacheRecord[] = [];
    try {
      records = await store.read(settings.id);
    } catch (e) {
      console.warn(`cache: could not read '${settings.id}', starting empty: ${errorMessage(e)}`);
    }
    return new TaskCache(settings, store, file, records);
  }

  /**
   * A cache of the given records alone, kept nowhere: read, never written (an exported script's
   * locators, docs/yaml-and-cli.md).
   */
  static of(records: CacheRecord[]): TaskCache {
    const settings: CacheSettings = { id: "", strategy: "read-only", cacheDir: undefined };
    return new TaskCache(settings, undefined, "", records);
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
    this.#changed.set(recordKey(record), record);
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
   * Writes the records changed since the last write to the store, which merges them with what
   * it keeps (other agents' records included). A failure is a warning, and those records are
   * written with the next ones: a cache never fails a run.
   */
  flush(): Promise<void> {
    const store = this.#store;
    if (this.#changed.size === 0 || !store) return this.#writing;
    const records = structuredClone([...this.#changed.values()]);
    this.#changed.clear();
    // Writes run one after another, so an older record never lands after a newer one.
    return this.#writing = this.#writing.then(() => store.write(this.settings.id, records)).catch(
      (e) => {
        console.warn(
          `cache: could not write ${this.file || `'${this.settings.id}'`}: ${errorMessage(e)}`,
        );
        // Kept for the next write, unless a newer record of the same key came meanwhile.
        const again = mergeRecords(records, [...this.#changed.values()]);
        this.#changed = new Map(again.map((r) => [recordKey(r), r]));
      },
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
