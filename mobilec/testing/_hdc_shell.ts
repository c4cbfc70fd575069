/**
 * The HarmonyOS device shell of the hdc front (private to `@sdk/mobilec/testing`): the commands an
 * automation SDK runs through `hdc shell` (`uitest uiInput ...`, `uitest screenCap`,
 * `snapshot_display`, `aa start` / `force-stop`, `bm dump`, `hidumper`, `param get`), answered
 * from a virtual phone, on the phone shell of `@sdk/web/testing` (quotes, `;` `&&` `||` `|`,
 * redirections, and the toybox tools). Android's own commands (`input`, `am`, `wm`, ...) are not
 * in its table: they answer `/bin/sh: NAME: inaccessible or not found`, as on a HarmonyOS device.
 *
 * Output formats follow what HarmonyOS prints (docs/simulator.md lists them and what is a best
 * guess). Coordinates are physical pixels of the phone's screen.
 *
 * @module
 */

import { Buffer } from "node:buffer";
import { PNG } from "pngjs";
import jpeg from "jpeg-js";
import {
  BROWSER_PACKAGE,
  LAUNCHER_PACKAGE,
  resolvePath,
  runShell,
  type ShellCommand,
  type ShellCommandIo,
  type ShellDevice,
  TOYBOX_COMMANDS,
  type VirtualPhone,
} from "@sdk/web/testing";
import { androidKeyOf, HARMONY_MODIFIERS, HARMONY_NAMED_KEYS, pageComboOf } from "./_hdc_keys.ts";
import { dumpLayout } from "./_hdc_layout.ts";
import { missionList } from "./_hdc_missions.ts";
import { AA_HELP, BM_COMMANDS, BM_HELP, KNOWN_AA, UITEST_HELP } from "./_hdc_help.ts";

/** How long `uitest uiInput longClick` holds, ms (the simulator's choice). */
const LONG_CLICK_MS = 1500;
/** Default speed of `swipe`, `fling`, `drag` and `dircFling`, px/s (uitest's default). */
const DEFAULT_SWIPE_SPEED = 600;
/** JPEG quality of `snapshot_display` files. */
const SNAPSHOT_JPEG_QUALITY = 90;

/** A HarmonyOS device's shell state: the phone shell's, and the `param get` values. */
interface HarmonyDevice extends ShellDevice {
  /** System parameters, by key. */
  parameters: Map<string, string>;
}

/** The commands of the HarmonyOS shell: the toybox tools and HarmonyOS's own. */
const HARMONY_COMMANDS: Readonly<Record<string, ShellCommand<HarmonyDevice>>> = {
  ...TOYBOX_COMMANDS,
  uitest: (args, io, { phone, files }) => uitest(args, io, phone, files),
  snapshot_display: (args, io, { phone, files }) => snapshotDisplay(args, io, phone, files),
  aa: (args, io, { phone }) => aa(args, io, phone),
  bm: (args, io, { phone }) => bm(args, io, phone),
  hidumper: (args, io, { phone }) => hidumper(args, io, phone),
  param: (args, io, { parameters }) => param(args, io, parameters),
};

/** One HarmonyOS device behind the front: the phone, its files and parameters. */
export interface HarmonyShell {
  /** Runs one `hdc shell` command line; resolves what it printed (stdout then stderr). */
  run(line: string): Promise<string>;
  /** The device's files, by absolute path (`file send` / `file recv` use them). */
  files: Map<string, Uint8Array>;
}

/** Creates the shell of one device; `params` are the `param get` values to add or override. */
export function harmonyShell(
  phone: VirtualPhone,
  params: Record<string, string> = {},
): HarmonyShell {
  const files = new Map<string, Uint8Array>();
  const parameters = new Map<string, string>(Object.entries({
    "const.product.model": phone.model,
    "const.product.brand": phone.manufacturer,
    "const.product.manufacturer": phone.manufacturer,
    "const.product.name": phone.model,
    "const.ohos.apiversion": "12",
    "const.product.software.version": "Simulator 5.0.0",
    "const.ohos.fullname": "OpenHarmony-5.0.0.0",
    "const.product.devicetype": "phone",
    ...params,
  }));
  const device: HarmonyDevice = {
    phone,
    files,
    commands: HARMONY_COMMANDS,
    parameters,
    shellPath: "/bin/sh",
  };
  return {
    files,
    async run(line) {
      const out: Uint8Array[] = [];
      const write = (data: Uint8Array | string) =>
        out.push(typeof data === "string" ? new TextEncoder().encode(data) : data);
      // hdc shell runs the command on a terminal: stdout and stderr arrive as one stream.
      await runShell(line, device, { stdout: write, stderr: write });
      return Buffer.concat(out).toString("utf8");
    },
  };
}

// ---- uitest ----------------------------------------------------------------------------------

const UI_INPUT_USAGE: Readonly<Record<string, string>> = {
  click: "click <point_x> <point_y>",
  doubleClick: "doubleClick <point_x> <point_y>",
  longClick: "longClick <point_x> <point_y>",
  swipe: "swipe <from_x> <from_y> <to_x> <to_y> [velocity]",
  fling: "fling <from_x> <from_y> <to_x> <to_y> [velocity] [step_length]",
  drag: "drag <from_x> <from_y> <to_x> <to_y> [velocity]",
  dircFling: "dircFling [direction] [velocity] [step_length]",
  inputText: "inputText <point_x> <point_y> <text>",
  text: "text <text>",
  keyEvent: "keyEvent <keyID/Back/Home/Power> [keyID_1] [keyID_2]",
};

/**
 * `uitest dumpLayout [-p PATH] [-i] [-a]`: the layout JSON into the device's files (default
 * `/data/local/tmp/layout_<microseconds>.json`), `DumpLayout saved to:PATH`.
 */
async function uitestDumpLayout(
  args: string[],
  io: ShellCommandIo,
  phone: VirtualPhone,
  files: Map<string, Uint8Array>,
): Promise<number> {
  const micros = Math.floor((performance.timeOrigin + performance.now()) * 1000);
  let path = `/data/local/tmp/layout_${micros}.json`;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === "-p") {
      if (args[i + 1] === undefined) {
        io.stdout(
          "uitest: option requires an argument: p\nUSAGE: uitestkit dumpLayout -p <path>\n",
        );
        return 1;
      }
      path = args[++i];
    } else if (/^-p./.test(arg)) path = arg.slice(2);
    else if (arg !== "-i" && arg !== "-a") {
      io.stdout(
        `uitest: unrecognized option: ${
          arg.replace(/^-/, "")
        }\nUSAGE: uitestkit dumpLayout -p <path>\n`,
      );
      return 1;
    }
  }
  const layout = await dumpLayout(phone);
  files.set(resolvePath(path), new TextEncoder().encode(JSON.stringify(layout)));
  io.stdout(`DumpLayout saved to:${path}\n`);
  return 0;
}

async function uitest(
  args: string[],
  io: ShellCommandIo,
  phone: VirtualPhone,
  files: Map<string, Uint8Array>,
): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === "--version") {
    io.stdout("6.0.2.1\n");
    return 0;
  }
  if (sub === "screenCap") {
    const at = rest.indexOf("-p");
    const path = resolvePath(
      at >= 0 && rest[at + 1] ? rest[at + 1] : "/data/local/tmp/screenCap.png",
    );
    files.set(path, await phone.screenshot());
    io.stdout(`ScreenCap saved to ${path}\n`);
    return 0;
  }
  if (sub === "dumpLayout") return await uitestDumpLayout(rest, io, phone, files);
  if (sub === "uiInput") return await uiInput(rest, io, phone);
  if (sub === "help") {
    io.stdout(UITEST_HELP);
    return 0;
  }
  if (sub === undefined) {
    io.stdout(`Missing argument\n${UITEST_HELP}`);
    return 1;
  }
  if (sub === "uiRecord" || sub === "start-daemon") {
    io.stdout(`The simulator's uitest does not run ${sub} (docs/simulator.md, Fidelity)\n`);
    return 1;
  }
  io.stdout(`Illegal argument: ${sub}\n${UITEST_HELP}`);
  return 1;
}

async function uiInput(args: string[], io: ShellCommandIo, phone: VirtualPhone): Promise<number> {
  const [op, ...params] = args;
  const usage = op === undefined ? undefined : UI_INPUT_USAGE[op];
  if (usage === undefined) {
    io.stdout(
      `Invalid parameters.\n\nUSAGE: uitest uiInput <${Object.keys(UI_INPUT_USAGE).join("|")}>\n`,
    );
    return 1;
  }
  const fail = (message: string): number => {
    io.stdout(`${message}\n\nUSAGE: ${usage}\n`);
    return 1;
  };
  const within = (values: number[]): boolean =>
    values.every((v, i) =>
      Number.isInteger(v) && v >= 0 && v <= (i % 2 === 0 ? phone.width : phone.height)
    );
  const numbers = (count: number): number[] | undefined => {
    const values = params.slice(0, count).map((p) => /^-?\d+$/.test(p) ? Number(p) : NaN);
    return within(values) ? values : undefined;
  };
  const bad = "Please confirm that the coordinate values are correct.";
  const speedOf = (text: string | undefined): number | undefined => {
    if (text === undefined) return DEFAULT_SWIPE_SPEED;
    const speed = Number(text);
    return /^\d+$/.test(text) && speed >= 200 && speed <= 40000 ? speed : undefined;
  };
  switch (op) {
    case "click":
    case "doubleClick":
    case "longClick": {
      if (params.length < 2) return fail("Missing parameter.");
      if (params.length > 2) return fail("Too many parameters.");
      const point = numbers(2);
      if (!point) return fail(bad);
      const [x, y] = point;
      if (op === "longClick") await phone.longPress(x, y, LONG_CLICK_MS);
      else {
        await phone.tap(x, y);
        if (op === "doubleClick") await phone.tap(x, y);
      }
      return 0;
    }
    case "swipe":
    case "fling":
    case "drag": {
      if (params.length < 4) return fail("Missing parameter.");
      if (params.length > (op === "fling" ? 6 : 5)) return fail("Too many parameters.");
      const points = numbers(4);
      if (!points) return fail(bad);
      const speed = speedOf(params[4]);
      if (speed === undefined) return fail("Invalid parameters.");
      const [x1, y1, x2, y2] = points;
      const ms = Math.max(1, Math.round(Math.hypot(x2 - x1, y2 - y1) / speed * 1000));
      if (op === "drag") await drag(phone, x1, y1, x2, y2, ms);
      else await phone.swipe(x1, y1, x2, y2, ms);
      return 0;
    }
    case "dircFling": {
      if (params.length > 3) return fail("Too many parameters.");
      const direction = params[0] === undefined ? 0 : Number(params[0]);
      const speed = speedOf(params[1]);
      if (![0, 1, 2, 3].includes(direction) || speed === undefined) {
        return fail("Invalid parameters.");
      }
      // 0 left, 1 right, 2 up, 3 down; across half the screen from its center.
      const cx = Math.round(phone.width / 2);
      const cy = Math.round(phone.height / 2);
      const dx = [-1, 1, 0, 0][direction] * Math.round(phone.width / 4);
      const dy = [0, 0, -1, 1][direction] * Math.round(phone.height / 4);
      const ms = Math.max(1, Math.round(Math.hypot(2 * dx, 2 * dy) / speed * 1000));
      await phone.swipe(cx - dx, cy - dy, cx + dx, cy + dy, ms);
      return 0;
    }
    case "inputText": {
      if (params.length < 3) return fail("Missing parameter.");
      const point = numbers(2);
      if (!point) return fail(bad);
      await phone.tap(point[0], point[1]);
      // The device shell has split the text at spaces; uitest types the rest as one text.
      await phone.commitText(params.slice(2).join(" "));
      return 0;
    }
    case "text": {
      if (params.length < 1) return fail("Missing parameter.");
      await phone.commitText(params.join(" "));
      return 0;
    }
    case "keyEvent":
      return await keyEvent(params, io, phone, fail);
  }
  return fail("Invalid parameters.");
}

async function keyEvent(
  params: string[],
  io: ShellCommandIo,
  phone: VirtualPhone,
  fail: (message: string) => number,
): Promise<number> {
  if (params.length < 1) return fail("Missing parameter.");
  if (params.length > 3) return fail("Too many parameters.");
  const named = params.map((p) => HARMONY_NAMED_KEYS[p]);
  if (named.some((code) => code !== undefined) && params.length > 1) {
    return fail("Invalid parameters.");
  }
  const codes = params.map((p, i) => named[i] ?? (/^\d+$/.test(p) ? Number(p) : NaN));
  if (codes.some((code) => !Number.isInteger(code))) return fail("Invalid parameters.");
  if (codes.length === 1) {
    const android = androidKeyOf(codes[0]);
    if (android === undefined) {
      io.stdout(
        `The simulator has no key for code ${
          codes[0]
        } (docs/simulator.md lists the keys it acts on)\n`,
      );
      return 1;
    }
    await phone.keyEvent(android);
    return 0;
  }
  // A combination: modifiers held while the last key is pressed, sent to the app's page.
  const combo = codes.slice(0, -1).every((code) => HARMONY_MODIFIERS.has(code))
    ? pageComboOf(codes)
    : undefined;
  if (combo === undefined) {
    io.stdout(
      `The simulator sends combinations of modifiers (Ctrl, Shift, Alt, Meta) and one key, ` +
        `not ${codes.join(" ")}\n`,
    );
    return 1;
  }
  await phone.foregroundPage().keyboard.press(combo);
  return 0;
}

// A drag: press and hold, then move, then lift (uitest's drag holds before it moves).
async function drag(
  phone: VirtualPhone,
  x1: number,
  y1: number,
  x2: number,
  y2: number,
  ms: number,
): Promise<void> {
  await phone.touch("down", x1, y1);
  await new Promise((resolve) => setTimeout(resolve, 500));
  const steps = Math.max(1, Math.round(ms / 16));
  for (let i = 1; i <= steps; i++) {
    await phone.touch("move", x1 + ((x2 - x1) * i) / steps, y1 + ((y2 - y1) * i) / steps);
  }
  await phone.touch("up", x2, y2);
}

// ---- snapshot_display ------------------------------------------------------------------------

async function snapshotDisplay(
  args: string[],
  io: ShellCommandIo,
  phone: VirtualPhone,
  files: Map<string, Uint8Array>,
): Promise<number> {
  let path = "/data/local/tmp/snapshot.jpeg";
  for (let i = 0; i < args.length; i++) {
    if (args[i] === "-f" && args[i + 1]) path = args[++i];
    else if (args[i] === "-i" && args[i + 1]) {
      if (args[++i] !== "0") {
        io.stdout(`error: display ${args[i]} is not found\n`);
        return 1;
      }
    } else if (args[i] === "-w" || args[i] === "-h" || args[i] === "-t") i++;
  }
  const png = await phone.screenshot();
  const asPng = /\.png$/i.test(path);
  files.set(resolvePath(path), asPng ? png : pngToJpeg(png));
  io.stdout(
    `process: display 0: width ${phone.width}, height ${phone.height}\n` +
      `success: snapshot display 0 , write to ${path} as ${
        asPng ? "png" : "jpeg"
      }, width ${phone.width}, height ${phone.height}\n`,
  );
  return 0;
}

function pngToJpeg(png: Uint8Array): Uint8Array {
  const image = PNG.sync.read(Buffer.from(png));
  const encoded = jpeg.encode(
    { data: image.data, width: image.width, height: image.height },
    SNAPSHOT_JPEG_QUALITY,
  );
  return new Uint8Array(encoded.data);
}

// ---- aa --------------------------------------------------------------------------------------

async function aa(args: string[], io: ShellCommandIo, phone: VirtualPhone): Promise<number> {
  const [sub, ...rest] = args;
  const option = (flag: string): string | undefined => {
    const at = rest.indexOf(flag);
    return at >= 0 ? rest[at + 1] : undefined;
  };
  if (sub === "start") {
    const uri = option("-U");
    if (uri !== undefined) {
      await phone.openUrl(uri);
      io.stdout("start ability successfully.\n");
      return 0;
    }
    const ability = option("-a");
    const bundle = option("-b");
    if (ability === undefined || bundle === undefined) {
      io.stdout(
        `error: ${ability === undefined ? "-a <ability-name>" : "-b <bundle-name>"} is expected\n`,
      );
      return 1;
    }
    if (!phone.activitiesOf(bundle).includes(ability) || bundle === LAUNCHER_PACKAGE) {
      io.stdout("error: failed to start ability.\nerror: resolve ability err.\n");
      return 1;
    }
    await phone.launchApp(bundle, ability);
    io.stdout("start ability successfully.\n");
    return 0;
  }
  if (sub === "force-stop") {
    const bundle = rest[0];
    if (bundle === undefined || !phone.packages().includes(bundle)) {
      io.stdout("error: failed to force stop process.\n");
      return 1;
    }
    await phone.stopApp(bundle);
    io.stdout("force stop process successfully.\n");
    return 0;
  }
  if (sub === "dump" && rest[0] === "-l") {
    io.stdout(missionList(phone));
    return 0;
  }
  if (sub === "help" || sub === undefined) {
    io.stdout(AA_HELP);
    return 0;
  }
  if (KNOWN_AA.has(sub)) {
    io.stdout(
      `The simulator's aa runs start (-a -b, or -U), force-stop and dump -l, not ${sub}\n`,
    );
    return 1;
  }
  // ShellCommand's answer to an unknown command, then the help.
  io.stdout(`aa: '${sub}' is not a valid aa command. See 'aa help'.\n${AA_HELP}`);
  return 1;
}

// ---- bm --------------------------------------------------------------------------------------

function bm(args: string[], io: ShellCommandIo, phone: VirtualPhone): Promise<number> {
  const bundles = phone.packages().filter((p) => p !== LAUNCHER_PACKAGE);
  if (args[0] === "dump" && args[1] === "-a") {
    io.stdout(`ID: 100:\n${bundles.map((b) => `\t${b}\n`).join("")}`);
    return Promise.resolve(0);
  }
  if (args[0] === "dump" && args[1] === "-n" && args[2] !== undefined) {
    const bundle = args[2];
    const abilities = phone.activitiesOf(bundle);
    if (abilities.length === 0 || bundle === LAUNCHER_PACKAGE) {
      io.stdout(`error: failed to get information and the parameters may be wrong.\n`);
      return Promise.resolve(1);
    }
    io.stdout(`${bundle}:\n${JSON.stringify(bundleInfo(bundle, abilities), null, 4)}\n`);
    return Promise.resolve(0);
  }
  const sub = args[0];
  if (sub === "help" || sub === undefined) {
    io.stdout(BM_HELP);
    return Promise.resolve(0);
  }
  if (!BM_COMMANDS.includes(sub)) {
    // ShellCommand's answer to an unknown command, then the help.
    io.stdout(`bm: '${sub}' is not a valid bm command. See 'bm help'.\n${BM_HELP}`);
    return Promise.resolve(1);
  }
  io.stdout("The simulator's bm runs dump -a and dump -n <bundle-name> only\n");
  return Promise.resolve(1);
}

// The fields of `bm dump -n` that tell a launcher which ability starts the app.
function bundleInfo(bundle: string, abilities: string[]): Record<string, unknown> {
  const [main] = abilities;
  return {
    name: bundle,
    appId: `${bundle}_simulator`,
    entryModuleName: "entry",
    mainEntry: "entry",
    isSystemApp: bundle === BROWSER_PACKAGE,
    hapModuleInfos: [{
      moduleName: "entry",
      name: "entry",
      moduleType: "entry",
      mainAbility: main,
      mainElementName: main,
      abilityInfos: abilities.map((name) => ({
        name,
        bundleName: bundle,
        moduleName: "entry",
        skills: name === main
          ? [{ actions: ["action.system.home"], entities: ["entity.system.home"] }]
          : [],
      })),
      extensionInfos: [],
    }],
  };
}

// ---- hidumper and param ----------------------------------------------------------------------

function hidumper(args: string[], io: ShellCommandIo, phone: VirtualPhone): Promise<number> {
  const service = args[args.indexOf("-s") + 1];
  const { width, height, density } = phone;
  if (args.includes("-s") && service === "RenderService") {
    io.stdout(
      "\n-------------------------------[ability]-------------------------------\n\n\n" +
        "----------------------------------RenderService----------------------------------\n" +
        "-- ScreenInfo\n" +
        `screen[0]: id=0, powerStatus=POWER_STATUS_ON, backlight=128, screenType=BUILT_IN_TYPE, ` +
        `render resolution=${width}x${height}, physical resolution=${width}x${height}, ` +
        `isVirtual=false, skipFrameInterval=1\n` +
        `supportedMode[0]: ${width}x${height}, refreshRate=60\n` +
        `activeMode: ${width}x${height}, refreshRate=60\n`,
    );
    return Promise.resolve(0);
  }
  if (args.includes("-s") && service === "DisplayManagerService") {
    io.stdout(
      "---------------- Screen ID: 0 ----------------\n" +
        `Name: Simulator\nVirtualWidth: ${width}\nVirtualHeight: ${height}\n` +
        `activeModes<0>: ${width}, ${height}, 60\n` +
        "---------------- Display ID: 0 ----------------\n" +
        `Width: ${width}\nHeight: ${height}\nDensity: ${density}\n` +
        `DensityDpi: ${phone.densityDpi}\nRotation: 0\nScreenRotation: 0\n`,
    );
    return Promise.resolve(0);
  }
  io.stdout(
    `The simulator's hidumper answers -s RenderService and -s DisplayManagerService only\n`,
  );
  return Promise.resolve(1);
}

function param(
  args: string[],
  io: ShellCommandIo,
  parameters: Map<string, string>,
): Promise<number> {
  if (args[0] !== "get") {
    io.stdout("The simulator's param runs get only\n");
    return Promise.resolve(1);
  }
  if (args[1] === undefined) {
    for (const [key, value] of parameters) io.stdout(`${key} = ${value}\n`);
    return Promise.resolve(0);
  }
  const value = parameters.get(args[1]);
  if (value === undefined) {
    io.stdout(`Get parameter "${args[1]}" fail! errNum is:106!\n`);
    return Promise.resolve(1);
  }
  io.stdout(`${value}\n`);
  return Promise.resolve(0);
}
