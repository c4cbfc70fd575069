/**
 * The SDK side of the extension bridge: a WebSocket server the SDK Bridge extension's service
 * worker connects to as a client (docs/bridge.md). Private to the package.
 *
 * Wire format (JSON text frames), the extension's `background.js` being the other end:
 * - extension -> SDK `{type: "hello", token, version}`; SDK -> extension `{type: "welcome"}`, or
 *   the server closes the socket with a 4000-range code and a reason;
 * - SDK -> extension `{id, method, params}`; extension -> SDK `{id, result}` or `{id, error}`;
 * - extension -> SDK `{type: "event", method, params}` (DevTools-protocol events of the driven
 *   tab), `{type: "detached", reason}`, and `{type: "ping"}` every 20 s (it keeps the extension's
 *   service worker alive; ignored here).
 *
 * @module
 */

import { WebSocketServer } from "ws";
import type { IncomingMessage } from "node:http";
import { timingSafeEqual } from "node:crypto";

/** Close codes the server uses to reject an extension. */
export const CLOSE_BAD_TOKEN = 4001;
/** Another extension is already connected to this bridge. */
export const CLOSE_BUSY = 4002;
/** No hello within the handshake time. */
export const CLOSE_NO_HELLO = 4003;

const HELLO_TIMEOUT_MS = 5000;

// The few members of a `ws` socket used here.
interface Socket {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  on(event: "message", listener: (data: unknown) => void): void;
  on(event: "close", listener: () => void): void;
  on(event: "error", listener: (error: Error) => void): void;
}

interface Server {
  on(event: "connection", listener: (socket: Socket, request: IncomingMessage) => void): void;
  on(event: "listening", listener: () => void): void;
  on(event: "error", listener: (error: Error) => void): void;
  address(): { port: number } | string | null;
  close(callback?: () => void): void;
  clients: Set<Socket>;
}

/** Options of {@link BridgeServer}. */
export interface BridgeServerOptions {
  /** Interface to bind. */
  host: string;
  /** TCP port; `0` picks a free one. */
  port: number;
  /** Token the extension must send; undefined accepts any token. */
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
  #lastRejection: string | undefined;
  /** Called when the debugger leaves the tab (the user closed it, or clicked "Cancel"). */
  onDetached: ((reason: string) => void) | undefined;

  constructor(options: BridgeServerOptions) {
    this.#options = options;
  }

  /** The bound port, once listening. */
  get port(): number | undefined {
    const address = this.#server?.address();
    return typeof address === "object" && address ? address.port : undefined;
  }

  /** Whether an extension is connected and past the handshake. */
  get connected(): boolean {
    return this.#client !== undefined;
  }

  /** Why the last extension was turned away, if one was. */
  get lastRejection(): string | undefined {
    return this.#lastRejection;
  }

  /** Starts listening. @throws {Error} when the port is taken. */
  async listen(): Promise<void> {
    if (this.#server) return;
    const server = new WebSocketServer({
      host: this.#options.host,
      port: this.#options.port,
      maxPayload: 64 * 1024 * 1024,
      verifyClient: (info: { origin: string }) => this.#originAllowed(info.origin),
    }) as unknown as Server;
    await new Promise<void>((resolve, reject) => {
      server.on("listening", resolve);
      server.on("error", (error) =>
        reject(
          new Error(
            `AgentOverBrowserBridge cannot listen on ${this.#options.host}:${this.#options.port}: ${error.message}`,
          ),
        ));
    });
    server.on("connection", (socket) => this.#accept(socket));
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

  #accept(socket: Socket): void {
    let greeted = false;
    const helloTimer = setTimeout(() => socket.close(CLOSE_NO_HELLO, "no hello"), HELLO_TIMEOUT_MS);
    socket.on("error", () => {});
    socket.on("close", () => {
      clearTimeout(helloTimer);
      if (this.#client !== socket) return;
      this.#client = undefined;
      for (const { reject } of this.#pending.values()) {
        reject(new Error("AgentOverBrowserBridge: the extension disconnected"));
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
      if (!greeted) {
        clearTimeout(helloTimer);
        greeted = true;
        this.#hello(socket, message);
        return;
      }
      if (this.#client !== socket) return;
      this.#dispatch(message);
    });
  }

  #hello(socket: Socket, message: Record<string, unknown>): void {
    if (message.type !== "hello" || !tokenMatches(this.#options.token, message.token)) {
      // The reason never carries either token.
      this.#lastRejection = "the extension's pairing token does not match";
      socket.close(CLOSE_BAD_TOKEN, "pairing token does not match");
      return;
    }
    if (this.#client) {
      this.#lastRejection = "a second extension tried to connect";
      socket.close(CLOSE_BUSY, "another extension is connected to this bridge");
      return;
    }
    this.#client = socket;
    socket.send(JSON.stringify({ type: "welcome" }));
    for (const wake of this.#clientWaiters) wake();
  }

  #dispatch(message: Record<string, unknown>): void {
    if (typeof message.id === "number") {
      const pending = this.#pending.get(message.id);
      if (!pending) return;
      this.#pending.delete(message.id);
      if (typeof message.error === "string") pending.reject(new Error(message.error));
      else pending.resolve(message.result);
    } else if (message.type === "event" && typeof message.method === "string") {
      const params = (message.params ?? {}) as Record<string, unknown>;
      for (const listener of [...this.#listeners]) listener(message.method, params);
    } else if (message.type === "detached") {
      this.onDetached?.(String(message.reason));
    }
  }

  /**
   * Resolves once an extension is connected.
   *
   * @throws {Error} after `timeoutMs` without one.
   */
  async waitForClient(timeoutMs: number): Promise<void> {
    if (this.#client) return;
    let wake!: () => void;
    const connected = new Promise<void>((resolve) => wake = resolve);
    this.#clientWaiters.add(wake);
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      await Promise.race([
        connected,
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error("timeout")), timeoutMs);
        }),
      ]);
    } finally {
      clearTimeout(timer);
      this.#clientWaiters.delete(wake);
    }
  }

  /**
   * Sends a command to the extension and resolves with its result.
   *
   * @throws {Error} when no extension is connected, it answers an error, it disconnects, or
   * `timeoutMs` passes.
   */
  call<R = unknown>(method: string, params: unknown = {}, timeoutMs = 30_000): Promise<R> {
    const client = this.#client;
    if (!client) {
      return Promise.reject(
        new Error(`AgentOverBrowserBridge: no extension is connected (calling ${method})`),
      );
    }
    const id = ++this.#nextId;
    return new Promise<R>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#pending.delete(id);
        reject(new Error(`AgentOverBrowserBridge: ${method} got no answer in ${timeoutMs} ms`));
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
    });
  }

  /** Listens for the driven tab's DevTools-protocol events. */
  onEvent(listener: EventListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Closes the client and the server. Idempotent. */
  async close(): Promise<void> {
    const server = this.#server;
    this.#server = undefined;
    this.#client = undefined;
    for (const { reject } of this.#pending.values()) {
      reject(new Error("AgentOverBrowserBridge: the bridge was closed"));
    }
    this.#pending.clear();
    if (!server) return;
    for (const socket of server.clients) socket.close(1001, "bridge closed");
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

function tokenMatches(expected: string | undefined, given: unknown): boolean {
  if (expected === undefined) return true;
  if (typeof given !== "string") return false;
  const a = new TextEncoder().encode(expected), b = new TextEncoder().encode(given);
  return a.length === b.length && timingSafeEqual(a, b);
}
