/**
 * How a device platform hands its script runner to tools that run script files of every platform
 * (the `sdk run` command line): each platform package exports one {@link ScriptPlatform}, and the
 * tool loads the package only when a file with that platform's section runs. No platform package
 * imports the tool, and the tool imports no platform until it needs one.
 *
 * @module
 */

import type { AgentOptions } from "../session/options.ts";
import type { FlowItemSpec } from "./flow_items.ts";
import {
  type PlatformYamlAgent,
  runPlatformYaml,
  type RunPlatformYamlOptions,
  type RunPlatformYamlResult,
} from "./platform_run.ts";
import type { ScriptSectionSchema } from "./script_sections.ts";
import type { ScriptTrustOptions } from "./script_trust.ts";
import type { ExportedScript, ExportScriptOptions } from "./script_export.ts";

/** What a tool reads of a platform's agent after the run. */
export interface ScriptPlatformAgent {
  /** The report's path once the agent is destroyed; `undefined`/`null` without a report. */
  readonly reportFile?: string | null;
  /** Writes the run as an exported script (`agent.exportScript()`; `sdk run --record`). */
  exportScript?(path: string, options?: ExportScriptOptions): Promise<ExportedScript>;
}

/**
 * Options a tool gives a platform's runner; `untrusted`, `allowEnv` and `workDir` say whether the
 * file is the user's own (./script_trust.ts).
 */
export interface ScriptPlatformRunOptions extends ScriptTrustOptions {
  /** Agent options that outrank the file's sections (the command line's flags). */
  agentOptions?: AgentOptions;
  /** The script's file, when `script` is its text: named in errors, and the cache id's source. */
  fileName?: string;
  /** Stops the run between items (Ctrl+C). */
  signal?: AbortSignal;
  /** Called with the agent once it exists. */
  onAgent?: (agent: ScriptPlatformAgent) => void;
  /**
   * Section fields that outrank the file's section: the device a pool hands the file
   * (`PoolDevice.section`: `deviceId`, `driverPort`, ...).
   */
  section?: Readonly<Record<string, unknown>>;
}

/**
 * A device platform's scripts, as a tool runs them: the section key that marks its files and the
 * runner (the platform's `run...Yaml`, as `runMobileAYaml` is).
 */
export interface ScriptPlatform {
  /** The script section of this platform's files, e.g. `"mobilea"`. */
  readonly section: string;
  /** The package it comes from, named in messages, e.g. `"@sdk/mobilea"`. */
  readonly packageName: string;
  /** The runner's public name, named in messages, e.g. `"runMobileAYaml"`. */
  readonly runnerName: string;
  /** The flow items this platform's agents add to the shared ones (`launch`, `back`, ...). */
  readonly items: Readonly<Record<string, FlowItemSpec>>;
  /**
   * Runs one script file of this platform: creates the agent from the section, runs the tasks and
   * destroys the agent.
   *
   * @param script a path to a `.yaml` / `.yml` file, or the script's text.
   * @param options see {@link ScriptPlatformRunOptions}.
   * @returns the tasks' outcomes and stored results, and the output file the results were
   * written to when the section names one.
   * @throws what the platform's runner throws (`YamlScriptError`, the device's errors, a task's
   * `YamlTaskError`).
   */
  run(script: string, options: ScriptPlatformRunOptions): Promise<RunPlatformYamlResult>;
}

/** A platform's script runner and its {@link ScriptPlatform}, as {@link platformScripts} builds them. */
export interface PlatformScripts<A, O> {
  /** The platform's `run...Yaml` (see `runPlatformYaml` for what it does, returns and throws). */
  run(script: string, options?: RunPlatformYamlOptions<A, O>): Promise<RunPlatformYamlResult>;
  /** The same runner for tools that run script files of every platform (`sdk run`). */
  platform: ScriptPlatform;
}

/**
 * Builds a device platform's script runner (its `run...Yaml`) and its {@link ScriptPlatform} from
 * its section schema, what every phone package's `yaml.ts` would otherwise repeat.
 *
 * @param schema the platform's section: key, name, readers and the flow items it adds.
 * @param packageName the package, named in messages, e.g. `"@sdk/mobilea"`.
 * @param runnerName the runner's public name, named in messages, e.g. `"runMobileAYaml"`.
 * @param createAgent creates the agent from the section, the agent options of the script's
 * `agent` section, and the caller's `agentOptions` (which outrank both).
 * @returns the runner and the platform; the runner throws what `runPlatformYaml` throws.
 */
export function platformScripts<
  S extends Record<string, unknown>,
  A extends PlatformYamlAgent & ScriptPlatformAgent,
  O,
>(
  schema: ScriptSectionSchema<S>,
  packageName: string,
  runnerName: string,
  createAgent: (section: S, agentOptions: AgentOptions, callerOptions: O | undefined) => Promise<A>,
): PlatformScripts<A, O> {
  const run = (script: string, options: RunPlatformYamlOptions<A, O> = {}) =>
    runPlatformYaml(
      schema,
      script,
      options,
      (section, agentOptions) => createAgent(section, agentOptions, options.agentOptions),
    );
  return {
    run,
    platform: {
      section: schema.key,
      packageName,
      runnerName,
      items: schema.items ?? {},
      // A tool's agent options are agent options, which every platform's options include.
      run: (script, options) => run(script, options as RunPlatformYamlOptions<A, O>),
    },
  };
}
