/**
 * The Android shell of the adb front (private to `@sdk/mobilea/testing`): the phone shell of
 * `@sdk/web/testing` with the device commands an automation SDK runs (`input`, `screencap`, `wm`,
 * `getprop`, `dumpsys`, `am`, `monkey`, `pm`, `cmd`, `ime`, `settings`, `app_process`,
 * `uiautomator`) beside the toybox tools, answered from the virtual phone.
 *
 * @module
 */

import { TOYBOX_COMMANDS } from "@sdk/web/testing";
import type { AndroidCommand } from "./_android_device.ts";
import { input } from "./_android_input.ts";
import { screencap, wm } from "./_android_screen.ts";
import { dumpsys, getprop, ime, settings } from "./_android_system.ts";
import { am, monkey, pm } from "./_android_apps.ts";
import { appProcess } from "./_android_app_process.ts";
import { uiautomator } from "./_android_uiautomator.ts";

/** `cmd SERVICE ...`: the services' shell commands that have a command of their own too. */
const cmd: AndroidCommand = (args, io, device) => {
  const [service, ...rest] = args;
  if (service === "package") return pm(rest, io, device);
  if (service === "window") return wm(rest, io, device);
  if (service === "activity") return am(rest, io, device);
  if (service === "input") return input(rest, io, device);
  io.stderr(`cmd: Can't find service: ${service ?? ""}\n`);
  return Promise.resolve(20);
};

/** The commands of the Android shell, by name: the toybox tools and Android's own. */
export const ANDROID_COMMANDS: Readonly<Record<string, AndroidCommand>> = {
  ...TOYBOX_COMMANDS,
  input,
  app_process: appProcess,
  screencap,
  wm,
  getprop,
  dumpsys,
  am,
  monkey,
  pm,
  cmd,
  ime,
  settings,
  uiautomator,
};
