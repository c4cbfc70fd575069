/**
 * Reading and writing a cache file (YAML, spec 2.2). The `yaml` package is loaded on first use,
 * so importing the SDK stays light. A file that cannot be read as a cache is reported with a
 * warning and treated as empty: a cache never fails a run.
 *
 * @module
 */

import { nodeFs, writeFileAtomic } from "../runtime/runtime.ts";
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

function isRecord(r: unknown): r is CacheRecord {
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
export async function readCacheFile(file: string): Promise<CacheRecord[]> {
  let text: string;
  try {
    text = await (await nodeFs()).readFile(file, "utf8");
  } catch (e) {
    if ((e as { code?: string }).code === "ENOENT") return [];
    console.warn(`cache: cannot read ${file}, starting empty: ${errorMessage(e)}`);
    return [];
  }
  let doc: unknown;
  try {
    doc = (await loadYaml()).parse(text);
  } catch (e) {
    console.warn(`cache: ${file} is not valid YAML, starting empty: ${errorMessage(e)}`);
    return [];
  }
  if (!isObject(doc) || !Array.isArray(doc.caches)) {
    console.warn(`cache: ${file} is not a cache file (no 'caches' list), starting empty`);
    return [];
  }
  const records = doc.caches.filter(isRecord);
  if (records.length < doc.caches.length) {
    console.warn(
      `cache: dropped ${
        doc.caches.length - records.length
      } record(s) of an unknown shape in ${file}`,
    );
  }
  return records;
}

/** Writes a cache file atomically (a reader never sees half a file); creates the directory. */
export async function writeCacheFile(file: string, content: CacheFileContent): Promise<void> {
  const text = (await loadYaml()).stringify(content, { lineWidth: 0 });
  // The cache holds what the agent typed and where: this user's only.
  await writeFileAtomic(file, text, { private: true });
}
