/**
 * FreeRDP's X11 client on a private Xvfb the size of the remote desktop: `xfreerdp` started with
 * the password on its standard input (`/from-stdin`), never in its arguments, its environment or
 * a log; its own output kept in memory, only to name what failed and to follow its clipboard
 * channel ({@link ClipboardChannelLog}). `rdp_backend.ts` drives the private display.
 *
 * @module
 */

import { execFile, spawn } from "node:child_process";
import { createConnection } from "node:net";
import {
  adoptChild,
  ConnectionError,
  holdOpen,
  MissingDependencyError,
  privateTempDir,
  sleep,
  ToolError,
} from "@sdk/core";
import { INSTALL_XVFB, startXvfb, type VirtualDisplay, x11ClientEnv } from "./display.ts";
import { ClipboardChannelLog } from "./rdp_clipboard.ts";
import type { RdpSettings } from "./rdp_options.ts";
import { findExecutable } from "./tools.ts";

/** Debian/Ubuntu package of the RDP client. */
export const INSTALL_FREERDP = "apt-get install freerdp2-x11 x11-utils";

/** Why nothing answers at `host:port` (and whether it was a timeout), or `undefined`. */
function tcpReachable(
  host: string,
  port: number,
): Promise<{ why: string; timeout: boolean; cause?: Error } | undefined> {
  return new Promise((resolve) => {
    const socket = createConnection({ host, port });
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ why: "no answer within 5 s", timeout: true });
    }, 5000);
    socket.once("connect", () => {
      clearTimeout(timer);
      socket.destroy();
      resolve(undefined);
    });
    socket.once("error", (e) => {
      clearTimeout(timer);
      resolve({ why: e.message, timeout: false, cause: e });
    });
  });
}

/**
 * What the client said went wrong, trimmed of noise: its `ERROR` and `FATAL` log lines without
 * their time, thread and component prefix, its banners and repeats (the last 8), the
 * `ERRCONNECT_` code of a `freerdp_set_last_error_ex` line alone.
 */
export function xfreerdpErrors(output: string): string[] {
  const lines: string[] = [];
  for (const raw of output.split(/\r?\n/)) {
    const m = /\[(?:ERROR|FATAL)\]\[[^\]]*\] - (.*)$/.exec(raw);
    if (!m) continue;
    const line = m[1].replace(/^\S*freerdp_set_last_error_ex (ERRCONNECT_\w+).*$/, "$1").trim();
    if (line === "" || /^@/.test(line)) continue;
    // A repeated line keeps its last place.
    if (lines.includes(line)) lines.splice(lines.indexOf(line), 1);
    lines.push(line);
  }
  return lines.slice(-8);
}

function windowListed(display: string, xauthority: string): Promise<boolean> {
  return new Promise((resolve) => {
    // Short-lived, but ended with this process too (a signal while the client connects).
    adoptChild(
      execFile("xwininfo", ["-root", "-tree"], { env: x11ClientEnv(display, xauthority) }, (
        e,
        stdout,
      ) => resolve(!e && /"FreeRDP: /.test(String(stdout)))),
    );
  });
}

/** What the client's output says went wrong, as a sentence, or `undefined`. */
export function classifyRdpFailure(output: string): string | undefined {
  if (/certificate .*(could not be verified|mismatch)|VERIFY_CERT|cert.*deny/i.test(output)) {
    return "the server's certificate could not be verified and was rejected; set " +
      "ignoreCertificate: true to accept it, or install its CA on this machine";
  }
  if (/LOGON_FAILURE|AUTHENTICATION_FAILED|LOGON_DENIED|ACCOUNT_/i.test(output)) {
    return "the server refused the credentials (wrong username, password or domain)";
  }
  // A server that ends the connection right after the NLA authentication token: it refused them.
  if (/CONNECTION_STATE_NLA --> CONNECTION_STATE_INITIAL/.test(output)) {
    return "the server refused the credentials during NLA (wrong username, password or domain)";
  }
  return undefined;
}

/** One RDP client and its private display; {@link RdpClient.connect} starts them. */
export class RdpClient {
  readonly #options: RdpSettings["options"];
  readonly #width: number;
  readonly #height: number;
  #xvfb: VirtualDisplay | undefined;
  #client: ReturnType<typeof spawn> | undefined;
  #clientExited: Promise<void> | undefined;
  #home: { path: string; remove(): Promise<void> } | undefined;
  #clipboard = new ClipboardChannelLog();
  #connectedAt = 0;
  /** Set when the client ended after it connected: every later call throws it. */
  #lost: ConnectionError | undefined;

  /** @param settings the checked RDP options. */
  constructor(settings: RdpSettings) {
    this.#options = settings.options;
    this.#width = settings.width;
    this.#height = settings.height;
  }

  /** `host:port` of the remote desktop. */
  get target(): string {
    return `${this.#options.host}:${this.#options.port}`;
  }

  /** What the client's log said of its clipboard channel since it last connected. */
  get clipboard(): ClipboardChannelLog {
    return this.#clipboard;
  }

  /** When the client last connected (`Date.now()`). */
  get connectedAt(): number {
    return this.#connectedAt;
  }

  /** The client ended after it connected: the connection was lost. */
  get lost(): ConnectionError | undefined {
    return this.#lost;
  }

  /**
   * Connects: checks the host answers, starts a private Xvfb of the desktop size, starts
   * `xfreerdp` on it with the password on stdin, and waits for its session window. On failure
   * it ends what it started.
   *
   * @returns the private display and its X authority file.
   * @throws {MissingDependencyError} when `xfreerdp`, `xwininfo` or Xvfb is missing
   *   ({@link INSTALL_FREERDP}), before anything connects; {ConnectionError} naming the host
   *   when it does not answer (`refused`, `timeout`) or no session window comes within 30 s
   *   (`timeout`); {ToolError} with the client's own words when it ends: the credentials or the
   *   certificate (without `ignoreCertificate`) refused.
   */
  async connect(): Promise<{ display: string; xauthority: string }> {
    try {
      const display = await holdOpen(this.#connect());
      return { display, xauthority: this.#xvfb!.xauthority };
    } catch (e) {
      await this.close();
      throw e;
    }
  }

  #requireTools(): void {
    for (
      const [tool, install] of [
        ["xfreerdp", INSTALL_FREERDP],
        ["xwininfo", INSTALL_FREERDP],
        ["Xvfb", INSTALL_XVFB],
      ]
    ) {
      if (!findExecutable(tool)) {
        throw new MissingDependencyError(
          `Cannot connect to the RDP server at ${this.target}: ${tool} was not found. ` +
            `Install it (${install})`,
          tool,
        );
      }
    }
  }

  async #connect(): Promise<string> {
    this.#requireTools();
    const { host, port } = this.#options;
    const down = await tcpReachable(host, port);
    if (down) {
      throw new ConnectionError(
        `Cannot connect to the RDP server at ${this.target}: ${down.why}. Check that the host ` +
          "is up, that RDP is enabled there and that the port is right",
        { kind: down.timeout ? "timeout" : "refused", endpoint: this.target },
        { cause: down.cause },
      );
    }
    this.#xvfb = await startXvfb(`${this.#width}x${this.#height}x24`);
    // A private home keeps the client from reading or writing the user's known certificates.
    this.#home = await privateTempDir("sdk-rdp-");
    const o = this.#options;
    const args = [
      `/v:${host}:${port}`,
      `/size:${this.#width}x${this.#height}`,
      ...(o.username !== undefined ? [`/u:${o.username}`] : []),
      ...(o.domain !== undefined ? [`/d:${o.domain}`] : []),
      ...(o.securityProtocol && o.securityProtocol !== "auto"
        ? [`/sec:${o.securityProtocol}`]
        : []),
      ...(o.adminSession ? ["/admin"] : []),
      o.ignoreCertificate ? "/cert:ignore" : "/cert:deny",
      // With a user name, ask for the password before connecting (xrdp never asks; it takes
      // the credentials of the connection); the only line then read is the password.
      o.username !== undefined ? "/from-stdin:force" : "/from-stdin",
      "-grab-keyboard",
      "/log-level:DEBUG",
    ];
    // The client's log goes to a pipe, which C's stdio fills in blocks of 4 KiB: under the
    // session's clipboard traffic the clipboard steps arrived 1.5 s late. coreutils' stdbuf
    // makes it line-buffered.
    const lineBuffered = findExecutable("stdbuf") !== undefined;
    const [file, fileArgs] = lineBuffered
      ? ["stdbuf", ["-oL", "-eL", "xfreerdp", ...args]]
      : ["xfreerdp", args];
    const client = spawn(file, fileArgs, {
      env: x11ClientEnv(this.#xvfb.display, this.#xvfb.xauthority, [], {
        HOME: this.#home.path,
        XDG_CONFIG_HOME: this.#home.path,
      }),
      stdio: ["pipe", "pipe", "pipe"],
    });
    // Killed with this process however it ends (the session stays on the server).
    adoptChild(client);
    this.#client = client;
    let output = "";
    this.#clipboard = new ClipboardChannelLog();
    const clipboard = this.#clipboard;
    // DEBUG output is large; the failure is named from its end.
    const keep = (d: unknown) => {
      clipboard.feed(String(d));
      output = (output + String(d)).slice(-200_000);
    };
    client.stdout?.on("data", keep);
    client.stderr?.on("data", keep);
    let exit: { code: number | null; signal: string | null } | undefined;
    let spawnError: Error | undefined;
    let connected = false;
    this.#clientExited = new Promise((resolve) => {
      client.once("exit", (code, signal) => {
        exit = { code, signal };
        if (connected && this.#client === client) {
          const said = xfreerdpErrors(output);
          this.#lost = new ConnectionError(
            `The RDP connection to ${this.target} was lost: the RDP client ended (${
              signal ?? `exit code ${code}`
            })${said.length ? `: ${said.at(-1)}` : ""}. Create a new agent to reconnect`,
            { kind: "lost", endpoint: this.target },
          );
        }
        resolve();
      });
      client.once("error", (e) => {
        spawnError = e;
        exit = { code: null, signal: null };
        resolve();
      });
    });
    client.stdin?.on("error", () => undefined);
    client.stdin?.write(`${o.password ?? ""}\n`);
    const deadline = Date.now() + 30_000;
    while (
      exit === undefined && !(await windowListed(this.#xvfb.display, this.#xvfb.xauthority))
    ) {
      if (Date.now() > deadline) {
        client.kill("SIGTERM");
        await this.#clientExited;
        const why = classifyRdpFailure(output);
        if (why) throw this.#clientError(why, output, exit);
        throw new ConnectionError(
          `Cannot connect to the RDP server at ${this.target}: no session window within 30 s`,
          { kind: "timeout", endpoint: this.target },
        );
      }
      await sleep(100);
    }
    if (spawnError) {
      throw (spawnError as NodeJS.ErrnoException).code === "ENOENT"
        ? new MissingDependencyError(
          `Cannot connect to the RDP server at ${this.target}: xfreerdp was not found. ` +
            `Install it (${INSTALL_FREERDP})`,
          "xfreerdp",
          { cause: spawnError },
        )
        : new ToolError(
          `Cannot connect to the RDP server at ${this.target}: ${spawnError.message}`,
          { tool: "xfreerdp", output: spawnError.message },
          { cause: spawnError },
        );
    }
    if (exit !== undefined) {
      const codes = output.match(/ERRCONNECT_[A-Z_]+/g) ?? [];
      const why = classifyRdpFailure(output) ??
        `the RDP client ended (${exit.signal ?? `exit code ${exit.code}`}): ${
          codes.at(-1) ?? "no error code"
        }`;
      throw this.#clientError(why, output, exit);
    }
    connected = true;
    this.#connectedAt = Date.now();
    return this.#xvfb.display;
  }

  /** A failure the client reported, as a `ToolError` quoting its error lines. */
  #clientError(
    why: string,
    output: string,
    exit: { code: number | null; signal: string | null } | undefined,
  ): ToolError {
    const said = xfreerdpErrors(output);
    const code = [...said].reverse().find((line) => line.startsWith("ERRCONNECT_")) ??
      said.at(-1);
    return new ToolError(
      `Cannot connect to the RDP server at ${this.target}: ${why}${
        code ? ` (xfreerdp: ${code})` : ""
      }`,
      { tool: "xfreerdp", status: exit?.code ?? undefined, output: said.join("\n") },
    );
  }

  /** Disconnects the client, stops its display, forgets the connection state. Idempotent. */
  async close(): Promise<void> {
    const client = this.#client;
    this.#client = undefined;
    if (client && client.exitCode === null && client.signalCode === null) {
      client.kill("SIGTERM");
      const timer = setTimeout(() => client.kill("SIGKILL"), 5000);
      await holdOpen(this.#clientExited!);
      clearTimeout(timer);
    }
    const xvfb = this.#xvfb;
    this.#xvfb = undefined;
    await xvfb?.stop();
    await this.#home?.remove();
    this.#home = undefined;
  }
}
