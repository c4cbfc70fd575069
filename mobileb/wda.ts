/**
 * The WebDriverAgent HTTP layer of `@sdk/mobileb`: one JSON request to the WDA service with plain
 * `fetch` (no client library), its answer's `value`, and errors that say what went wrong:
 *
 * - nothing listens on the host and port: {@link DriverNotRunningError}, which says how to start
 *   WebDriverAgent;
 * - WDA answers with an error (`{ value: { error, message } }`, or an HTTP error status):
 *   {@link DriverRequestError} with WDA's `error` and `message` and the route;
 * - the connection drops during a request: {@link DriverConnectionError} naming the route and
 *   `host:port`.
 *
 * Routes and answer shapes follow appium/WebDriverAgent (`WebDriverAgentLib/Commands`):
 * `{ "value": ..., "sessionId": ... }` on success, `{ "value": { "error", "message",
 * "traceback" } }` with a 4xx/5xx status on failure.
 *
 * @module
 */

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

/** Nothing answers at the driver's host and port (connection refused, unknown host). */
export class DriverNotRunningError extends Error {
  /** `host:port` that was tried. */
  readonly where: string;
  /** Creates the error; `cause` is the network error. */
  constructor(host: string, port: number, route: string, cause: unknown) {
    super(
      `WebDriverAgent is not running at ${host}:${port} (${route}: ${describeCause(cause)}). ` +
        startDriverHint(host, port),
      { cause },
    );
    this.name = "DriverNotRunningError";
    this.where = `${host}:${port}`;
  }
}

/** The connection to the driver dropped (or the answer was cut off) during a request. */
export class DriverConnectionError extends Error {
  /** The route, e.g. `POST /session/abc/actions`. */
  readonly route: string;
  /** `host:port` of the driver. */
  readonly where: string;
  /** Creates the error; `cause` is the network error. */
  constructor(where: string, route: string, detail: string, cause?: unknown) {
    super(
      `The connection to WebDriverAgent at ${where} dropped during ${route}: ${detail}. ` +
        `Is WebDriverAgent still running (the device locked, the app under test crashed, or ` +
        `iproxy stopped)?`,
      { cause },
    );
    this.name = "DriverConnectionError";
    this.route = route;
    this.where = where;
  }
}

/** WebDriverAgent answered a request with an error. */
export class DriverRequestError extends Error {
  /** The route, e.g. `POST /session/abc/wda/keys`. */
  readonly route: string;
  /** The HTTP status of the answer. */
  readonly status: number;
  /** WDA's `error` (a W3C error code such as `invalid session id`), when it gave one. */
  readonly error: string | undefined;
  /** WDA's `message`, when it gave one. */
  readonly driverMessage: string | undefined;
  /** Creates the error from the parts of WDA's answer. */
  constructor(
    where: string,
    route: string,
    status: number,
    error: string | undefined,
    message: string | undefined,
  ) {
    super(
      `WebDriverAgent at ${where} answered ${route} with ${
        error ? `error ${JSON.stringify(error)}` : `HTTP ${status}`
      }${message ? `: ${message}` : ""}${
        error === "invalid session id"
          ? " (the WDA session ended: WebDriverAgent keeps one session, so another client " +
            "creating one ends it; create a new device)"
          : ""
      }`,
    );
    this.name = "DriverRequestError";
    this.route = route;
    this.status = status;
    this.error = error;
    this.driverMessage = message;
  }
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
  readonly #base: string;

  /** A client of the service at `http://host:port`. */
  constructor(host: string, port: number) {
    this.host = host;
    this.port = port;
    this.where = `${host}:${port}`;
    // An IPv6 literal needs brackets in a URL.
    this.#base = `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
  }

  /**
   * Sends one request and returns the `value` of WDA's answer.
   *
   * @param path the route's path, starting with `/` (e.g. `/session/abc/window/size`).
   * @param body a JSON body; POST and PUT without one send `{}` (WDA reads arguments from it).
   * @throws {DriverNotRunningError} when nothing listens at the host and port.
   * @throws {DriverConnectionError} when the connection drops or the answer is not JSON.
   * @throws {DriverRequestError} when WDA answers with an error.
   */
  async request(
    method: DriverRequestMethod,
    path: string,
    body?: unknown,
    options: WdaRequestOptions = {},
  ): Promise<unknown> {
    const route = `${method} ${path}`;
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
        throw new DriverRequestError(this.where, route, response.status, undefined, text.trim());
      }
      throw new DriverConnectionError(
        this.where,
        route,
        `the answer is not JSON (${JSON.stringify(text.slice(0, 120))}); is this port ` +
          `WebDriverAgent's?`,
      );
    }
    const value = (answer as { value?: unknown } | null)?.value;
    const failure = errorOf(value);
    if (!response.ok || failure) {
      throw new DriverRequestError(
        this.where,
        route,
        response.status,
        failure?.error,
        failure?.message,
      );
    }
    return value;
  }

  #networkError(
    route: string,
    error: unknown,
    callerSignal: AbortSignal | undefined,
    timeout: AbortSignal,
    timeoutMs: number,
  ): Error {
    if (callerSignal?.aborted) return callerSignal.reason ?? error as Error;
    if (timeout.aborted) {
      return new DriverConnectionError(
        this.where,
        route,
        `no answer within ${timeoutMs} ms`,
        error,
      );
    }
    if (isRefused(error)) return new DriverNotRunningError(this.host, this.port, route, error);
    return new DriverConnectionError(this.where, route, describeCause(error), error);
  }
}

function errorOf(value: unknown): { error?: string; message?: string } | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const { error, message } = value as { error?: unknown; message?: unknown };
  if (typeof error !== "string" || error === "") return undefined;
  return { error, message: typeof message === "string" ? message : undefined };
}

// A refused connection or an unknown host: nothing to talk to (as opposed to a connection that
// was made and then broke). Deno says "Connection refused"/"tcp connect error", Node's undici
// puts ECONNREFUSED/ENOTFOUND in the cause's code.
function isRefused(error: unknown): boolean {
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

function describeCause(error: unknown): string {
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
