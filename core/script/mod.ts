/**
 * YAML scripts (spec 4.5 `runYaml`): a `tasks` section of named tasks, each a `flow` of items
 * such as `- aiTap: the Sign in button`, run on an agent; plus, for tools such as the command
 * line, the checked `web` and `agent` sections of a script file.
 *
 * - {@link runYamlScript}: reads and checks the tasks, then runs them on an agent.
 * - {@link parseScriptFile}: reads and checks a whole script file (tasks, `agent`, `web`);
 *   {@link runScriptTasks} then runs its tasks.
 * - {@link FLOW_ITEM_KEYS} and {@link SCRIPT_SECTION_KEYS}: the keys each part accepts.
 * - {@link platformFlowItems} (with {@link platformFlowAliases}) and {@link platformScripts}: how a device platform names the flow
 *   items its agents add and builds its `run...Yaml` and {@link ScriptPlatform} from its section.
 *
 * Every problem is a {@link YamlScriptError} naming the file, line, column and key; a failing
 * flow item is a {@link YamlTaskError} with the original error as `cause`. The flow keys and
 * their forms are described in ./flow_items.ts; `${NAME}` in ./env_vars.ts.
 *
 * @example
 * ```ts ignore
 * import { runYamlScript } from "./mod.ts";
 *
 * const { result } = await runYamlScript(agent, `
 * tasks:
 *   - name: sign in
 *     flow:
 *       - aiInput: the username field
 *         value: \${LOGIN_USER}
 *       - aiTap: the Sign in button
 *       - aiQuery: the todo items, as an array of strings
 *         name: items
 * `, { fileName: "login.yaml" });
 * ```
 *
 * @module
 */

export { runScriptTasks, runYamlScript } from "./run_yaml.ts";
export type { RunYamlOptions, RunYamlResult, YamlTaskOutcome } from "./run_yaml.ts";
export {
  parsePlatformScriptFile,
  parseScriptFile,
  parseScriptTasks,
  PLATFORM_TARGET_SECTIONS,
  readScriptAgentSection,
  SCRIPT_SECTION_KEYS,
  scriptTargetOf,
  TARGET_SECTIONS,
} from "./script_schema.ts";
export type {
  PlatformScriptFile,
  ScriptFile,
  ScriptFileReadOptions,
  ScriptReadOptions,
} from "./script_schema.ts";
export { envRefusal, isSdkSecretVariable } from "./script_trust.ts";
export type { ScriptTrustOptions } from "./script_trust.ts";
export { isInsideFolder, UNTRUSTED_REFUSED_ITEMS } from "./untrusted_check.ts";
export type {
  ScriptAgentOptions,
  ScriptReportAttributes,
  ScriptSectionSchema,
  ScriptWebTarget,
} from "./script_sections.ts";
export type { ScriptTask, ScriptTasks } from "./script_tasks.ts";
export { runPlatformYaml } from "./platform_run.ts";
export type { ExportedScript, ExportScriptOptions } from "./script_export.ts";
export { platformScripts } from "./script_platform.ts";
export type {
  PlatformScripts,
  ScriptPlatform,
  ScriptPlatformAgent,
  ScriptPlatformRunOptions,
} from "./script_platform.ts";
export type {
  PlatformYamlAgent,
  RunPlatformYamlOptions,
  RunPlatformYamlResult,
} from "./platform_run.ts";
export { readScriptSource, scriptAgentOptions } from "./script_source.ts";
export type { ScriptSource } from "./script_source.ts";
export {
  bool,
  either,
  jsonValue,
  list,
  mapping,
  num,
  oneOf,
  optional,
  record,
  text,
} from "./value_readers.ts";
export type { NumberBounds, ReadContext, Reader } from "./value_readers.ts";
export { FLOW_ITEM_KEYS, platformFlowAliases, platformFlowItems } from "./platform_items.ts";
export type { PlatformFlowKey } from "./platform_items.ts";
export type { FlowItemSpec, NormalizeContext, ScriptFlowItem } from "./flow_items.ts";
export { YamlScriptError, YamlTaskError } from "./script_errors.ts";
export type { YamlScriptErrorLocation, YamlTaskErrorDetails } from "./script_errors.ts";
export { interpolateEnvVars } from "./env_vars.ts";
export type { EnvInterpolation, EnvLookup } from "./env_vars.ts";
export type { DriverRequestMethod, YamlAgent } from "./yaml_agent.ts";
export { parseYamlTree } from "./yaml_parse.ts";
export type {
  SourcePosition,
  YamlEntry,
  YamlMapNode,
  YamlNode,
  YamlScalarNode,
  YamlSeqNode,
} from "./yaml_parse.ts";
