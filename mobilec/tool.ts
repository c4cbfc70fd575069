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
 * @module
 */

import { execFile } from "node:child_process";
import { accessSync, constants } from "node:fs";
import { delimiter, join } from "node:path";
import process from "node:process";

/** Name of the tool's executable. */
export const TOOL_NAME = "hdc";

/** How to get hdc, for the error when it is not found. */
export const INSTALL_TOOL_HINT: string =
  "Install hdc with DevEco Studio or the HarmonyOS command-line tools (it is in " +
  "sdk/default/openharmony/toolchains), then give its path as the 'toolPath' option, set " +
  "TOOL_HOME to the folder that holds it, or put that folder on PATH";

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
 * @throws {Error} when `toolPath` is given and is not an executable file, or when none of
 * {@link toolCandidates} is (the message lists where it looked and how to install hdc).
 */
export function findTool(options: ToolOptions = {}, env: ToolEnv = processEnv()): string {
  if (options.toolPath !== undefined) {
    if (executable(options.toolPath)) return options.toolPath;
    throw new Error(
      `The HarmonyOS device tool is not at toolPath ${
        JSON.stringify(options.toolPath)
      } (no executable file there). ${INSTALL_TOOL_HINT}`,
    );
  }
  const candidates = toolCandidates(env);
  const found = candidates.find(executable);
  if (found) return found;
  throw new Error(
    `The HarmonyOS device tool (hdc) was not found. Looked in: ${
      env.TOOL_HOME ? "" : "TOOL_HOME (not set); "
    }${candidates.join(", ")}. ${INSTALL_TOOL_HINT}`,
  );
}

/**
 * Runs `hdc args` and resolves what it printed. Never goes through a shell: each argument
 * reaches hdc as it is.
 *
 * @throws {Error} when hdc cannot be started, times out, exits with a non-zero code, or prints
 * `[Fail]` (its own failures); the message has the command and hdc's output.
 */
export function runTool(
  toolPath: string,
  args: readonly string[],
  timeoutMs: number = DEFAULT_TOOL_TIMEOUT_MS,
): Promise<ToolRun> {
  const shown = `${TOOL_NAME} ${args.map((a) => /\s/.test(a) ? JSON.stringify(a) : a).join(" ")}`;
  return new Promise((resolve, reject) => {
    execFile(
      toolPath,
      [...args],
      { encoding: "utf8", maxBuffer: 64 * 1024 * 1024, timeout: timeoutMs, windowsHide: true },
      (error, stdout, stderr) => {
        const output = `${stdout}${stderr}`.trim();
        if (error && (error as { code?: unknown }).code === "ENOENT") {
          reject(
            new Error(`Cannot run ${shown}: ${toolPath} does not exist. ${INSTALL_TOOL_HINT}`),
          );
        } else if (error && (error as { killed?: boolean }).killed) {
          reject(new Error(`${shown} did not finish within ${timeoutMs} ms`));
        } else if (error) {
          reject(
            new Error(
              `${shown} failed (exit code ${(error as { code?: unknown }).code}): ${
                output.slice(0, 500) || error.message
              }`,
            ),
          );
        } else if (/^\[Fail\]/m.test(stdout)) {
          reject(new Error(`${shown} failed: ${output.slice(0, 500)}`));
        } else {
          resolve({ stdout, stderr, exitCode: 0 });
        }
      },
    );
  });
}

/**
 * The connect keys `hdc list targets` prints (`[Empty]` when none).
 *
 * @throws {Error} as {@link findTool} and {@link runTool}.
 */
export async function listTargets(options: ToolOptions = {}): Promise<string[]> {
  const run = await runTool(findTool(options), ["list", "targets"]);
  return run.stdout.split(/\r?\n/).map((line) => line.trim()).filter((line) =>
    line !== "" && !/^\[Empty\]/.test(line)
  );
}
