/**
 * `@sdk/computer`'s failures on real parts, each asserted by class and `code` (spec 7, one
 * taxonomy for every platform), each coming at once and saying why:
 *
 * - in a child process (`tests/fixtures/desktop/fault_child.ts`), under Deno and under Node (a
 *   bundle of the same script): Xvfb missing (headless and RDP alike), xfreerdp missing, xrandr
 *   missing, nut-js missing, no `DISPLAY`, a display where nothing answers; `PATH` is a folder
 *   with links to the programs the case keeps;
 * - in this process: the X server killed under a running device (its own headless Xvfb) and the
 *   nut-js host killed under a device on this file's Xvfb.
 *
 * @module
 */

import { before } from "node:test";
import { after, test } from "../helpers/test.ts";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtemp, readdir, readFile, rm, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { ComputerDevice } from "@sdk/computer";
import { ConnectionError, ToolError } from "@sdk/core";
import {
  ensureDesktopTools,
  nutJsDir,
  startTestDisplay,
  type TestDisplay,
} from "../helpers/desktop.ts";

const CHILD = fileURLToPath(new URL("../fixtures/desktop/fault_child.ts", import.meta.url));
const TIMEOUT = 120_000;

let display: TestDisplay;
let scratch: string;
let nodeBundle: string;
const devices: ComputerDevice[] = [];

/** The absolute path of `file` on this process's PATH. */
function which(file: string): string {
  for (const dir of (process.env.PATH ?? "").split(":")) {
    try {
      Deno.statSync(join(dir, file));
      return join(dir, file);
    } catch {
      // Not here.
    }
  }
  throw new Error(`${file} is not on PATH`);
}

/** A folder with links to `programs` only, to be a child's whole PATH. */
async function pathWith(programs: string[]): Promise<string> {
  const dir = await mkdtemp(join(scratch, "path-"));
  for (const program of programs) await symlink(which(program), join(dir, program));
  return dir;
}

before(async () => {
  await ensureDesktopTools();
  display = await startTestDisplay("800x600x24");
  process.env.SDK_NUT_JS_DIR = nutJsDir();
  scratch = await mkdtemp(join(tmpdir(), "sdk-faults-"));
  // The same child script for Node: one bundle, run with the machine's node.
  nodeBundle = join(scratch, "fault_child.mjs");
  await run(Deno.execPath(), ["bundle", "--platform", "deno", "-o", nodeBundle, CHILD], {});
});

after(async () => {
  for (const device of devices) await device.destroy();
  await display?.close();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

function run(file: string, args: string[], env: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(file, args, { env, timeout: 60_000 }, (e, stdout, stderr) => {
      if (e) reject(new Error(`${file} ${args.join(" ")}: ${e.message}\n${stdout}\n${stderr}`));
      else resolve(String(stdout));
    });
  });
}

interface ChildFailure {
  failure?: Record<string, unknown>;
  ms: number;
  exitedCleanly: boolean;
}

/** Runs the child in `mode` under `runtime` with `env` as its whole environment. */
async function child(
  runtime: "deno" | "node",
  mode: string,
  env: Record<string, string>,
): Promise<ChildFailure> {
  const [file, args] = runtime === "deno"
    ? [Deno.execPath(), ["run", "--allow-all", CHILD, mode]]
    : [which("node"), [nodeBundle, mode]];
  const out = await run(file, args, { HOME: process.env.HOME ?? "/root", ...env });
  return JSON.parse(out.trim().split("\n").at(-1)!);
}

for (const runtime of ["deno", "node"] as const) {
  test(
    `${runtime}: Xvfb missing is a MissingDependencyError naming apt-get install xvfb, headless and RDP alike`,
    {
      timeout: TIMEOUT,
    },
    async () => {
      const path = await pathWith(["xfreerdp", "xwininfo"]);
      for (const mode of ["headless", "rdp"]) {
        const result = await child(runtime, mode, { PATH: path });
        assert.equal(result.exitedCleanly, true);
        assert.equal(result.failure?.name, "MissingDependencyError", JSON.stringify(result));
        assert.equal(result.failure?.code, "DEPENDENCY_MISSING");
        assert.equal(result.failure?.dependency, "Xvfb");
        assert.match(
          String(result.failure?.message),
          /Xvfb was not found\. Install it \(apt-get install xvfb\)/,
        );
        assert.ok(result.ms < 5000, `it failed at once, not after ${result.ms} ms`);
      }
    },
  );

  test(`${runtime}: xfreerdp missing is a MissingDependencyError naming freerdp2-x11`, {
    timeout: TIMEOUT,
  }, async () => {
    const result = await child(runtime, "rdp", { PATH: await pathWith(["Xvfb", "xwininfo"]) });
    assert.equal(result.failure?.name, "MissingDependencyError", JSON.stringify(result));
    assert.equal(result.failure?.code, "DEPENDENCY_MISSING");
    assert.equal(result.failure?.dependency, "xfreerdp");
    assert.match(
      String(result.failure?.message),
      /xfreerdp was not found\. Install it \(apt-get install freerdp2-x11 x11-utils\)/,
    );
    assert.ok(result.ms < 5000, `it failed at once, not after ${result.ms} ms`);
  });
}

test(
  "no DISPLAY is a MissingDependencyError saying how to get a display",
  { timeout: TIMEOUT },
  async () => {
    const result = await child("deno", "local", {
      PATH: process.env.PATH!,
      SDK_NUT_JS_DIR: nutJsDir(),
    });
    assert.equal(result.failure?.name, "MissingDependencyError", JSON.stringify(result));
    assert.equal(result.failure?.code, "DEPENDENCY_MISSING");
    assert.equal(result.failure?.dependency, "X display");
    assert.match(
      String(result.failure?.message),
      /no X display, as DISPLAY is not set\. .*headless: true/,
    );
  },
);

test("a DISPLAY where no X server answers is a ConnectionError (refused) naming the display", {
  timeout: TIMEOUT,
}, async () => {
  for (const runtime of ["deno", "node"] as const) {
    const result = await child(runtime, "local", {
      PATH: process.env.PATH!,
      DISPLAY: ":987",
      SDK_NUT_JS_DIR: nutJsDir(),
    });
    assert.equal(result.failure?.name, "ConnectionError", JSON.stringify(result));
    assert.equal(result.failure?.code, "CONNECTION_REFUSED");
    assert.equal(result.failure?.kind, "refused");
    assert.equal(result.failure?.endpoint, ":987");
    assert.match(
      String(result.failure?.message),
      /no X server answers at DISPLAY=:987 \(\/tmp\/\.X11-unix\/X987/,
    );
  }
});

test(
  "nut-js missing is a MissingDependencyError naming how to install it",
  { timeout: TIMEOUT },
  async () => {
    const result = await child("deno", "local", {
      PATH: process.env.PATH!,
      DISPLAY: display.display,
      SDK_NUT_JS_DIR: "/nonexistent/nut-js",
    });
    assert.equal(result.failure?.name, "MissingDependencyError", JSON.stringify(result));
    assert.equal(result.failure?.code, "DEPENDENCY_MISSING");
    assert.equal(result.failure?.dependency, "@nut-tree-fork/nut-js");
    assert.match(String(result.failure?.message), /Install it: npm install @nut-tree-fork\/nut-js/);
  },
);

test(
  "xrandr missing is a MissingDependencyError naming x11-xserver-utils",
  { timeout: TIMEOUT },
  async () => {
    const result = await child("deno", "list", {
      PATH: await pathWith(["Xvfb"]),
      DISPLAY: display.display,
    });
    assert.equal(result.failure?.name, "MissingDependencyError", JSON.stringify(result));
    assert.equal(result.failure?.code, "DEPENDENCY_MISSING");
    assert.equal(result.failure?.dependency, "xrandr");
    assert.match(String(result.failure?.message), /apt-get install x11-xserver-utils/);
  },
);

/**
 * The nut-js host processes that are children of this process and drive `display`. Test files
 * run side by side in this process, so another file's hosts are children too: the display tells
 * them apart.
 */
async function hostPids(display: string): Promise<number[]> {
  const pids: number[] = [];
  for (const entry of await readdir("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = await readFile(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      const cmdline = await readFile(`/proc/${entry}/cmdline`, "utf8");
      if (ppid !== Deno.pid || !cmdline.includes("native_host")) continue;
      const environ = (await readFile(`/proc/${entry}/environ`, "utf8")).split("\0");
      if (environ.includes(`DISPLAY=${display}`)) pids.push(Number(entry));
    } catch {
      // Gone meanwhile.
    }
  }
  return pids;
}

/** Calls `work` until it rejects (the device notices a death asynchronously); within 10 s. */
async function rejection(work: () => Promise<unknown>): Promise<Error> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    try {
      await work();
    } catch (e) {
      return e as Error;
    }
    if (Date.now() > deadline) throw new Error("the call kept working");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

test(
  "the X server killed under a running device is a ConnectionError (lost), without nut-js's warnings",
  {
    timeout: TIMEOUT,
  },
  async () => {
    const device = new ComputerDevice({ headless: true, xvfbResolution: "640x480x24" });
    devices.push(device);
    await device.screenshotBase64();
    const name = device.display!;
    Deno.kill(device.xvfbPid!, "SIGKILL");
    const started = Date.now();
    const error = await rejection(() => device.screenshotBase64());
    assert.ok(error instanceof ConnectionError, `${error.name}: ${error.message}`);
    assert.equal(error.code, "CONNECTION_LOST");
    assert.equal(error.kind, "lost");
    assert.equal(error.endpoint, name);
    assert.match(
      error.message,
      new RegExp(
        `the X server at DISPLAY=${name} went away, and the nut-js process ended \\((SIG[A-Z]+|exit code \\d+)\\)`,
      ),
    );
    assert.doesNotMatch(error.message, /DeprecationWarning|punycode|DEP0040|trace-deprecation/);
    assert.ok(Date.now() - started < 5000, "it failed at once");
    // Every later call says the same.
    await assert.rejects(device.screenshotBase64(), ConnectionError);
  },
);

test("the nut-js host killed under a running device is a ToolError naming the signal", {
  timeout: TIMEOUT,
}, async () => {
  // Its own Xvfb: setting DISPLAY for a device on the test display would reach the test files
  // that run beside this one in the same process.
  const device = new ComputerDevice({ headless: true, xvfbResolution: "640x480x24" });
  devices.push(device);
  await device.connect();
  const hosts = await hostPids(device.display!);
  assert.equal(hosts.length, 1, "one host for the device");
  Deno.kill(hosts[0], "SIGKILL");
  const error = await rejection(() => device.screenshotBase64());
  assert.ok(error instanceof ToolError, `${error.name}: ${error.message}`);
  assert.equal(error.code, "TOOL_FAILED");
  assert.equal(error.tool, "nut-js");
  assert.match(
    error.message,
    new RegExp(`DISPLAY=${device.display}: the nut-js process ended \\(SIGKILL\\)`),
  );
  assert.doesNotMatch(error.message, /DeprecationWarning|punycode|DEP0040|trace-deprecation/);
});
