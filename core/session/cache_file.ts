/**
 * Where cache records live (spec 2.2): the {@link CacheStore} seam (read the records of an id,
 * write the changed ones) and its default, {@link FileCacheStore}, one YAML file per id. The
 * `yaml` package is loaded on first use, so importing the SDK stays light. A file that cannot be
 * read as a cache is reported with a warning and treated as empty: a cache never fails a run.
 *
 * Many writers may share a file (several agents, several processes, a CI job's matrix): a write
 * takes the file's lock (`<file>.lock`, created exclusively), reads what the file holds now,
 * replaces the records it changed, writes the whole to a temporary file and renames it over the
 * cache file. So no reader ever sees half a file, and no writer drops another's records.
 *
 * @module
 */

import { nodeFs, nodePath, sleep, writeFileAtomic } from "../runtime/runtime.ts";
import { SDK_VERSION } from "../version.ts";
import { errorMessage } from "./execution.ts";
import type { TargetIdentity } from "../device/types.ts";

/** A cached location (spec 2.2): xpaths that selected the element a prompt described. */
export interface LocateCacheRecord {
  /** Record kind. */
  type: "locate";
  /** The locate prompt's text. */
  prompt: string;
  /** XPaths of the element, tried in order. */
  xpaths: string[];
  /**
   * What was at the element's point when it was recorded (devices with `targetsAt`): a hit is
   * used only while the element an xpath selects is still that one (docs/agent.md, "Cache").
   * Records written before it have none and are not checked.
   */
  target?: TargetIdentity;
}

/**
 * How an element is found again without a model: a location record's fields besides its type
 * and prompt (`xpaths`, `target`). An exported script writes it as a step's `locator`, and the
 * locating options take it (docs/yaml-and-cli.md, "Exported scripts").
 */
export type ElementLocator = Omit<LocateCacheRecord, "type" | "prompt">;

/** One action of a cached plan: `locate` parameters hold the element's description (text). */
export interface PlanCacheAction {
  /** Action name in the device's action space, e.g. `"Tap"`. */
  type: string;
  /** Parameters as planned; a `locate` parameter is its description, not coordinates. */
  param: Record<string, unknown>;
}

/** A cached `aiAct` plan: the actions that completed the instruction, in order. */
export interface PlanCacheRecord {
  /** Record kind. */
  type: "plan";
  /** The `aiAct` instruction. */
  prompt: string;
  /** The actions performed. */
  actions: PlanCacheAction[];
  /** The output text the model finished with, if any. */
  output?: string;
}

/** Any cache record. */
export type CacheRecord = LocateCacheRecord | PlanCacheRecord;

/** What a cache file holds. */
export interface CacheFileContent {
  /** SDK version that wrote the file. */
  sdkVersion: string;
  /** The cache id. */
  cacheId: string;
  /** The records. */
  caches: CacheRecord[];
}

type YamlModule = typeof import("yaml");
let yamlModule: Promise<YamlModule> | undefined;
const loadYaml = (): Promise<YamlModule> => yamlModule ??= import("yaml");

const isStrings = (v: unknown): v is string[] =>
  Array.isArray(v) && v.every((x) => typeof x === "string");
const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** Whether `r` has the shape of a cache record (extra fields are kept). */
export function isCacheRecord(r: unknown): r is CacheRecord {
  if (!isObject(r) || typeof r.prompt !== "string") return false;
  if (r.type === "locate") {
    return isStrings(r.xpaths) && r.xpaths.length > 0 &&
      (r.target === undefined || isObject(r.target) && typeof r.target.kind === "string");
  }
  return r.type === "plan" && Array.isArray(r.actions) &&
    r.actions.every((a) => isObject(a) && typeof a.type === "string" && isObject(a.param)) &&
    (r.output === undefined || typeof r.output === "string");
}

/**
 * The records of a cache file; `[]` when it does not exist. A file that is not valid YAML or not
 * a cache gives a warning and `[]`; records of an unknown shape are dropped with a warning.
 */
async function readCacheFile(file: string): Promise<CacheRecord[]> {
  const entries = await readCacheEntries(file, "starting empty");
  const records = entries.filter(isCacheRecord);
  if (records.length < entries.length) {
    console.warn(
      `cache: dropped ${entries.length - records.length} record(s) of an unknown shape in ${file}`,
    );
  }
  return records;
}

/**
 * The entries of a cache file's `caches` list, as written; `[]`, with a warning that ends with
 * `then`, when the file cannot be read as a cache. `[]` when it does not exist.
 */
async function readCacheEntries(file: string, then: string): Promise<unknown[]> {
  let text: string;
  try {
    text = await (await nodeFs()).readFile(file, "utf8");
  } catch (e) {
    if ((e as { code?: string }).code === "ENOENT") return [];
    console.warn(`cache: cannot read ${file}, ${then}: ${errorMessage(e)}`);
    return [];
  }
  let doc: unknown;
  try {
    doc = (await loadYaml()).parse(text);
  } catch (e) {
    console.warn(`cache: ${file} is not valid YAML, ${then}: ${errorMessage(e)}`);
    return [];
  }
  if (!isObject(doc) || !Array.isArray(doc.caches)) {
    console.warn(`cache: ${file} is not a cache file (no 'caches' list), ${then}`);
    return [];
  }
  return doc.caches;
}

/** Writes a cache file atomically (a reader never sees half a file); creates the directory. */
async function writeCacheFile(file: string, content: CacheFileContent): Promise<void> {
  const text = (await loadYaml()).stringify(content, { lineWidth: 0 });
  // The cache holds what the agent typed and where: this user's only.
  await writeFileAtomic(file, text, { private: true });
}

/** The key a record is replaced by: its type and prompt. */
export function recordKey(r: CacheRecord): string {
  return `${r.type}\u0000${r.prompt}`;
}

/** `kept` with each of `changed` replacing the record of the same type and prompt, or added. */
export function mergeRecords(kept: readonly CacheRecord[], changed: readonly CacheRecord[]) {
  const merged = [...kept];
  const at = new Map(merged.map((r, i) => [recordKey(r), i]));
  for (const r of changed) {
    const i = at.get(recordKey(r));
    if (i === undefined) at.set(recordKey(r), merged.push(r) - 1);
    else merged[i] = r;
  }
  return merged;
}

/**
 * Where an agent's cache records are kept (`cache.store`, docs/agent.md "Cache"): the agent reads
 * the records of its cache id once, at its first cached call, and after each call that changed
 * records writes those records. The default is a {@link FileCacheStore}; another store (a
 * database, a team's service) implements these two methods. A store that fails should warn and
 * return: a cache never fails a run (the agent warns for a write that rejects).
 */
export interface CacheStore {
  /** Every record kept under `id`; `[]` when there is none. */
  read(id: string): Promise<CacheRecord[]>;
  /**
   * Keeps `records` under `id`: each replaces the kept record of the same `type` and `prompt`, or
   * is added; the other kept records stay (other agents may have written them meanwhile).
   */
  write(id: string, records: CacheRecord[]): Promise<void>;
}

/** How long a writer waits for a file's lock before giving up on that write, ms. */
const LOCK_WAIT_MS = 15_000;
/** A lock older than this was left by a writer that died: it is broken, ms. */
const LOCK_STALE_MS = 30_000;

/**
 * The default {@link CacheStore}: `<dir>/<id>.cache.yaml` per id (spec 2.2), safe to share
 * between agents and processes (see the module's description). A team shares a cache by sharing
 * the folder (a CI artifact, a network share).
 */
export class FileCacheStore implements CacheStore {
  /** The folder of the cache files. */
  readonly dir: string;

  /**
   * A store of the cache files in `dir`.
   *
   * @param dir the folder of the cache files, absolute (the agent resolves `cacheDir`).
   */
  constructor(dir: string) {
    this.dir = dir;
  }

  /** The file of `id`: `<dir>/<id>.cache.yaml`, see {@link cacheFileName}. */
  async fileOf(id: string): Promise<string> {
    return (await nodePath()).join(this.dir, cacheFileName(id));
  }

  /** The records of the file; `[]` when it does not exist or is not a cache (with a warning). */
  async read(id: string): Promise<CacheRecord[]> {
    return await readCacheFile(await this.fileOf(id));
  }

  /**
   * Merges `records` into the file under its lock: reads it, replaces or adds each record, and
   * renames a whole new file over it.
   *
   * @throws {Error} when the lock stays taken for 15 s, or the file system fails.
   */
  async write(id: string, records: CacheRecord[]): Promise<void> {
    const file = await this.fileOf(id);
    const release = await lockFile(`${file}.lock`);
    try {
      // Records this version does not read (a newer version's, sharing the folder) are kept.
      const kept = (await readCacheEntries(file, "replacing it")).filter((r) =>
        isObject(r) && typeof r.type === "string" && typeof r.prompt === "string"
      ) as CacheRecord[];
      const caches = mergeRecords(kept, records);
      await writeCacheFile(file, { sdkVersion: SDK_VERSION, cacheId: id, caches });
    } finally {
      await release();
    }
  }
}

/**
 * Takes the lock file `lock` (created exclusively; its folder too), waiting while another writer
 * holds it; breaks a lock older than {@link LOCK_STALE_MS}. Resolves with its release.
 */
async function lockFile(lock: string): Promise<() => Promise<void>> {
  const fs = await nodeFs();
  await fs.mkdir((await nodePath()).dirname(lock), { recursive: true });
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (let wait = 2;; wait = Math.min(wait * 2, 50)) {
    try {
      await (await fs.open(lock, "wx")).close();
      return () => fs.rm(lock, { force: true });
    } catch (e) {
      if ((e as { code?: string }).code !== "EEXIST") throw e;
    }
    const since = await fs.stat(lock).then((st) => Date.now() - st.mtimeMs, () => 0);
    if (since > LOCK_STALE_MS) {
      await fs.rm(lock, { force: true });
      continue;
    }
    if (Date.now() > deadline) {
      throw new Error(`${lock} stayed taken for ${LOCK_WAIT_MS / 1000} s (another writer)`);
    }
    await sleep(wait + Math.random() * wait);
  }
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
