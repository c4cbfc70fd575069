/**
 * The SDK's errors (spec 7), one taxonomy for every platform: each class has a stable `code` a
 * caller can switch on, and an explicit `name` that survives minifying bundlers. Wrong shapes of
 * arguments are {@link SdkTypeError} and {@link SdkRangeError}, which are also the built-in
 * `TypeError` and `RangeError`. docs/agent.md "Errors" has the table of classes, codes and
 * platforms.
 *
 * @module
 */

/**
 * The stable code of each condition the SDK reports; a code never changes meaning once
 * published.
 */
export type SdkErrorCode =
  | "MODEL_CONFIG_INVALID"
  | "MODEL_RESPONSE_UNUSABLE"
  | "MODEL_CALL_FAILED"
  | "MODEL_CALL_TIMEOUT"
  | "PLANNING_FAILED"
  | "ELEMENT_NOT_FOUND"
  | "EXTRACTION_FAILED"
  | "ASSERTION_FAILED"
  | "WAIT_FOR_TIMEOUT"
  | "PROMPT_IMAGE_INVALID"
  | "SCRIPT_INVALID"
  | "SCRIPT_ITEM_FAILED"
  | "GHERKIN_INVALID"
  | "GHERKIN_STEP_FAILED"
  | "DEVICE_NOT_FOUND"
  | "CONNECTION_REFUSED"
  | "CONNECTION_LOST"
  | "CONNECTION_TIMEOUT"
  | "NAVIGATION_FAILED"
  | "DEPENDENCY_MISSING"
  | "TOOL_FAILED"
  | "ACTION_UNSUPPORTED"
  | "INVALID_ARGUMENT"
  | "ARGUMENT_OUT_OF_RANGE"
  | "INVALID_STATE"
  | "FILE_NOT_FOUND"
  | "FILE_NOT_ALLOWED"
  | "FILE_INVALID"
  | "RUNTIME_UNSUPPORTED"
  | "INTERNAL_ERROR";

/** What every error of the SDK carries besides `name`, `message` and `cause`. */
export interface SdkErrorFields {
  /** The condition's stable code. */
  readonly code: SdkErrorCode;
}

/**
 * Base class of the SDK's own errors (besides {@link SdkTypeError} and {@link SdkRangeError}):
 * catch it for any of them, switch on `code` for one condition.
 */
export abstract class SdkError extends Error implements SdkErrorFields {
  /** Always `"SdkError"`, whatever a bundler renames the class to. */
  override readonly name: string = "SdkError";
  /** The condition's stable code; each subclass has its own. */
  abstract readonly code: SdkErrorCode;
  /** Creates the error; `cause` keeps the underlying error. */
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/**
 * An argument or option has the wrong shape (a string where an object belongs, an unknown
 * name); the message names it, quotes the value and says what it takes. A `TypeError`.
 */
export class SdkTypeError extends TypeError implements SdkErrorFields {
  /** Always `"TypeError"`, whatever a bundler renames the class to. */
  override readonly name: string = "TypeError";
  /** Always `"INVALID_ARGUMENT"`. */
  readonly code: SdkErrorCode = "INVALID_ARGUMENT";
}

/**
 * An argument or option is out of its range (a negative delay, a port over 65535); the message
 * names it, quotes the value and gives the range. A `RangeError`.
 */
export class SdkRangeError extends RangeError implements SdkErrorFields {
  /** Always `"RangeError"`, whatever a bundler renames the class to. */
  override readonly name: string = "RangeError";
  /** Always `"ARGUMENT_OUT_OF_RANGE"`. */
  readonly code: SdkErrorCode = "ARGUMENT_OUT_OF_RANGE";
}

/** How much of a model answer or a tool's output an error message quotes, characters. */
export const QUOTE_EXCERPT_CHARS = 200;

/**
 * Quotes text for an error message or a log line, bounded: the whole text as a JSON string when it
 * is short, else its first {@link QUOTE_EXCERPT_CHARS} characters and its full size, e.g.
 * `"{\"bbox\": [1, 2, ..." (1048576 characters in all)`. The full text stays on the error's
 * own fields (`rawResponse`, `output`).
 */
export function quoteExcerpt(text: string, max: number = QUOTE_EXCERPT_CHARS): string {
  if (text.length <= max) return JSON.stringify(text);
  return `${JSON.stringify(text.slice(0, max) + "...")} (${text.length} characters in all)`;
}

/** Whether `error` is one of the SDK's errors (an {@link SdkError}, {@link SdkTypeError} or {@link SdkRangeError}). */
export function isSdkError(error: unknown): error is Error & SdkErrorFields {
  return error instanceof SdkError || error instanceof SdkTypeError ||
    error instanceof SdkRangeError;
}

/** The model configuration is missing or invalid; thrown before any action runs. */
export class ModelConfigError extends SdkError {
  /** Always `"ModelConfigError"`, whatever a bundler renames the class to. */
  override readonly name: string = "ModelConfigError";
  /** Always `"MODEL_CONFIG_INVALID"`. */
  override readonly code: SdkErrorCode = "MODEL_CONFIG_INVALID";
}

/** A model answer could not be used (unparseable, out-of-range box); carries the raw answer. */
export class ModelResponseError extends SdkError {
  /** Always `"ModelResponseError"`, whatever a bundler renames the class to. */
  override readonly name: string = "ModelResponseError";
  /** Always `"MODEL_RESPONSE_UNUSABLE"`. */
  override readonly code: SdkErrorCode = "MODEL_RESPONSE_UNUSABLE";
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
  /** Always `"ModelCallError"`, whatever a bundler renames the class to. */
  override readonly name: string = "ModelCallError";
  /** Always `"MODEL_CALL_FAILED"`. */
  override readonly code: SdkErrorCode = "MODEL_CALL_FAILED";
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
  /** Always `"ModelTimeoutError"`, whatever a bundler renames the class to. */
  override readonly name: string = "ModelTimeoutError";
  /** Always `"MODEL_CALL_TIMEOUT"`. */
  override readonly code: SdkErrorCode = "MODEL_CALL_TIMEOUT";
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
export class PlanningError extends SdkError {
  /** Always `"PlanningError"`, whatever a bundler renames the class to. */
  override readonly name: string = "PlanningError";
  /** Always `"PLANNING_FAILED"`. */
  override readonly code: SdkErrorCode = "PLANNING_FAILED";
}

/** The element described could not be found on the screen. */
export class LocateError extends SdkError {
  /** Always `"LocateError"`, whatever a bundler renames the class to. */
  override readonly name: string = "LocateError";
  /** Always `"ELEMENT_NOT_FOUND"`. */
  override readonly code: SdkErrorCode = "ELEMENT_NOT_FOUND";
}

/** `aiQuery` and the other extraction calls: the model answered that the data is not there. */
export class ExtractionError extends SdkError {
  /** Always `"ExtractionError"`, whatever a bundler renames the class to. */
  override readonly name: string = "ExtractionError";
  /** Always `"EXTRACTION_FAILED"`. */
  override readonly code: SdkErrorCode = "EXTRACTION_FAILED";
}

/** `aiAssert` found the assertion false. */
export class AssertionError extends SdkError {
  /** Always `"AssertionError"`, whatever a bundler renames the class to. */
  override readonly name: string = "AssertionError";
  /** Always `"ASSERTION_FAILED"`. */
  override readonly code: SdkErrorCode = "ASSERTION_FAILED";
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
export class WaitForTimeoutError extends SdkError {
  /** Always `"WaitForTimeoutError"`, whatever a bundler renames the class to. */
  override readonly name: string = "WaitForTimeoutError";
  /** Always `"WAIT_FOR_TIMEOUT"`. */
  override readonly code: SdkErrorCode = "WAIT_FOR_TIMEOUT";
}

/**
 * An image of a prompt object (spec 2.5) cannot be used: a missing or unreadable file, data that
 * is not a PNG, JPEG, GIF or WebP image, a failed download, or a local path in a browser
 * runtime. The message names the image and says what to fix.
 */
export class PromptImageError extends SdkError {
  /** Always `"PromptImageError"`, whatever a bundler renames the class to. */
  override readonly name: string = "PromptImageError";
  /** Always `"PROMPT_IMAGE_INVALID"`. */
  override readonly code: SdkErrorCode = "PROMPT_IMAGE_INVALID";
  /** The `name` of the image at fault. */
  readonly imageName: string;
  /** Creates the error. */
  constructor(imageName: string, message: string, options?: { cause?: unknown }) {
    super(`Prompt image ${JSON.stringify(imageName)}: ${message}`, options);
    this.imageName = imageName;
  }
}

/** A device the SDK was told to use is not there; the message lists what is there. */
export class DeviceNotFoundError extends SdkError {
  /** Always `"DeviceNotFoundError"`, whatever a bundler renames the class to. */
  override readonly name: string = "DeviceNotFoundError";
  /** Always `"DEVICE_NOT_FOUND"`. */
  override readonly code: SdkErrorCode = "DEVICE_NOT_FOUND";
  /** What was asked for: a device id, a display, a host. */
  readonly wanted: string;
  /** What is there instead (device ids, displays); empty when nothing is. */
  readonly available: readonly string[];
  /** Creates the error; `message` says what was looked for and how to fix it. */
  constructor(
    message: string,
    details: { wanted: string; available: readonly string[] },
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.wanted = details.wanted;
    this.available = details.available;
  }
}

/** How a connection failed: nothing listened, it dropped midway, or it did not answer in time. */
export type ConnectionErrorKind = "refused" | "lost" | "timeout";

/**
 * A connection to a device, a driver, a browser or a bridge failed: `kind` (and `code`) say
 * whether it was refused (nothing listens; `CONNECTION_REFUSED`), lost midway
 * (`CONNECTION_LOST`) or timed out (`CONNECTION_TIMEOUT`); `cause` keeps the network error.
 */
export class ConnectionError extends SdkError {
  /** Always `"ConnectionError"`, whatever a bundler renames the class to. */
  override readonly name: string = "ConnectionError";
  /** `CONNECTION_REFUSED`, `CONNECTION_LOST` or `CONNECTION_TIMEOUT`, after `kind`. */
  override readonly code: SdkErrorCode;
  /** What failed. */
  readonly kind: ConnectionErrorKind;
  /** Where the SDK connected: `host:port`, a device id, a URL. */
  readonly endpoint: string;
  /** Creates the error; `message` says what to check. */
  constructor(
    message: string,
    details: { kind: ConnectionErrorKind; endpoint: string },
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.kind = details.kind;
    this.endpoint = details.endpoint;
    this.code = details.kind === "refused"
      ? "CONNECTION_REFUSED"
      : details.kind === "lost"
      ? "CONNECTION_LOST"
      : "CONNECTION_TIMEOUT";
  }
}

/**
 * A page the SDK was told to open did not open: the browser could not reach the address (a host
 * name that does not resolve, nothing listening, a refused or reset connection, a certificate
 * it does not trust) or the page did not load in time. The message names the URL, the browser's
 * own reason and what to check, on one line and without terminal escapes; `cause` keeps the
 * driver library's error (with its call log).
 */
export class NavigationError extends SdkError {
  /** Always `"NavigationError"`, whatever a bundler renames the class to. */
  override readonly name: string = "NavigationError";
  /** Always `"NAVIGATION_FAILED"`. */
  override readonly code: SdkErrorCode = "NAVIGATION_FAILED";
  /** The address that was opened. */
  readonly url: string;
  /**
   * The browser's reason, e.g. `"net::ERR_NAME_NOT_RESOLVED"`, `"timeout"`; `"unknown"` when the
   * driver gave none.
   */
  readonly reason: string;
  /** Creates the error; `message` names the URL and says what to check. */
  constructor(
    message: string,
    details: { url: string; reason: string },
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.url = details.url;
    this.reason = details.reason;
  }
}

/**
 * A program or package the SDK needs is not installed (adb, hdc, xfreerdp, Xvfb, ffmpeg,
 * nut-js, Chromium); the message says what to install, or which option or variable names it.
 */
export class MissingDependencyError extends SdkError {
  /** Always `"MissingDependencyError"`, whatever a bundler renames the class to. */
  override readonly name: string = "MissingDependencyError";
  /** Always `"DEPENDENCY_MISSING"`. */
  override readonly code: SdkErrorCode = "DEPENDENCY_MISSING";
  /** The missing program or package, e.g. `"adb"`, `"@nut-tree-fork/nut-js"`. */
  readonly dependency: string;
  /** Creates the error; `message` includes the install hint. */
  constructor(message: string, dependency: string, options?: { cause?: unknown }) {
    super(message, options);
    this.dependency = dependency;
  }
}

/**
 * A tool the SDK ran, or a driver it asked, failed: a non-zero exit of adb, hdc or xfreerdp, an
 * error answer of WebDriverAgent. The message quotes the tool's own words, trimmed of noise.
 */
export class ToolError extends SdkError {
  /** Always `"ToolError"`, whatever a bundler renames the class to. */
  override readonly name: string = "ToolError";
  /** Always `"TOOL_FAILED"`. */
  override readonly code: SdkErrorCode = "TOOL_FAILED";
  /** The tool, e.g. `"adb"`, `"hdc"`, `"WebDriverAgent"`. */
  readonly tool: string;
  /** Its exit code or HTTP status, when it has one. */
  readonly status: number | undefined;
  /** What it said (its error output or error answer), trimmed; may be empty. */
  readonly output: string;
  /** Creates the error. */
  constructor(
    message: string,
    details: { tool: string; status?: number; output?: string },
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.tool = details.tool;
    this.status = details.status;
    this.output = details.output ?? "";
  }
}

/**
 * The agent's platform cannot do what was asked (`aiHover` on a phone, `aiPinch` on MobileC,
 * `evaluateJavaScript` off the web); thrown before any screenshot or model call.
 */
export class UnsupportedActionError extends SdkError {
  /** Always `"UnsupportedActionError"`, whatever a bundler renames the class to. */
  override readonly name: string = "UnsupportedActionError";
  /** Always `"ACTION_UNSUPPORTED"`. */
  override readonly code: SdkErrorCode = "ACTION_UNSUPPORTED";
  /** The method or action asked for, e.g. `"aiHover"`. */
  readonly action: string;
  /** Creates the error; `message` names the platform and what it offers instead. */
  constructor(message: string, action: string, options?: { cause?: unknown }) {
    super(message, options);
    this.action = action;
  }
}

/**
 * A call that the object's state does not allow: the agent was destroyed, the page context is
 * frozen, an observer is still recording or was disposed. The message says what to do instead.
 */
export class InvalidStateError extends SdkError {
  /** Always `"InvalidStateError"`, whatever a bundler renames the class to. */
  override readonly name: string = "InvalidStateError";
  /** Always `"INVALID_STATE"`. */
  override readonly code: SdkErrorCode = "INVALID_STATE";
}

/** What is wrong with a file: missing, outside what the user allowed, or not what it must be. */
export type FileErrorReason = "missing" | "not-allowed" | "invalid";

/**
 * A file or folder the SDK was given, or a model planned, cannot be used: it does not exist
 * (`FILE_NOT_FOUND`), it lies outside the folder the user allowed (`FILE_NOT_ALLOWED`, e.g.
 * outside `fileChooserAllowedDir`), or it is not what it must be (`FILE_INVALID`: a folder where a
 * file belongs, a file that is not a report, a merge target that exists). The message names it.
 */
export class FileError extends SdkError {
  /** Always `"FileError"`, whatever a bundler renames the class to. */
  override readonly name: string = "FileError";
  /** `FILE_NOT_FOUND`, `FILE_NOT_ALLOWED` or `FILE_INVALID`, after `reason`. */
  override readonly code: SdkErrorCode;
  /** The path at fault, as the SDK resolved it. */
  readonly path: string;
  /** What is wrong. */
  readonly reason: FileErrorReason;
  /** Creates the error. */
  constructor(
    message: string,
    details: { path: string; reason: FileErrorReason },
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.path = details.path;
    this.reason = details.reason;
    this.code = details.reason === "missing"
      ? "FILE_NOT_FOUND"
      : details.reason === "not-allowed"
      ? "FILE_NOT_ALLOWED"
      : "FILE_INVALID";
  }
}

/**
 * What was asked needs something this runtime lacks: a file system in a browser page, child
 * processes. The message says which runtime can do it.
 */
export class UnsupportedRuntimeError extends SdkError {
  /** Always `"UnsupportedRuntimeError"`, whatever a bundler renames the class to. */
  override readonly name: string = "UnsupportedRuntimeError";
  /** Always `"RUNTIME_UNSUPPORTED"`. */
  override readonly code: SdkErrorCode = "RUNTIME_UNSUPPORTED";
}

/** A broken invariant of the SDK itself: a bug to report, with what was found. */
export class InternalError extends SdkError {
  /** Always `"InternalError"`, whatever a bundler renames the class to. */
  override readonly name: string = "InternalError";
  /** Always `"INTERNAL_ERROR"`. */
  override readonly code: SdkErrorCode = "INTERNAL_ERROR";
}
