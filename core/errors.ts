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
