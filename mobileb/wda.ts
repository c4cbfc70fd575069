/**
 * The WebDriverAgent HTTP layer of `@sdk/mobileb`: one JSON request to the WDA service with plain
 * `fetch` (no client library), its answer's `value`, and errors of the SDK's taxonomy that say
 * what went wrong:
 *
 * - nothing listens on the host and port: a `ConnectionError` of kind `refused`
 *   (`CONNECTION_REFUSED`), which says how to start WebDriverAgent;
 * - the port accepts connections but WDA does not answer: before its first request (and again
 *   after a request that failed for the connection) the client asks `GET /status` and waits
 *   `driverConnectTimeout` (5 s) for an answer, so a hung or wrong port fails fast with a
 *   `ConnectionError` of kind `timeout` (`CONNECTION_TIMEOUT`), not after the 60 s a request may
 *   take;
 * - the connection drops during a request, or no answer comes within the request's time: a
 *   `ConnectionError` of kind `lost` or `timeout` naming the route and `host:port`;
 * - WDA answers with an error (`{ value: { error, message } }`, or an HTTP error status): a
 *   `ToolError` of the tool `"WebDriverAgent"` with the HTTP `status`, WDA's `error: message` as
 *   its `output`, and the route, WDA's error and message in its message.
 *
 * Routes and answer shapes follow appium/WebDriverAgent (`WebDriverAgentLib/Commands`):
 * `{ "value": ..., "sessionId": ... }` on success, `{ "value": { "error", "message",
 * "traceback" } }` with a 4xx/5xx status on failure.
 *
 * @module
 */

import { ConnectionError, ToolError } from "@sdk/core";

/** The `tool` of the `ToolError`s WebDriverAgent's error answers become. */
export const WDA_TOOL = "WebDriverAgent";

/** Default time the connection check waits for WDA's first answer (`driverConnectTimeout`), ms. */
export const DEFAULT_DRIVER_CONNECT_TIMEOUT_MS = 5_000;

/** Default time limit of one request to WebDriverAgent, ms. */
export const DEFAULT_DRIVER_REQUEST_TIMEOUT_MS = 60_000;

/** HTTP methods of `runDriverRequest` (spec 4.9). */
export type DriverRequestMethod = "GET" | "POST" | "DELETE" | "PUT";

/** The HTTP methods `runDriverRequest` accepts. */
export const DRIVER_REQUEST_METHODS: readonly DriverRequestMethod[] = [
  "GET",
  "POST",
  "DELETE",
  "PUT",
];

/** How to start WebDriverAgent, for the error of a driver that does not answer. */
export function startDriverHint(host: string, port: number): string {
  return (
    `Start WebDriverAgent on the device first: build and run its WebDriverAgentRunner with ` +
    `\`xcodebuild -project WebDriverAgent.xcodeproj -scheme WebDriverAgentRunner ` +
    `-destination 'id=<device udid>' test\` (appium/WebDriverAgent), or let Appium's XCUITest ` +
    `driver start its WebDriverAgent; for a device on USB forward the port with ` +
    `\`iproxy ${port} 8100\`. Then check that http://${host}:${port}/status answers, or set ` +
    `driverHost / driverPort to where it listens.`
  );
}

/** What WDA answered, for the package's own decisions (an ended session, a refused dismissal). */
export interface DriverAnswer {
  /** The route, e.g. `POST /session/abc/wda/keys`. */
  readonly route: string;
  /** The HTTP status of the answer. */
  readonly status: number;
  /** WDA's `error` (a W3C error code such as `invalid session id`), when it gave one. */
  readonly error: string | undefined;
  /** WDA's `message`, when it gave one. */
  readonly driverMessage: string | undefined;
}

const answers = new WeakMap<ToolError, DriverAnswer>();

/**
 * WDA's answer behind a `ToolError` of {@link WdaClient.request}; undefined for any other error.
 * Private to the package (the `ToolError` itself carries `status` and `output`).
 */
export function driverAnswerOf(error: unknown): DriverAnswer | undefined {
  return error instanceof ToolError ? answers.get(error) : undefined;
}

/** The `ToolError` of an error answer of WDA; its message names the route and WDA's words. */
function driverRequestError(where: string, answer: DriverAnswer): ToolError {
  const { route, status, error, driverMessage: message } = answer;
  const failure = new ToolError(
    `WebDriverAgent at ${where} answered ${route} with ${
      error ? `error ${JSON.stringify(error)}` : `HTTP ${status}`
    }${message ? `: ${message}` : ""}${
      error === "invalid session id"
        ? " (the WDA session ended: WebDriverAgent keeps one session, so another client " +
          "creating one ends it; create a new device)"
        : ""
    }`,
    {
      tool: WDA_TOOL,
      status,
      output: [error, message].filter((part) => part).join(": "),
    },
  );
  answers.set(failure, answer);
  return failure;
}

/** Options of one {@link WdaClient.request}. */
export interface WdaRequestOptions {
  /** Aborts the request. */
  signal?: AbortSignal;
  /** Time limit, ms. Default {@link DEFAULT_DRIVER_REQUEST_TIMEOUT_MS}. */
  timeoutMs?: number;
}

/** JSON requests to one WebDriverAgent service. */
export class WdaClient {
  /** Host of the service. */
  readonly host: string;
  /** Port of the service. */
  readonly port: number;
  /** `host:port`, for messages. */
  readonly where: string;
  /** How long the connection check waits for WDA's first answer, ms. */
  readonly connectTimeoutMs: number;
  readonly #base: string;
  // The connection check: done once WDA answered; again after a failure of the connection.
  #checked: Promise<void> | undefined;

  /**
   * A client of the service at `http://host:port`.
   *
   * @param connectTimeoutMs how long the connection check waits for WDA's first answer;
   *   default {@link DEFAULT_DRIVER_CONNECT_TIMEOUT_MS}.
   */
  constructor(host: string, port: number, connectTimeoutMs = DEFAULT_DRIVER_CONNECT_TIMEOUT_MS) {
    this.host = host;
    this.port = port;
    this.where = `${host}:${port}`;
    this.connectTimeoutMs = connectTimeoutMs;
    // An IPv6 literal needs brackets in a URL.
    this.#base = `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
  }

  /**
   * Sends one request and returns the `value` of WDA's answer. The first request (and the first
   * after one that failed for the connection) checks first that WDA answers at all.
   *
   * @param path the route's path, starting with `/` (e.g. `/session/abc/window/size`).
   * @param body a JSON body; POST and PUT without one send `{}` (WDA reads arguments from it).
   * @throws {ConnectionError} `refused` when nothing listens at the host and port (saying how to
   * start WDA); `timeout` when WDA does not answer the connection check within
   * {@link WdaClient.connectTimeoutMs}, or the request within its time; `lost` when the
   * connection drops or the answer is not JSON.
   * @throws {ToolError} (tool `"WebDriverAgent"`) when WDA answers with an error.
   */
  async request(
    method: DriverRequestMethod,
    path: string,
    body?: unknown,
    options: WdaRequestOptions = {},
  ): Promise<unknown> {
    const route = `${method} ${path}`;
    await this.#check(route, options.signal);
    try {
      return await this.#send(method, path, route, body, options);
    } catch (error) {
      // WDA hung or went away: the next request checks again, so it fails fast too.
      if (error instanceof ConnectionError) this.#checked = undefined;
      throw error;
    }
  }

  // Waits for the connection check (shared by concurrent requests), or the caller's abort.
  async #check(route: string, signal: AbortSignal | undefined): Promise<void> {
    this.#checked ??= this.#probe(route).catch((error) => {
      this.#checked = undefined;
      throw error;
    });
    if (!signal) return await this.#checked;
    signal.throwIfAborted();
    let onAbort!: () => void;
    const aborted = new Promise<never>((_, reject) => {
      onAbort = () => reject(signal.reason);
      signal.addEventListener("abort", onAbort, { once: true });
    });
    try {
      await Promise.race([this.#checked, aborted]);
    } finally {
      signal.removeEventListener("abort", onAbort);
    }
  }

  // `GET /status` within the connect timeout: any HTTP answer shows that WDA (or something)
  // answers on the port; what it answers is for the request itself to judge.
  async #probe(route: string): Promise<void> {
    const timeout = AbortSignal.timeout(this.connectTimeoutMs);
    try {
      const response = await fetch(`${this.#base}/status`, { signal: timeout });
      await response.body?.cancel();
    } catch (error) {
      if (timeout.aborted) {
        throw new ConnectionError(
          `WebDriverAgent at ${this.where} did not answer within ${this.connectTimeoutMs} ms ` +
            `(driverConnectTimeout; GET /status, before ${route}): something accepts ` +
            `connections on that port but does not answer. Is it WebDriverAgent's port (not its ` +
            `MJPEG port), and is WDA responsive (the device unlocked, its runner not paused in ` +
            `a debugger, iproxy running)?`,
          { kind: "timeout", endpoint: this.where },
          { cause: error },
        );
      }
      throw this.#networkError(route, error, undefined, timeout, this.connectTimeoutMs);
    }
  }

  async #send(
    method: DriverRequestMethod,
    path: string,
    route: string,
    body: unknown,
    options: WdaRequestOptions,
  ): Promise<unknown> {
    const timeoutMs = options.timeoutMs ?? DEFAULT_DRIVER_REQUEST_TIMEOUT_MS;
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
    const sendsBody = method === "POST" || method === "PUT";
    let response: Response;
    try {
      response = await fetch(`${this.#base}${path}`, {
        method,
        headers: sendsBody ? { "content-type": "application/json" } : undefined,
        body: sendsBody ? JSON.stringify(body ?? {}) : undefined,
        signal,
      });
    } catch (error) {
      throw this.#networkError(route, error, options.signal, timeout, timeoutMs);
    }
    let text: string;
    try {
      text = await response.text();
    } catch (error) {
      throw this.#networkError(route, error, options.signal, timeout, timeoutMs);
    }
    let answer: unknown;
    try {
      answer = text === "" ? {} : JSON.parse(text);
    } catch {
      if (!response.ok) {
        throw driverRequestError(this.where, {
          route,
          status: response.status,
          error: undefined,
          driverMessage: text.trim(),
        });
      }
      throw this.#lost(
        route,
        `the answer is not JSON (${JSON.stringify(text.slice(0, 120))}); is this port ` +
          `WebDriverAgent's?`,
      );
    }
    const value = (answer as { value?: unknown } | null)?.value;
    const failure = errorOf(value);
    if (!response.ok || failure) {
      throw driverRequestError(this.where, {
        route,
        status: response.status,
        error: failure?.error,
        driverMessage: failure?.message,
      });
    }
    return value;
  }

  #networkError(
    route: string,
    error: unknown,
    callerSignal: AbortSignal | undefined,
    timeout: AbortSignal,
    timeoutMs: number,
  ): unknown {
    if (callerSignal?.aborted) return callerSignal.reason ?? error;
    if (timeout.aborted) {
      return new ConnectionError(
        `WebDriverAgent at ${this.where} did not answer ${route} within ${timeoutMs} ms. Is ` +
          `WebDriverAgent still running (the device locked, the app under test crashed, or ` +
          `iproxy stopped)?`,
        { kind: "timeout", endpoint: this.where },
        { cause: error },
      );
    }
    if (isRefused(error)) {
      return new ConnectionError(
        `WebDriverAgent is not running at ${this.where} (${route}: ${describeCause(error)}). ` +
          startDriverHint(this.host, this.port),
        { kind: "refused", endpoint: this.where },
        { cause: error },
      );
    }
    return this.#lost(route, describeCause(error), error);
  }

  #lost(route: string, detail: string, cause?: unknown): ConnectionError {
    return new ConnectionError(
      `The connection to WebDriverAgent at ${this.where} dropped during ${route}: ${detail}. ` +
        `Is WebDriverAgent still running (the device locked, the app under test crashed, or ` +
        `iproxy stopped)?`,
      { kind: "lost", endpoint: this.where },
      { cause },
    );
  }
}

function errorOf(value: unknown): { error?: string; message?: string } | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const { error, message } = value as { error?: unknown; message?: unknown };
  if (typeof error !== "string" || error === "") return undefined;
  return { error, message: typeof message === "string" ? message : undefined };
}

/**
 * A refused connection or an unknown host: nothing to talk to (as opposed to a connection that
 * was made and then broke). Deno says "Connection refused"/"tcp connect error", Node's undici
 * puts ECONNREFUSED/ENOTFOUND in the cause's code. Private to the package.
 */
export function isRefused(error: unknown): boolean {
  const texts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current && depth < 4; depth++) {
    const e = current as { message?: unknown; code?: unknown; cause?: unknown };
    texts.push(String(e.message ?? ""), String(e.code ?? ""));
    current = e.cause;
  }
  return /ECONNREFUSED|ENOTFOUND|EAI_AGAIN|connection refused|tcp connect error|dns error|failed to lookup/i
    .test(texts.join(" "));
}

/** A network error and its causes in one line. Private to the package. */
export function describeCause(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current && depth < 4; depth++) {
    const e = current as { message?: unknown; code?: unknown; cause?: unknown };
    const text = String(e.message ?? e.code ?? current);
    if (text && !parts.some((p) => p.includes(text))) parts.push(text);
    current = e.cause;
  }
  return parts.join(": ") || String(error);
}
