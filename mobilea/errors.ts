/**
 * How MobileA's failures become the SDK's error classes (`@sdk/core`'s taxonomy): network
 * failures as `ConnectionError` of the right kind, a device command's failure as `ToolError` with its own
 * words (monkey's echo of its arguments trimmed off), and a failure given the context of the
 * call it happened in without losing its class.
 *
 * @module
 */

import { ConnectionError, type ConnectionErrorKind, ToolError } from "@sdk/core";

/** The first `code` string (`ECONNREFUSED`, `ENOENT`) of `error` or its causes. */
export function errorCode(error: unknown): string | undefined {
  let e: unknown = error;
  for (let i = 0; i < 4 && e; i++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string") return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

/** The kind of a network failure, from its code: nothing listened, it dropped, or it hung. */
export function connectionKind(error: unknown): ConnectionErrorKind {
  const code = errorCode(error);
  if (code === "ETIMEDOUT") return "timeout";
  if (code === "ECONNRESET" || code === "EPIPE" || code === "ERR_STREAM_DESTROYED") return "lost";
  return "refused";
}

/**
 * `error` with `prefix` before its message, of the same class and with the same fields (`code`,
 * `kind`, `tool`, ...), the original as `cause`. A value that is not an `Error` becomes a
 * `ToolError` of `tool`.
 */
export function withPrefix(error: unknown, prefix: string, tool = "adb"): Error {
  if (!(error instanceof Error)) {
    return new ToolError(`${prefix}${String(error)}`, { tool, output: String(error) });
  }
  const copy = Object.create(Object.getPrototypeOf(error)) as Error;
  for (const key of Object.getOwnPropertyNames(error)) {
    Object.defineProperty(copy, key, Object.getOwnPropertyDescriptor(error, key)!);
  }
  Object.defineProperty(copy, "message", {
    value: `${prefix}${error.message}`,
    writable: true,
    configurable: true,
    enumerable: false,
  });
  Object.defineProperty(copy, "cause", {
    value: error,
    writable: true,
    configurable: true,
    enumerable: false,
  });
  copy.stack = `${copy.name}: ${copy.message}\n${
    (error.stack ?? "").split("\n").slice(1).join("\n")
  }`;
  return copy;
}

/** Lines of monkey's output that only echo its arguments or report its run. */
const MONKEY_NOISE =
  /^\s*(?:bash arg:|args:|arg:|data=|Events injected:|## Network stats:|:Monkey:|:Sending)/;

/** A device command's output for a message: its lines without monkey's echo, trimmed, at most 300 characters. */
export function commandOutput(text: string): string {
  return text.split(/\r?\n/).filter((line) => line.trim() !== "" && !MONKEY_NOISE.test(line))
    .join("\n").trim().slice(0, 300);
}

/**
 * The error of a device shell command that exited with `exitCode`: a `ToolError` of `adb` whose
 * message is `` `command` exited with N: <its own words> ``.
 */
export function shellFailure(
  command: string,
  exitCode: number,
  stdout: string,
  stderr: string,
  prefix = "",
): ToolError {
  const output = commandOutput(stderr) || commandOutput(stdout);
  return new ToolError(`${prefix}\`${command}\` exited with ${exitCode}: ${output}`, {
    tool: "adb",
    status: exitCode,
    output,
  });
}

/** A `ConnectionError` of `kind` at `endpoint`, with `cause`. */
export function connectionError(
  message: string,
  kind: ConnectionErrorKind,
  endpoint: string,
  cause?: unknown,
): ConnectionError {
  return new ConnectionError(message, { kind, endpoint }, { cause });
}
