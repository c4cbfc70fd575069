/**
 * What every runner of script files shares: reading a script given as a path or as text, and
 * turning its `agent` section into agent options.
 *
 * @module
 */

import { readFile } from "node:fs/promises";
import { basename, extname } from "node:path";
import type { AgentOptions } from "../session/options.ts";
import type { ScriptAgentOptions } from "./script_sections.ts";

/** A script's text and the name its errors use. */
export interface ScriptSource {
  /** The YAML text. */
  text: string;
  /** The file's path, or the name given for text. */
  fileName: string;
}

/**
 * Reads a script given as a path to a `.yaml` / `.yml` file (one line ending so) or as its text.
 *
 * @param script the path or the text.
 * @param fileName the name for text, in errors. Default `"script.yaml"`.
 * @throws {Error} from `readFile` when the path cannot be read (ENOENT names it).
 */
export async function readScriptSource(script: string, fileName?: string): Promise<ScriptSource> {
  const path = script.trim();
  if (!script.includes("\n") && /\.ya?ml$/i.test(path)) {
    return { text: await readFile(path, "utf8"), fileName: path };
  }
  return { text: script, fileName: fileName ?? "script.yaml" };
}

/**
 * A script's `agent` section as agent options: `cache: true`, or a cache without an `id`, takes
 * the file's name without its extension as the cache id (spec 2.2).
 *
 * @param fileName the script's file name.
 * @param section the `agent` section.
 */
export function scriptAgentOptions(fileName: string, section: ScriptAgentOptions): AgentOptions {
  const id = basename(fileName, extname(fileName));
  // The report attributes are the tool's to use (the merged report), not agent options.
  const { cache, testId: _id, groupName: _name, groupDescription: _description, ...rest } = section;
  const options: AgentOptions = { ...rest };
  if (cache === true) options.cache = { id };
  else if (cache) options.cache = { ...cache, id: cache.id ?? id };
  else if (cache === false) options.cache = false;
  return options;
}
