/**
 * The SDK side of the extension bridge: a WebSocket server the SDK Bridge extension's service
 * worker connects to as a client (docs/bridge.md). Private to the package.
 *
 * Wire format (JSON text frames), the extension's `background.js` being the other end. First the
 * pairing handshake (protocol 3): each side proves it holds the pairing token without sending it,
 * the server first, so the extension tells nothing to a server that cannot prove it:
 * - extension -> SDK `{type: "hello", protocol: 3, nonce: Ne, version}` (`Ne`, `Ns`: 32 random
 *   bytes in hex);
 * - SDK -> extension `{type: "challenge", nonce: Ns, proof}`, `proof` = HMAC-SHA256 keyed with the
 *   token of `sdk-bridge/3 server <address> <Ne> <Ns>` (hex), or `{type: "challenge", nonce: Ns,
 *   unpaired: true}` when the SDK has no token (`allowUnpaired`);
 * - extension -> SDK `{type: "auth", proof}`, HMAC of `sdk-bridge/3 extension <address> <Ns> <Ne>`
 *   (`{type: "auth", unpaired: true}` when the popup allows an unpaired SDK), or `{type: "refuse",
 *   reason: "proof" | "unpaired"}` and it closes;
 * - SDK -> extension `{type: "welcome"}`, or the server closes the socket with a 4000-range code
 *   and a reason. `<address>` is the host and port the extension dialled (`127.0.0.1:3766`), as
 *   the server reads them off the connection itself (its local address), never off a header: a
 *   program that relays the bytes from another address or port (a relay on `127.0.0.1` to an SDK
 *   on `[::1]`) makes the proofs differ. Only then:
 * - SDK -> extension `{id, method, params}`; extension -> SDK `{id, result}` or `{id, error}`;
 * - extension -> SDK `{type: "event", method, params}` (DevTools-protocol events of the driven
 *   tab), `{type: "detached", reason}`, and `{type: "ping"}` every 20 s (it keeps the extension's
 *   service worker alive; ignored here).
 *
 * The server and the extension's socket never keep the process alive by themselves (both are
 * unref'd): a script that ends without `destroy()` exits. What waits on the extension (the wait
 * for it to connect, each command) holds the process open meanwhile (`holdOpen` of `@sdk/core`).
 *
 * Errors: the connection's failures are `ConnectionError`s (`refused` when an extension was
 * turned away or the port cannot be bound, `lost` when the extension went away or the bridge was
 * closed, `timeout` when it did not answer); an error the extension answers (Chrome refused a
 * DevTools-protocol command) is a `ToolError` of the tool `"SDK Bridge extension"` whose message
 * is the extension's own words.
 *
 * @module
 */

import { WebSocketServer } from "ws";
import { createServer, type IncomingMessage, STATUS_CODES } from "node:http";
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { setImmediate, setTimeout } from "node:timers";
import { ConnectionError, holdOpen, ToolError } from "../_core.ts";

/** Close codes the server uses to reject an extension: it did not prove it holds the token. */
const CLOSE_BAD_TOKEN = 4001;
/** Another extension is already connected to this bridge. */
const CLOSE_BUSY = 4002;
/** No hello (or no proof) within the handshake time. */
const CLOSE_NO_HELLO = 4003;
/** The client speaks an older protocol (it sends its token instead of proving it holds it). */
const CLOSE_OUTDATED = 4004;

/** The pairing handshake's version (docs/bridge.md, security). */
const BRIDGE_PROTOCOL = 3;

/** The text the server's proof signs; `address` is where the extension dialled (`host:port`). */
function serverProofText(address: string, extensionNonce: string, serverNonce: string): string {
  return `sdk-bridge/${BRIDGE_PROTOCOL} server ${address} ${extensionNonce} ${serverNonce}`;
}

/** The text the extension's proof signs. */
function extensionProofText(
  address: string,
  serverNonce: string,
  extensionNonce: string,
): string {
  return `sdk-bridge/${BRIDGE_PROTOCOL} extension ${address} ${serverNonce} ${extensionNonce}`;
}

/**
 * The host and port a connection arrived at, as the extension wrote them when it dialled:
 * `127.0.0.1:3766` (an IPv4 address mapped into IPv6 as IPv4), `[::1]:3766`.
 */
function dialledAddress(localAddress: string | undefined, localPort: number | undefined): string {
  const host = (localAddress ?? "").replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, "");
  return `${host.includes(":") ? `[${host}]` : host}:${localPort ?? 0}`;
}

/**
 * The largest frame a socket may send before it paired (its hello and auth are a few hundred
 * bytes): a larger one closes it (1009) before it is read. After pairing frames carry screenshots.
 */
const PRE_PAIRING_MAX_FRAME = 4 * 1024;
/** All the bytes a socket may send before it paired, frames' headers included. */
const PRE_PAIRING_MAX_BYTES = 16 * 1024;
/** The largest frame of a paired extension. */
const MAX_FRAME = 64 * 1024 * 1024;

/** HMAC-SHA256 of `text` keyed with the pairing token, in hex. */
function pairingProof(token: string, text: string): string {
  return createHmac("sha256", token).update(text).digest("hex");
}

const NONCE = /^[0-9a-f]{64}$/;

const HELLO_TIMEOUT_MS = 5000;

// The few members of a `ws` socket used here.
interface Socket {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  terminate(): void;
  on(event: "message", listener: (data: unknown) => void): void;
  on(event: "close", listener: () => void): void;
  on(event: "error", listener: (error: Error) => void): void;
}

interface Server {
  on(event: "connection", listener: (socket: Socket, request: IncomingMessage) => void): void;
  on(event: "error", listener: (error: Error) => void): void;
  close(callback?: () => void): void;
  clients: Set<Socket>;
}

/** Why a connect call stops waiting at once: what the extension said when it refused. */
export type BridgeRefusal = "token" | "unpaired";

/** The tool named by the errors the extension answers with. */
const BRIDGE_EXTENSION_TOOL = "SDK Bridge extension";

/** Options of {@link BridgeServer}. */
export interface BridgeServerOptions {
  /** Interface to bind. */
  host: string;
  /** TCP port; `0` picks a free one. */
  port: number;
  /**
   * The pairing token: the server proves it holds it, and the extension must too. Undefined: no
   * pairing, which only an extension whose popup allows an unpaired SDK accepts.
   */
  token?: string;
  /** Extension id allowed in the `Origin`; undefined allows any `chrome-extension://` origin. */
  extensionId?: string;
}

type EventListener = (method: string, params: Record<string, unknown>) => void;

/** The WebSocket server and its one extension client. */
export class BridgeServer {
  readonly #options: BridgeServerOptions;
  #server: Server | undefined;
  #client: Socket | undefined;
  #nextId = 0;
  readonly #pending = new Map<
    number,
    { resolve: (v: unknown) => void; reject: (e: Error) => void }
  >();
  readonly #listeners = new Set<EventListener>();
  readonly #clientWaiters = new Set<() => void>();
  readonly #rejectionWaiters = new Set<(reason: BridgeRefusal, detail: string) => void>();
  #http: ReturnType<typeof createServer> | undefined;
  #lastRejection: string | undefined;
  /** Called when the debugger leaves the tab (the user closed it, or clicked "Cancel"). */
  onDetached: ((reason: string) => void) | undefined;

  constructor(options: BridgeServerOptions) {
    this.#options = options;
  }

  /** The bound port, once listening. */
  get port(): number | undefined {
    const address = this.#http?.address();
    return typeof address === "object" && address ? address.port : undefined;
  }

  /** `ws://host:port` of the server (the port asked for until it listens), for messages. */
  get endpoint(): string {
    const host = this.#options.host.includes(":") ? `[${this.#options.host}]` : this.#options.host;
    return `ws://${host}:${this.port ?? this.#options.port}`;
  }

  /** Whether an extension is connected and past the handshake. */
  get connected(): boolean {
    return this.#client !== undefined;
  }

  /** Why the last extension was turned away, if one was. */
  get lastRejection(): string | undefined {
    return this.#lastRejection;
  }

  /**
   * Starts listening; the server does not keep the process alive.
   *
   * @throws {ConnectionError} (`refused`) when the port cannot be bound (taken, not allowed).
   */
  async listen(): Promise<void> {
    if (this.#server) return;
    // A plain request (not a WebSocket upgrade) gets what `ws`'s own server answers.
    const http = createServer((_request, response) => {
      const body = STATUS_CODES[426]!;
      response.writeHead(426, { "content-type": "text/plain", "content-length": body.length });
      response.end(body);
    });
    await new Promise<void>((resolve, reject) => {
      http.once("error", (error: Error) =>
        reject(
          new ConnectionError(
            `AgentOverBrowserBridge cannot listen on ${this.#options.host}:${this.#options.port}: ${error.message}`,
            { kind: "refused", endpoint: this.endpoint },
            { cause: error },
          ),
        ));
      http.listen(this.#options.port, this.#options.host, () => resolve());
    });
    http.unref();
    const server = new WebSocketServer({
      server: http,
      maxPayload: MAX_FRAME,
      verifyClient: (info: { origin: string }) => this.#originAllowed(info.origin),
    }) as unknown as Server;
    // The HTTP server's later errors (none expected once it listens) must not go unhandled.
    server.on("error", () => {});
    server.on("connection", (socket, request) => {
      // The extension's socket does not keep the process alive either.
      request.socket.unref();
      this.#accept(socket, request);
    });
    this.#http = http;
    this.#server = server;
  }

  #originAllowed(origin: string | undefined): boolean {
    if (!origin) return false;
    const match = /^chrome-extension:\/\/([a-p]{32})$/.exec(origin);
    if (!match) {
      this.#lastRejection = `origin ${origin} is not a chrome-extension:// origin`;
      return false;
    }
    if (this.#options.extensionId && match[1] !== this.#options.extensionId) {
      this.#lastRejection = `extension ${match[1]} is not the one allowed`;
      return false;
    }
    return true;
  }

  #accept(socket: Socket, request: IncomingMessage): void {
    // hello -> challenge sent -> ready; the timer covers the whole handshake.
    let stage: "hello" | "auth" | "ready" | "closed" = "hello";
    let extensionNonce = "";
    let serverNonce = "";
    // Where this connection arrived, which the proofs bind (read off the socket, not a header).
    const address = dialledAddress(request.socket.localAddress, request.socket.localPort);
    // Before pairing a frame is a few KB at most, refused before it is buffered (`ws` checks a
    // frame's length in its header against its receiver's limit), and so are the bytes in all.
    const receiver = (socket as unknown as { _receiver?: { _maxPayload?: number } })._receiver;
    const limit = (bytes: number) => {
      if (receiver && typeof receiver._maxPayload === "number") receiver._maxPayload = bytes;
    };
    limit(PRE_PAIRING_MAX_FRAME);
    let received = 0;
    const countBytes = (chunk: { length: number }) => {
      received += chunk.length;
      if (stage === "ready" || received <= PRE_PAIRING_MAX_BYTES) return;
      // `ws` closes a frame over the limit itself (1009), a tick later: this is for the rest.
      setImmediate(() => {
        if (stage === "ready" || socket.readyState !== 1) return;
        stage = "closed";
        this.#lastRejection = "a client sent more than a pairing handshake before pairing";
        socket.terminate();
      });
    };
    request.socket.on("data", countBytes);
    const helloTimer = setTimeout(() => {
      stage = "closed";
      socket.close(CLOSE_NO_HELLO, "no pairing handshake");
    }, HELLO_TIMEOUT_MS);
    helloTimer.unref();
    const turnAway = (code: number, reason: string, why: string) => {
      stage = "closed";
      clearTimeout(helloTimer);
      this.#lastRejection = why;
      socket.close(code, reason);
    };
    socket.on("error", () => {});
    socket.on("close", () => {
      clearTimeout(helloTimer);
      if (this.#client !== socket) return;
      this.#client = undefined;
      for (const { reject } of this.#pending.values()) {
        reject(
          new ConnectionError("AgentOverBrowserBridge: the extension disconnected", {
            kind: "lost",
            endpoint: this.endpoint,
          }),
        );
      }
      this.#pending.clear();
    });
    socket.on("message", (data) => {
      let message: Record<string, unknown>;
      try {
        message = JSON.parse(String(data));
      } catch {
        return;
      }
      if (stage === "ready") {
        if (this.#client === socket) this.#dispatch(message);
        return;
      }
      if (stage === "hello") {
        if (this.#client) {
          return turnAway(
            CLOSE_BUSY,
            "another extension is connected to this bridge",
            "a second extension tried to connect",
          );
        }
        if (message.type !== "hello" || message.protocol !== BRIDGE_PROTOCOL) {
          // The reason never carries a token, the client's or ours.
          return turnAway(
            CLOSE_OUTDATED,
            "rebuild and reload the SDK Bridge extension: this SDK needs pairing protocol 3",
            "an extension of an older version (an older pairing protocol) connected: rebuild " +
              "it with 'deno task build:extension' and reload it",
          );
        }
        if (typeof message.nonce !== "string" || !NONCE.test(message.nonce)) {
          return turnAway(CLOSE_BAD_TOKEN, "malformed hello", "a client sent a malformed hello");
        }
        extensionNonce = message.nonce;
        serverNonce = randomBytes(32).toString("hex");
        const token = this.#options.token;
        stage = "auth";
        socket.send(JSON.stringify(
          token === undefined ? { type: "challenge", nonce: serverNonce, unpaired: true } : {
            type: "challenge",
            nonce: serverNonce,
            proof: pairingProof(token, serverProofText(address, extensionNonce, serverNonce)),
          },
        ));
        return;
      }
      if (stage !== "auth") return;
      if (message.type === "refuse") {
        // The extension did not accept this server's proof (another token), or an unpaired SDK.
        const refusal: BridgeRefusal = message.reason === "unpaired" ? "unpaired" : "token";
        const why = refusal === "unpaired"
          ? "the extension refuses an SDK without the pairing token"
          : "the extension's pairing token does not match";
        turnAway(CLOSE_BAD_TOKEN, why, why);
        for (const turnedAway of [...this.#rejectionWaiters]) turnedAway(refusal, why);
        return;
      }
      if (
        message.type !== "auth" ||
        !this.#proofHolds(message, address, extensionNonce, serverNonce)
      ) {
        // Not the extension: one that holds the token proves it. The connect call keeps waiting
        // for the real one (the timeout's message names this).
        return turnAway(
          CLOSE_BAD_TOKEN,
          "pairing token does not match",
          "a client with a chrome-extension:// origin did not prove it holds the pairing token",
        );
      }
      if (this.#client) {
        return turnAway(
          CLOSE_BUSY,
          "another extension is connected to this bridge",
          "a second extension tried to connect",
        );
      }
      clearTimeout(helloTimer);
      stage = "ready";
      request.socket.off("data", countBytes);
      limit(MAX_FRAME);
      this.#client = socket;
      socket.send(JSON.stringify({ type: "welcome" }));
      for (const wake of this.#clientWaiters) wake();
    });
  }

  /** Whether an `auth` message proves the token (or, unpaired, says it is). */
  #proofHolds(
    message: Record<string, unknown>,
    address: string,
    extensionNonce: string,
    serverNonce: string,
  ): boolean {
    const token = this.#options.token;
    if (token === undefined) return message.unpaired === true;
    if (typeof message.proof !== "string") return false;
    const expected = pairingProof(
      token,
      extensionProofText(address, serverNonce, extensionNonce),
    );
    return tokenMatches(expected, message.proof);
  }

  #dispatch(message: Record<string, unknown>): void {
    if (typeof message.id === "number") {
      const pending = this.#pending.get(message.id);
      if (!pending) return;
      this.#pending.delete(message.id);
      if (typeof message.error === "string") {
        pending.reject(
          new ToolError(message.error, { tool: BRIDGE_EXTENSION_TOOL, output: message.error }),
        );
      } else pending.resolve(message.result);
    } else if (message.type === "event" && typeof message.method === "string") {
      const params = (message.params ?? {}) as Record<string, unknown>;
      for (const listener of [...this.#listeners]) listener(message.method, params);
    } else if (message.type === "detached") {
      this.onDetached?.(String(message.reason));
    }
  }

  /**
   * Resolves once an extension is connected; holds the process open meanwhile.
   *
   * @throws {BridgeWaitError} after `timeoutMs` without one (`reason` `"timeout"`), or at once
   * when the extension refuses this server: another pairing token (`reason` `"token"`), or no
   * token while its popup does not allow an unpaired SDK (`"unpaired"`).
   */
  waitForClient(timeoutMs: number): Promise<void> {
    if (this.#client) return Promise.resolve();
    let wake!: () => void;
    let turnedAway!: (reason: BridgeRefusal, detail: string) => void;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const waited = new Promise<void>((resolve, reject) => {
      wake = resolve;
      turnedAway = (reason, detail) => reject(new BridgeWaitError(reason, detail));
      timer = setTimeout(() => reject(new BridgeWaitError("timeout", "timeout")), timeoutMs);
    });
    this.#clientWaiters.add(wake);
    this.#rejectionWaiters.add(turnedAway);
    return holdOpen(waited.finally(() => {
      clearTimeout(timer);
      this.#clientWaiters.delete(wake);
      this.#rejectionWaiters.delete(turnedAway);
    }));
  }

  /**
   * Sends a command to the extension and resolves with its result; holds the process open until
   * the answer.
   *
   * @throws {ConnectionError} when no extension is connected or it disconnects (`lost`), or
   * `timeoutMs` passes (`timeout`).
   * @throws {ToolError} with the extension's words when it answers an error.
   */
  call<R = unknown>(method: string, params: unknown = {}, timeoutMs = 30_000): Promise<R> {
    const client = this.#client;
    if (!client) {
      return Promise.reject(
        new ConnectionError(
          `AgentOverBrowserBridge: no extension is connected (calling ${method})`,
          { kind: "lost", endpoint: this.endpoint },
        ),
      );
    }
    const id = ++this.#nextId;
    return holdOpen(
      new Promise<R>((resolve, reject) => {
        const timer = setTimeout(() => {
          this.#pending.delete(id);
          reject(
            new ConnectionError(
              `AgentOverBrowserBridge: ${method} got no answer in ${timeoutMs} ms`,
              { kind: "timeout", endpoint: this.endpoint },
            ),
          );
        }, timeoutMs);
        this.#pending.set(id, {
          resolve: (v) => {
            clearTimeout(timer);
            resolve(v as R);
          },
          reject: (e) => {
            clearTimeout(timer);
            reject(e);
          },
        });
        client.send(JSON.stringify({ id, method, params }));
      }),
    );
  }

  /** Listens for the driven tab's DevTools-protocol events. */
  onEvent(listener: EventListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Closes the client and the server. Idempotent. */
  async close(): Promise<void> {
    const server = this.#server;
    const http = this.#http;
    this.#server = undefined;
    this.#http = undefined;
    this.#client = undefined;
    for (const { reject } of this.#pending.values()) {
      reject(
        new ConnectionError("AgentOverBrowserBridge: the bridge was closed", {
          kind: "lost",
          endpoint: this.endpoint,
        }),
      );
    }
    this.#pending.clear();
    if (!server || !http) return;
    for (const socket of server.clients) socket.close(1001, "bridge closed");
    await new Promise<void>((resolve) => server.close(() => resolve()));
    http.closeAllConnections();
    await new Promise<void>((resolve) => http.close(() => resolve()));
  }
}

/** Why {@link BridgeServer.waitForClient} gave up: the time ran out, or the extension refused. */
export class BridgeWaitError extends ConnectionError {
  /**
   * `"token"`: the extension refused this server's proof (another pairing token); `"unpaired"`:
   * it refuses an SDK without a token; `"timeout"`: none came.
   */
  readonly reason: BridgeRefusal | "timeout";
  /** Creates the error; the agent turns it into its own message. */
  constructor(reason: BridgeRefusal | "timeout", detail: string) {
    super(`AgentOverBrowserBridge: ${detail}`, {
      kind: reason === "timeout" ? "timeout" : "refused",
      endpoint: "",
    });
    this.reason = reason;
  }
}

function tokenMatches(expected: string, given: unknown): boolean {
  if (typeof given !== "string") return false;
  const a = new TextEncoder().encode(expected), b = new TextEncoder().encode(given);
  return a.length === b.length && timingSafeEqual(a, b);
}
