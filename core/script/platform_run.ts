/**
 * What every device platform's `run...Yaml` does (spec 4.5): read the script (a path or its
 * text), check it with the platform's section schema, create the agent from the section, open
 * the section's `launch` target, run the tasks, and destroy the agent (writing its report) however
 * the run ends.
 *
 * @module
 */

import type { AgentOptions } from "../session/options.ts";
import { nodePath, writeFileAtomic } from "../runtime/runtime.ts";
import type { EnvLookup } from "./env_vars.ts";
import { runScriptTasks, type RunYamlResult } from "./run_yaml.ts";
import type { ScriptTrustOptions } from "./script_trust.ts";
import { parsePlatformScriptFile } from "./script_schema.ts";
import type { ScriptSectionSchema } from "./script_sections.ts";
import { readScriptSource, scriptAgentOptions } from "./script_source.ts";
import type { YamlAgent } from "./yaml_agent.ts";

/** Options of a platform's `run...Yaml` (`runMobileAYaml`, ...). */
export interface RunPlatformYamlOptions<A, O> extends ScriptTrustOptions {
  /** Agent and device options that outrank the script's `agent` and platform sections. */
  agentOptions?: O;
  /** Named in errors when the script is text. Default `"script.yaml"`. */
  fileName?: string;
  /** Reads environment variables for `${NAME}`. Default: the process environment. */
  env?: EnvLookup;
  /** Stops the run between items (and inside waits) when it aborts. */
  signal?: AbortSignal;
  /**
   * Called with the agent once it exists, before `launch` and the tasks (to read its report or
   * log afterwards). The agent is destroyed when the run ends either way.
   */
  onAgent?: (agent: A) => void;
  /**
   * Section fields that outrank the script's section, set after the untrusted switches are
   * turned off: the device a pool hands the script (`PoolDevice.section`).
   */
  section?: Readonly<Record<string, unknown>>;
}

/** What a platform's runner gives back: the tasks' outcomes and results, and the output file. */
export interface RunPlatformYamlResult extends RunYamlResult {
  /**
   * The absolute path of the JSON file the results were written to: the section's `output`,
   * resolved from the script's folder, when it has one.
   */
  output?: string;
}

/** An agent a platform's runner can drive: script items, `launch`, and `destroy`. */
export type PlatformYamlAgent = YamlAgent & {
  launch?(target: string): Promise<void>;
  destroy(): Promise<void>;
};

/**
 * Runs a script on a device platform.
 *
 * @param schema the platform's section (its key, name and readers); a `launch` key, when the
 * section has one, names what is opened before the tasks.
 * @param script a path to a `.yaml` / `.yml` file, or the script's text.
 * @param options see {@link RunPlatformYamlOptions}.
 * @param createAgent creates the agent from the section and the agent options of the script's
 * `agent` section (the platform adds `options.agentOptions` on top).
 * @returns the tasks' outcomes and the stored results, as `agent.runYaml`, and `output`: when the
 * section names an `output` file (relative to the script's folder; for text, to the folder of
 * `options.fileName`, else the working directory), the results are written there as JSON once
 * the tasks ran to the end (tasks failed under `continueOnError` included; not when the script
 * stopped on an error), and its absolute path is returned.
 * With `options.untrusted` (and `allowEnv`, `workDir`) the script is read as one you did not
 * write (docs/security.md): what it may not do is refused before the agent exists, and the
 * section's `untrusted.switches` are off unless `options.agentOptions` turn them on.
 * @throws {YamlScriptError} for an invalid script (nothing runs then); what `createAgent` and
 * `launch` throw; a task's error (wrapped as `YamlTaskError`) unless the task has
 * `continueOnError`; the file system's error when the output cannot be written.
 */
export async function runPlatformYaml<
  S extends Record<string, unknown>,
  A extends PlatformYamlAgent,
  O,
>(
  schema: ScriptSectionSchema<S>,
  script: string,
  options: RunPlatformYamlOptions<A, O>,
  createAgent: (section: S, agentOptions: AgentOptions) => Promise<A>,
): Promise<RunPlatformYamlResult> {
  const source = await readScriptSource(script, options.fileName);
  const parsed = await parsePlatformScriptFile(schema, source.text, source.fileName, {
    env: options.env,
    untrusted: options.untrusted,
    allowEnv: options.allowEnv,
    workDir: options.workDir,
  });
  const section = { ...parsed.section };
  if (options.untrusted) {
    // What reaches past the screen stays off unless the caller's own options turn it on.
    for (const key of schema.untrusted?.switches ?? []) {
      (section as Record<string, unknown>)[key] = false;
    }
  }
  Object.assign(section, options.section);
  const agent = await createAgent(section, scriptAgentOptions(source.fileName, parsed.agent));
  let run: RunYamlResult;
  try {
    options.onAgent?.(agent);
    const launch = parsed.section.launch;
    if (typeof launch === "string") await agent.launch!(launch);
    run = await runScriptTasks(agent, parsed, { signal: options.signal });
  } finally {
    await agent.destroy();
  }
  if (parsed.output === undefined) return run;
  const path = await nodePath();
  const output = path.resolve(path.dirname(source.fileName), parsed.output);
  await writeFileAtomic(output, JSON.stringify(run.result, null, 2) + "\n");
  return { ...run, output };
}
