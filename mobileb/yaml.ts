/**
 * `runMobileBYaml`: runs a YAML script with a `mobileb:` section on an iOS device through
 * WebDriverAgent, creating the agent from the section (spec 4.5, 4.9).
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
import { agentFromDeviceDriver, type AgentFromDeviceDriverOptions } from "./agent.ts";
import type { MobileBAgent } from "./agent.ts";

/**
 * The `mobileb` section of a script (spec 4.9): where WebDriverAgent is, the plain-data device
 * options and the app or URL to open first. Values are type-checked when the script is read;
 * `MobileBDevice` checks their ranges.
 */
export interface MobileBScriptSection extends Record<string, unknown> {
  /** A bundle id, app name, web URL or URL scheme to open before the tasks. */
  launch?: string;
  /** The device option `driverHost` (`MobileBDeviceOptions`). */
  driverHost?: string;
  /** The device option `driverPort`. */
  driverPort?: number;
  /** The device option `driverMjpegPort`. */
  driverMjpegPort?: number;
  /** The device option `driverConnectTimeout`, ms. */
  driverConnectTimeout?: number;
  /** The device option `driverMjpegFrameSource`. */
  driverMjpegFrameSource?: { enabled?: boolean };
  /** The device option `sessionId`: a driver session to reuse. */
  sessionId?: string;
  /** The device option `iOSDeviceClassOverride`. */
  iOSDeviceClassOverride?: string;
  /** The device option `autoDismissKeyboard`. */
  autoDismissKeyboard?: boolean;
  /** The device option `keyboardTypeDelay`, ms. */
  keyboardTypeDelay?: number;
  /** The device option `inputStrategy`. */
  inputStrategy?: "legacy" | "sequential" | "bulk";
  /** The device option `exposeRunDriverRequestAction`. */
  exposeRunDriverRequestAction?: boolean;
  /** App name -> bundle id (the agent's `appNameMapping`). */
  appNameMapping?: Record<string, string>;
}

const port = num({ integer: true, above: 0 });

/** How the `mobileb` section is read. */
export const MOBILEB_SCRIPT_SECTION: ScriptSectionSchema<MobileBScriptSection> = {
  key: "mobileb",
  label: "MobileB",
  describe: "launch, driverHost, driverPort, device options",
  items: {
    ...platformFlowItems("launch", "terminate", "runDriverRequest", "appSwitcher", "home"),
    // The peer SDK's scripts press the system buttons by their action names.
    ...platformFlowAliases({ MobileBHomeButton: "home", MobileBAppSwitcher: "appSwitcher" }),
  },
  untrusted: {
    switches: ["exposeRunDriverRequestAction"],
    refused: { iOSDeviceClassOverride: "names a module of code to load" },
  },
  fields: {
    launch: text,
    driverHost: text,
    driverPort: port,
    driverMjpegPort: port,
    driverConnectTimeout: num({ above: 0, unit: "ms" }),
    driverMjpegFrameSource: mapping<{ enabled?: boolean }>("driverMjpegFrameSource", {
      enabled: bool,
    }),
    sessionId: text,
    iOSDeviceClassOverride: text,
    autoDismissKeyboard: bool,
    keyboardTypeDelay: num({ min: 0, unit: "ms" }),
    inputStrategy: oneOf("legacy", "sequential", "bulk"),
    exposeRunDriverRequestAction: bool,
    appNameMapping: record(text),
  },
};

/**
 * Options of {@link runMobileBYaml}: `agentOptions` (agent and device options that outrank the script's
 * `agent` and `mobileb` sections), `fileName`, `env`, `signal`, `onAgent`.
 */
export type RunMobileBYamlOptions = RunPlatformYamlOptions<
  MobileBAgent,
  AgentFromDeviceDriverOptions
>;

/** The section's runner and platform, built once from the schema. */
const SCRIPTS = platformScripts<MobileBScriptSection, MobileBAgent, AgentFromDeviceDriverOptions>(
  MOBILEB_SCRIPT_SECTION,
  "@sdk/mobileb",
  "runMobileBYaml",
  ({ launch: _, ...device }, agentOptions, own) =>
    agentFromDeviceDriver({ ...agentOptions, ...device, ...own }),
);

/**
 * Runs a YAML script on an iOS device. The script has a `mobileb` section:
 *
 * ```yaml
 * mobileb:
 *   driverPort: 8100               # where WebDriverAgent listens (default localhost:8100)
 *   launch: com.apple.Preferences  # optional: a bundle id, app name, web URL or URL scheme
 *   appNameMapping: { Notes: com.example.notes }
 * agent:
 *   waitAfterAction: 500
 * tasks:
 *   - name: look around
 *     flow:
 *       - aiTap: the General item
 *       - runDriverRequest: /status
 *         name: status
 *       - appSwitcher:
 *       - home:
 * ```
 *
 * Besides the shared flow items, a MobileB script may use `launch`, `terminate`,
 * `runDriverRequest` (`method`, `data`; its answer's value is stored under `name`), `home` and
 * `appSwitcher`. The agent is created with `agentFromDeviceDriver`, runs `launch`, then the
 * tasks, and is destroyed at the end (writing its report, deleting the session it created).
 *
 * @param script a path to a `.yaml` / `.yml` file, or the script's text.
 * @returns the tasks' outcomes and the stored results, as `agent.runYaml`, and the `output`
 * file the results were written to when the section names one (`output: out/results.json`,
 * relative to the script's folder).
 * @throws {YamlScriptError} for an invalid script (nothing runs then); the errors of
 * `agentFromDeviceDriver` (WebDriverAgent not running) and of `launch`; a task's error (wrapped
 * as `YamlTaskError`) unless the task has `continueOnError`.
 */
export async function runMobileBYaml(
  script: string,
  options: RunMobileBYamlOptions = {},
): Promise<RunPlatformYamlResult> {
  return await SCRIPTS.run(script, options);
}

/**
 * MobileB's scripts for tools that run script files of every platform (`sdk run` of `@sdk/cli`
 * loads this package when a file has a `mobileb` section and runs it with {@link runMobileBYaml}).
 */
export const mobileBScriptPlatform: ScriptPlatform = SCRIPTS.platform;
