/**
 * The X display a desktop device works on: confirming that an X server answers before nut-js is
 * touched (nut-js crashes the whole process when it has no display), listing the monitors with
 * `xrandr --listmonitors`, and the agent-owned virtual display (Xvfb) of `headless`.
 *
 * @module
 */

import { execFile, spawn } from "node:child_process";
import { createConnection } from "node:net";
import {
  adoptChild,
  childEnv,
  ConnectionError,
  holdOpen,
  MissingDependencyError,
  SdkTypeError,
  ToolError,
} from "@sdk/core";
import { findExecutable, meaningfulLines } from "./tools.ts";
import { createPrivateXAuthority } from "./xauth.ts";

/**
 * What an X client the SDK runs (xrandr, xwininfo, the nut-js host, xfreerdp) sees of the
 * environment: the base variables, `DISPLAY` and `XAUTHORITY` (the display's own cookie file
 * when the SDK started it, else the process's), never the SDK's model settings or keys.
 */
export function x11ClientEnv(
  display: string,
  xauthority: string | undefined,
  allow: readonly (string | RegExp)[] = [],
  set: Readonly<Record<string, string>> = {},
): Record<string, string> {
  return childEnv(["XAUTHORITY", ...allow], {
    DISPLAY: display,
    ...(xauthority !== undefined && { XAUTHORITY: xauthority }),
    ...set,
  });
}

/** Debian/Ubuntu packages, named in errors and in `checkComputerEnvironment()`. */
export const INSTALL_XVFB = "apt-get install xvfb";
/** Package with `xrandr`, which lists the monitors. */
export const INSTALL_XRANDR = "apt-get install x11-xserver-utils";

/** A connected display (a monitor of the X screen), as {@link listX11Displays} reports it. */
export interface DisplayInfo {
  /** The monitor's name (`xrandr --listmonitors`, e.g. `"DP-1"`, `"screen"` under Xvfb): the `displayId` to give the device. */
  id: string;
  /** Its position in `xrandr --listmonitors`, from 0 (also accepted as `displayId`). */
  index: number;
  /** Left edge on the X screen, physical pixels. */
  x: number;
  /** Top edge on the X screen, physical pixels. */
  y: number;
  /** Width, physical pixels. */
  width: number;
  /** Height, physical pixels. */
  height: number;
  /** Whether X marks it as the primary monitor. */
  primary: boolean;
  /** Whether the device uses it when no `displayId` is given (see `ComputerDevice`). */
  isDefault: boolean;
}

/** The parts of an X display name such as `:99`, `:99.1` or `host:10.0`. */
interface DisplayName {
  host: string;
  number: number;
}

function parseDisplayName(name: string): DisplayName | undefined {
  const match = /^(?:([^:]*)\/)?([^:/]*):(\d+)(?:\.\d+)?$/.exec(name.trim());
  return match ? { host: match[2], number: Number(match[3]) } : undefined;
}

/**
 * Resolves when an X server answers at `display` (its socket accepts a connection).
 *
 * @param display an X display name (`:99`, `localhost:10.0`); `undefined` when `DISPLAY` is unset.
 * @throws {MissingDependencyError} when `display` is unset (dependency `"X display"`);
 *   {SdkTypeError} when it is malformed; {ConnectionError} (kind `refused`, or `timeout` after
 *   3 s) when nothing answers there. Each says how to get a display (a desktop session,
 *   `Xvfb :99 &` with `DISPLAY=:99`, or `headless: true`).
 */
export async function confirmX11Display(display: string | undefined): Promise<void> {
  const fix = `Run the agent inside a desktop session, start a virtual display (${INSTALL_XVFB}; ` +
    "`Xvfb :99 -screen 0 1920x1080x24 &` then DISPLAY=:99), or create the device with " +
    "`headless: true` (or SDK_COMPUTER_HEADLESS_LINUX=true) to let the SDK start one";
  if (display === undefined || display.trim() === "") {
    throw new MissingDependencyError(
      `Cannot control the desktop: no X display, as DISPLAY is not set. ${fix}`,
      "X display",
    );
  }
  const parsed = parseDisplayName(display);
  if (!parsed) {
    throw new SdkTypeError(
      `Cannot control the desktop: DISPLAY=${JSON.stringify(display)} is not an X display ` +
        `name such as :0 or localhost:10.0. ${fix}`,
    );
  }
  const local = parsed.host === "" || parsed.host === "unix";
  const target = local
    ? { path: `/tmp/.X11-unix/X${parsed.number}` }
    : { host: parsed.host, port: 6000 + parsed.number };
  const where = "path" in target ? target.path : `${target.host}:${target.port}`;
  const refused = (why: string, kind: "refused" | "timeout", cause?: Error) =>
    new ConnectionError(
      `Cannot control the desktop: no X server answers at DISPLAY=${display} (${where}: ${why}). ` +
        fix,
      { kind, endpoint: display },
      { cause },
    );
  await new Promise<void>((resolve, reject) => {
    const socket = createConnection(target);
    const timer = setTimeout(() => {
      socket.destroy();
      reject(refused("no answer within 3 s", "timeout"));
    }, 3000);
    socket.once("connect", () => {
      clearTimeout(timer);
      socket.destroy();
      resolve();
    });
    socket.once("error", (e) => {
      clearTimeout(timer);
      reject(refused(e.message, "refused", e));
    });
  });
}

function run(file: string, args: string[], env: Record<string, string>): Promise<string> {
  if (!findExecutable(file)) {
    return Promise.reject(
      new MissingDependencyError(
        `Cannot list displays: ${file} was not found. Install it (${INSTALL_XRANDR})`,
        file,
      ),
    );
  }
  return holdOpen(
    new Promise((resolve, reject) => {
      // Short-lived, but ended with this process too (a signal while displays are listed).
      adoptChild(execFile(
        file,
        args,
        { env, timeout: 10_000 },
        (e, stdout, stderr) => {
          if (!e) return resolve(String(stdout));
          if ((e as NodeJS.ErrnoException).code === "ENOENT") {
            return reject(
              new MissingDependencyError(
                `Cannot list displays: ${file} was not found. Install it (${INSTALL_XRANDR})`,
                file,
                { cause: e },
              ),
            );
          }
          const output = meaningfulLines(String(stderr)).join("\n") || e.message.trim();
          const status = (e as { code?: unknown }).code;
          reject(
            new ToolError(
              `Cannot list displays: \`${file} ${args.join(" ")}\` failed: ${output}`,
              { tool: file, status: typeof status === "number" ? status : undefined, output },
              { cause: e },
            ),
          );
        },
      ));
    }),
  );
}

/**
 * Parses `xrandr --listmonitors`:
 * ```
 * Monitors: 2
 *  0: +*DP-1 1920/527x1080/296+0+0  DP-1
 *  1: +HDMI-1 1280/338x1024/270+1920+0  HDMI-1
 * ```
 */
export function parseMonitors(text: string): DisplayInfo[] {
  const monitors: DisplayInfo[] = [];
  for (const line of text.split("\n")) {
    const m = /^\s*(\d+):\s+([+*]*)(\S+)\s+(\d+)\/\d+x(\d+)\/\d+\+(-?\d+)\+(-?\d+)/.exec(line);
    if (!m) continue;
    monitors.push({
      id: m[3],
      index: Number(m[1]),
      width: Number(m[4]),
      height: Number(m[5]),
      x: Number(m[6]),
      y: Number(m[7]),
      primary: m[2].includes("*"),
      isDefault: false,
    });
  }
  const chosen = monitors.find((d) => d.primary) ??
    monitors.find((d) => d.x === 0 && d.y === 0) ?? monitors[0];
  if (chosen) chosen.isDefault = true;
  return monitors;
}

/**
 * The monitors of the X screen at `display`, in `xrandr`'s order, the default one marked.
 * `xauthority` is the display's X authority file (else `XAUTHORITY` of this process).
 *
 * @throws {ConnectionError} when no X server answers (see {@link confirmX11Display});
 *   {MissingDependencyError} when `xrandr` is missing ({@link INSTALL_XRANDR}); {ToolError} when
 *   it fails.
 */
export async function listX11Displays(
  display: string | undefined,
  xauthority?: string,
): Promise<DisplayInfo[]> {
  await confirmX11Display(display);
  return parseMonitors(
    await run("xrandr", ["--listmonitors"], x11ClientEnv(display!, xauthority)),
  );
}

/** A virtual X display the SDK started (`headless`). */
export interface VirtualDisplay {
  /** Its display name, e.g. `":12"`. */
  readonly display: string;
  /** The Xvfb process id. */
  readonly pid: number;
  /**
   * Its X authority file (0600, in a private folder): the only way in, for the SDK's clients
   * and the user's (`XAUTHORITY`). Removed when Xvfb stops.
   */
  readonly xauthority: string;
  /** Stops Xvfb, waits for it to exit and removes its X authority. Safe to call twice. */
  stop(): Promise<void>;
}

/**
 * Checks an `xvfbResolution` such as `"1920x1080x24"` (width x height x depth; depth 8, 16 or 24).
 *
 * @throws {SdkTypeError} naming the value and the expected form.
 */
export function checkXvfbResolution(resolution: string): void {
  const m = /^(\d+)x(\d+)x(8|16|24)$/.exec(resolution);
  if (!m || Number(m[1]) < 1 || Number(m[2]) < 1) {
    throw new SdkTypeError(
      `Cannot create ComputerDevice as 'xvfbResolution' must be <width>x<height>x<depth> with ` +
        `depth 8, 16 or 24 (for example "1920x1080x24"): current value is ${
          JSON.stringify(resolution)
        }`,
    );
  }
}

/** The message of a missing Xvfb. */
function xvfbMissing(cause?: unknown): MissingDependencyError {
  return new MissingDependencyError(
    `Cannot start the virtual display (headless): Xvfb was not found. Install it (${INSTALL_XVFB})`,
    "Xvfb",
    { cause },
  );
}

/**
 * Starts Xvfb on a display number it picks itself (`-displayfd`, so parallel starts never
 * collide) and resolves once it accepts connections. The display is private: Xvfb takes only
 * clients with the cookie of its own X authority file (`-auth`; see `xauth.ts`), no TCP.
 *
 * @param resolution `<width>x<height>x<depth>`, checked by {@link checkXvfbResolution}.
 * @throws {MissingDependencyError} when Xvfb is not on `PATH` (saying `apt-get install xvfb`),
 *   before anything is spawned; {ToolError} when it exits early (its own words) or reports no
 *   display within 15 s; {ConnectionError} when its display then does not answer.
 */
export async function startXvfb(resolution: string): Promise<VirtualDisplay> {
  checkXvfbResolution(resolution);
  if (!findExecutable("Xvfb")) throw xvfbMissing();
  const auth = await createPrivateXAuthority();
  try {
    return await holdOpen(spawnXvfb(resolution, auth.file, auth.remove));
  } catch (e) {
    await auth.remove();
    throw e;
  }
}

function spawnXvfb(
  resolution: string,
  xauthority: string,
  removeAuthority: () => Promise<void>,
): Promise<VirtualDisplay> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      "Xvfb",
      [
        "-displayfd",
        "3",
        "-screen",
        "0",
        resolution,
        "-auth",
        xauthority,
        "-nolisten",
        "tcp",
        // The display keeps its state (monitors, selections, keymap) while no client is
        // connected.
        "-noreset",
      ],
      { stdio: ["ignore", "ignore", "pipe", "pipe"], env: childEnv() },
    );
    // Killed with this process however it ends; it keeps the process alive only while a call
    // waits on it.
    adoptChild(child);
    let stderr = "";
    let fdText = "";
    let settled = false;
    const said = () => meaningfulLines(stderr).slice(-3).join(" ");
    const fail = (error: Error) => {
      clearTimeout(timer);
      if (settled) return;
      settled = true;
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      reject(error);
    };
    const timer = setTimeout(() => {
      fail(
        new ToolError(
          `Cannot start the virtual display (headless): Xvfb reported no display within 15 s. ${said()}`
            .trim(),
          { tool: "Xvfb", output: said() },
        ),
      );
    }, 15_000);
    child.stderr?.on("data", (d) => stderr = (stderr + String(d)).slice(-2000));
    child.once("error", (e) => {
      // Deno reports a binary that vanished since the PATH check only here, asynchronously.
      fail(
        (e as NodeJS.ErrnoException).code === "ENOENT"
          ? xvfbMissing(e)
          : new ToolError(`Cannot start the virtual display (headless): ${e.message}`, {
            tool: "Xvfb",
            output: e.message,
          }, { cause: e }),
      );
    });
    child.once("exit", (code, signal) => {
      if (fdText.includes("\n")) return;
      fail(
        new ToolError(
          `Cannot start the virtual display (headless): Xvfb exited with ${
            signal ?? code
          }: ${said()}`,
          { tool: "Xvfb", status: code ?? undefined, output: said() },
        ),
      );
    });
    const fd = child.stdio[3] as NodeJS.ReadableStream | undefined | null;
    // Undefined when the spawn failed (Deno): the `error` event above rejects.
    fd?.on("data", async (d) => {
      fdText += String(d);
      if (!fdText.includes("\n") || settled) return;
      clearTimeout(timer);
      (fd as { unref?: () => void }).unref?.();
      const display = `:${fdText.trim()}`;
      const exited = new Promise<void>((done) => {
        if (child.exitCode !== null || child.signalCode !== null) done();
        else child.once("exit", () => done());
      });
      const stop = async () => {
        if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
        const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
        await holdOpen(exited);
        clearTimeout(timer);
        await removeAuthority();
      };
      try {
        await confirmX11Display(display);
        settled = true;
        resolve({ display, pid: child.pid!, xauthority, stop });
      } catch (e) {
        settled = true;
        await stop();
        reject(e);
      }
    });
  });
}
