/**
 * `runComputerYaml`: runs a YAML script with a `computer:` section on a desktop (the local
 * display, an agent-owned Xvfb, or a remote desktop over RDP), creating the agent from the
 * section (spec 4.5, 4.11).
 *
 * @module
 */

import {
  bool,
  mapping,
  num,
  oneOf,
  platformScripts,
  type RunPlatformYamlOptions,
  type RunPlatformYamlResult,
  type ScriptPlatform,
  type ScriptSectionSchema,
  text,
} from "@sdk/core/script";
import { type InputStrategy, SdkTypeError } from "@sdk/core";
import {
  agentForComputer,
  type AgentForComputerOptions,
  agentForRDPComputer,
  type ComputerAgent,
} from "./agent.ts";
import type { RDPDeviceOptions } from "./rdp_options.ts";
import type { RDPDevice } from "./rdp.ts";
import type { ComputerDevice } from "./device.ts";

/** The `rdp` mapping of a `computer` section: the plain-data RDP options (spec 4.11). */
export type ComputerScriptRdp = Omit<
  RDPDeviceOptions,
  "customActions" | "keyboardTypeDelay" | "inputStrategy"
>;

/**
 * The `computer` section of a script (spec 4.11): the local desktop's plain-data options, or an
 * `rdp` mapping for a remote one. Values are type-checked when the script is read; the devices
 * check their ranges.
 */
export interface ComputerScriptSection extends Record<string, unknown> {
  /** The display to drive (from `ComputerDevice.listDisplays()`); the primary one when left out. */
  displayId?: string;
  /** The X display to drive (`":99"`); `DISPLAY` when left out. Not with `headless`. */
  display?: string;
  /**
   * The display's X authority file; `XAUTHORITY` when left out. Refused in an untrusted script
   * (a cookie file grants the display).
   */
  xauthority?: string;
  /** Start an agent-owned Xvfb and drive it. Default `false` (or `SDK_COMPUTER_HEADLESS_LINUX`). */
  headless?: boolean;
  /** The Xvfb's `WxHxDepth`. Default `1920x1080x24`. */
  xvfbResolution?: string;
  /** The macOS keyboard backend (spec 4.11). */
  keyboardDriver?: "scripted" | "native";
  /** ms after each modifier transition of the native keyboard driver (spec 4.11). */
  keyboardModifierDelay?: number;
  /** `en-US`: layout-dependent shifted punctuation in sequential local input (spec 4.11). */
  keyboardLayout?: "en-US";
  /** ms between code points, local and RDP (spec 4.11). */
  keyboardTypeDelay?: number;
  /** `legacy` (default), `sequential` or `bulk`, local and RDP (spec 4.11). */
  inputStrategy?: InputStrategy;
  /** A remote desktop: the script runs over RDP instead of on a local display. */
  rdp?: ComputerScriptRdp;
}

/** The local desktop's keys, which a section with `rdp` may not have. */
const LOCAL_KEYS = [
  "displayId",
  "display",
  "xauthority",
  "headless",
  "xvfbResolution",
  "keyboardDriver",
  "keyboardModifierDelay",
  "keyboardLayout",
] as const;

/** How the `computer` section is read. */
const COMPUTER_SCRIPT_SECTION: ScriptSectionSchema<ComputerScriptSection> = {
  key: "computer",
  label: "desktop",
  describe: "display, displayId, headless, xvfbResolution, keyboard options, rdp",
  untrusted: {
    refused: {
      "rdp.ignoreCertificate": "turns off the check of the remote desktop's certificate",
      xauthority: "names an X authority file, whose cookie grants an X display",
    },
  },
  fields: {
    displayId: text,
    display: text,
    xauthority: text,
    headless: bool,
    xvfbResolution: text,
    keyboardDriver: oneOf("scripted", "native"),
    keyboardModifierDelay: num({ min: 0, unit: "ms" }),
    keyboardLayout: oneOf("en-US"),
    keyboardTypeDelay: num({ min: 0, unit: "ms" }),
    inputStrategy: oneOf("legacy", "sequential", "bulk"),
    rdp: mapping<ComputerScriptRdp>("the rdp mapping", {
      host: text,
      port: num({ integer: true, above: 0 }),
      username: text,
      password: text,
      domain: text,
      localAddress: text,
      adminSession: bool,
      ignoreCertificate: bool,
      securityProtocol: oneOf("auto", "tls", "nla", "rdp"),
      desktopWidth: num({ integer: true, above: 0, unit: "px" }),
      desktopHeight: num({ integer: true, above: 0, unit: "px" }),
      sessionStartTimeout: num({ min: 0, unit: "ms" }),
    }, ["host"]),
  },
};

/**
 * Options of {@link runComputerYaml}: `agentOptions` (agent and device options that outrank the
 * script's `agent` and `computer` sections), `fileName`, `env`, `signal`, `onAgent`, and the
 * trust options (`untrusted`, `allowEnv`, `workDir`).
 */
export type RunComputerYamlOptions = RunPlatformYamlOptions<
  ComputerAgent<ComputerDevice | RDPDevice>,
  Partial<AgentForComputerOptions>
>;

/** The section's runner and platform, built once from the schema. */
const SCRIPTS = platformScripts<
  ComputerScriptSection,
  ComputerAgent<ComputerDevice | RDPDevice>,
  Partial<AgentForComputerOptions>
>(
  COMPUTER_SCRIPT_SECTION,
  "@sdk/computer",
  "runComputerYaml",
  async ({ rdp, ...local }, agentOptions, own) => {
    if (rdp === undefined) return await agentForComputer({ ...agentOptions, ...local, ...own });
    const mixed = LOCAL_KEYS.filter((k) => local[k] !== undefined);
    if (mixed.length > 0) {
      throw new SdkTypeError(
        `the computer section has 'rdp' and ${mixed.map((k) => `'${k}'`).join(", ")}: ` +
          `those are the local desktop's; a remote desktop takes only rdp, keyboardTypeDelay ` +
          `and inputStrategy`,
      );
    }
    return await agentForRDPComputer({ ...agentOptions, ...local, ...rdp, ...own });
  },
);

/**
 * Runs a YAML script on a desktop. The script has a `computer` section:
 *
 * ```yaml
 * computer:
 *   headless: true                 # an agent-owned Xvfb; left out: the local display
 *   xvfbResolution: 1280x800x24
 *   keyboardLayout: en-US
 *   # or a remote desktop:
 *   # rdp: { host: 10.0.0.5, username: tester, password: "${RDP_PASSWORD}" }
 * agent:
 *   waitAfterAction: 300
 * tasks:
 *   - name: save a note
 *     flow:
 *       - aiInput: the name field
 *         value: Quarterly report
 *       - aiTap: the Save button
 * ```
 *
 * The agent is created with `agentForComputer` (or `agentForRDPComputer` for `rdp`), runs the
 * tasks with the shared flow items, and is destroyed at the end (writing its report, stopping an
 * agent-owned Xvfb, closing the RDP client). With `untrusted`, `rdp.ignoreCertificate` and
 * `xauthority` are refused.
 *
 * @param script a path to a `.yaml` / `.yml` file, or the script's text.
 * @returns the tasks' outcomes and the stored results, as `agent.runYaml`, and the `output`
 * file the results were written to when the section names one (relative to the script's folder).
 * @throws {YamlScriptError} for an invalid script (nothing runs then); {SdkTypeError} for `rdp`
 * beside a local desktop's key; the errors of `agentForComputer` / `agentForRDPComputer` (no display, Xvfb,
 * nut-js or FreeRDP missing, the host not answering); a task's error (wrapped as
 * `YamlTaskError`) unless the task has `continueOnError`.
 */
export async function runComputerYaml(
  script: string,
  options: RunComputerYamlOptions = {},
): Promise<RunPlatformYamlResult> {
  return await SCRIPTS.run(script, options);
}

/**
 * Desktop scripts for tools that run script files of every platform (`sdk run` of `@sdk/cli`
 * loads this package when a file has a `computer` section and runs it with
 * {@link runComputerYaml}).
 */
export const computerScriptPlatform: ScriptPlatform = SCRIPTS.platform;
