/**
 * `agent.exportScript()` (docs/yaml-and-cli.md, "Exported scripts"): the agent's journal written
 * as a YAML script file.
 *
 * @module
 */

import { cwd, nodePath, writeFileAtomic } from "../runtime/runtime.ts";
import {
  type ExportedScript,
  type ExportScriptOptions,
  exportScriptText,
} from "../script/script_export.ts";
import type { AgentState } from "./lifecycle.ts";

/** Writes what the agent did so far to `path` (relative to the working directory). */
export async function exportCall(
  state: AgentState,
  path: string,
  options: ExportScriptOptions = {},
): Promise<ExportedScript> {
  const p = await nodePath();
  const file = p.resolve(cwd(), path);
  const { text, located, unlocated } = await exportScriptText(
    state.journal,
    options,
    p.dirname(file),
  );
  await writeFileAtomic(file, text);
  return { file, text, located, unlocated };
}
