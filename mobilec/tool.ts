/**
 * The HarmonyOS device tool (`hdc`, OpenHarmony Device Connector) as MobileC runs it: where it
 * is found (`toolPath`, `TOOL_HOME`, `PATH`, common install paths), and one run of it through
 * `node:child_process` `execFile` (no shell), with failures turned into errors that say what
 * went wrong.
 *
 * hdc prints `[Fail]...` for its own failures (unknown connect key, no device, a missing file)
 * and does not pass on the exit code of a device command (`hdc shell false` exits 0), so a
 * device command's failure is read from its output by the caller.
 *
 * Failures are the SDK's errors: hdc not found is a `MissingDependencyError`, an unknown connect
 * key a `DeviceNotFoundError`, hdc's server not answering a `ConnectionError` (`refused`), a run
 * over its time limit a `ConnectionError` (`timeout`), and any other failure a `ToolError` with
 * hdc's own words. Each run is an adopted child (`adoptChild` of `@sdk/core`): it ends with the
 * process, and the process is held open while it runs.
 *
 * @module
 */

import { execFile } from "node:child_process";
import { accessSync, constants } from "node:fs";
import { delimiter, join } from "node:path";
import process from "node:process";
import {
  adoptChild,
  childEnv,
  ConnectionError,
  DeviceNotFoundError,
  holdOpen,
  MissingDependencyError,
  ToolError,
} from "@sdk/core";

/** Name of the tool's executable. */
export const TOOL_NAME = "hdc";

/** How to get hdc, for the error when it is not found. */
export const INSTALL_TOOL_HINT: string =
  "Install hdc with DevEco Studio or the HarmonyOS command-line tools (it is in " +
  "sdk/default/openharmony/toolchains), then give its path as the 'toolPath' option, set " +
  "TOOL_HOME to the folder that holds it, or put that folder on PATH";

/**
 * The variables of this process an hdc run gets, besides `PATH`, `HOME` and the locale (`childEnv`
 * of `@sdk/core`): `TOOL_HOME` and hdc's own, by their exact names (`OHOS_HDC_SERVER_PORT`, ...),
 * never a pattern such as `OHOS_*` that would pass a signing password. hdc starts a server that
 * outlives the run; neither sees the program's keys.
 */
const TOOL_ENV: readonly string[] = [
  "TOOL_HOME",
  "OHOS_HDC_SERVER_PORT",
  "OHOS_HDC_LOG_LEVEL",
  "OHOS_HDC_ENCRYPT_CHANNEL",
  "OHOS_HDC_HEARTBEAT",
];

/** Default time limit of one hdc run, ms. */
export const DEFAULT_TOOL_TIMEOUT_MS = 60_000;

/** Options that say where hdc is. */
export interface ToolOptions {
  /**
   * Path of the hdc executable. Default: `$TOOL_HOME/hdc` (or `$TOOL_HOME/toolchains/hdc`), then
   * `hdc` on `PATH`, then the install paths of DevEco Studio and the command-line tools.
   */
  toolPath?: string;
}

/** What one hdc run printed, and its exit code. */
export interface ToolRun {
  /** Standard output. */
  stdout: string;
  /** Standard error. */
  stderr: string;
  /** hdc's exit code. */
  exitCode: number;
}

/** Environment variables, by name (the process's by default). */
export type ToolEnv = Readonly<Record<string, string | undefined>>;

function processEnv(): ToolEnv {
  try {
    return { ...process.env };
  } catch {
    return {}; // no permission to read the environment
  }
}

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The places hdc is looked for, in order, when `toolPath` is not given.
 *
 * @param env the environment to read `TOOL_HOME`, `PATH` and `HOME` from; default the process's.
 */
export function toolCandidates(env: ToolEnv = processEnv()): string[] {
  const exe = process.platform === "win32" ? `${TOOL_NAME}.exe` : TOOL_NAME;
  const candidates: string[] = [];
  const home = env.TOOL_HOME;
  if (home) candidates.push(join(home, exe), join(home, "toolchains", exe));
  for (const dir of (env.PATH ?? "").split(delimiter).filter(Boolean)) {
    candidates.push(join(dir, exe));
  }
  const user = env.HOME || env.USERPROFILE || "";
  const toolchains = join("sdk", "default", "openharmony", "toolchains", exe);
  candidates.push(
    join(user, "command-line-tools", toolchains),
    join(user, "Library", "HarmonyOS", "next", "command-line-tools", toolchains),
    join("/Applications", "DevEco-Studio.app", "Contents", toolchains),
    join("C:\\Program Files", "Huawei", "DevEco Studio", toolchains),
  );
  return candidates;
}

/**
 * The hdc executable to run.
 *
 * @param env the environment of {@link toolCandidates}; default the process's.
 * @throws {MissingDependencyError} (`hdc`) when `toolPath` is given and is not an executable
 * file, or when none of {@link toolCandidates} is (the message lists where it looked and how to
 * install hdc).
 */
export function findTool(options: ToolOptions = {}, env: ToolEnv = processEnv()): string {
  if (options.toolPath !== undefined) {
    if (executable(options.toolPath)) return options.toolPath;
    throw new MissingDependencyError(
      `The HarmonyOS device tool is not at toolPath ${
        JSON.stringify(options.toolPath)
      } (no executable file there). ${INSTALL_TOOL_HINT}`,
      TOOL_NAME,
    );
  }
  const candidates = toolCandidates(env);
  const found = candidates.find(executable);
  if (found) return found;
  throw new MissingDependencyError(
    `The HarmonyOS device tool (hdc) was not found. Looked in: ${
      env.TOOL_HOME ? "" : "TOOL_HOME (not set); "
    }${candidates.join(", ")}. ${INSTALL_TOOL_HINT}`,
    TOOL_NAME,
  );
}

/** hdc's answers that say the device of the connect key is not there. */
const DEVICE_MISSING = /^\[Fail\](?:Not match target founded|Device not founded or connected)/m;
/** hdc's answer when its server does not answer. */
const SERVER_DOWN = /^\[Fail\]Connect server failed/m;

/**
 * Runs `hdc args` and resolves what it printed. Never goes through a shell: each argument
 * reaches hdc as it is. hdc sees {@link TOOL_ENV} of this process's environment, not the rest. The run is adopted (it ends with the process) and holds the process open
 * until it ends.
 *
 * @throws {MissingDependencyError} when `toolPath` cannot be run (it is not there).
 * @throws {ConnectionError} (`timeout`) when it does not finish within `timeoutMs` (it is
 * stopped); (`refused`) when hdc says its server does not answer.
 * @throws {DeviceNotFoundError} when hdc says the connect key of `-t` matches no device
 * (`available` is empty: {@link listTargets} lists them).
 * @throws {ToolError} (`hdc`, with its exit code) when it exits non-zero or prints `[Fail]`;
 * the message has the command and hdc's output.
 */
export function runTool(
  toolPath: string,
  args: readonly string[],
  timeoutMs: number = DEFAULT_TOOL_TIMEOUT_MS,
): Promise<ToolRun> {
  const shown = `${TOOL_NAME} ${args.map((a) => /\s/.test(a) ? JSON.stringify(a) : a).join(" ")}`;
  const key = args[0] === "-t" ? args[1] : undefined;
  return holdOpen(
    new Promise((resolve, reject) => {
      const child = execFile(
        toolPath,
        [...args],
        {
          encoding: "utf8",
          maxBuffer: 64 * 1024 * 1024,
          timeout: timeoutMs,
          windowsHide: true,
          env: childEnv(TOOL_ENV),
        },
        (error, stdout, stderr) => {
          const output = `${stdout}${stderr}`.trim();
          const code = (error as { code?: unknown } | null)?.code;
          if (code === "ENOENT" || code === "EACCES") {
            reject(
              new MissingDependencyError(
                `Cannot run ${shown}: ${toolPath} does not exist${
                  code === "EACCES" ? " or is not executable" : ""
                }. ${INSTALL_TOOL_HINT}`,
                TOOL_NAME,
                { cause: error },
              ),
            );
          } else if (error && (error as { killed?: boolean }).killed) {
            reject(
              new ConnectionError(`${shown} did not finish within ${timeoutMs} ms`, {
                kind: "timeout",
                endpoint: key ?? TOOL_NAME,
              }, { cause: error }),
            );
          } else if (error || /^\[Fail\]/m.test(stdout)) {
            const said = output.slice(0, 500) || (error?.message ?? "");
            const message = `${shown} failed${error ? ` (exit code ${code})` : ""}: ${said}`;
            if (DEVICE_MISSING.test(output)) {
              reject(new DeviceNotFoundError(message, { wanted: key ?? "", available: [] }));
            } else if (SERVER_DOWN.test(output)) {
              reject(
                new ConnectionError(message, { kind: "refused", endpoint: "hdc server" }, {
                  cause: error ?? undefined,
                }),
              );
            } else {
              reject(
                new ToolError(message, {
                  tool: TOOL_NAME,
                  status: typeof code === "number" ? code : undefined,
                  output: said,
                }, { cause: error ?? undefined }),
              );
            }
          } else {
            resolve({ stdout, stderr, exitCode: 0 });
          }
        },
      );
      adoptChild(child);
    }),
  );
}

/**
 * The connect keys `hdc list targets` prints (`[Empty]` when none).
 *
 * @throws as {@link findTool} and {@link runTool}.
 */
export async function listTargets(options: ToolOptions = {}): Promise<string[]> {
  const run = await runTool(findTool(options), ["list", "targets"]);
  return run.stdout.split(/\r?\n/).map((line) => line.trim()).filter((line) =>
    line !== "" && !/^\[Empty\]/.test(line)
  );
}
