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
  // A secret the agent typed (a password field, `secret: true`) and no variable names is written
  // as `${TYPED_SECRET_n}`: set it to run the script; the file never holds the value.
  const named = new Set(Object.values(options.variables ?? {}));
  const secrets = state.secrets.values().filter((v) => !named.has(v));
  const withSecrets: ExportScriptOptions = secrets.length === 0 ? options : {
    ...options,
    variables: {
      ...options.variables,
      ...Object.fromEntries(secrets.map((v, i) => [`TYPED_SECRET_${i + 1}`, v])),
    },
  };
  const { text, located, unlocated } = await exportScriptText(
    state.journal,
    withSecrets,
    p.dirname(file),
  );
  await writeFileAtomic(file, text);
  return { file, text, located, unlocated };
}
