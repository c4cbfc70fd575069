/**
 * `runMobileAYaml`: runs a YAML script with a `mobilea:` section on an Android device, creating
 * the agent from the section (spec 4.5, 4.8).
 *
 * @module
 */

import {
  bool,
  mapping,
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
import { agentFromBridgeDevice, type AgentFromBridgeDeviceOptions } from "./agent.ts";
import type { MobileAAgent } from "./agent.ts";

/**
 * The `mobilea` section of a script (spec 4.8): the device to drive, its plain-data options and
 * the app or page to open first. Values are type-checked when the script is read;
 * `MobileADevice` checks their ranges.
 */
export interface MobileAScriptSection extends Record<string, unknown> {
  /** The adb serial; the first connected device when left out. */
  deviceId?: string;
  /** An app name, package name, `package/.Activity` or web URL to open before the tasks. */
  launch?: string;
  /** MobileA device options. */
  autoDismissKeyboard?: boolean;
  keyboardDismissStrategy?: "esc-first" | "back-first";
  keyboardTypeDelay?: number;
  inputStrategy?: "legacy" | "sequential" | "bulk";
  imeStrategy?: "always-helper" | "helper-for-non-ascii" | "always-yadb" | "yadb-for-non-ascii";
  screenshotStrategy?: "auto" | "always-helper";
  displayId?: number;
  exposeRunBridgeShellAction?: boolean;
  minScreenshotBufferSize?: number;
  alwaysRefreshScreenInfo?: boolean;
  bridgePath?: string;
  remoteBridgeHost?: string;
  remoteBridgePort?: number;
  /** The mirror stream (`mirrorConfig` of `MobileADevice`). */
  mirrorConfig?: {
    enabled?: boolean;
    maxSize?: number;
    videoBitRate?: number;
    idleTimeoutMs?: number;
    videoResetFrameTimeoutMs?: number;
    ffmpegPath?: string;
  };
  /** Where the scrcpy server jar is on the device (mirror stream and Pinch). */
  scrcpyServerPath?: string;
  /** The jar's release. */
  scrcpyServerVersion?: string;
  /** App name -> package name (the agent's `appNameMapping`). */
  appNameMapping?: Record<string, string>;
}

/** How the `mobilea` section is read. */
const MOBILEA_SCRIPT_SECTION: ScriptSectionSchema<MobileAScriptSection> = {
  key: "mobilea",
  label: "MobileA",
  describe: "deviceId, launch, device options",
  items: {
    ...platformFlowItems("launch", "terminate", "runBridgeShell", "back", "home", "recentApps"),
    // The peer SDK's scripts press the system buttons by their action names.
    ...platformFlowAliases({
      MobileABackButton: "back",
      MobileAHomeButton: "home",
      MobileARecentAppsButton: "recentApps",
    }),
  },
  untrusted: {
    switches: ["exposeRunBridgeShellAction"],
    refused: {
      bridgePath: "names the adb program to run",
      "mirrorConfig.ffmpegPath": "names the ffmpeg program to run",
    },
  },
  fields: {
    deviceId: text,
    launch: text,
    autoDismissKeyboard: bool,
    keyboardDismissStrategy: oneOf("esc-first", "back-first"),
    keyboardTypeDelay: num({ min: 0, unit: "ms" }),
    inputStrategy: oneOf("legacy", "sequential", "bulk"),
    imeStrategy: oneOf(
      "always-helper",
      "helper-for-non-ascii",
      "always-yadb",
      "yadb-for-non-ascii",
    ),
    screenshotStrategy: oneOf("auto", "always-helper"),
    displayId: num({ integer: true, min: 0 }),
    exposeRunBridgeShellAction: bool,
    minScreenshotBufferSize: num({ integer: true, min: 0, unit: "bytes" }),
    alwaysRefreshScreenInfo: bool,
    bridgePath: text,
    remoteBridgeHost: text,
    remoteBridgePort: num({ integer: true, above: 0 }),
    mirrorConfig: mapping("the mirrorConfig mapping", {
      enabled: bool,
      maxSize: num({ integer: true, min: 0, unit: "px" }),
      videoBitRate: num({ above: 0, unit: "bits/s" }),
      idleTimeoutMs: num({ min: 0, unit: "ms" }),
      videoResetFrameTimeoutMs: num({ integer: true, above: 0, unit: "ms" }),
      ffmpegPath: text,
    }),
    scrcpyServerPath: text,
    scrcpyServerVersion: text,
    appNameMapping: record(text),
  },
};

/**
 * Options of {@link runMobileAYaml}: `agentOptions` (agent and device options that outrank the script's
 * `agent` and `mobilea` sections), `fileName`, `env`, `signal`, `onAgent`.
 */
export type RunMobileAYamlOptions = RunPlatformYamlOptions<
  MobileAAgent,
  AgentFromBridgeDeviceOptions
>;

/** The section's runner and platform, built once from the schema. */
const SCRIPTS = platformScripts<MobileAScriptSection, MobileAAgent, AgentFromBridgeDeviceOptions>(
  MOBILEA_SCRIPT_SECTION,
  "@sdk/mobilea",
  "runMobileAYaml",
  ({ deviceId, launch: _, ...device }, agentOptions, own) =>
    agentFromBridgeDevice(deviceId, { ...agentOptions, ...device, ...own }),
);

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
 * @returns the tasks' outcomes and the stored results, as `agent.runYaml`, and the `output`
 * file the results were written to when the section names one (`output: out/results.json`,
 * relative to the script's folder).
 * @throws {YamlScriptError} for an invalid script (nothing runs then); the errors of
 * `agentFromBridgeDevice` (no device, adb missing) and of `launch`; a task's error (wrapped as
 * `YamlTaskError`) unless the task has `continueOnError`.
 */
export async function runMobileAYaml(
  script: string,
  options: RunMobileAYamlOptions = {},
): Promise<RunPlatformYamlResult> {
  return await SCRIPTS.run(script, options);
}

/**
 * MobileA's scripts for tools that run script files of every platform (`sdk run` of `@sdk/cli`
 * loads this package when a file has a `mobilea` section and runs it with {@link runMobileAYaml}).
 */
export const mobileAScriptPlatform: ScriptPlatform = SCRIPTS.platform;
