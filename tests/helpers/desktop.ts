/**
 * The real desktop for `@sdk/computer`'s tests: a private Xvfb per test file (Xvfb picks a free
 * display number itself with `-displayfd`, so files running in parallel never meet), the Tk
 * fixture app of `tests/fixtures/desktop/app.py` on it, and `ensureDesktopTools()` for the
 * suite's setup, which installs Debian's packages and nut-js when missing.
 *
 * nut-js is installed with npm outside the workspace (`$SDK_CI_TOOLS/nut-js`, default
 * `~/.cache/sdk-ci/nut-js`) and found through `SDK_NUT_JS_DIR`: its image library depends on
 * `@types/node` 16, which in the workspace's node_modules would replace Deno's Node types.
 *
 * @module
 */

import { Buffer } from "node:buffer";
import { execFile, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createConnection } from "node:net";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { createInterface } from "node:readline";
import { freePort } from "./free_port.ts";

/** A widget's rectangle on the X screen, pixels. */
export interface WidgetBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** What the fixture app reports (`state`). */
export interface DesktopAppState {
  name: string;
  clipboard: string | null;
  focused: string;
  /** Whether the Details dialog (a small window of its own, with the focus) is open. */
  dialogOpen: boolean;
  firstVisibleRow: number;
  clicks: number;
  doubleClicks: number;
  rightClicks: number;
  hovered: boolean;
  saves: number;
  dropped: { x: number; y: number } | null;
  /** The X keysym of every key press the app saw, in order. */
  keys: string[];
  /** The todo rows top to bottom ("Add todo" inserts "Pay rent" at the top). */
  todos: { text: string; done: boolean }[];
  widgets:
    & Record<
      | "window"
      | "name"
      | "save"
      | "double"
      | "context"
      | "hover"
      | "details"
      | "rows"
      | "card"
      | "zone"
      | "addTodo",
      WidgetBox
    >
    & Record<`todo:${string}`, WidgetBox>;
}

/** The running fixture app. */
export interface DesktopApp {
  /** Its state and widget geometry, read from the app now. */
  state(): Promise<DesktopAppState>;
  /** Gives the app's window the keyboard focus (no window manager runs under Xvfb). */
  focus(): Promise<DesktopAppState>;
  /**
   * Sends one command of the app's (`place save 640 300`: a widget moved; `text save Keep`: a
   * widget's label changed; see `tests/fixtures/desktop/app.py`), then reads its state.
   */
  command(line: string): Promise<DesktopAppState>;
  /** Ends the app. */
  close(): Promise<void>;
}

/**
 * Reads the app's state every 50 ms until `check` holds (events reach Tk through the X server
 * asynchronously); fails naming `what` and the last state after `ms`. `read` may answer
 * `undefined` while the app is not up yet.
 */
export async function untilAppState(
  read: () => Promise<DesktopAppState | undefined>,
  check: (s: DesktopAppState) => boolean,
  what: string,
  ms = 15_000,
): Promise<DesktopAppState> {
  const deadline = Date.now() + ms;
  for (;;) {
    const state = await read();
    if (state && check(state)) return state;
    if (Date.now() > deadline) {
      throw new Error(`timed out waiting for ${what}; app state: ${JSON.stringify(state)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * The test model's locate answer for the fixture app's name field or Save button, as `target`
 * names them ("the name field", "the Save button"), from the app's own geometry; `null` for
 * anything else.
 */
export async function locateNameOrSave(
  app: DesktopApp,
  target: string,
): Promise<{ left: number; top: number; width: number; height: number } | null> {
  const w = (await app.state()).widgets;
  const box = /name field/.test(target) ? w.name : /Save/.test(target) ? w.save : undefined;
  return box ? { left: box.x, top: box.y, width: box.width, height: box.height } : null;
}

/** A private Xvfb. */
export interface TestDisplay {
  /** Display name, e.g. `":12"`. */
  display: string;
  /** Stops Xvfb. */
  close(): Promise<void>;
}

const APP = fileURLToPath(new URL("../fixtures/desktop/app.py", import.meta.url));
const PACKAGES =
  "xvfb python3-tk x11-xserver-utils x11-utils x11-xkb-utils libxtst6 freerdp2-x11 " +
  "freerdp2-shadow-x11 xrdp xorgxrdp";

/** Where the tests' nut-js is installed. */
export function nutJsDir(): string {
  return join(process.env.SDK_CI_TOOLS ?? join(homedir(), ".cache", "sdk-ci"), "nut-js");
}

function run(file: string, args: string[], env?: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      file,
      args,
      { env: { ...process.env, ...env }, timeout: 300_000, maxBuffer: 16 << 20 },
      (e, stdout, stderr) =>
        e ? reject(new Error(`${file} ${args.join(" ")}: ${stderr || e.message}`)) : resolve(
          String(stdout),
        ),
    );
  });
}

function onPath(file: string): boolean {
  return (process.env.PATH ?? "").split(":").some((d) => d && existsSync(join(d, file)));
}

async function hasTk(): Promise<boolean> {
  try {
    await run("/usr/bin/python3", ["-c", "import tkinter"]);
    return true;
  } catch {
    return false;
  }
}

/**
 * Makes sure Xvfb, python3-tk, xrandr, xwininfo, xdpyinfo, setxkbmap, libXtst, FreeRDP's client
 * and shadow server (Debian packages, `--no-install-recommends`) and nut-js (npm, into
 * {@link nutJsDir}) are there, installing what is missing.
 *
 * @throws {Error} when an install fails (not root, no network).
 */
export async function ensureDesktopTools(): Promise<void> {
  const missing = !onPath("Xvfb") || !onPath("xrandr") || !onPath("xwininfo") ||
    !onPath("xdpyinfo") || !onPath("setxkbmap") ||
    !onPath("xfreerdp") || !onPath("freerdp-shadow-cli") || !existsSync("/usr/sbin/xrdp") ||
    !existsSync("/usr/lib/xorg/modules/drivers/xrdpdev_drv.so") ||
    !(await hasTk()) ||
    !existsSync("/usr/lib/x86_64-linux-gnu/libXtst.so.6") &&
      !existsSync("/usr/lib/aarch64-linux-gnu/libXtst.so.6");
  if (missing) {
    const env = { DEBIAN_FRONTEND: "noninteractive" };
    await run("apt-get", ["update", "-q"], env);
    await run(
      "apt-get",
      ["install", "-y", "-q", "--no-install-recommends", ...PACKAGES.split(" ")],
      env,
    );
  }
  const dir = nutJsDir();
  if (!existsSync(join(dir, "node_modules", "@nut-tree-fork", "nut-js"))) {
    await run("npm", [
      "install",
      "--prefix",
      dir,
      "--no-audit",
      "--no-fund",
      "@nut-tree-fork/nut-js@4.2.6",
    ]);
  }
}

/**
 * Starts Xvfb with one screen of `resolution` (`WxHxD`) and resolves when it accepts clients.
 * `monitors` adds xrandr monitors (`name`, `WxH+X+Y`), as a multi-monitor desktop has.
 */
export function startTestDisplay(
  resolution = "1280x800x24",
  monitors: { name: string; geometry: string }[] = [],
): Promise<TestDisplay> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      "Xvfb",
      ["-displayfd", "3", "-screen", "0", resolution, "-nolisten", "tcp", "-noreset"],
      { stdio: ["ignore", "ignore", "pipe", "pipe"] },
    );
    let text = "";
    let stderr = "";
    child.stderr!.on("data", (d) => stderr += String(d));
    child.once("exit", (code) => {
      if (!text.includes("\n")) reject(new Error(`Xvfb exited with ${code}: ${stderr}`));
    });
    (child.stdio[3] as NodeJS.ReadableStream).on("data", async (d) => {
      text += String(d);
      if (!text.includes("\n")) return;
      const display = `:${text.trim()}`;
      const exited = new Promise<void>((done) => child.once("exit", () => done()));
      const close = async () => {
        if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
        await exited;
      };
      try {
        for (const { name, geometry } of monitors) {
          const [, w, h, x, y] = /^(\d+)x(\d+)\+(\d+)\+(\d+)$/.exec(geometry)!;
          await run("xrandr", ["--setmonitor", name, `${w}/${w}x${h}/${h}+${x}+${y}`, "none"], {
            DISPLAY: display,
          });
        }
        resolve({ display, close });
      } catch (e) {
        await close();
        reject(e);
      }
    });
  });
}

/**
 * Starts the Tk fixture app on `display` and resolves once it is ready (its window mapped).
 * `xauthority`: the display's X authority file (a device's `xauthority` for a display the SDK
 * started, which admits no client without its cookie).
 *
 * @throws {Error} when python3 or Tk is missing, or the app exits early.
 */
export async function startDesktopApp(display: string, xauthority?: string): Promise<DesktopApp> {
  const child = spawn("/usr/bin/python3", [APP], {
    env: { ...process.env, DISPLAY: display, ...(xauthority && { XAUTHORITY: xauthority }) },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr!.on("data", (d) => stderr += String(d));
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  const next = async (): Promise<Record<string, unknown>> => {
    const line = await lines.next();
    if (line.done) throw new Error(`the desktop fixture app ended: ${stderr}`);
    return JSON.parse(line.value);
  };
  await next(); // {"ready": true}
  const exited = new Promise<void>((done) => child.once("exit", () => done()));
  // One command at a time: each answer is the next line.
  let queue: Promise<unknown> = Promise.resolve();
  const ask = (command: string): Promise<DesktopAppState> => {
    const answer = queue.then(async () => {
      child.stdin!.write(`${command}\n`);
      return await next() as unknown as DesktopAppState;
    });
    queue = answer.catch(() => undefined);
    return answer;
  };
  return {
    state: () => ask("state"),
    focus: () => ask("focus"),
    command: (line) => ask(line),
    close: async () => {
      child.stdin!.end();
      const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Creates the local user `name` (no password, no home) unless it exists. Needs root. */
export async function ensureLocalUser(name: string): Promise<void> {
  try {
    await run("id", [name]);
  } catch {
    await run("useradd", ["-M", "-s", "/bin/sh", name]);
  }
}

/**
 * Runs `file args` as the local user `user` (`runuser`), with only `PATH` and `env` in its
 * environment; resolves its exit code and output, never rejects.
 */
export function runAs(
  user: string,
  file: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(
      "runuser",
      [
        "-u",
        user,
        "--",
        "env",
        "-i",
        `PATH=${process.env.PATH}`,
        ...Object.entries(env).map(
          ([k, v]) => `${k}=${v}`,
        ),
        file,
        ...args,
      ],
      { timeout: 30_000 },
      (e, stdout, stderr) =>
        resolve({
          code: e ? Number((e as { code?: unknown }).code ?? 1) : 0,
          output: `${stdout}${stderr}`,
        }),
    );
  });
}

/** Resolves once something accepts connections on 127.0.0.1:`port` (within 10 s). */
async function listening(port: number, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const s = createConnection({ host: "127.0.0.1", port });
      s.once("connect", () => (s.destroy(), resolve(true)));
      s.once("error", () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`${what} did not listen on ${port}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** FreeRDP's shadow server sharing a display over RDP. */
export interface ShadowServer {
  /** Its port on 127.0.0.1. */
  port: number;
  /** Stops it and removes its SAM file. */
  close(): Promise<void>;
}

/**
 * Serves `display` over RDP on 127.0.0.1 with FreeRDP's shadow server (`freerdp-shadow-cli`),
 * NLA only, one user in a SAM file holding the password's NT hash.
 */
export async function startShadowServer(
  display: string,
  user: string,
  password: string,
): Promise<ShadowServer> {
  const dir = await mkdtemp(join(tmpdir(), "sdk-shadow-"));
  // The NT hash (MD4 of the UTF-16LE password), computed here so the password is in no
  // process's command line.
  const hash = createHash("md4").update(Buffer.from(password, "utf16le")).digest("hex");
  await writeFile(join(dir, "sam"), `${user}:::${hash}:::\n`, { mode: 0o600 });
  const port = await freePort();
  const server = spawn(
    "freerdp-shadow-cli",
    [
      `/port:${port}`,
      "/bind-address:127.0.0.1",
      "+auth",
      "/sec:nla",
      `/sam-file:${join(dir, "sam")}`,
    ],
    { env: { ...process.env, DISPLAY: display }, stdio: "ignore" },
  );
  const exited = new Promise<void>((resolve) => server.once("exit", () => resolve()));
  await listening(port, "the shadow server");
  return {
    port,
    close: async () => {
      server.kill("SIGTERM");
      await exited;
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** An xrdp server on 127.0.0.1 whose test user's session runs the fixture app. */
export interface XrdpServer {
  /** Its RDP port. */
  port: number;
  /** The app's state in the user's session, once the session runs (read from its state file). */
  state(): Promise<DesktopAppState | undefined>;
  /** Ends the sessions of the test user, xrdp and its session manager. */
  close(): Promise<void>;
}

/**
 * Starts xrdp (Debian `xrdp` + `xorgxrdp`) on a free port with its session manager, for a test
 * user created here (`useradd`, the password set through `chpasswd`'s stdin) whose session
 * (`~/.xsession`) runs the fixture app in `--state-file` mode. Needs root; one per machine at a
 * time (the session manager's port, 3350, is fixed).
 *
 * `sockdirMode`: the mode of xrdp's socket folder `/run/xrdp/sockdir` (default 0o3777, as
 * Debian's service sets it); 0o755 keeps the session's X server from starting, and `close()`
 * sets 0o3777 again.
 */
export async function startXrdp(
  user: string,
  password: string,
  { sockdirMode = 0o3777 }: { sockdirMode?: number } = {},
): Promise<XrdpServer> {
  const home = `/home/${user}`;
  try {
    await run("id", [user]);
  } catch {
    await run("useradd", ["-m", "-s", "/bin/sh", user]);
  }
  await new Promise<void>((resolve, reject) => {
    const child = spawn("chpasswd", [], { stdio: ["pipe", "ignore", "pipe"] });
    child.once("exit", (code) => code === 0 ? resolve() : reject(new Error(`chpasswd: ${code}`)));
    child.stdin!.end(`${user}:${password}\n`);
  });
  const stateFile = `${home}/app-state.json`;
  // A file left by an earlier session would pass for this session's app before it runs.
  await rm(stateFile, { force: true });
  await writeFile(
    `${home}/.xsession`,
    `#!/bin/sh\nsleep 86400 | exec /usr/bin/python3 ${APP} --state-file ${stateFile}\n`,
  );
  await chmod(`${home}/.xsession`, 0o755);
  await run("chown", [`${user}:`, `${home}/.xsession`]);
  await mkdir("/run/xrdp/sockdir", { recursive: true });
  // The session's Xorg (the test user) binds its socket there, as Debian's xrdp service allows
  // (sticky and world-writable); a folder left 0755 by mkdir gives a black session.
  await chmod("/run/xrdp/sockdir", sockdirMode);
  const port = await freePort();
  // Each leads its own process group: xrdp forks a process per connection, which close() ends
  // with the group.
  const sesman = spawn("xrdp-sesman", ["--nodaemon"], { stdio: "ignore", detached: true });
  const xrdp = spawn("xrdp", ["--nodaemon", "-p", String(port)], {
    stdio: "ignore",
    detached: true,
  });
  const ended = (child: ReturnType<typeof spawn>) =>
    new Promise<void>((resolve) =>
      child.exitCode !== null ? resolve() : child.once("exit", () => resolve())
    );
  const sesmanEnded = ended(sesman);
  const xrdpEnded = ended(xrdp);
  await listening(port, "xrdp");
  return {
    port,
    state: async () => {
      try {
        return JSON.parse(await readFile(stateFile, "utf8")) as DesktopAppState;
      } catch {
        return undefined;
      }
    },
    close: async () => {
      // The session outlives the client (xrdp keeps it for a reconnection): end the test
      // user's processes, then the servers.
      const pids = (await run("ps", ["-u", user, "-o", "pid="]).catch(() => "")).trim().split(
        /\s+/,
      ).filter(Boolean);
      for (const pid of pids) {
        try {
          process.kill(Number(pid), "SIGTERM");
        } catch {
          // Already gone.
        }
      }
      for (const server of [xrdp, sesman]) {
        try {
          process.kill(-server.pid!, "SIGTERM");
        } catch {
          // Already gone.
        }
      }
      await Promise.all([xrdpEnded, sesmanEnded]);
      await rm(stateFile, { force: true });
      await chmod("/run/xrdp/sockdir", 0o3777);
    },
  };
}
