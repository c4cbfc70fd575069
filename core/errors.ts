/**
 * Error classes a caller may want to catch (spec 7). Wrong shapes of arguments use the built-in
 * `TypeError` / `RangeError` instead.
 *
 * @module
 */

/** Base class of the SDK's own errors. */
export class SdkError extends Error {
  /** Creates the error; `cause` keeps the underlying error. */
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** The model configuration is missing or invalid; thrown before any action runs. */
export class ModelConfigError extends SdkError {}

/** A model answer could not be used (unparseable, out-of-range box); carries the raw answer. */
export class ModelResponseError extends SdkError {
  /** The model's raw answer text. */
  readonly rawResponse: string;
  /** Creates the error. */
  constructor(message: string, rawResponse: string, options?: { cause?: unknown }) {
    super(message, options);
    this.rawResponse = rawResponse;
  }
}

/** How a model call failed: an HTTP error status, no connection, a timeout, or another fault. */
export type ModelCallErrorKind = "http" | "connection" | "timeout" | "other";

/**
 * A model call failed after its retries (HTTP error status, connection error, or another fault of
 * the call). The message names the intent, the model and the endpoint's host, never the API key;
 * `cause` keeps the client's error.
 */
export class ModelCallError extends SdkError {
  /** What failed. */
  readonly kind: ModelCallErrorKind;
  /** HTTP status of the last attempt, when the endpoint answered. */
  readonly status: number | undefined;
  /** The intent of the call (`default`, `planning`, `insight`). */
  readonly intent: string;
  /** The model name of the call. */
  readonly modelName: string;
  /** Host (and port) of the endpoint. */
  readonly host: string;
  /** HTTP attempts made, retries included. */
  readonly attempts: number;
  /** Creates the error. */
  constructor(
    message: string,
    details: {
      kind: ModelCallErrorKind;
      status?: number;
      intent: string;
      modelName: string;
      host: string;
      attempts: number;
    },
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.kind = details.kind;
    this.status = details.status;
    this.intent = details.intent;
    this.modelName = details.modelName;
    this.host = details.host;
    this.attempts = details.attempts;
  }
}

/** A model call timed out (`SDK_MODEL_TIMEOUT` per attempt) on its last attempt; `kind` is `"timeout"`. */
export class ModelTimeoutError extends ModelCallError {
  /** The timeout of one attempt, ms. */
  readonly timeoutMs: number;
  /** Creates the error. */
  constructor(
    message: string,
    details: {
      intent: string;
      modelName: string;
      host: string;
      attempts: number;
      timeoutMs: number;
    },
    options?: { cause?: unknown },
  ) {
    super(message, { ...details, kind: "timeout" }, options);
    this.timeoutMs = details.timeoutMs;
  }
}

/** `aiAct` could not complete: the model reported an error, an action failed, or the limit was hit. */
export class PlanningError extends SdkError {}

/** The element described could not be found on the screen. */
export class LocateError extends SdkError {}

/** `aiAssert` found the assertion false. */
export class AssertionError extends SdkError {
  /** The caller's `errorMsg`, when given. */
  readonly errorMsg: string | undefined;
  /** The model's reason for the failure. */
  readonly reason: string;
  /** Creates the error from the caller's message and the model's reason. */
  constructor(assertion: string, errorMsg: string | undefined, reason: string) {
    super(
      `${errorMsg ? `${errorMsg}\n` : ""}Assertion failed: ${assertion}\nReason: ${reason}`,
    );
    this.errorMsg = errorMsg;
    this.reason = reason;
  }
}

/** `aiWaitFor` timed out before the condition held. */
export class WaitForTimeoutError extends SdkError {}

/**
 * An image of a prompt object (spec 2.5) cannot be used: a missing or unreadable file, data that
 * is not a PNG, JPEG, GIF or WebP image, a failed download, or a local path in a browser
 * runtime. The message names the image and says what to fix.
 */
export class PromptImageError extends SdkError {
  /** The `name` of the image at fault. */
  readonly imageName: string;
  /** Creates the error. */
  constructor(imageName: string, message: string, options?: { cause?: unknown }) {
    super(`Prompt image ${JSON.stringify(imageName)}: ${message}`, options);
    this.imageName = imageName;
  }
}
