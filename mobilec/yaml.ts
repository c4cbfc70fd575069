/**
 * `runMobileCYaml`: runs a YAML script with a `mobilec:` section on a HarmonyOS device through
 * hdc, creating the agent from the section (spec 4.5, 4.10).
 *
 * @module
 */

import {
  bool,
  num,
  oneOf,
  platformFlowAliases,
  platformFlowItems,
  platformScripts,
  record,
  type RunPlatformYamlOptions,
  type RunPlatformYamlResult,
  type ScriptPlatform,
  type ScriptSectionSchema,
  text,
} from "@sdk/core/script";
import { agentFromToolDevice, type AgentFromToolDeviceOptions } from "./agent.ts";
import type { MobileCAgent } from "./agent.ts";

/**
 * The `mobilec` section of a script (spec 4.10): which device, where hdc is, the plain-data
 * device options and the app or URL to open first. Values are type-checked when the script is
 * read; `MobileCDevice` checks their ranges.
 */
export interface MobileCScriptSection extends Record<string, unknown> {
  /** The connect key; the first device `hdc list targets` lists when left out. */
  deviceId?: string;
  /** A bundle name, `bundle/Ability`, app name or http(s) URL to open before the tasks. */
  launch?: string;
  /** Path of hdc (default: `TOOL_HOME`, `PATH`, install paths). */
  toolPath?: string;
  /** `MobileCDeviceOptions.autoDismissKeyboard`. */
  autoDismissKeyboard?: boolean;
  /** `MobileCDeviceOptions.keyboardDismissStrategy`. */
  keyboardDismissStrategy?: "esc-first" | "back-first";
  /** `MobileCDeviceOptions.keyboardTypeDelay`, ms. */
  keyboardTypeDelay?: number;
  /** `MobileCDeviceOptions.inputStrategy`. */
  inputStrategy?: "legacy" | "sequential" | "bulk";
  /** `MobileCDeviceOptions.exposeRunToolShellAction`: `false` refuses `runToolShell` items. */
  exposeRunToolShellAction?: boolean;
  /** App name -> bundle name or `bundle/Ability` (the agent's `appNameMapping`). */
  appNameMapping?: Record<string, string>;
}

/** How the `mobilec` section is read. */
export const MOBILEC_SCRIPT_SECTION: ScriptSectionSchema<MobileCScriptSection> = {
  key: "mobilec",
  label: "MobileC",
  describe: "deviceId, launch, toolPath, device options",
  items: {
    ...platformFlowItems("launch", "terminate", "runToolShell", "back", "home", "recentApps"),
    // The peer SDK's scripts press the system buttons by their action names.
    ...platformFlowAliases({
      MobileCBackButton: "back",
      MobileCHomeButton: "home",
      MobileCRecentAppsButton: "recentApps",
    }),
  },
  untrusted: {
    switches: ["exposeRunToolShellAction"],
    refused: { toolPath: "names the hdc program to run" },
  },
  fields: {
    deviceId: text,
    launch: text,
    toolPath: text,
    autoDismissKeyboard: bool,
    keyboardDismissStrategy: oneOf("esc-first", "back-first"),
    keyboardTypeDelay: num({ min: 0, unit: "ms" }),
    inputStrategy: oneOf("legacy", "sequential", "bulk"),
    exposeRunToolShellAction: bool,
    appNameMapping: record(text),
  },
};

/**
 * Options of {@link runMobileCYaml}: `agentOptions` (agent and device options that outrank the script's
 * `agent` and `mobilec` sections), `fileName`, `env`, `signal`, `onAgent`.
 */
export type RunMobileCYamlOptions = RunPlatformYamlOptions<
  MobileCAgent,
  AgentFromToolDeviceOptions
>;

/** The section's runner and platform, built once from the schema. */
const SCRIPTS = platformScripts<MobileCScriptSection, MobileCAgent, AgentFromToolDeviceOptions>(
  MOBILEC_SCRIPT_SECTION,
  "@sdk/mobilec",
  "runMobileCYaml",
  ({ deviceId, launch: _, ...device }, agentOptions, own) =>
    agentFromToolDevice(deviceId, { ...agentOptions, ...device, ...own }),
);

/**
 * Runs a YAML script on a HarmonyOS device. The script has a `mobilec` section:
 *
 * ```yaml
 * mobilec:
 *   deviceId: 127.0.0.1:5555       # left out: the first device hdc lists
 *   launch: Notes                  # optional: an app name, bundle, bundle/Ability or URL
 *   appNameMapping: { Notes: com.example.notes }
 * agent:
 *   waitAfterAction: 500
 * tasks:
 *   - name: write
 *     flow:
 *       - aiTap: the first note
 *       - runToolShell: param get const.product.model
 *         name: model
 *       - back:
 * ```
 *
 * Besides the shared flow items, a MobileC script may use `launch`, `terminate`, `runToolShell`
 * (its output is stored under `name`), `back`, `home` and `recentApps`. The agent is created with
 * `agentFromToolDevice`, runs `launch`, then the tasks, and is destroyed at the end (writing its
 * report).
 *
 * @param script a path to a `.yaml` / `.yml` file, or the script's text.
 * @returns the tasks' outcomes and the stored results, as `agent.runYaml`, and the `output`
 * file the results were written to when the section names one (`output: out/results.json`,
 * relative to the script's folder).
 * @throws {YamlScriptError} for an invalid script (nothing runs then); the errors of
 * `agentFromToolDevice` (no device, hdc missing) and of `launch`; a task's error (wrapped as
 * `YamlTaskError`) unless the task has `continueOnError`.
 */
export async function runMobileCYaml(
  script: string,
  options: RunMobileCYamlOptions = {},
): Promise<RunPlatformYamlResult> {
  return await SCRIPTS.run(script, options);
}

/**
 * MobileC's scripts for tools that run script files of every platform (`sdk run` of `@sdk/cli`
 * loads this package when a file has a `mobilec` section and runs it with {@link runMobileCYaml}).
 */
export const mobileCScriptPlatform: ScriptPlatform = SCRIPTS.platform;
