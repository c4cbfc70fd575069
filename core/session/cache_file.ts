/**
 * Reading and writing a cache file (YAML, spec 2.2). The `yaml` package is loaded on first use,
 * so importing the SDK stays light. A file that cannot be read as a cache is reported with a
 * warning and treated as empty: a cache never fails a run.
 *
 * @module
 */

import { nodeFs, writeFileAtomic } from "../runtime/runtime.ts";
import { errorMessage } from "./execution.ts";
import type { Rect, TargetIdentity } from "../device/types.ts";

/**
 * An element's look, for devices without an element tree (the desktop, RDP; docs/agent.md,
 * "Cache"): its crop, found again on a new screenshot by template matching.
 */
export interface VisualFingerprint {
  /** The element's crop as the model saw it: a PNG or JPEG data URI of at most 8,000 pixels. */
  image: string;
  /** The crop's box in logical pixels when it was recorded. */
  box: Rect;
  /**
   * The element's box in logical pixels when it was recorded, when the crop is larger: a target
   * whose own pixels are too plain to be found again (the middle of an empty field) is cut with
   * its surroundings.
   */
  element?: Rect;
}

/** A cached location (spec 2.2): xpaths that selected the element a prompt described. */
export interface LocateCacheRecord {
  /** Record kind. */
  type: "locate";
  /** The locate prompt's text. */
  prompt: string;
  /** XPaths of the element, tried in order; `[]` when only its {@link fingerprint} is kept. */
  xpaths: string[];
  /**
   * What was at the element's point when it was recorded (devices with `targetsAt`): a hit is
   * used only while the element an xpath selects is still that one (docs/agent.md, "Cache").
   * Records written before it have none and are not checked.
   */
  target?: TargetIdentity;
  /** The element's look, where the device names no xpath (the desktop, RDP). */
  fingerprint?: VisualFingerprint;
}

/**
 * Where a located parameter of a cached action was, stored with the action when its plan gave
 * coordinates rather than a description (UI-TARS, AutoGLM): found again by its xpaths and
 * identity, or its look; else located by the model with {@link prompt}.
 */
export interface CachedTarget {
  /** What the model is asked to locate when the target is not found again. */
  prompt: string;
  /** XPaths of the element (`[]` on devices without an element tree). */
  xpaths: string[];
  /** What was at the element's point when recorded, checked on a hit. */
  target?: TargetIdentity;
  /** The element's look, where the device names no xpath. */
  fingerprint?: VisualFingerprint;
}

/** One action of a cached plan: `locate` parameters hold the element's description (text). */
export interface PlanCacheAction {
  /** Action name in the device's action space, e.g. `"Tap"`. */
  type: string;
  /** Parameters as planned; a `locate` parameter is its description, not coordinates. */
  param: Record<string, unknown>;
  /**
   * The located parameters of an action planned with coordinates (UI-TARS, AutoGLM), by name:
   * how to find each target again. Such a parameter is not in {@link param}.
   */
  targets?: Record<string, CachedTarget>;
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

const isFingerprint = (v: unknown): boolean =>
  isObject(v) && typeof v.image === "string" && isObject(v.box);

/** A location's fields: xpaths, and the optional identity and look. */
function isLocator(r: Record<string, unknown>): boolean {
  return isStrings(r.xpaths) &&
    (r.target === undefined || isObject(r.target) && typeof r.target.kind === "string") &&
    (r.fingerprint === undefined || isFingerprint(r.fingerprint));
}

function isCachedAction(a: unknown): boolean {
  return isObject(a) && typeof a.type === "string" && isObject(a.param) &&
    (a.targets === undefined ||
      isObject(a.targets) &&
        Object.values(a.targets).every((t) =>
          isObject(t) && typeof t.prompt === "string" && isLocator(t)
        ));
}

function isRecord(r: unknown): r is CacheRecord {
  if (!isObject(r) || typeof r.prompt !== "string") return false;
  if (r.type === "locate") {
    return isLocator(r) && ((r.xpaths as string[]).length > 0 || r.fingerprint !== undefined);
  }
  return r.type === "plan" && Array.isArray(r.actions) && r.actions.every(isCachedAction) &&
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
  await writeFileAtomic(file, text);
}
