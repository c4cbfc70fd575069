/**
 * Batch files (the peer SDK's "config file" or "index YAML"): a YAML file that names the script
 * files to run (`files:`, globs relative to the batch file's folder) and how (`concurrent`,
 * `continueOnError`, `summary`, `shareBrowserContext`, `retry`, `headed`, `keepWindow`), with
 * target sections (`web:`, `mobilea:`, ...) applied to every file that runs on that target.
 * docs/yaml-and-cli.md, "Batch files".
 *
 * @module
 */

import { readFile } from "node:fs/promises";
import process from "node:process";
import { dirname, relative, resolve } from "node:path";
import {
  bool,
  envRefusal,
  isInsideFolder,
  list,
  mapping,
  num,
  parseYamlTree,
  PLATFORM_TARGET_SECTIONS,
  type Reader,
  TARGET_SECTIONS,
  text,
  type YamlNode,
  YamlScriptError,
} from "@sdk/core/script";
import { SdkTypeError } from "@sdk/core";
import { discoverScriptFiles, type ScriptFileArg } from "./discover.ts";
import { CliUsageError, type RunCommand } from "./args.ts";

/** The switches of a batch file; each is the `sdk run` flag of the same name. */
export interface BatchSwitches {
  /** `--concurrent`. */
  concurrent?: number;
  /** `--continue-on-error`. */
  continueOnError?: boolean;
  /** `--summary`: relative to the batch file's folder. */
  summary?: string;
  /** `--share-browser-context`. */
  shareBrowserContext?: boolean;
  /** `--retry`. */
  retry?: number;
  /** `--headed`. */
  headed?: boolean;
  /** `--keep-window`. */
  keepWindow?: boolean;
}

/** A batch file, read and checked. */
export interface BatchFile extends BatchSwitches {
  /** The `files` patterns as written (relative to the batch file's folder). */
  patterns: string[];
  /** The batch file's path (absolute). */
  path: string;
  /** The batch file's folder (absolute). */
  folder: string;
  /**
   * Its target sections, as plain data (`${NAME}` left for each file's reader): each is merged
   * into the same section of every file ({@link mergeBatchSections}).
   */
  sections: Record<string, Record<string, unknown>>;
}

/** The keys of a batch file that are `sdk run` switches. */
const SWITCH_KEYS: readonly (keyof BatchSwitches)[] = [
  "concurrent",
  "continueOnError",
  "summary",
  "shareBrowserContext",
  "retry",
  "headed",
  "keepWindow",
];

/** The target sections a batch file may give: `web` and the device platforms'. */
const SECTION_KEYS: readonly string[] = [...TARGET_SECTIONS, ...PLATFORM_TARGET_SECTIONS];

/** A section's value as plain data, without reading `${NAME}`: each file's reader does that. */
const sectionValue: Reader<Record<string, unknown>> = {
  describe: "a mapping",
  read(node, at) {
    if (node.kind === "scalar" && node.value === null) return {};
    if (node.kind !== "map") {
      throw new YamlScriptError(`'${at.key}' of the batch file must be a mapping`, {
        fileName: at.fileName,
        ...node.pos,
        key: at.path,
      });
    }
    return plain(node) as Record<string, unknown>;
  },
};

function plain(node: YamlNode): unknown {
  if (node.kind === "map") {
    return Object.fromEntries(node.entries.map((e) => [e.key, plain(e.value)]));
  }
  if (node.kind === "seq") return node.items.map(plain);
  return node.value;
}

const batchFields = {
  files: list(text),
  concurrent: num({ integer: true, min: 1 }),
  continueOnError: bool,
  summary: text,
  shareBrowserContext: bool,
  retry: num({ integer: true, min: 0 }),
  headed: bool,
  keepWindow: bool,
  ...Object.fromEntries(SECTION_KEYS.map((k) => [k, sectionValue])),
};

/**
 * Whether a YAML text is a batch file rather than a script: a mapping with `files` and without
 * `tasks`.
 */
async function isBatchText(content: string, fileName: string): Promise<boolean> {
  const node = await parseYamlTree(content, fileName).catch(() => null);
  return node?.kind === "map" && node.entries.some((e) => e.key === "files") &&
    !node.entries.some((e) => e.key === "tasks");
}

/** Whose files a batch is: `untrusted` batches are read as untrusted scripts are. */
export interface BatchTrust {
  /** The batch is not yours (`--untrusted`). */
  untrusted: boolean;
  /** With `untrusted`: the variables it may read (`--env`). */
  allowEnv: readonly string[];
  /** With `untrusted`: the folder its files and its summary must lie in. */
  workDir: string;
}

/**
 * Reads and checks a batch file.
 *
 * @param path its absolute path.
 * @param shown its name as typed, for errors.
 * @throws {YamlScriptError} for invalid YAML, an unknown key (with the closest known one), a
 * value of the wrong type, or a missing `files`.
 */
export async function readBatchFile(
  path: string,
  shown: string,
  trust: BatchTrust,
): Promise<BatchFile> {
  const content = await readFile(path, "utf8");
  const node = await parseYamlTree(content, shown);
  if (node === null || node.kind !== "map") {
    throw new YamlScriptError("a batch file is a mapping with 'files'", {
      fileName: shown,
      ...(node?.pos ?? { line: 1, column: 1 }),
    });
  }
  const read = mapping("the batch file", batchFields, ["files"]).read(node, {
    fileName: shown,
    env: (name) => process.env[name],
    refuseEnv: (name) => envRefusal(name, trust),
    path: "",
    key: "",
    owner: "the batch file",
  }) as BatchSwitches & { files: string[] } & Record<string, unknown>;
  const sections: BatchFile["sections"] = {};
  for (const key of SECTION_KEYS) {
    if (read[key] !== undefined) sections[key] = read[key] as Record<string, unknown>;
  }
  const switches: Record<string, unknown> = {};
  for (const key of SWITCH_KEYS) if (read[key] !== undefined) switches[key] = read[key];
  return { patterns: read.files, path, folder: dirname(path), sections, ...switches };
}

/**
 * The script files a batch names, found from its folder and shown as the working folder sees
 * them; an untrusted batch may name only files inside the working folder.
 *
 * @throws {CliUsageError} when a pattern matches nothing; {@link SdkTypeError} for an untrusted
 * batch's file outside the working folder.
 */
async function batchScriptFiles(
  batch: BatchFile,
  cwd: string,
  trust: BatchTrust,
): Promise<ScriptFileArg[]> {
  // A pattern such as `*.yaml` matches the batch file too: it is not one of its scripts.
  const files = (await discoverScriptFiles(batch.patterns, batch.folder))
    .filter((f) => f.path !== batch.path);
  for (const file of files) {
    file.shown = relative(cwd, file.path) || file.path;
    if (trust.untrusted && !(await isInsideFolder(file.path, trust.workDir))) {
      throw new SdkTypeError(
        `the batch file names ${file.shown}, outside the working folder: an --untrusted batch ` +
          `runs only files inside it`,
      );
    }
  }
  return files;
}

/**
 * Where a batch's `summary` goes: relative to its folder; an untrusted batch's must lie in the
 * working folder.
 *
 * @throws {SdkTypeError} for an untrusted batch's summary outside the working folder.
 */
async function batchSummaryPath(
  batch: BatchFile,
  trust: BatchTrust,
): Promise<string | undefined> {
  if (batch.summary === undefined) return undefined;
  const path = resolve(batch.folder, batch.summary);
  if (trust.untrusted && !(await isInsideFolder(path, trust.workDir))) {
    throw new SdkTypeError(
      `the batch file's summary ${batch.summary} is outside the working folder: an --untrusted ` +
        `batch writes only inside it`,
    );
  }
  return path;
}

type YamlLib = typeof import("yaml");

/**
 * A script file's text with the batch's sections merged in: each batch section's keys are set in
 * the file's section of the same target (nested mappings key by key), the batch's value winning,
 * as the peer SDK merges them; a file without a target section takes the batch's only one. The
 * result is read by the file's own reader, so every check (and `--untrusted`'s refusals) applies
 * to what the batch gives too.
 */
export async function mergeBatchSections(
  content: string,
  sections: BatchFile["sections"],
): Promise<string> {
  const keys = Object.keys(sections);
  if (keys.length === 0) return content;
  const Y: YamlLib = await import("yaml");
  const doc = Y.parseDocument(content);
  if (!Y.isMap(doc.contents)) return content;
  const has = (key: string) => doc.has(key);
  let target = [...SECTION_KEYS, "target"].find(has);
  if (target === undefined) {
    if (keys.length !== 1) return content;
    target = keys[0];
  }
  const section = sections[target === "target" ? "web" : target];
  if (section === undefined) return content;
  if (!Y.isMap(doc.get(target))) doc.set(target, doc.createNode({}));
  const setLeaves = (path: string[], value: unknown) => {
    if (isPlainObject(value) && Y.isMap(doc.getIn(path))) {
      for (const [k, v] of Object.entries(value)) setLeaves([...path, k], v);
    } else doc.setIn(path, doc.createNode(value));
  };
  for (const [k, v] of Object.entries(section)) setLeaves([target, k], v);
  return doc.toString();
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** The files of a run and the batch sections merged into them. */
export interface RunFiles {
  /** The script files, in order. */
  files: ScriptFileArg[];
  /** The batch file's target sections; `{}` without a batch file. */
  sections: BatchFile["sections"];
}

/**
 * The files `sdk run` runs: those of the paths given, or of its batch file (`--config`, or the
 * one path given when it is a batch file). A batch file's switches fill the fields of `run` the
 * command line did not set with a flag; with `--config` and paths, the paths replace `files`.
 *
 * @throws {CliUsageError} for a batch file given with other paths without `--config`, and what
 * {@link readBatchFile} and {@link batchScriptFiles} throw.
 */
export async function runFiles(run: RunCommand, cwd: string, trust: BatchTrust): Promise<RunFiles> {
  let config = run.config;
  if (config === undefined) {
    const given = await discoverScriptFiles(run.paths, cwd);
    const batches = [];
    for (const file of given) {
      if (
        /\.ya?ml$/i.test(file.path) &&
        await isBatchText(await readFile(file.path, "utf8"), file.shown)
      ) {
        batches.push(file);
      }
    }
    if (batches.length === 0) return { files: given, sections: {} };
    if (given.length > 1) {
      throw new CliUsageError(
        `${batches[0].shown} is a batch file (it has 'files'): give it alone, or with --config ` +
          `to run other files its way`,
      );
    }
    config = batches[0].path;
  }
  const path = resolve(cwd, config);
  const batch = await readBatchFile(path, config, trust);
  const target = run as unknown as Record<string, unknown>;
  for (const field of SWITCH_KEYS) {
    if (field !== "summary" && batch[field] !== undefined && !run.given.has(field)) {
      target[field] = batch[field];
    }
  }
  if (!run.given.has("summary")) run.summary = await batchSummaryPath(batch, trust);
  const files = run.config !== undefined && run.paths.length > 0
    ? await discoverScriptFiles(run.paths, cwd)
    : await batchScriptFiles(batch, cwd, trust);
  return { files, sections: batch.sections };
}
