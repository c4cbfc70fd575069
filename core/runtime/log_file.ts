/**
 * The file side of the run log (docs/logs.md): one file per process under `<run dir>/log`, lines
 * buffered in memory and appended synchronously in batches, a new part when a file reaches its
 * size cap, and the oldest files of the directory deleted when their total would pass the
 * directory's cap. Reaches `node:fs` lazily through `nodeBuiltin`, like the rest of `core/runtime`, so core still loads
 * in a browser page (where nothing of this runs).
 *
 * Writes are synchronous on purpose: a batch is one `appendFileSync` of a few kilobytes (tens of
 * microseconds), the lines stay in order without a promise chain, and the last batch can still be
 * written when the process exits, where asynchronous work no longer runs.
 *
 * @module
 */

import { nodeBuiltin, PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from "./runtime.ts";

type FsSync = typeof import("node:fs");
type PathModule = typeof import("node:path");

/** Options of {@link RotatingLogFile}. */
export interface LogFileOptions {
  /** Directory of the log files (created when missing); absolute, or a promise of it. */
  dir: string | Promise<string>;
  /** A file's size cap, bytes; the next line goes to a new part beyond it. */
  maxFileBytes: number;
  /** Cap of all `sdk-*.log` files of the directory together, bytes (other processes' too). */
  maxTotalBytes: number;
  /**
   * File name without `.log`; parts after the first get `.2`, `.3`, ... Default
   * `sdk-<UTC date>-<UTC time>-<pid>`, e.g. `sdk-20261124-230437-4242`.
   */
  stem?: string;
  /** Called once when the file cannot be written; the log then drops lines. */
  onError?: (error: unknown) => void;
  /** Applied to each line when it is written (lines wait in memory until then). */
  transform?: (line: string) => string;
}

/** Flush at once when this many bytes are waiting, whatever the caller's flush points. */
const FLUSH_AT_BYTES = 64 * 1024;

/** Names of the files a run log writes, and prunes: `sdk-*.log`. */
const LOG_FILE_NAME = /^sdk-.*\.log$/;

const encoder = new TextEncoder();

/** Log files with lines waiting, flushed when the process exits. */
const unflushed = new Set<RotatingLogFile>();
let exitHookInstalled = false;

/** Writes what every open log file still holds when the process exits (Deno or Node). */
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  const flushAll = () => {
    for (const file of unflushed) file.flush();
  };
  const g = globalThis as unknown as {
    Deno?: unknown;
    addEventListener?: (type: string, fn: () => void) => void;
    process?: { on?: (event: string, fn: () => void) => void };
  };
  if (g.Deno) g.addEventListener?.("unload", flushAll);
  else g.process?.on?.("exit", flushAll);
}

/** The process id, for file names. */
function pid(): number {
  const g = globalThis as unknown as { Deno?: { pid: number }; process?: { pid: number } };
  return g.Deno?.pid ?? g.process?.pid ?? 0;
}

/** `sdk-20261124-230437-4242`: sorts by start time, unique per process. */
function defaultStem(): string {
  const stamp = new Date().toISOString().replace(/[-:]/g, "").replace("T", "-").slice(0, 15);
  return `sdk-${stamp}-${pid()}`;
}

/**
 * A size-capped, rotating, buffered log file. {@link append} only buffers (and writes a batch
 * once {@link FLUSH_AT_BYTES} are waiting); {@link flush} writes what waits; the process's exit
 * writes the rest.
 */
export class RotatingLogFile {
  readonly #maxFile: number;
  readonly #maxTotal: number;
  readonly #stem: string;
  readonly #onError?: (error: unknown) => void;
  readonly #transform?: (line: string) => string;
  #fs?: FsSync;
  #path?: PathModule;
  #dir?: string;
  #part = 0;
  #file?: string;
  /** Bytes of {@link #file} as this process knows them. */
  #size = 0;
  #buffer: string[] = [];
  #buffered = 0;
  #broken = false;
  /** Resolves once lines can be written (or the file failed): what waited is written then. */
  readonly ready: Promise<void>;

  /** Starts loading the file system module and resolving the directory; nothing is written yet. */
  constructor(options: LogFileOptions) {
    // A single line can be up to a file's size; the total cap must hold at least one file.
    this.#maxFile = Math.max(1024, options.maxFileBytes);
    this.#maxTotal = Math.max(this.#maxFile, options.maxTotalBytes);
    this.#stem = options.stem ?? defaultStem();
    this.#onError = options.onError;
    this.#transform = options.transform;
    const modules = Promise.all([
      nodeBuiltin<FsSync>("node:fs"),
      nodeBuiltin<PathModule>("node:path"),
    ]);
    this.ready = Promise.all([modules, options.dir]).then(
      ([[fs, path], dir]) => {
        this.#fs = fs;
        this.#path = path;
        this.#dir = dir;
        this.flush();
      },
      (e) => this.#fail(e),
    );
  }

  /** Path of the file being written; undefined until the first write. */
  get file(): string | undefined {
    return this.#file;
  }

  /** Queues one line (its newline included); writes the batch when enough is waiting. */
  append(line: string): void {
    if (this.#broken) return;
    this.#buffer.push(line);
    // Characters, not bytes: only the point of an early flush depends on it.
    this.#buffered += line.length;
    unflushed.add(this);
    installExitHook();
    if (this.#buffered >= FLUSH_AT_BYTES) this.flush();
  }

  /**
   * Writes the waiting lines now (synchronously); before the file system module has loaded they
   * keep waiting and are written once it has.
   */
  flush(): void {
    if (this.#broken || !this.#fs || this.#buffer.length === 0) return;
    const transform = this.#transform;
    const lines = this.#buffer.map((l) => encoder.encode(transform ? transform(l) : l));
    this.#buffer = [];
    this.#buffered = 0;
    unflushed.delete(this);
    try {
      let batch: Uint8Array[] = [];
      let batchBytes = 0;
      for (const line of lines) {
        if (
          !this.#file || (this.#size + batchBytes + line.length > this.#maxFile &&
            this.#size + batchBytes > 0)
        ) {
          this.#write(batch, batchBytes);
          [batch, batchBytes] = [[], 0];
          this.#openNextPart();
        }
        batch.push(line);
        batchBytes += line.length;
      }
      this.#write(batch, batchBytes);
    } catch (e) {
      this.#fail(e);
    }
  }

  #write(batch: Uint8Array[], bytes: number): void {
    if (bytes === 0) return;
    const data = new Uint8Array(bytes);
    let at = 0;
    for (const b of batch) {
      data.set(b, at);
      at += b.length;
    }
    try {
      this.#fs!.appendFileSync(this.#file!, data, { mode: PRIVATE_FILE_MODE });
    } catch (e) {
      if ((e as { code?: string }).code !== "ENOENT") throw e;
      // The directory was deleted under a running process (`rm -rf sdk_run`): start it again.
      this.#makeDir();
      this.#makeFile();
      this.#fs!.appendFileSync(this.#file!, data, { mode: PRIVATE_FILE_MODE });
      this.#size = 0;
    }
    this.#size += bytes;
  }

  /** Starts the next part, after deleting the oldest files so that it fits under the total cap. */
  #openNextPart(): void {
    const dir = this.#dir!;
    this.#makeDir();
    this.#part++;
    const name = this.#part === 1 ? `${this.#stem}.log` : `${this.#stem}.${this.#part}.log`;
    this.#file = this.#path!.join(dir, name);
    this.#size = 0;
    this.#makeFile();
    this.#prune();
  }

  /**
   * The log folder, this user's only (0700; its parents follow the umask). Modes are explicit:
   * Deno's `node:fs` ignores the umask when appending creates a file.
   */
  #makeDir(): void {
    const fs = this.#fs!;
    const dir = this.#dir!;
    fs.mkdirSync(this.#path!.dirname(dir), { recursive: true });
    try {
      fs.mkdirSync(dir, { mode: PRIVATE_DIR_MODE });
    } catch (e) {
      if ((e as { code?: string }).code !== "EEXIST") throw e;
    }
    try {
      fs.chmodSync(dir, PRIVATE_DIR_MODE);
    } catch {
      // Another user's folder keeps its mode; the files are still 0600.
    }
  }

  /** The current part, 0600 (one an older version left readable included). */
  #makeFile(): void {
    const fs = this.#fs!;
    fs.closeSync(fs.openSync(this.#file!, "a", PRIVATE_FILE_MODE));
    fs.chmodSync(this.#file!, PRIVATE_FILE_MODE);
  }

  /** Deletes the oldest `sdk-*.log` files until the others plus a full new part fit the cap. */
  #prune(): void {
    const fs = this.#fs!;
    const files: { file: string; stem: string; part: number; size: number; mtime: number }[] = [];
    for (const name of fs.readdirSync(this.#dir!)) {
      const file = this.#path!.join(this.#dir!, name);
      if (!LOG_FILE_NAME.test(name) || file === this.#file) continue;
      try {
        const stat = fs.statSync(file);
        const [, stem, part] = name.match(/^(.*?)(?:\.(\d+))?\.log$/)!;
        if (stat.isFile()) {
          files.push({ file, stem, part: Number(part ?? 1), size: stat.size, mtime: stat.mtimeMs });
        }
      } catch {
        // Deleted meanwhile by another process's pruning.
      }
    }
    // Same modification time (a fast writer): by name, then part number.
    files.sort((a, b) => a.mtime - b.mtime || a.stem.localeCompare(b.stem) || a.part - b.part);
    let total = files.reduce((sum, f) => sum + f.size, 0);
    for (const f of files) {
      if (total + this.#maxFile <= this.#maxTotal) break;
      fs.rmSync(f.file, { force: true });
      total -= f.size;
    }
  }

  #fail(error: unknown): void {
    if (this.#broken) return;
    this.#broken = true;
    this.#buffer = [];
    this.#buffered = 0;
    unflushed.delete(this);
    this.#onError?.(error);
  }
}
