/**
 * The run log (spec 4.11, docs/logs.md): every entry goes to a file under `<run dir>/log` (when
 * a file system exists), and to the console when its category is selected by `DEBUG`. Every line
 * is redacted first (API keys, auth headers, image data).
 *
 * @module
 */

import { getEnv, hasFileSystem, nodePath, runDir } from "../runtime/runtime.ts";
import { RotatingLogFile } from "../runtime/log_file.ts";
import { cutSecrets, redactLogText } from "./redact.ts";
import { type LogSelector, parseLogSelector } from "./selector.ts";

/** Default size cap of one log file, MB (`SDK_LOG_MAX_FILE_MB`). */
export const DEFAULT_LOG_MAX_FILE_MB = 5;
/** Default cap of all log files of the log directory together, MB (`SDK_LOG_MAX_TOTAL_MB`). */
export const DEFAULT_LOG_MAX_TOTAL_MB = 50;
/** An entry's text beyond this many characters is cut, so one huge prompt cannot fill a file. */
export const MAX_LOG_ENTRY_CHARS = 64 * 1024;

/** Options of {@link RunLog}; {@link runLog} builds them from the environment. */
export interface RunLogOptions {
  /** The `DEBUG` selector of the categories also printed to the console. Default: none. */
  debug?: string;
  /**
   * Directory of the log files, or `false` for no file (a browser runtime has none). Default
   * `<SDK_RUN_DIR or sdk_run>/log`.
   */
  dir?: string | Promise<string> | false;
  /** A file's size cap, MB. Default {@link DEFAULT_LOG_MAX_FILE_MB}. */
  maxFileMB?: number;
  /** Cap of the directory's log files together, MB. Default {@link DEFAULT_LOG_MAX_TOTAL_MB}. */
  maxTotalMB?: number;
  /** Where console lines go. Default `console.error` (stderr, as the `debug` package does). */
  print?: (line: string) => void;
}

/** A log category's writer: a short message, then optional data written as JSON. */
export type LogFn = (message: string, data?: Record<string, unknown>) => void;

/** JSON of log data; an `Error` as its message, a cycle or a BigInt as text instead of a throw. */
function toJson(data: Record<string, unknown>): string {
  try {
    return JSON.stringify(
      data,
      (_key, value) =>
        value instanceof Error
          ? `${value.name}: ${value.message}`
          : typeof value === "bigint"
          ? String(value)
          : value,
    );
  } catch {
    return String(data);
  }
}

/** A run log: one file (rotated, capped) and the console lines `DEBUG` selects. */
export class RunLog {
  readonly #selected: LogSelector;
  readonly #file?: RotatingLogFile;
  readonly #print: (line: string) => void;
  readonly #secrets = new Set<string>();
  /** Secrets typed on screen: cut from this length on, and again when lines reach the file. */
  readonly #typed = new Map<string, number>();
  /**
   * Resolves once the file can be written, or has failed (at once without a file); lines written
   * before then wait in memory and are written at that point.
   */
  readonly ready: Promise<void>;

  /** Creates a log; no file is touched before the first entry. */
  constructor(options: RunLogOptions = {}) {
    this.#selected = parseLogSelector(options.debug);
    this.#print = options.print ?? ((line) => console.error(line));
    if (options.dir !== false && options.dir !== undefined) {
      const mb = (value: number | undefined, fallback: number) =>
        (value !== undefined && Number.isFinite(value) && value > 0 ? value : fallback) * 2 ** 20;
      this.#file = new RotatingLogFile({
        dir: options.dir,
        maxFileBytes: mb(options.maxFileMB, DEFAULT_LOG_MAX_FILE_MB),
        maxTotalBytes: mb(options.maxTotalMB, DEFAULT_LOG_MAX_TOTAL_MB),
        onError: (e) =>
          console.warn(`SDK run log: cannot write the log file, logging to it stops: ${e}`),
        // A secret learnt during a call (a password field found while typing) is cut from the
        // call's lines written before it was known: they wait in memory until the call ends.
        transform: (line) => this.#cutTyped(line),
      });
    }
    this.ready = this.#file?.ready ?? Promise.resolve();
  }

  /** Path of the current log file; undefined before the first write or without a file. */
  get file(): string | undefined {
    return this.#file?.file;
  }

  /**
   * Adds a secret cut out of every later line: an API key (from 8 characters: a placeholder key
   * such as `none` is not cut), or with `minLength` a value typed on screen (from 4), which is
   * also cut from the lines still waiting to be written.
   */
  addSecret(secret: string, minLength?: number): void {
    if (minLength === undefined) this.#secrets.add(secret);
    else this.#typed.set(secret, Math.min(minLength, this.#typed.get(secret) ?? Infinity));
  }

  #cutTyped(text: string): string {
    let out = text;
    for (const [secret, min] of this.#typed) out = cutSecrets(out, [secret], min);
    return out;
  }

  /**
   * `text` with the secrets, header values and image data cut out, as each line of the log is:
   * for tools that print what a run did (`sdk run`'s output and summary).
   */
  redact(text: string): string {
    return this.#cutTyped(redactLogText(text, this.#secrets));
  }

  /** Whether `category` (e.g. `"sdk:model"`) is printed to the console. */
  printed(category: string): boolean {
    return this.#selected(category);
  }

  /**
   * Writes one entry, redacted and cut at {@link MAX_LOG_ENTRY_CHARS}: to the file, and to the
   * console when `DEBUG` selects its category.
   */
  write(category: string, message: string, data?: Record<string, unknown>): void {
    let text = this.redact(data === undefined ? message : `${message} ${toJson(data)}`);
    if (text.length > MAX_LOG_ENTRY_CHARS) {
      text = `${text.slice(0, MAX_LOG_ENTRY_CHARS)} [${
        text.length - MAX_LOG_ENTRY_CHARS
      } characters cut]`;
    }
    this.#file?.append(`${new Date().toISOString()} ${category} ${text}\n`);
    if (this.#selected(category)) this.#print(`${category} ${text}`);
  }

  /** Writes the buffered lines to the file now; the SDK calls it after each public call. */
  flush(): void {
    this.#file?.flush();
  }

  /** A writer for one category. */
  category(category: string): LogFn {
    return (message, data) => this.write(category, message, data);
  }
}

/** A number from an `SDK_LOG_*` variable, or undefined when unset or not a number. */
function envNumber(key: string): number | undefined {
  const v = getEnv(key);
  return v === undefined || v.trim() === "" ? undefined : Number(v);
}

/** The `debug` package's selector source in a browser page: `localStorage.debug`. */
function browserSelector(): string | undefined {
  try {
    const storage = (globalThis as { localStorage?: { getItem(k: string): string | null } })
      .localStorage;
    return storage?.getItem("debug") ?? undefined;
  } catch {
    return undefined;
  }
}

let processLog: RunLog | undefined;

/**
 * This process's run log, created on first use from the environment: `DEBUG` (in a browser page,
 * `localStorage.debug`), `SDK_RUN_DIR`, `SDK_LOG_MAX_FILE_MB`, `SDK_LOG_MAX_TOTAL_MB` (`0` turns
 * the file off). The `SDK_*_API_KEY` variables set then are redacted from the start.
 */
export function runLog(): RunLog {
  if (processLog) return processLog;
  const maxTotalMB = envNumber("SDK_LOG_MAX_TOTAL_MB");
  const fileOn = hasFileSystem && maxTotalMB !== 0;
  processLog = new RunLog({
    debug: hasFileSystem ? getEnv("DEBUG") : browserSelector(),
    dir: fileOn ? Promise.all([nodePath(), runDir()]).then(([p, d]) => p.join(d, "log")) : false,
    maxFileMB: envNumber("SDK_LOG_MAX_FILE_MB"),
    maxTotalMB,
  });
  for (const prefix of ["SDK_MODEL_", "SDK_PLANNING_MODEL_", "SDK_INSIGHT_MODEL_"]) {
    const key = getEnv(`${prefix}API_KEY`);
    if (key) processLog.addSecret(key);
  }
  return processLog;
}

/**
 * A writer for one category of this process's run log, e.g. `logger("sdk:model")`. The log is
 * created at the first entry, so importing a module that holds a writer costs nothing.
 */
export function logger(category: string): LogFn {
  return (message, data) => runLog().write(category, message, data);
}
