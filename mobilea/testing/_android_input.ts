/**
 * The Android shell's `input` command (private to `@sdk/mobilea/testing`): taps, swipes, text,
 * key events and hand-driven motion events on the virtual phone, in physical pixels.
 *
 * @module
 */

import { KEYCODE } from "@sdk/web/testing";
import { type AndroidCommand, numbers } from "./_android_device.ts";

const KEYCODE_NAMES: ReadonlyMap<string, number> = new Map<string, number>([
  ...Object.entries(KEYCODE),
  ["APP_SWITCH", 187],
  ...Array.from({ length: 10 }, (_, i) => [String(i), 7 + i] as [string, number]),
  ...Array.from(
    { length: 26 },
    (_, i) => [String.fromCharCode(65 + i), 29 + i] as [string, number],
  ),
]);

function parseKeyCode(name: string): number | undefined {
  if (/^\d+$/.test(name)) return Number(name);
  return KEYCODE_NAMES.get(name.toUpperCase().replace(/^KEYCODE_/, ""));
}

/** ViewConfiguration's TOUCH_SLOP, dp: how far a finger may wander and still press. */
const TOUCH_SLOP_DP = 8;
/** ViewConfiguration.DEFAULT_LONG_PRESS_TIMEOUT, ms (Android 12 and later; 500 before). */
const LONG_PRESS_TIMEOUT_MS = 400;

/** The touch slop in physical pixels, as `getDimensionPixelSize` rounds 8 dp at a density. */
function touchSlop(density: number): number {
  return Math.max(1, Math.round(TOUCH_SLOP_DP * density));
}

const INPUT_SOURCES = new Set([
  "keyboard",
  "mouse",
  "joystick",
  "touchnavigation",
  "touchpad",
  "trackball",
  "dpad",
  "stylus",
  "gamepad",
  "touchscreen",
  "rotaryencoder",
]);

const INPUT_USAGE = "Usage: input [<source>] [-d DISPLAY_ID] <command> [<arg>...]\n\n" +
  "The commands and default sources are:\n" +
  "      text <string> (Default: touchscreen)\n" +
  "      keyevent [--longpress|--doubletap] <key code number or name> ... (Default: keyboard)\n" +
  "      tap <x> <y> (Default: touchscreen)\n" +
  "      swipe <x1> <y1> <x2> <y2> [duration(ms)] (Default: touchscreen)\n" +
  "      draganddrop <x1> <y1> <x2> <y2> [duration(ms)] (Default: touchscreen)\n" +
  "      motionevent <DOWN|UP|MOVE|CANCEL> <x> <y> (Default: touchscreen)\n";

/** `input [SOURCE] [-d DISPLAY] VERB ARGS...`, as Android's InputShellCommand. */
export const input: AndroidCommand = async (args, io, { phone, settings }) => {
  args = [...args];
  if (args.length > 0 && INPUT_SOURCES.has(args[0])) args.shift();
  if (args[0] === "-d") {
    const display = args[1];
    args.splice(0, 2);
    if (display !== "0" && display !== "-1") {
      io.stderr(`Error: display ${display} does not exist (the simulator has display 0 only)\n`);
      return 1;
    }
  }
  const [verb, ...rest] = args;
  const invalid = () => {
    io.stderr(`Error: Invalid arguments for command: ${verb}\n${INPUT_USAGE}`);
    return 1;
  };
  switch (verb) {
    case "tap": {
      const point = numbers(rest, 2);
      if (!point) return invalid();
      await phone.tap(point[0], point[1]);
      return 0;
    }
    case "swipe":
    case "draganddrop": {
      const line = numbers(rest, 4);
      if (!line) return invalid();
      const duration = rest[4] === undefined ? (verb === "swipe" ? 300 : 1000) : Number(rest[4]);
      if (!Number.isFinite(duration) || duration < 0) return invalid();
      const [x1, y1, x2, y2] = line;
      // Android's gesture detection tells the finger's path apart: within the touch slop it is a
      // press, a long press once held for the long-press timeout, else a tap; beyond it, a swipe.
      const slop = touchSlop(phone.density);
      const timeout = Number(settings.get("secure/long_press_timeout") ?? LONG_PRESS_TIMEOUT_MS);
      if (Math.hypot(x2 - x1, y2 - y1) > slop) await phone.swipe(x1, y1, x2, y2, duration);
      else if (duration >= timeout) await phone.longPress(x1, y1, duration);
      else await phone.tap(x1, y1, duration);
      return 0;
    }
    case "text": {
      if (rest.length === 0) return invalid();
      // Only the first argument is typed; `%s` stands for a space (Android's InputShellCommand).
      const text = rest[0].replaceAll("%s", " ");
      // The virtual keyboard's key map has no events for non-ASCII characters: Android's `input
      // text` fails on them without typing anything.
      if (/[^\x20-\x7e\t\n]/.test(text)) {
        io.stderr(
          "Exception occurred while executing 'text':\n" +
            "java.lang.NullPointerException: Attempt to get length of null array\n" +
            "\tat com.android.server.input.InputShellCommand.sendText(InputShellCommand.java)\n",
        );
        return 255;
      }
      await phone.inputText(text);
      return 0;
    }
    case "motionevent": {
      const action = rest[0]?.toLowerCase();
      const point = numbers(rest.slice(1), 2);
      if (!point || !["down", "move", "up", "cancel"].includes(action)) return invalid();
      await phone.touch(action as "down" | "move" | "up" | "cancel", point[0], point[1]);
      return 0;
    }
    case "keyevent":
    case "press": {
      const codes = rest.filter((arg) => !arg.startsWith("--"));
      if (verb === "press") codes.push("DPAD_CENTER");
      if (codes.length === 0) return invalid();
      for (const name of codes) {
        const code = name === "DPAD_CENTER" ? 23 : parseKeyCode(name);
        if (code === undefined) {
          io.stderr(`Error: Unknown keycode: ${name}\n`);
          return 1;
        }
        await phone.keyEvent(code);
      }
      return 0;
    }
    default:
      io.stderr(
        verb === undefined ? INPUT_USAGE : `Error: Unknown command: ${verb}\n${INPUT_USAGE}`,
      );
      return 1;
  }
};
