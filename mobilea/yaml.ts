/**
 * `runMobileAYaml`: runs a YAML script with a `mobilea:` section on an Android device, creating
 * the agent from the section (spec 4.5, 4.8).
 *
 * @module
 */

import { readFile } from "node:fs/promises";
import { basename, extname } from "node:path";
import type { AgentOptions, RunYamlResult } from "@sdk/core";
import {
  type EnvLookup,
  parseMobileAScriptFile,
  runScriptTasks,
  type ScriptAgentOptions,
} from "@sdk/core/script";
import { agentFromBridgeDevice, type AgentFromBridgeDeviceOptions } from "./agent.ts";
import type { MobileAAgent } from "./agent.ts";

/** Options of {@link runMobileAYaml}. */
export interface RunMobileAYamlOptions {
  /**
   * Agent and device options that outrank the script's `agent` and `mobilea` sections (for
   * example `modelConfig`, or `remoteBridgePort` of the adb server to use).
   */
  agentOptions?: AgentFromBridgeDeviceOptions;
  /** Named in errors when `script` is text. Default `"script.yaml"`. */
  fileName?: string;
  /** Reads environment variables for `${NAME}`. Default: the process environment. */
  env?: EnvLookup;
  /** Stops the run between items (and inside waits) when it aborts. */
  signal?: AbortSignal;
  /**
   * Called with the agent once it exists, before `launch` and the tasks (to read its report
   * or log afterwards). The agent is destroyed when the run ends either way.
   */
  onAgent?: (agent: MobileAAgent) => void;
}

/**
 * Runs a YAML script on an Android device. The script has a `mobilea` section:
 *
 * ```yaml
 * mobilea:
 *   deviceId: emulator-5554        # left out: the first connected device
 *   launch: Settings               # optional: an app name, package, package/.Activity or URL
 *   exposeRunBridgeShellAction: false   # any plain-data MobileADevice option
 *   appNameMapping: { Notes: com.example.notes }
 * agent:
 *   waitAfterAction: 500
 * tasks:
 *   - name: search
 *     flow:
 *       - aiTap: the search box
 *       - runBridgeShell: getprop ro.product.model
 *         name: model
 *       - back:
 * ```
 *
 * Besides the shared flow items, a MobileA script may use `launch`, `terminate`,
 * `runBridgeShell` (fails when the device has `exposeRunBridgeShellAction: false`), `back`,
 * `home` and `recentApps`. The agent is created with `agentFromBridgeDevice`, runs `launch`,
 * then the tasks, and is destroyed at the end (writing its report).
 *
 * @param script a path to a `.yaml` / `.yml` file, or the script's text.
 * @returns the tasks' outcomes and the stored results, as `agent.runYaml`.
 * @throws {YamlScriptError} for an invalid script (nothing runs then); the errors of
 * `agentFromBridgeDevice` (no device, adb missing) and of `launch`; a task's error (wrapped as
 * `YamlTaskError`) unless the task has `continueOnError`.
 */
export async function runMobileAYaml(
  script: string,
  options: RunMobileAYamlOptions = {},
): Promise<RunYamlResult> {
  const isFile = !script.includes("\n") && /\.ya?ml$/i.test(script.trim());
  const text = isFile ? await readFile(script.trim(), "utf8") : script;
  const fileName = isFile ? script.trim() : options.fileName ?? "script.yaml";
  const parsed = await parseMobileAScriptFile(text, fileName, { env: options.env });
  const { deviceId, launch, ...deviceOptions } = parsed.mobilea;
  const agent = await agentFromBridgeDevice(deviceId, {
    ...agentOptionsOf(fileName, parsed.agent),
    ...deviceOptions,
    ...options.agentOptions,
  });
  try {
    options.onAgent?.(agent);
    if (launch !== undefined) await agent.launch(launch);
    return await runScriptTasks(agent, parsed, { signal: options.signal });
  } finally {
    await agent.destroy();
  }
}

// The `agent` section as agent options: a `cache` without an id takes the file's name.
function agentOptionsOf(fileName: string, section: ScriptAgentOptions): AgentOptions {
  const id = basename(fileName, extname(fileName));
  const { cache, ...rest } = section;
  const options: AgentOptions = { ...rest };
  if (cache === true) options.cache = { id };
  else if (cache) options.cache = { ...cache, id: cache.id ?? id };
  else if (cache === false) options.cache = false;
  return options;
}
