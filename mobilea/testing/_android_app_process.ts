/**
 * The Android shell's `app_process` (private to `@sdk/mobilea/testing`): the helpers automation
 * tools push and run with it, once their file is at the class path: the yadb helper, and the
 * scrcpy server (launched as `_scrcpy_server.ts` simulates it).
 *
 * @module
 */

import { resolvePath, type ShellCommandIo } from "@sdk/web/testing";
import { type AndroidCommand, numbers } from "./_android_device.ts";
import { runScrcpyServer, SCRCPY_MAIN } from "./_scrcpy_server.ts";

/** The yadb helper's main class (a dex pushed to /data/local/tmp/yadb and run by app_process). */
const YADB_MAIN = "com.ysbing.yadb.Main";

/**
 * `app_process -Djava.class.path=<dex> <dir> <class> ...` (or `CLASSPATH=<dex> app_process ...`):
 * only the yadb helper runs, once its file was pushed to the class path. Its options:
 * `-keyboard TEXT` commits any Unicode text through an input method (`~CLEAR~` clears the
 * focused field), `-screenshot PATH` writes a PNG, `-touch X Y MS` long-presses,
 * `-writeClipboard TEXT` and `-readClipboard`. The scrcpy server (`com.genymobile.scrcpy.Server`)
 * runs as `_scrcpy_server.ts` simulates it, once a file was pushed to its class path, until the
 * host kills it. Other classes fail with `ClassNotFoundException`.
 */
export const appProcess: AndroidCommand = async (args, io, device) => {
  const classPath = args.find((arg) => arg.startsWith("-Djava.class.path="))
    ?.slice("-Djava.class.path=".length) ?? io.env.CLASSPATH;
  const rest = args.filter((arg) => !arg.startsWith("-D"));
  const mainClass = rest[1];
  if (!classPath || !mainClass) {
    io.stderr("Usage: app_process [java-options] cmd-dir start-class-name [options]\n");
    return 1;
  }
  const known = mainClass === YADB_MAIN || mainClass === SCRCPY_MAIN;
  if (!known || !device.files.has(resolvePath(classPath))) {
    io.stderr(
      `Exception in thread "main" java.lang.ClassNotFoundException: ${mainClass}\n` +
        (known ? "" : `(the simulator runs only the yadb helper and the scrcpy server)\n`),
    );
    return 1;
  }
  if (mainClass === SCRCPY_MAIN) {
    device.localSockets ??= new Map();
    device.videoResets ??= new Set();
    return await runScrcpyServer(rest.slice(2), {
      phone: device.phone,
      localSockets: device.localSockets,
      videoResets: device.videoResets,
      out: (text) => io.stdout(text),
      err: (text) => io.stderr(text),
      killed: io.killed ?? new Promise(() => {}),
    });
  }
  const [option, ...values] = rest.slice(2);
  const { phone } = device;
  if (option === "-keyboard" && values[0] !== undefined) {
    if (values[0] === "~CLEAR~") await phone.clearText();
    else await phone.commitText(values[0]);
    return 0;
  }
  if (option === "-screenshot" && values[0] !== undefined) {
    device.files.set(resolvePath(values[0]), await phone.screenshot());
    return 0;
  }
  if (option === "-touch") {
    const point = numbers(values, 3);
    if (!point) return invalidYadb(io, option);
    await phone.longPress(point[0], point[1], point[2]);
    return 0;
  }
  if (option === "-writeClipboard" && values[0] !== undefined) {
    device.settings.set("clipboard", values[0]);
    return 0;
  }
  if (option === "-readClipboard") {
    io.stdout(`${device.settings.get("clipboard") ?? ""}\n`);
    return 0;
  }
  return invalidYadb(io, option);
};

function invalidYadb(io: ShellCommandIo, option: string | undefined): number {
  io.stderr(
    `yadb: the simulator supports -keyboard TEXT, -screenshot PATH, -touch X Y MS, ` +
      `-writeClipboard TEXT and -readClipboard, not ${option ?? "no option"} as given\n`,
  );
  return 1;
}
