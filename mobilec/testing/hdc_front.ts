/**
 * The hdc front of the device simulator: an executable named `hdc` that answers like HarmonyOS's
 * device tool (OpenHarmony Device Connector) for one or more virtual phones, so that an SDK runs
 * it as it runs the real `hdc` (by path, on `PATH`, or from `TOOL_HOME`).
 *
 * The front writes `hdc` (a `#!/bin/sh` script) and its client into a temporary directory; the
 * client sends its arguments to the front over 127.0.0.1 (with a per-front token) and prints
 * the answer with its exit code. Commands: `list targets [-v]`, `-t <connect key>`, `shell
 * <command>` (the HarmonyOS shell of `_hdc_shell.ts`), `file recv` / `file send`, `version`,
 * `checkserver`, `start`, `kill`, `tconn`. docs/simulator.md lists the formats and what is not
 * simulated.
 *
 * @module
 */

import http from "node:http";
import { Buffer } from "node:buffer";
import { randomBytes } from "node:crypto";
import { chmod, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AddressInfo } from "node:net";
import { hdcClientSource, hdcScript } from "./_hdc_client.ts";
import { type HarmonyShell, harmonyShell } from "./_hdc_shell.ts";
import { resolvePath, type VirtualPhone } from "@sdk/web/testing";

/** Options of {@link startHdcFront}. */
export interface HdcFrontOptions {
  /** Connect key of the first phone. Default `127.0.0.1:<the front's port>`. */
  connectKey?: string;
  /** `param get` values to add or override, e.g. `{ "const.product.model": "Mate 70" }`. */
  params?: Record<string, string>;
}

/** One `hdc` run the front answered, oldest first. */
export interface HdcCommandRecord {
  /** The arguments, as the SDK passed them (`["-t", "127.0.0.1:5555", "shell", "..."]`). */
  argv: string[];
  /** The connect key of the device it ran on; undefined for commands of no device. */
  connectKey: string | undefined;
  /** What it printed (stdout and stderr). */
  output: string;
  /** Its exit code. */
  exitCode: number;
}

/** A running hdc front. */
export interface HdcFront {
  /** Absolute path of the `hdc` executable (give it as `toolPath`). */
  readonly toolPath: string;
  /** The directory holding `hdc` (for `TOOL_HOME`, or to put on `PATH`). */
  readonly toolDir: string;
  /** Connect key of the first phone (`hdc list targets` prints it). */
  readonly connectKey: string;
  /** The port the front listens on, on 127.0.0.1. */
  readonly port: number;
  /** Every `hdc` run answered so far (a live array; do not modify it). */
  readonly commands: readonly HdcCommandRecord[];
  /**
   * Connects another virtual phone; returns its connect key (default `SIMULATOR<n>`, a serial).
   *
   * @throws {Error} when the key is already connected.
   */
  addPhone(phone: VirtualPhone, connectKey?: string): string;
  /** Disconnects a phone: `hdc list targets` no longer lists it and `-t` fails for it. */
  removePhone(connectKey: string): void;
  /** Connect keys of the connected phones, in connection order. */
  targets(): string[];
  /** Stops the front and deletes the `hdc` executable. Idempotent. */
  close(): Promise<void>;
}

interface Target {
  phone: VirtualPhone;
  shell: HarmonyShell;
  queue: Promise<unknown>;
}

interface Answer {
  stdout: string;
  stderr: string;
  code: number;
  write?: { path: string; data: string };
}

const VERSION = "Ver: 3.1.0e";
const HELP = `OpenHarmony device connector(HDC) ... (the device simulator's hdc front)

 -t connectkey                         - Use device with given connect key
 list targets [-v]                     - List all devices status, -v for detail
 shell [COMMAND...]                    - Run shell command (interactive shell is not simulated)
 file send local remote                - Send file to device
 file recv remote local                - Recv file from device
 version / -v                          - Print hdc version
`;

/**
 * Starts an hdc front for `phone` (more phones with {@link HdcFront.addPhone}).
 *
 * @example
 * ```ts ignore
 * const front = await startHdcFront(phone);
 * // $ <front.toolPath> -t <front.connectKey> shell uitest uiInput click 540 300
 * console.log(phone.inputs.at(-1)); // { type: "tap", x: 540, y: 300 }
 * await front.close();
 * ```
 */
export async function startHdcFront(
  phone: VirtualPhone,
  options: HdcFrontOptions = {},
): Promise<HdcFront> {
  const token = randomBytes(16).toString("hex");
  const targets = new Map<string, Target>();
  const commands: HdcCommandRecord[] = [];
  let serials = 0;

  const connect = (device: VirtualPhone, key: string): string => {
    if (targets.has(key)) throw new Error(`hdc front: ${key} is already connected`);
    targets.set(key, {
      phone: device,
      shell: harmonyShell(device, options.params),
      queue: Promise.resolve(),
    });
    return key;
  };

  const server = http.createServer((request, response) => {
    const chunks: Uint8Array[] = [];
    request.on("data", (chunk: Uint8Array) => chunks.push(chunk));
    request.on("end", async () => {
      if (request.headers["x-hdc-token"] !== token || request.url !== "/hdc") {
        response.writeHead(403).end();
        return;
      }
      let answer: Answer;
      let argv: string[] = [];
      let used: string | undefined;
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as {
          argv: string[];
          send?: string;
        };
        argv = body.argv;
        const result = await answerHdc(argv, body.send, (key) => used = key);
        answer = result;
      } catch (error) {
        answer = { stdout: `[Fail]simulator: ${(error as Error).message}\n`, stderr: "", code: 1 };
      }
      commands.push({
        argv,
        connectKey: used,
        output: answer.stdout + answer.stderr,
        exitCode: answer.code,
      });
      response.writeHead(200, { "content-type": "application/json" });
      response.end(JSON.stringify(answer));
    });
  });

  // Picks the device of a command: `-t key`, or the only connected one.
  const pick = (key: string | undefined): Target | string => {
    if (key !== undefined) {
      return targets.get(key) ?? "[Fail]Not match target founded, check connect-key please\n";
    }
    if (targets.size === 0) return "[Fail]Device not founded or connected\n";
    if (targets.size > 1) {
      return "[Fail]ExecuteCommand need connect-key? please confirm a device by help info\n";
    }
    return [...targets.values()][0];
  };

  // One command at a time per device, in arrival order, as hdc's daemon runs a session's tasks.
  const onDevice = <T>(target: Target, work: () => Promise<T>): Promise<T> => {
    const result = target.queue.then(work);
    target.queue = result.catch(() => {});
    return result;
  };

  const answerHdc = async (
    argv: string[],
    send: string | undefined,
    use: (key: string) => void,
  ): Promise<Answer> => {
    const ok = (stdout: string): Answer => ({ stdout, stderr: "", code: 0 });
    const fail = (stdout: string): Answer => ({ stdout, stderr: "", code: 1 });
    let key: string | undefined;
    let i = 0;
    for (; i < argv.length; i++) {
      if (argv[i] === "-t" && i + 1 < argv.length) key = argv[++i];
      else if (argv[i] === "-s" && i + 1 < argv.length) i++; // server address: one front
      else if (/^-l\d?$/.test(argv[i])) {
        if (argv[i] === "-l" && /^\d$/.test(argv[i + 1] ?? "")) i++;
      } else break;
    }
    const [command, ...rest] = argv.slice(i);
    if (command === undefined || command === "help" || command === "-h") return ok(HELP);
    if (command === "version" || command === "-v") return ok(`${VERSION}\n`);
    if (command === "checkserver") {
      return ok(`Client version:${VERSION}, server version:${VERSION}\n`);
    }
    if (command === "start" || command === "kill") return ok("");
    if (command === "list" && rest[0] === "targets") {
      const keys = [...targets.keys()];
      if (keys.length === 0) return ok("[Empty]\n");
      return ok(
        keys.map((k) => rest.includes("-v") ? `${k}\t\tTCP\tConnected\tlocalhost\thdc\n` : `${k}\n`)
          .join(""),
      );
    }
    if (command === "tconn" && rest[0] !== undefined) {
      return targets.has(rest[0])
        ? ok("Target is connected, repeat operation\n")
        : fail(`[Fail]Connect failed: the simulator has no device ${rest[0]}\n`);
    }
    if (command !== "shell" && command !== "file") {
      return fail(`Unknown operation command...\n`);
    }
    const target = pick(key);
    if (typeof target === "string") return fail(target);
    use(key ?? [...targets.keys()][0]);
    if (command === "shell") {
      if (rest.length === 0) {
        return fail(
          "[Fail]The simulator does not run an interactive shell: give the command " +
            "(hdc shell <command>)\n",
        );
      }
      // hdc joins its arguments with spaces into one command line for the device's shell.
      const output = await onDevice(target, () => target.shell.run(rest.join(" ")));
      return ok(output);
    }
    const [verb, ...paths] = rest.filter((arg) => !/^-(a|z|sync|m|s)$/.test(arg));
    if ((verb !== "recv" && verb !== "send") || paths.length !== 2) {
      return fail("[Fail]There is no local and remote path\n");
    }
    const started = performance.now();
    const transferred = (size: number): string => {
      const ms = Math.max(1, Math.round(performance.now() - started));
      return `FileTransfer finish, Size:${size}, File count = 1, time:${ms}ms rate:${
        (size / ms).toFixed(2)
      }kB/s\n`;
    };
    if (verb === "recv") {
      const [remote, local] = paths;
      const data = await onDevice(
        target,
        () => Promise.resolve(target.shell.files.get(resolvePath(remote))),
      );
      if (data === undefined) {
        return fail(`[Fail]Error opening file: no such file or directory, path:${remote}\n`);
      }
      return {
        ...ok(transferred(data.length)),
        write: { path: local, data: Buffer.from(data).toString("base64") },
      };
    }
    const [, remote] = paths;
    const data = new Uint8Array(Buffer.from(send ?? "", "base64"));
    await onDevice(
      target,
      () => Promise.resolve(target.shell.files.set(resolvePath(remote), data)),
    );
    return ok(transferred(data.length));
  };

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const connectKey = connect(phone, options.connectKey ?? `127.0.0.1:${port}`);
  let toolDir: string;
  try {
    toolDir = await mkdtemp(join(tmpdir(), "sdk-hdc-front-"));
    const client = join(toolDir, "hdc_client.mjs");
    await writeFile(client, hdcClientSource(port, token));
    await writeFile(join(toolDir, "hdc"), hdcScript(client));
    await chmod(join(toolDir, "hdc"), 0o755);
  } catch (error) {
    server.close();
    throw error;
  }
  let closed = false;
  return {
    toolPath: join(toolDir, "hdc"),
    toolDir,
    connectKey,
    port,
    commands,
    addPhone: (device, key) => connect(device, key ?? `SIMULATOR${++serials}`),
    removePhone: (key) => void targets.delete(key),
    targets: () => [...targets.keys()],
    async close() {
      if (closed) return;
      closed = true;
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(toolDir, { recursive: true, force: true });
    },
  };
}
