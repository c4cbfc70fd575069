/**
 * `@sdk/web/chromium`: the system Chromium, as the `sdk` command line, the playground, the device
 * simulator kit, the demo and the tests launch it: find it (or install Debian's package when
 * running as root with apt-get), and launch it through playwright-core. Never downloads a browser
 * build.
 *
 * @module
 */

import { access, constants } from "node:fs/promises";
import { spawn } from "node:child_process";
import process from "node:process";
import type { DriverBBrowser as Browser } from "../driver_b/types.ts";
import { childEnv, MissingDependencyError, ToolError } from "../_core.ts";
import { loadPlaywright } from "../_peers.ts";

export type { DriverBBrowser } from "../driver_b/types.ts";

/** The viewport of pages the command line and the playground open, CSS pixels: 1280 x 800. */
export const DEFAULT_VIEWPORT: { width: number; height: number } = { width: 1280, height: 800 };

/** Where Chromium is looked for, in order, after `SDK_CHROMIUM_PATH`. */
export const CHROMIUM_CANDIDATES: readonly string[] = [
  "/usr/bin/chromium",
  "/usr/bin/chromium-browser",
  "/usr/bin/google-chrome",
  "/usr/bin/google-chrome-stable",
  "/opt/google/chrome/chrome",
];

/**
 * Flags every browser launched here gets: no GPU, no background network traffic. The sandbox is
 * decided apart ({@link chromiumSandbox}).
 */
export const CHROMIUM_ARGS: readonly string[] = [
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/**
 * The variables of this process the launched Chromium gets, besides `PATH`, `HOME` and the locale
 * (`childEnv` of `@sdk/core`): the display (`DISPLAY`, `WAYLAND_DISPLAY`, `XAUTHORITY`), the XDG
 * folders, fontconfig, the session bus, the setuid sandbox's path (`CHROME_DEVEL_SANDBOX`) and the
 * proxy variables. Never the program's keys: the pages it loads come from scripts.
 */
export const CHROMIUM_ENV: readonly (string | RegExp)[] = [
  "DISPLAY",
  "WAYLAND_DISPLAY",
  "XAUTHORITY",
  /^XDG_/,
  /^FONTCONFIG_/,
  "DBUS_SESSION_BUS_ADDRESS",
  "CHROME_DEVEL_SANDBOX",
  /^(http|https|ftp|no|all)_proxy$/i,
];

async function isExecutable(file: string): Promise<boolean> {
  try {
    await access(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

async function firstExecutable(): Promise<string | undefined> {
  for (const candidate of CHROMIUM_CANDIDATES) {
    if (await isExecutable(candidate)) return candidate;
  }
  return undefined;
}

async function findOnPath(name: string): Promise<string | undefined> {
  for (const dir of (process.env.PATH ?? "").split(":")) {
    if (dir && await isExecutable(`${dir}/${name}`)) return `${dir}/${name}`;
  }
  return undefined;
}

function run(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      stdio: "inherit",
      env: childEnv([/^(http|https|ftp|no|all)_proxy$/i, /^APT_/], {
        DEBIAN_FRONTEND: "noninteractive",
      }),
    });
    child.on("error", reject);
    child.on(
      "exit",
      (code) =>
        code === 0 ? resolve() : reject(
          new ToolError(`'${command} ${args.join(" ")}' exited with code ${code}`, {
            tool: command,
            status: code ?? undefined,
          }),
        ),
    );
  });
}

/**
 * Finds a Chromium executable.
 *
 * Order: `SDK_CHROMIUM_PATH` (when set it must exist), then {@link CHROMIUM_CANDIDATES}. When none
 * exists, `apt-get` is available and the process runs as root, it installs Debian's `chromium`
 * package (`apt-get update`, `apt-get install -y chromium`) and looks again.
 *
 * @returns the executable's path.
 * @throws {MissingDependencyError} (dependency `"Chromium"`) when `SDK_CHROMIUM_PATH` names no
 * executable, or no Chromium is found and it cannot be installed; the message says what to
 * install or which variable to set.
 * @throws {ToolError} when installing it with apt-get fails.
 */
export async function findChromium(): Promise<string> {
  const explicit = process.env.SDK_CHROMIUM_PATH;
  if (explicit) {
    if (await isExecutable(explicit)) return explicit;
    throw new MissingDependencyError(
      `SDK_CHROMIUM_PATH is set to '${explicit}', which is not an executable file. ` +
        "Point it at a Chromium or Chrome binary, or unset it to search the usual places.",
      "Chromium",
    );
  }
  const found = await firstExecutable();
  if (found) return found;

  const aptGet = await findOnPath("apt-get");
  const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
  if (aptGet && isRoot) {
    console.error(
      "No Chromium found; installing Debian's chromium package with apt-get (apt-get update && apt-get install -y chromium) ...",
    );
    await run(aptGet, ["update"]);
    await run(aptGet, ["install", "-y", "chromium"]);
    const installed = await firstExecutable();
    if (installed) return installed;
  }
  throw new MissingDependencyError(
    `No Chromium found (looked at ${CHROMIUM_CANDIDATES.join(", ")}). ` +
      "Install it, e.g. 'apt-get install chromium' on Debian or 'apt-get install chromium-browser' on Ubuntu, " +
      "or set SDK_CHROMIUM_PATH to the path of a Chromium or Chrome executable.",
    "Chromium",
  );
}

/** The variable that turns the sandbox of the Chromium the SDK launches off: `1` does. */
export const NO_SANDBOX_ENV = "SDK_CHROMIUM_NO_SANDBOX";

/** What {@link chromiumSandbox} decides from: this process's user id and environment. */
export interface ChromiumSandboxFacts {
  /** The process's user id; undefined where there is none (Windows). */
  uid?: number;
  /** The environment ({@link NO_SANDBOX_ENV}). */
  env: Readonly<Record<string, string | undefined>>;
}

/** Whether a launch keeps Chromium's sandbox, and what to tell the user when it cannot. */
export interface ChromiumSandbox {
  /** `true`: Chromium runs its renderers in its sandbox. */
  sandbox: boolean;
  /** Set when the sandbox is off without the user asking (the process runs as root). */
  warning: string | undefined;
}

function processFacts(): ChromiumSandboxFacts {
  return { uid: process.getuid?.(), env: process.env };
}

/**
 * Decides the sandbox of a Chromium the SDK launches. The pages it loads come from scripts and
 * models, so the sandbox stays on unless:
 *
 * - `options.sandbox` says (`false`: off, `true`: on, even as root, where Chromium refuses to
 *   start);
 * - else {@link NO_SANDBOX_ENV} is `1`: off, on purpose;
 * - else the process runs as root, where Chromium cannot sandbox: off, with a warning saying so.
 *
 * @param options `sandbox`, as {@link LaunchChromiumOptions} has it.
 * @param facts the user id and environment; default this process's.
 */
export function chromiumSandbox(
  options: { sandbox?: boolean } = {},
  facts: ChromiumSandboxFacts = processFacts(),
): ChromiumSandbox {
  if (options.sandbox !== undefined) return { sandbox: options.sandbox, warning: undefined };
  if (facts.env[NO_SANDBOX_ENV] === "1") return { sandbox: false, warning: undefined };
  if (facts.uid === 0) {
    return {
      sandbox: false,
      warning: "Chromium runs without its sandbox: this process runs as root, where Chromium " +
        "cannot sandbox its pages, so a page that exploits a browser bug runs as root. Run as " +
        `another user to keep the sandbox, or set ${NO_SANDBOX_ENV}=1 (the 'sandbox: false' ` +
        "option) to turn it off on purpose and silence this warning (docs/security.md).",
    };
  }
  return { sandbox: true, warning: undefined };
}

// The root warning is said once per process, however many browsers it launches.
let sandboxWarned = false;

/** Options of {@link launchChromium}. */
export interface LaunchChromiumOptions {
  /** Run without a window. Default `true`. */
  headless?: boolean;
  /**
   * Let Playwright close the browser on Ctrl+C, SIGTERM and SIGHUP (its default: the process ends
   * with code 130 at once). Default `true`. A caller that finalizes reports on Ctrl+C sets `false`
   * and closes the browser itself.
   */
  handleSignals?: boolean;
  /**
   * Chromium's sandbox. Default: on, unless {@link NO_SANDBOX_ENV} is `1` or the process runs as
   * root (where Chromium cannot sandbox: off, and a warning says so once); see
   * {@link chromiumSandbox}. `false` turns it off without a warning.
   */
  sandbox?: boolean;
  /** Receives the warning of a sandbox turned off as root. Default `console.warn`. */
  onWarning?: (message: string) => void;
  /** Command-line arguments after {@link CHROMIUM_ARGS} (a script's `chromeArgs`). */
  args?: readonly string[];
}

/**
 * Launches the system Chromium through playwright-core with {@link CHROMIUM_ARGS}, its sandbox as
 * {@link chromiumSandbox} decides, and of this process's environment only {@link CHROMIUM_ENV}.
 *
 * @param options headless or not, who handles Ctrl+C, the sandbox, more arguments.
 * @returns the Playwright browser; close it with `browser.close()`.
 * @throws {MissingDependencyError} from {@link findChromium} when no Chromium can be found, or
 * when `playwright-core` (an optional peer of `@sdk/web`) is not installed.
 *
 * @example
 * ```ts ignore
 * const browser = await launchChromium();
 * const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
 * await page.goto(`${app.url}login.html`);
 * await browser.close();
 * ```
 */
export async function launchChromium(options: LaunchChromiumOptions = {}): Promise<Browser> {
  const executablePath = await findChromium();
  const { chromium } = await loadPlaywright();
  const { sandbox, warning } = chromiumSandbox(options);
  if (warning && !sandboxWarned) {
    sandboxWarned = true;
    (options.onWarning ?? console.warn)(warning);
  }
  return await chromium.launch({
    executablePath,
    headless: options.headless ?? true,
    args: [...CHROMIUM_ARGS, ...(options.args ?? [])],
    // Playwright's own default is no sandbox.
    chromiumSandbox: sandbox,
    env: childEnv(CHROMIUM_ENV),
    handleSIGINT: options.handleSignals ?? true,
    handleSIGTERM: options.handleSignals ?? true,
    handleSIGHUP: options.handleSignals ?? true,
  });
}
