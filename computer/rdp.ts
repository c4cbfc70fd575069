/**
 * `RDPDevice`: a remote desktop over RDP (spec 4.11) through FreeRDP's X11 client. `xfreerdp`
 * runs on a private Xvfb the size of the remote desktop; the device screenshots and drives that
 * display exactly as {@link ComputerDevice} drives a local one, and the client forwards mouse and
 * keys to the remote session.
 *
 * The password goes to `xfreerdp` on its standard input (`/from-stdin`), never in its arguments,
 * its environment or a log. The client's own output is kept in memory, only to name what failed.
 *
 * @module
 */

import { execFile, spawn } from "node:child_process";
import { createConnection } from "node:net";
import type { DeviceAction, InputStrategy } from "@sdk/core";
import {
  adoptChild,
  ConnectionError,
  holdOpen,
  MissingDependencyError,
  privateTempDir,
  SdkRangeError,
  SdkTypeError,
  sleep,
  ToolError,
} from "@sdk/core";
import { ComputerDevice } from "./device.ts";
import { INSTALL_XVFB, startXvfb, type VirtualDisplay, x11ClientEnv } from "./display.ts";
import type { NativeInput, ScreenRegion } from "./native.ts";
import { checkPastable, ClipboardChannelLog, pasteOverRdp } from "./rdp_clipboard.ts";
import { findExecutable } from "./tools.ts";

/** Default RDP port (spec 4.11 `port`). */
export const DEFAULT_RDP_PORT = 3389;
/** Remote desktop size when `desktopWidth` / `desktopHeight` are left out, pixels. */
export const DEFAULT_RDP_SIZE: { width: number; height: number } = { width: 1280, height: 800 };
/** Debian/Ubuntu package of the RDP client. */
export const INSTALL_FREERDP = "apt-get install freerdp2-x11 x11-utils";
/** Default `sessionStartTimeout`, ms. */
const DEFAULT_SESSION_START_TIMEOUT = 10_000;

/** Options of {@link RDPDevice} (spec 4.11, RDP options). */
export interface RDPDeviceOptions {
  /** Remote host name or IP address. Required. */
  host: string;
  /** RDP port. Default 3389. */
  port?: number;
  /** User name. */
  username?: string;
  /** Password; sent to the client on its standard input only. */
  password?: string;
  /** Windows domain. */
  domain?: string;
  /**
   * Local source address. FreeRDP 2's client has no option to choose it, so any value is refused
   * with a `TypeError`; route the host through the wanted interface instead.
   */
  localAddress?: string;
  /** Ask for the admin (console) session. Default `false`. */
  adminSession?: boolean;
  /**
   * Accept any server certificate. Default `false`: a certificate the machine cannot verify
   * fails the connection (`/cert:deny`).
   */
  ignoreCertificate?: boolean;
  /** `'auto'` (default: negotiated), `'tls'`, `'nla'` or `'rdp'`. */
  securityProtocol?: "auto" | "tls" | "nla" | "rdp";
  /** Remote desktop width, pixels. Default 1280. */
  desktopWidth?: number;
  /** Remote desktop height, pixels. Default 800. */
  desktopHeight?: number;
  /** Extra actions after the built-in ones. */
  // deno-lint-ignore no-explicit-any
  customActions?: DeviceAction<any>[];
  /**
   * ms (finite, 0-600000, default 10000) the remote screen may stay all black after the
   * connection: a session that never started (xrdp's session failing) shows nothing, and
   * `connect()` fails with a `ConnectionError` (kind `timeout`) once this passes. 0 turns the
   * check off (a remote desktop that is black on purpose).
   */
  sessionStartTimeout?: number;
  /** ms between code points (finite, >= 0). Text is always typed key by key over RDP. */
  keyboardTypeDelay?: number;
  /** `'legacy'` (default), `'sequential'` or `'bulk'` (needs the delay unset or 0). */
  inputStrategy?: InputStrategy;
}

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

/**
 * A remote desktop over RDP. Connects on first use (or `connect()`); `destroy()` disconnects the
 * client, stops its private display and clears the connection state.
 *
 * @example
 * ```ts ignore
 * import { agentForRDPComputer } from "@sdk/computer";
 *
 * const agent = await agentForRDPComputer({ host: "10.0.0.5", username: "me", password: "<PASSWORD>" });
 * await agent.aiTap("the Start button");
 * await agent.destroy();
 * ```
 */
export class RDPDevice extends ComputerDevice {
  /** Interface kind shown in reports. */
  override readonly interfaceType: "computer" = "computer";
  readonly #options: RDPDeviceOptions;
  readonly #width: number;
  readonly #height: number;
  #xvfb: VirtualDisplay | undefined;
  #client: ReturnType<typeof spawn> | undefined;
  #clientExited: Promise<void> | undefined;
  #home: { path: string; remove(): Promise<void> } | undefined;
  readonly #sessionTimeout: number;
  #clipboard = new ClipboardChannelLog();
  #connectedAt = 0;
  /** Set when the client ended after it connected: every later call throws it. */
  #lost: ConnectionError | undefined;

  /**
   * A remote desktop to connect to; nothing connects until the first screenshot or action.
   *
   * @throws {SdkTypeError} (a `TypeError`) for a missing `host`, a `port` that is not an integer
   *   1-65535, an unknown `securityProtocol`, a flag that is not a boolean, a `localAddress`
   *   (unsupported), and the input option errors of {@link ComputerDevice}.
   * @throws {SdkRangeError} (a `RangeError`) for a desktop size outside 200-8192 pixels, or a
   *   `sessionStartTimeout` that is not a number 0-600000.
   */
  constructor(options: RDPDeviceOptions) {
    super({
      customActions: options?.customActions,
      keyboardTypeDelay: options?.keyboardTypeDelay,
      inputStrategy: options?.inputStrategy,
    });
    if (!options || typeof options.host !== "string" || options.host.trim() === "") {
      throw new SdkTypeError(
        `Cannot create RDPDevice as 'host' (the remote host name or IP address) is required: ` +
          `current value is ${JSON.stringify(options?.host)}`,
      );
    }
    const port = options.port ?? DEFAULT_RDP_PORT;
    if (!Number.isInteger(port) || port < 1 || port > 65535) {
      throw new SdkTypeError(
        `Cannot create RDPDevice as 'port' must be an integer 1-65535: current value is ${port}`,
      );
    }
    for (const key of ["adminSession", "ignoreCertificate"] as const) {
      if (options[key] !== undefined && typeof options[key] !== "boolean") {
        throw new SdkTypeError(
          `Cannot create RDPDevice as '${key}' must be a boolean: current value is ${
            JSON.stringify(options[key])
          }`,
        );
      }
    }
    const protocol = options.securityProtocol ?? "auto";
    if (!["auto", "tls", "nla", "rdp"].includes(protocol)) {
      throw new SdkTypeError(
        `Cannot create RDPDevice as 'securityProtocol' must be 'auto', 'tls', 'nla' or 'rdp': ` +
          `current value is ${JSON.stringify(protocol)}`,
      );
    }
    if (options.localAddress !== undefined) {
      throw new SdkTypeError(
        "Cannot create RDPDevice with 'localAddress': FreeRDP 2's client (xfreerdp) cannot " +
          "choose its source address; leave it out and route the host through the wanted " +
          "interface (ip route)",
      );
    }
    this.#width = options.desktopWidth ?? DEFAULT_RDP_SIZE.width;
    this.#height = options.desktopHeight ?? DEFAULT_RDP_SIZE.height;
    for (const [key, value] of [["desktopWidth", this.#width], ["desktopHeight", this.#height]]) {
      if (!Number.isInteger(value) || (value as number) < 200 || (value as number) > 8192) {
        throw new SdkRangeError(
          `Cannot create RDPDevice as '${key}' must be an integer 200-8192 (pixels): current ` +
            `value is ${value}`,
        );
      }
    }
    const timeout = options.sessionStartTimeout ?? DEFAULT_SESSION_START_TIMEOUT;
    if (typeof timeout !== "number" || !(timeout >= 0 && timeout <= 600_000)) {
      throw new SdkRangeError(
        `Cannot create RDPDevice as 'sessionStartTimeout' must be a number 0-600000 (ms; 0 ` +
          `turns the check off): current value is ${JSON.stringify(timeout)}`,
      );
    }
    this.#sessionTimeout = timeout;
    this.#options = { ...options, port };
  }

  /** `host:port` of the remote desktop. */
  get target(): string {
    return `${this.#options.host}:${this.#options.port}`;
  }

  /**
   * Text goes key by key (the client turns the keys into scancodes for the remote layout);
   * only characters no key types are pasted, through the clipboard channel.
   */
  protected override get pasteText(): boolean {
    return false;
  }

  /**
   * Characters no key of the private display's keymap types need the clipboard channel.
   *
   * @throws {SdkTypeError} naming them when the server has none; nothing is typed then.
   */
  protected override async checkUntypable(chars: readonly string[]): Promise<void> {
    await checkPastable(this.#clipboard, chars, this.target, this.#connectedAt + 5000);
  }

  /** Pastes through the clipboard channel, each step confirmed by the client's log. */
  protected override async pasteChar(char: string): Promise<void> {
    const x11 = await this.x11Connection();
    await pasteOverRdp(this.#clipboard, x11, () => this.pressControlV(), char, this.target);
  }

  /**
   * Waits until the remote screen shows something: frames that stay all black past
   * `sessionStartTimeout` mean the remote session did not start.
   *
   * @throws {ConnectionError} (kind `timeout`) naming the likely causes.
   */
  protected override async checkDisplay(input: NativeInput, region: ScreenRegion): Promise<void> {
    if (this.#sessionTimeout === 0) return;
    const deadline = Date.now() + this.#sessionTimeout;
    while (await holdOpen(input.isBlack(region))) {
      const lost = this.connectionLost();
      if (lost) throw lost;
      if (Date.now() > deadline) {
        throw new ConnectionError(
          `Cannot use the RDP session at ${this.target}: its screen stayed all black for ` +
            `${this.#sessionTimeout / 1000} s after the connection, so the remote session did ` +
            "not start. Likely causes: xrdp could not start the session's X server because its " +
            "socket folder /run/xrdp/sockdir does not let the user create sockets (it must be " +
            "mode 3777: sticky and writable by all; see xrdp-sesman's log); the user has no " +
            "desktop session to start (~/.xsession, the window manager); the server ran out " +
            "of sessions. Set sessionStartTimeout (ms) for a slower session, or 0 for a " +
            "desktop that is black on purpose",
          { kind: "timeout", endpoint: this.target },
        );
      }
      await sleep(200);
    }
  }

  /**
   * Connects: checks the host answers, starts a private Xvfb of the desktop size, starts
   * `xfreerdp` on it with the password on stdin, and waits for its session window.
   *
   * @throws {MissingDependencyError} when `xfreerdp`, `xwininfo` or Xvfb is missing
   *   ({@link INSTALL_FREERDP}), before anything connects; {ConnectionError} naming the host
   *   when it does not answer (`refused`, `timeout`) or no session window comes within 30 s
   *   (`timeout`); {ToolError} with the client's own words when it ends: the credentials or the
   *   certificate (without `ignoreCertificate`) refused.
   */
  protected override async openDisplay(): Promise<{ display: string; xauthority: string }> {
    try {
      const display = await holdOpen(this.#connectClient());
      return { display, xauthority: this.#xvfb!.xauthority };
    } catch (e) {
      await this.closeDisplay();
      throw e;
    }
  }

  /** The client ended after it connected: the connection was lost. */
  protected override connectionLost(): Error | undefined {
    return this.#lost;
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

  async #connectClient(): Promise<string> {
    this.#requireTools();
    const { host, port } = this.#options;
    const down = await tcpReachable(host, port!);
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

  /** Disconnects the client, stops its display, forgets the connection state. */
  protected override async closeDisplay(): Promise<void> {
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
