/**
 * WebDriverAgent's JSON envelope and error statuses (private to `@sdk/mobileb/testing`), as WDA's
 * FBResponsePayload and FBCommandStatus write them: every answer is `{ value, sessionId }`; an
 * error's value is `{ error, message, traceback }` with the error's HTTP status.
 *
 * @module
 */

/** WDA's error names with their HTTP statuses and default messages (FBCommandStatus). */
export const WDA_ERRORS = {
  "unknown error": [500, "An unknown server-side error occurred while processing the command"],
  "invalid argument": [400, "The arguments passed to the command are either invalid or malformed"],
  "invalid element state": [
    400,
    "An element command could not be completed because the element is in an invalid state (e.g. attempting to click a disabled element)",
  ],
  "no such element": [
    404,
    "An element could not be located on the page using the given search parameters",
  ],
  "stale element reference": [
    404,
    "An element command failed because the referenced element is no longer attached to the DOM",
  ],
  "invalid selector": [400, "Argument was an invalid selector (e.g. XPath/Class Chain)"],
  "session not created": [500, "A new session could not be created"],
  "unknown command": [
    404,
    "The requested resource could not be found, or a request was received using an HTTP method that is not supported by the mapped resource",
  ],
  "invalid session id": [404, "A session is either terminated or not started"],
  "unsupported operation": [500, "The requested operation is not supported"],
} as const satisfies Record<string, readonly [number, string]>;

/** One of the WDA error names the front answers with. */
export type WdaErrorName = keyof typeof WDA_ERRORS;

/** A failed command: becomes WDA's error answer with the error's HTTP status. */
export class WdaError extends Error {
  /** WDA's error name, e.g. `invalid argument`. */
  readonly error: string;
  /** HTTP status of the answer. */
  readonly status: number;

  constructor(error: WdaErrorName, message?: string) {
    super(message ?? WDA_ERRORS[error][1]);
    this.name = "WdaError";
    this.error = error;
    this.status = WDA_ERRORS[error][0];
  }
}

/** The body of a successful answer. */
export function okBody(value: unknown, sessionId: string | null): string {
  return JSON.stringify({ value: value ?? null, sessionId });
}

/** The body of an error answer. */
export function errorBody(
  error: string,
  message: string,
  sessionId: string | null,
  traceback = "",
): string {
  return JSON.stringify({ value: { error, message, traceback }, sessionId });
}

/**
 * A number argument of a body.
 *
 * @throws {WdaError} `invalid argument` naming the key and its unit when it is not a number.
 */
export function numberArg(body: Record<string, unknown>, key: string, unit = "points"): number {
  const value = body[key];
  if (typeof value !== "number" || !Number.isFinite(value)) {
    throw new WdaError(
      "invalid argument",
      `'${key}' must be a number of ${unit}, got ${JSON.stringify(value)}`,
    );
  }
  return value;
}

/**
 * The `duration` argument in seconds; 0 when it is left out.
 *
 * @throws {WdaError} `invalid argument` when it is not a non-negative number.
 */
export function secondsArg(body: Record<string, unknown>): number {
  const value = body.duration ?? 0;
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0) {
    throw new WdaError(
      "invalid argument",
      `'duration' must be a non-negative number of seconds, got ${JSON.stringify(value)}`,
    );
  }
  return value;
}
