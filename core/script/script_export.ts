/**
 * A run compiled into a script (`agent.exportScript()`, `sdk run --record`; docs/yaml-and-cli.md
 * "Exported scripts"): the agent's journal written as a YAML script of instant actions, each
 * element found by its `locator` (no model call while the screen matches) and named by its prompt
 * (the model's fallback when it no longer does).
 *
 * A script's run keeps the script's own text: its sections, tasks and comments; an `aiAct` item
 * becomes the actions it performed, under a comment with its instruction; an instant item gets
 * its element's `locator`; a check (`aiAssert`, `aiQuery`, ...) becomes a comment, since it needs
 * the model; every other item stays as written. Calls made from code become a task of their own.
 *
 * @module
 */

import { JournalCall, type JournalScript } from "../session/action_journal.ts";
import { nodePath } from "../runtime/runtime.ts";
import {
  ACT_KEYS,
  canExport,
  CHECK_KEYS,
  type Hide,
  hider,
  INSTANT_KEYS,
  itemOf,
  noLocatorComment,
  RECORDED_CALLS,
} from "./export_items.ts";
import { FLOW_ITEMS } from "./platform_items.ts";
import { FORMER_WEB_KEYS, WEB_SECTION_KEY } from "./script_sections.ts";
import { PLATFORM_SECTION_KEYS } from "../device/platform_sections.ts";

type YamlModule = typeof import("yaml");
type YamlDoc = import("yaml").Document;
type YamlMap = import("yaml").YAMLMap;
type YamlSeq = import("yaml").YAMLSeq;
let yamlModule: Promise<YamlModule> | undefined;
const loadYaml = (): Promise<YamlModule> => yamlModule ??= import("yaml");

/** Options of `agent.exportScript()`. */
export interface ExportScriptOptions {
  /**
   * Sections written above `tasks`, as data: a target section such as
   * `{ web: { url: "https://shop.example" } }` makes the file a script `sdk run` runs. A script's
   * own sections are kept; these replace those of the same key.
   */
  sections?: Record<string, unknown>;
  /**
   * Values that must not appear in the file, by variable name: each is written as `${NAME}`, so
   * that running the script reads the variable again. The variables a script's `${NAME}` read
   * are known already; name here those the calls made from code typed.
   */
  variables?: Record<string, string>;
  /**
   * Keep the checks (`aiAssert`, `aiWaitFor`, `aiQuery` and the other queries, `aiLocate`) as
   * items; by default they are comments, so that the script makes no model call.
   */
  keepChecks?: boolean;
  /** The name of the task that holds calls made from code. Default `"recorded run"`. */
  taskName?: string;
  /**
   * The folder a script's relative paths (`serve`, `cookie`, `output` of its target section)
   * are relative to: they are rewritten relative to the exported file's folder. Default: they
   * are kept as written.
   */
  scriptDir?: string;
}

/** What an export wrote. */
export interface ExportedScript {
  /** The absolute path of the file. */
  file: string;
  /** The script's text. */
  text: string;
  /** How many steps locate their element by a locator. */
  located: number;
  /** The prompts of the steps the model locates on every run (no locator), with why. */
  unlocated: string[];
}

/** Calls in a row from one script run, or from code (`script` unset). */
interface Segment {
  script?: JournalScript;
  calls: JournalCall[];
}

function segmentsOf(entries: readonly (JournalCall | JournalScript)[]): Segment[] {
  const segments: Segment[] = [];
  for (const entry of entries) {
    if (!(entry instanceof JournalCall)) {
      segments.push({ script: entry, calls: [] });
      continue;
    }
    const script = entry.mark?.script;
    const last = segments.at(-1);
    if (last && last.script === script) last.calls.push(entry);
    else segments.push({ script, calls: [entry] });
  }
  return segments;
}

/** What the writing of one file gathers. */
interface Writing {
  Y: YamlModule;
  doc: YamlDoc;
  options: ExportScriptOptions;
  located: number;
  unlocated: string[];
}

/**
 * The YAML text of the script that repeats an agent's journal, and what it holds.
 *
 * @param journal the journal's calls and script runs, and how many of the oldest it dropped.
 * @param exportDir the folder the file goes to (for `scriptDir`).
 */
export async function exportScriptText(
  journal: { entries: readonly (JournalCall | JournalScript)[]; dropped: number },
  options: ExportScriptOptions,
  exportDir: string,
): Promise<{ text: string; located: number; unlocated: string[] }> {
  const Y = await loadYaml();
  const segments = segmentsOf(journal.entries);
  const first = segments.find((s) => s.script)?.script;
  const doc = first ? Y.parseDocument(first.source) : new Y.Document({});
  const w: Writing = { Y, doc, options, located: 0, unlocated: [] };
  if (first && options.scriptDir) await relocatePaths(w, options.scriptDir, exportDir);
  for (const [key, value] of Object.entries(options.sections ?? {})) doc.set(key, value);
  const tasks = new Y.YAMLSeq();
  for (const segment of segments) {
    if (segment.script) tasks.items.push(...scriptTasks(w, segment.script, segment.calls));
    else if (segment.calls.some((c) => c.status !== "running")) {
      const task = doc.createNode({ name: options.taskName ?? "recorded run" }) as YamlMap;
      task.set("flow", flowOf(w, segment.calls.flatMap((c) => callItems(w, c))));
      tasks.items.push(task);
    }
  }
  doc.set("tasks", tasks);
  const header = " Exported by exportScript: each step finds its element by its locator, without " +
    "a model call;\n the model locates it by its prompt only when the locator no longer matches." +
    (journal.dropped
      ? `\n The agent's first ${journal.dropped} calls are not in it: it keeps the last 10000.`
      : "");
  // An exported script exported again keeps one header.
  const before = doc.commentBefore ?? "";
  const rest = before.startsWith(header) ? before.slice(header.length).replace(/^\n/, "") : before;
  doc.commentBefore = rest ? `${header}\n${rest}` : header;
  return {
    text: doc.toString({ lineWidth: 0 }),
    located: w.located,
    unlocated: w.unlocated,
  };
}

/** The variables whose values the export hides: the script's and the options'. */
function variablesOf(w: Writing, script?: JournalScript): Map<string, string> {
  return new Map([...script?.variables ?? [], ...Object.entries(w.options.variables ?? {})]);
}

/** Rewrites the relative paths of the target sections from `from` to `to`. */
async function relocatePaths(w: Writing, from: string, to: string): Promise<void> {
  const path = await nodePath();
  const webPaths = ["serve", "cookie", "output", "downloadPath", "unstableLogContent"];
  const keys: Record<string, readonly string[]> = {
    [WEB_SECTION_KEY]: webPaths,
    ...Object.fromEntries(Object.keys(FORMER_WEB_KEYS).map((key) => [key, webPaths])),
    ...Object.fromEntries(PLATFORM_SECTION_KEYS.map((key) => [key, ["output"]])),
  };
  for (const [section, names] of Object.entries(keys)) {
    const node = w.doc.get(section, true);
    if (!w.Y.isMap(node)) continue;
    for (const name of names) {
      const value = node.get(name);
      // A path that starts with a variable is taken as absolute: it is kept as written.
      if (typeof value !== "string" || value.startsWith("$") || path.isAbsolute(value)) continue;
      const moved = path.relative(to, path.resolve(from, value)) || ".";
      node.set(name, moved.split(path.sep).join("/"));
    }
  }
}

/** The tasks of a script run, their items compiled from the calls they made. */
function scriptTasks(w: Writing, script: JournalScript, calls: JournalCall[]): YamlMap[] {
  const { Y } = w;
  const tasks = Y.parseDocument(script.source).get("tasks", true);
  if (!Y.isSeq(tasks)) return [];
  const byItem = new Map<string, JournalCall[]>();
  for (const call of calls) {
    const key = `${call.mark!.task}:${call.mark!.item}`;
    byItem.set(key, [...byItem.get(key) ?? [], call]);
  }
  const hide = hider(variablesOf(w, script));
  return tasks.items.filter(Y.isMap).map((task, ti) => {
    const flow = task.get("flow", true);
    if (!Y.isSeq(flow)) return task;
    const entries: Entry[] = flow.items.flatMap((node, ii) =>
      Y.isMap(node) ? scriptItem(w, node, byItem.get(`${ti}:${ii}`) ?? [], hide) : [{ node }]
    );
    const compiled = flowOf(w, entries);
    // A comment above the first item belongs to the list.
    compiled.commentBefore = flow.commentBefore;
    task.set("flow", compiled);
    return task;
  });
}

/**
 * A flow item to write: a node of the script (kept, or changed), a new item, or comment lines
 * alone; `located` says whether its element has a locator (unset when it locates nothing).
 */
interface Entry {
  node?: unknown;
  item?: Record<string, unknown>;
  comments?: string[];
  located?: boolean;
  /** The element's prompt, for {@link ExportedScript.unlocated}. */
  prompt?: string;
}

/** The flow of entries: each item with its comments above it (the script's own kept). */
function flowOf(w: Writing, entries: Entry[]): YamlSeq {
  const seq = new w.Y.YAMLSeq();
  let pending: string[] = [];
  for (const entry of entries) {
    pending.push(...entry.comments ?? []);
    const node = (entry.item ? itemNode(w, entry.item) : entry.node) as YamlMap | undefined;
    if (!node) continue;
    if (entry.located) w.located++;
    else if (entry.located === false) w.unlocated.push(entry.prompt ?? "");
    const own = node.commentBefore;
    const lines = [...pending.map((c) => ` ${c}`), ...own ? [own] : []];
    if (lines.length) node.commentBefore = lines.join("\n");
    pending = [];
    seq.items.push(node);
  }
  if (pending.length) seq.comment = pending.map((c) => ` ${c}`).join("\n");
  return seq;
}

/** A new item's node, its locator's target on one line. */
function itemNode(w: Writing, item: Record<string, unknown>): YamlMap {
  const node = w.doc.createNode(item) as YamlMap;
  const locator = node.get("locator", true);
  const target = w.Y.isMap(locator) ? locator.get("target", true) : undefined;
  if (w.Y.isMap(target)) target.flow = true;
  return node;
}

/** The flow key of a script item's node. */
function flowKey(w: Writing, node: YamlMap): string | undefined {
  for (const pair of node.items) {
    const key = w.Y.isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
    if (Object.hasOwn(FLOW_ITEMS, key)) return key;
  }
  return undefined;
}

/** A script item as the export writes it, from the calls it made. */
function scriptItem(w: Writing, node: YamlMap, calls: JournalCall[], hide: Hide): Entry[] {
  const key = flowKey(w, node);
  if (!key) return [{ node }];
  // The item's own call (a device event may be recorded as a call of its own meanwhile).
  const call = calls.find((c) => c.api === FLOW_ITEMS[key].method);
  if (CHECK_KEYS.includes(key) && !w.options.keepChecks) return [{ comments: asComment(w, node) }];
  if (ACT_KEYS.includes(key) && call) {
    const compiled = compileAct(call, hide, `${key}: ${promptText(node.get(key))}`);
    if (!compiled) return [{ node, comments: [keptActComment(call)] }];
    // The script's own comment above the aiAct stays above its actions.
    const own = node.commentBefore ? node.commentBefore.split("\n").map((l) => l.slice(1)) : [];
    compiled[0] = { ...compiled[0], comments: [...own, ...compiled[0].comments ?? []] };
    return compiled;
  }
  const target = call?.status === "passed" ? call.actions[0]?.targets.locate : undefined;
  if (!INSTANT_KEYS.includes(key) || !target) return [{ node }];
  const kept = node.clone() as YamlMap;
  if (!target.locator) {
    return [{
      node: kept,
      comments: [noLocatorComment(target)],
      located: false,
      prompt: target.prompt,
    }];
  }
  kept.set("locator", itemNode(w, { locator: hide(target.locator) }).get("locator", true));
  return [{ node: kept, located: true }];
}

/** The text of a prompt value as written (text, or a prompt mapping's `prompt`). */
function promptText(value: unknown): string {
  return String(
    value && typeof value === "object" && "get" in value
      ? (value as YamlMap).get("prompt") ?? ""
      : value ?? "",
  );
}

const CHECK_LEFT_OUT = "a check: it asks the model, so the export leaves it out:";

/** A script item as comment lines, as written. */
function asComment(w: Writing, node: YamlMap): string[] {
  const text = w.Y.stringify(node.toJSON(), { lineWidth: 0 }).trimEnd();
  return [CHECK_LEFT_OUT, ...text.split("\n").map((line) => `  ${line}`)];
}

/**
 * The items of an `aiAct` call that passed and whose every action a flow item performs, under a
 * comment with the instruction; `undefined` otherwise (the `aiAct` is kept).
 */
function compileAct(call: JournalCall, hide: Hide, instruction: string): Entry[] | undefined {
  if (call.status !== "passed" || !call.actions.every(canExport)) return undefined;
  const items: Entry[] = call.actions.map((a) => itemOf(a, hide)!);
  if (items.length === 0) return [{ comments: [`${instruction} (no action)`] }];
  items[0] = { ...items[0], comments: [instruction, ...items[0].comments ?? []] };
  return items;
}

/** Why an `aiAct` is kept as it is. */
function keptActComment(call: JournalCall): string {
  if (call.status !== "passed") return "kept as aiAct: it did not finish in the recorded run";
  const others = call.actions.filter((a) => !canExport(a)).map((a) => a.action);
  return `kept as aiAct: no flow item performs ${[...new Set(others)].join(", ")}`;
}

/** The items of a call made from code. */
function callItems(w: Writing, call: JournalCall): Entry[] {
  const hide = hider(variablesOf(w));
  const say = hider(variablesOf(w), false);
  const { api } = call;
  if (call.status === "running") return [];
  if (ACT_KEYS.includes(api)) {
    const compiled = compileAct(call, hide, `aiAct: ${say(call.prompt)}`);
    return compiled ?? [{ item: { aiAct: hide(call.prompt) }, comments: [keptActComment(call)] }];
  }
  if (call.status === "failed") {
    return [{ comments: [`${api}: ${say(call.prompt)} (failed in the recorded run: left out)`] }];
  }
  if (INSTANT_KEYS.includes(api)) return call.actions.flatMap((a) => itemOf(a, hide) ?? []);
  if (Object.hasOwn(RECORDED_CALLS, api)) {
    return [{ item: { [api]: RECORDED_CALLS[api] ? hide(call.prompt) : null } }];
  }
  if (api === "recordToReport") return [{ item: { recordToReport: hide(call.prompt) } }];
  if (!CHECK_KEYS.includes(api)) return [];
  if (w.options.keepChecks) return [{ item: { [api]: hide(call.prompt) } }];
  return [{ comments: [CHECK_LEFT_OUT, `  ${api}: ${say(call.prompt)}`] }];
}
