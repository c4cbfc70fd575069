/**
 * The Android shell's system services (private to `@sdk/mobilea/testing`): `getprop`, `dumpsys`
 * (window, activity, input_method, input, display), `ime` and `settings`, answered from the
 * device's properties and settings and the virtual phone. `dumpsys` prints the lines tools parse,
 * not Android's full dumps.
 *
 * @module
 */

import { type AndroidCommand, LATIN_IME, shortComponent } from "./_android_device.ts";

/** `getprop [KEY [DEFAULT]]`: one property, or all as `[key]: [value]`. */
export const getprop: AndroidCommand = (args, io, { properties }) => {
  if (args.length === 0) {
    for (const [key, value] of [...properties].sort(([a], [b]) => a.localeCompare(b))) {
      io.stdout(`[${key}]: [${value}]\n`);
    }
  } else {
    io.stdout(`${properties.get(args[0]) ?? args[1] ?? ""}\n`);
  }
  return Promise.resolve(0);
};

/** `dumpsys [SERVICE]`. */
export const dumpsys: AndroidCommand = async (args, io, device) => {
  const { phone } = device;
  const { packageName, activity } = phone.foregroundApp();
  const component = shortComponent(packageName, activity);
  const full = `${packageName}/${activity}`;
  const task = 10 + Math.max(0, phone.packages().indexOf(packageName));
  const record = `ActivityRecord{5e1f2a7 u0 ${component} t${task}}`;
  const size = `${phone.width}x${phone.height}`;
  switch (args[0]) {
    case "window": {
      io.stdout(
        "WINDOW MANAGER DISPLAY CONTENTS (dumpsys window displays)\n" +
          `  Display: mDisplayId=0 rootTasks=1\n` +
          `    init=${size} ${phone.densityDpi}dpi cur=${size} app=${size} rng=${phone.width}x${phone.width}-${phone.height}x${phone.height}\n` +
          `    mDisplayRotation=ROTATION_0 mRotation=0\n` +
          `  mFocusedApp=${record}\n\n` +
          "WINDOW MANAGER WINDOWS (dumpsys window windows)\n" +
          `  Window #0 Window{8c1d3e2 u0 ${full}}:\n` +
          `    mDisplayId=0 rootTaskId=${task} mSession=Session{7f3a 1234:u0a10123} mClient=android.os.BinderProxy@1\n` +
          `  mCurrentFocus=Window{8c1d3e2 u0 ${full}}\n` +
          `  mFocusedApp=${record}\n`,
      );
      return 0;
    }
    case "activity": {
      if (args[1] && !["activities", "a", "top", "recents", "r"].includes(args[1])) {
        io.stdout(`No services match: ${args[1]}\n`);
        return 0;
      }
      let text = "ACTIVITY MANAGER ACTIVITIES (dumpsys activity activities)\n" +
        "Display #0 (activities from top to bottom):\n";
      for (const name of [packageName, ...phone.runningApps().filter((p) => p !== packageName)]) {
        text += `  * Task{${task} #${task} type=standard A=10123:${name} U=0 visible=${
          name === packageName
        }}\n`;
      }
      text += `    mResumedActivity: ${record}\n` +
        `  ResumedActivity: ${record}\n` +
        `  topResumedActivity=${record}\n`;
      io.stdout(text);
      return 0;
    }
    case "input_method": {
      const shown = await phone.keyboardShown();
      io.stdout(
        "Current Input Method Manager state:\n" +
          `  mCurMethodId=${device.settings.get("secure/default_input_method") ?? LATIN_IME}\n` +
          `  mInputShown=${shown}\n` +
          `  mServedInputConnection=${shown ? "active" : "null"}\n`,
      );
      return 0;
    }
    case "input": {
      io.stdout(
        "INPUT MANAGER (dumpsys input)\n\nInput Reader State:\n" +
          "  Device 3: virtual_touchscreen\n" +
          `    Viewport INTERNAL: displayId=0, orientation=0, deviceSize=[${phone.width}, ${phone.height}]\n` +
          "    Touch Input Mapper (mode - DIRECT):\n      SurfaceOrientation: 0\n",
      );
      return 0;
    }
    case "display": {
      io.stdout(
        "DISPLAY MANAGER (dumpsys display)\n" +
          `  DisplayDeviceInfo{"Built-in Screen": uniqueId="local:0", ${phone.width} x ${phone.height}, ` +
          `density ${phone.densityDpi}, FLAG_DEFAULT_DISPLAY}\n` +
          "  mCurrentOrientation=0\n" +
          `  mBaseDisplayInfo=DisplayInfo{"Built-in Screen", displayId 0, real ${phone.width} x ${phone.height}, ` +
          `rotation 0, density ${phone.densityDpi}}\n`,
      );
      return 0;
    }
    case undefined:
      io.stdout(
        "Currently running services:\n  activity\n  display\n  input\n  input_method\n" +
          "  window\n",
      );
      return 0;
    default:
      io.stderr(`Can't find service: ${args[0]}\n`);
      return 0;
  }
};

/** `ime list / enable / disable / set / reset`: the Latin IME only. */
export const ime: AndroidCommand = (args, io, device) => {
  const [verb, ...rest] = args;
  const id = rest.find((arg) => !arg.startsWith("-"));
  switch (verb) {
    case "list":
      io.stdout(rest.includes("-s") ? `${LATIN_IME}\n` : `${LATIN_IME}:\n  mId=${LATIN_IME}\n`);
      return Promise.resolve(0);
    case "enable":
    case "disable":
      io.stdout(`Input method ${id}: ${verb === "enable" ? "already enabled" : "now disabled"}\n`);
      return Promise.resolve(0);
    case "set":
      if (id !== LATIN_IME) {
        io.stderr(`Unknown input method ${id} cannot be selected for user #0\n`);
        return Promise.resolve(255);
      }
      device.settings.set("secure/default_input_method", id);
      io.stdout(`Input method ${id} selected for user #0\n`);
      return Promise.resolve(0);
    case "reset":
      device.settings.set("secure/default_input_method", LATIN_IME);
      io.stdout(`Reset current and enabled IMEs for user #0\n  Selected: ${LATIN_IME}\n`);
      return Promise.resolve(0);
    default:
      io.stderr("ime <command>:\n  list [-a] [-s]\n  enable ID\n  disable ID\n  set ID\n  reset\n");
      return Promise.resolve(verb === undefined ? 0 : 255);
  }
};

/** `settings get / put / delete / list NAMESPACE ...`, kept in the device's settings. */
export const settings: AndroidCommand = (args, io, device) => {
  const rest = args.filter((arg, i) => !(arg === "--user" || args[i - 1] === "--user"));
  const [verb, namespace, key, value] = rest;
  if (!["system", "secure", "global"].includes(namespace ?? "")) {
    io.stderr("Invalid namespace\n");
    return Promise.resolve(255);
  }
  if (verb === "get") {
    io.stdout(`${device.settings.get(`${namespace}/${key}`) ?? "null"}\n`);
  } else if (verb === "put") {
    device.settings.set(`${namespace}/${key}`, value ?? "");
  } else if (verb === "delete") {
    io.stdout(`Deleted ${device.settings.delete(`${namespace}/${key}`) ? 1 : 0} rows\n`);
  } else if (verb === "list") {
    for (const [k, v] of device.settings) {
      if (k.startsWith(`${namespace}/`)) io.stdout(`${k.slice(namespace.length + 1)}=${v}\n`);
    }
  } else {
    io.stderr(`Invalid command: ${verb}\n`);
    return Promise.resolve(255);
  }
  return Promise.resolve(0);
};
