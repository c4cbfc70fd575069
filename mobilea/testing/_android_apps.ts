/**
 * The Android shell's app commands (private to `@sdk/mobilea/testing`): `am` (start, force-stop,
 * kill, broadcast), `monkey` (a launcher intent) and `pm` (list packages, path, clear), on the
 * virtual phone's apps.
 *
 * @module
 */

import { BROWSER_PACKAGE, KEYCODE, LAUNCHER_PACKAGE } from "@sdk/web/testing";
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

/** `pm list packages [-3] [-s] [-f] [FILTER]`, `pm path PKG`, `pm clear PKG`. */
export const pm: AndroidCommand = (args, io, device) => {
  const [verb, ...rest] = args;
  const packages = device.phone.packages();
  if (verb === "list" && rest[0] === "packages") {
    const options = rest.slice(1).filter((arg) => arg.startsWith("-"));
    const filter = rest.slice(1).find((arg) => !arg.startsWith("-"));
    const system = new Set([LAUNCHER_PACKAGE, BROWSER_PACKAGE]);
    for (const name of packages) {
      if (options.includes("-3") && system.has(name)) continue;
      if (options.includes("-s") && !system.has(name)) continue;
      if (filter && !name.includes(filter)) continue;
      const path = options.includes("-f") ? `/data/app/${name}-1/base.apk=` : "";
      io.stdout(`package:${path}${name}\n`);
    }
    return Promise.resolve(0);
  }
  if (verb === "path") {
    if (!packages.includes(rest[0])) return Promise.resolve(1);
    io.stdout(`package:/data/app/${rest[0]}-1/base.apk\n`);
    return Promise.resolve(0);
  }
  if (verb === "clear") {
    return device.phone.stopApp(rest[0]).then(() => {
      io.stdout("Success\n");
      return 0;
    });
  }
  io.stderr(`Unknown command: ${verb ?? ""}\n`);
  return Promise.resolve(verb === undefined ? 0 : 255);
};
