/**
 * The Android shell's app commands (private to `@sdk/mobilea/testing`): `am` (start, force-stop,
 * kill, broadcast), `monkey` (a launcher intent) and `pm` / `cmd package` (list packages,
 * resolve-activity, path, clear), on the virtual phone's apps, in PackageManagerShellCommand's
 * output formats.
 *
 * @module
 */

import { BROWSER_PACKAGE, KEYCODE, LAUNCHER_PACKAGE } from "@sdk/web/testing";
import type { ShellCommandIo } from "@sdk/web/testing";
import { type AndroidCommand, type AndroidDevice, shortComponent } from "./_android_device.ts";

/** Splits `pkg/.Activity` or `pkg/full.Activity` into a package and a fully qualified name. */
function parseComponent(text: string): { packageName: string; activity?: string } {
  const slash = text.indexOf("/");
  if (slash < 0) return { packageName: text };
  const packageName = text.slice(0, slash);
  const name = text.slice(slash + 1);
  return { packageName, activity: name.startsWith(".") ? packageName + name : name };
}

function activityOf(device: AndroidDevice, packageName: string): string | undefined {
  return device.phone.activityOf(packageName);
}

// Options of `am start` that take a value, and how many.
const AM_VALUE_OPTIONS: Readonly<Record<string, number>> = {
  "-a": 1,
  "-d": 1,
  "-t": 1,
  "-c": 1,
  "-n": 1,
  "-f": 1,
  "-p": 1,
  "-e": 2,
  "--es": 2,
  "--ei": 2,
  "--ez": 2,
  "--el": 2,
  "--ef": 2,
  "--eu": 2,
  "--esa": 2,
  "--user": 1,
  "--display": 1,
  "--windowingMode": 1,
  "--activityType": 1,
  "-R": 1,
  "-P": 1,
  "--start-profiler": 1,
  "--sampling": 1,
  "--receiver-permission": 1,
};

interface Intent {
  action?: string;
  data?: string;
  component?: string;
  packageName?: string;
  extras: Map<string, string>;
  flags: Set<string>;
}

function parseIntent(args: string[]): Intent {
  const intent: Intent = { extras: new Map(), flags: new Set() };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    const takes = AM_VALUE_OPTIONS[arg];
    if (takes === undefined) {
      if (arg.startsWith("-")) intent.flags.add(arg);
      else if (arg.includes("/")) intent.component = arg;
      else if (arg.includes(":")) intent.data = arg;
      else intent.packageName = arg;
      continue;
    }
    const values = args.slice(i + 1, i + 1 + takes);
    i += takes;
    if (arg === "-a") intent.action = values[0];
    else if (arg === "-d") intent.data = values[0];
    else if (arg === "-n") intent.component = values[0];
    else if (arg === "-p") intent.packageName = values[0];
    else if (takes === 2 && values.length === 2) intent.extras.set(values[0], values[1]);
  }
  return intent;
}

/** `am start / start-activity / force-stop / kill / broadcast`. */
export const am: AndroidCommand = async (args, io, device) => {
  const { phone } = device;
  const [verb, ...rest] = args;
  switch (verb) {
    case "start":
    case "start-activity": {
      const intent = parseIntent(rest);
      const describe = [
        intent.action ? `act=${intent.action}` : "",
        intent.data ? `dat=${intent.data}` : "",
        intent.component ? `cmp=${intent.component}` : "",
        !intent.component && intent.packageName ? `pkg=${intent.packageName}` : "",
      ].filter(Boolean).join(" ");
      io.stdout(`Starting: Intent { ${describe} }\n`);
      const started = performance.now();
      let launched: string | undefined;
      if (intent.component || intent.packageName) {
        const { packageName, activity } = parseComponent(
          intent.component ?? intent.packageName!,
        );
        const known = activityOf(device, packageName);
        const activities = device.phone.activitiesOf(packageName);
        if (
          !known ||
          (activity && !activities.includes(activity) && packageName !== BROWSER_PACKAGE)
        ) {
          io.stderr(
            `Error type 3\nError: Activity class {${packageName}/${
              activity ?? "?"
            }} does not exist.\n`,
          );
          return 1;
        }
        if (intent.flags.has("-S")) await phone.stopApp(packageName);
        if (packageName === BROWSER_PACKAGE && intent.data) await phone.openUrl(intent.data);
        else if (packageName === LAUNCHER_PACKAGE) await phone.keyEvent(KEYCODE.HOME);
        else await phone.launchApp(packageName, activity);
        launched = shortComponent(packageName, activity ?? known);
      } else if (intent.data && /^https?:/i.test(intent.data)) {
        await phone.openUrl(intent.data);
        launched = shortComponent(
          BROWSER_PACKAGE,
          activityOf(device, BROWSER_PACKAGE) ?? `${BROWSER_PACKAGE}.Main`,
        );
      } else {
        io.stderr(`Error: Activity not started, unable to resolve Intent { ${describe} }\n`);
        return 1;
      }
      if (intent.flags.has("-W")) {
        const ms = Math.round(performance.now() - started);
        io.stdout(
          `Status: ok\nLaunchState: COLD\nActivity: ${launched}\nTotalTime: ${ms}\n` +
            `WaitTime: ${ms}\nComplete\n`,
        );
      }
      return 0;
    }
    case "force-stop":
    case "kill": {
      const name = rest.filter((arg) => !arg.startsWith("-")).pop();
      if (!name) {
        io.stderr(`Error: no package specified\n`);
        return 1;
      }
      await phone.stopApp(name);
      return 0;
    }
    case "broadcast": {
      const intent = parseIntent(rest);
      io.stdout(`Broadcasting: Intent { act=${intent.action ?? ""} flg=0x400000 }\n`);
      io.stdout("Broadcast completed: result=0\n");
      return 0;
    }
    default:
      io.stderr(`Unknown command: ${verb ?? ""}\n`);
      return 255;
  }
};

/** `monkey -p PKG ...`: launches the app, as one launcher event. */
export const monkey: AndroidCommand = async (args, io, device) => {
  let packageName: string | undefined;
  for (let i = 0; i < args.length; i++) {
    if (args[i] === "-p") packageName = args[++i];
  }
  for (const arg of args) io.stdout(`  bash arg: ${arg}\n`);
  if (!packageName || !activityOf(device, packageName)) {
    io.stdout("args: " + JSON.stringify(args) + "\n");
    io.stderr("** No activities found to run, monkey aborted.\n");
    return 252;
  }
  const started = performance.now();
  await device.phone.launchApp(packageName);
  const ms = Math.round(performance.now() - started);
  io.stdout(
    `Events injected: 1\n## Network stats: elapsed time=${ms}ms (0ms mobile, 0ms wifi, ` +
      `${ms}ms not connected)\n`,
  );
  return 0;
};

/** What `pm list features` lists: a phone with a touch screen, portrait only, and WebView. */
const FEATURES = [
  "reqGlEsVersion=0x30002",
  "android.hardware.faketouch",
  "android.hardware.screen.portrait",
  "android.hardware.touchscreen",
  "android.hardware.touchscreen.multitouch",
  "android.hardware.touchscreen.multitouch.distinct",
  "android.software.input_methods",
  "android.software.webview",
];

/** The system apps of the simulator: the launcher and the browser. */
const SYSTEM_PACKAGES = new Set([LAUNCHER_PACKAGE, BROWSER_PACKAGE]);

// The options of `pm list packages` (PackageManagerShellCommand.runListPackages), and the ones
// that take a value.
const LIST_OPTIONS = new Set(["-a", "-d", "-e", "-f", "-i", "-l", "-s", "-3", "-u", "-U"]);
const LIST_VALUE_OPTIONS = new Set(["--user", "--uid"]);

/** `pm list packages [-3] [-s] [-f] [-i] [-U] [--show-versioncode] [--user N] [--uid N] [FILTER]`. */
function listPackages(args: string[], io: ShellCommandIo, packages: string[]): number {
  const options = new Set<string>();
  let uid: number | undefined;
  let filter: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (LIST_VALUE_OPTIONS.has(arg)) {
      if (arg === "--uid") uid = Number(args[i + 1]);
      i++;
    } else if (arg === "--show-versioncode" || arg === "--apex-only") options.add(arg);
    else if (arg.startsWith("-")) {
      if (!LIST_OPTIONS.has(arg)) {
        io.stderr(`Error: Unknown option: ${arg}\n`);
        return 255;
      }
      options.add(arg);
    } else filter = arg;
  }
  if (options.has("--apex-only")) return 0;
  packages.forEach((name, index) => {
    const system = SYSTEM_PACKAGES.has(name);
    if (options.has("-3") && system) return;
    if (options.has("-s") && !system) return;
    if (options.has("-d")) return; // no app is disabled
    if (filter !== undefined && !name.includes(filter)) return;
    if (uid !== undefined && uidOf(index) !== uid) return;
    let line = "package:";
    if (options.has("-f")) line += `/data/app/${name}-1/base.apk=`;
    line += name;
    if (options.has("--show-versioncode")) line += " versionCode:1";
    if (options.has("-i")) line += "  installer=null";
    if (options.has("-U")) line += ` uid:${uidOf(index)}`;
    io.stdout(`${line}\n`);
  });
  return 0;
}

/** The uid of the n-th installed package: app uids start at 10000 (Process.FIRST_APPLICATION_UID). */
const uidOf = (index: number) => 10000 + index;

/**
 * `pm resolve-activity [--brief | --components] [INTENT]`: the activity an intent starts. A bare
 * package name is a launcher intent for it (Intent.parseCommandArgs); `-n` names a component; a
 * URI opens in the browser. Prints `No activity found` (exit 0) when nothing resolves.
 */
function resolveActivity(args: string[], io: ShellCommandIo, device: AndroidDevice): number {
  const brief = args.includes("--brief");
  const components = args.includes("--components");
  const intent = parseIntent(args.filter((a) => a !== "--brief" && a !== "--components"));
  const { phone } = device;
  let component: string | undefined;
  if (intent.component) {
    const { packageName, activity } = parseComponent(intent.component);
    if (activity && phone.activitiesOf(packageName).includes(activity)) {
      component = shortComponent(packageName, activity);
    }
  } else if (intent.packageName) {
    const activity = activityOf(device, intent.packageName);
    if (activity) component = shortComponent(intent.packageName, activity);
  } else if (intent.data && /^https?:/i.test(intent.data)) {
    component = shortComponent(BROWSER_PACKAGE, activityOf(device, BROWSER_PACKAGE)!);
  }
  if (!component) {
    io.stdout("No activity found\n");
    return 0;
  }
  const [packageName, name] = component.split("/");
  const qualified = name.startsWith(".") ? packageName + name : name;
  if (!components) {
    io.stdout(
      brief
        ? "priority=0 preferredOrder=0 match=0x108000 specificIndex=-1 isDefault=false\n"
        : `  ActivityInfo:\n    name=${qualified}\n    packageName=${packageName}\n` +
          `    enabled=true exported=true directBootAware=false\n` +
          "  priority=0 preferredOrder=0 match=0x108000 specificIndex=-1 isDefault=false\n",
    );
  }
  if (brief || components) io.stdout(`${component}\n`);
  return 0;
}

/**
 * `pm` (and `cmd package`): `list packages ...`, `list features`, `resolve-activity ...`,
 * `path PKG`, `clear PKG`.
 */
export const pm: AndroidCommand = async (args, io, device) => {
  const [verb, ...rest] = args;
  const packages = device.phone.packages();
  if (verb === "list" && rest[0] === "packages") return listPackages(rest.slice(1), io, packages);
  if (verb === "list" && rest[0] === "features") {
    io.stdout(FEATURES.map((feature) => `feature:${feature}\n`).join(""));
    return 0;
  }
  if (verb === "resolve-activity") return resolveActivity(rest, io, device);
  if (verb === "path") {
    const name = rest.filter((arg, i) => !arg.startsWith("-") && rest[i - 1] !== "--user")[0];
    if (!packages.includes(name)) return 1;
    io.stdout(`package:/data/app/${name}-1/base.apk\n`);
    return 0;
  }
  if (verb === "clear") {
    await device.phone.stopApp(rest.filter((arg) => !arg.startsWith("-")).pop() ?? "");
    io.stdout("Success\n");
    return 0;
  }
  io.stderr(`Unknown command: ${verb ?? ""}\n`);
  return verb === undefined ? 0 : 255;
};
