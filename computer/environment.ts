/**
 * `checkComputerEnvironment()`: what the local desktop agent needs on this machine, and how to
 * install what is missing. nut-js is loaded in a child process that makes no screen call (its first
 * screen call crashes a process without a display).
 *
 * @module
 */

import { existsSync } from "node:fs";
import process from "node:process";
import { confirmX11Display, INSTALL_XRANDR, INSTALL_XVFB } from "./display.ts";
import { INSTALL_NUT_JS, probeNutJs } from "./native.ts";
import { findExecutable } from "./tools.ts";

/** One requirement and whether it is met. */
export interface EnvironmentItem {
  /** What it is: `"display"`, `"nut-js"`, `"libXtst"`, `"xvfb"`, `"xrandr"`. */
  name: string;
  /** Whether it is there. */
  ok: boolean;
  /** Whether the agent cannot work without it (else it only limits an option). */
  required: boolean;
  /** What was found, or what is missing and what it is for. */
  detail: string;
  /** How to install or set it up, when not `ok`. */
  fix?: string;
}

/** The result of {@link checkComputerEnvironment}. */
export interface EnvironmentCheck {
  /** Whether every required item is there (an agent can run now). */
  ok: boolean;
  /** `process.platform`. */
  platform: string;
  /** The items, in the order above. */
  items: EnvironmentItem[];
  /** One line per item that is not `ok`: `"<name>: <detail>. Fix: <fix>"`. */
  problems: string[];
}

function onPath(file: string): boolean {
  return findExecutable(file) !== undefined;
}

function findLibrary(name: string): string | undefined {
  const dirs = [
    "/usr/lib/x86_64-linux-gnu",
    "/usr/lib/aarch64-linux-gnu",
    "/usr/lib64",
    "/usr/lib",
    "/lib/x86_64-linux-gnu",
    "/lib/aarch64-linux-gnu",
    "/lib64",
    "/lib",
  ];
  return dirs.map((d) => `${d}/${name}`).find((path) => existsSync(path));
}

/**
 * Checks the local desktop's requirements: an X display that answers (or Xvfb for `headless`),
 * nut-js, libXtst (nut-js's X input), and `xrandr` (lists displays; needed for `displayId`).
 * Loads nut-js only in a short-lived child process, with no screen call.
 *
 * @returns every item with its state and fix; `ok` when an agent can run now (a display or
 *   Xvfb, nut-js and libXtst on Linux).
 */
export async function checkComputerEnvironment(): Promise<EnvironmentCheck> {
  const linux = process.platform === "linux";
  const items: EnvironmentItem[] = [];
  const xvfb = onPath("Xvfb");
  if (linux) {
    const display = process.env.DISPLAY;
    let reachable: string | undefined;
    try {
      await confirmX11Display(display);
    } catch (e) {
      reachable = (e as Error).message;
    }
    items.push({
      name: "display",
      ok: reachable === undefined,
      // Without a display the agent still runs when it may start its own Xvfb.
      required: !xvfb,
      detail: reachable === undefined ? `X server at DISPLAY=${display}` : reachable,
      ...(reachable !== undefined && {
        fix:
          `start a desktop session or Xvfb and set DISPLAY, or use headless: true (${INSTALL_XVFB})`,
      }),
    });
  }
  const nut = await probeNutJs();
  items.push({
    name: "nut-js",
    ok: nut.from !== undefined,
    required: true,
    detail: nut.from ? `@nut-tree-fork/nut-js from ${nut.from}` : String(nut.error),
    ...(!nut.from && { fix: INSTALL_NUT_JS }),
  });
  if (linux) {
    const xtst = findLibrary("libXtst.so.6");
    items.push({
      name: "libXtst",
      ok: xtst !== undefined,
      required: true,
      detail: xtst ?? "libXtst.so.6 (X input events for nut-js) was not found",
      ...(!xtst && { fix: "apt-get install libxtst6" }),
    });
    items.push({
      name: "xvfb",
      ok: xvfb,
      required: false,
      detail: xvfb
        ? "Xvfb is on PATH"
        : "Xvfb is not on PATH; headless: true cannot start a display",
      ...(!xvfb && { fix: INSTALL_XVFB }),
    });
    const xrandr = onPath("xrandr");
    items.push({
      name: "xrandr",
      ok: xrandr,
      required: false,
      detail: xrandr
        ? "xrandr is on PATH"
        : "xrandr is not on PATH; listDisplays() and displayId need it",
      ...(!xrandr && { fix: INSTALL_XRANDR }),
    });
  }
  const problems = items.filter((i) => !i.ok).map((i) => `${i.name}: ${i.detail}. Fix: ${i.fix}`);
  return {
    ok: items.every((i) => i.ok || !i.required),
    platform: process.platform,
    items,
    problems,
  };
}
