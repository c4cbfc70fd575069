import { UnsupportedRuntimeError } from "../errors.ts";
/**
 * The one place that knows which runtime the SDK runs in (Deno, Node, a browser page) and reaches
 * its built-ins. Everything else asks here; core has no top-level `node:` import, so it loads in a
 * browser page too (DESIGN "Runtime").
 *
 * @module
 */

/** The runtime the SDK is running in. */
export type RuntimeKind = "deno" | "node" | "browser";

interface DenoLike {
  env: { get(key: string): string | undefined; toObject(): Record<string, string> };
  permissions?: { querySync?(d: { name: string }): { state: string } };
}

interface NodeProcessLike {
  versions?: { node?: string };
  env: Record<string, string | undefined>;
  cwd(): string;
}

const g = globalThis as unknown as { Deno?: DenoLike; process?: NodeProcessLike };

/** Detects the runtime once. */
export const runtimeKind: RuntimeKind = g.Deno
  ? "deno"
  : g.process?.versions?.node
  ? "node"
  : "browser";

/** True where a file system can be reached (Deno, Node); false in a browser page. */
export const hasFileSystem: boolean = runtimeKind !== "browser";

/**
 * Reads one environment variable; `undefined` when unset, in a browser, or when Deno was not
 * given `--allow-env` for it.
 */
export function getEnv(key: string): string | undefined {
  try {
    if (g.Deno) return g.Deno.env.get(key);
    if (g.process?.env) return g.process.env[key];
  } catch {
    // Deno without env permission: behave as unset.
  }
  return undefined;
}

/**
 * Whether native addons (npm packages with `.node` binaries) may load: always in Node; in Deno
 * only with `--allow-ffi`, asked without prompting.
 */
export function nativeAddonsAllowed(): boolean {
  if (!g.Deno) return runtimeKind === "node";
  try {
    return g.Deno.permissions?.querySync?.({ name: "ffi" }).state === "granted";
  } catch {
    return false;
  }
}

/** Current working directory, or `"/"` in a browser. */
export function cwd(): string {
  if (g.process?.cwd) return g.process.cwd();
  const d = g.Deno as unknown as { cwd?: () => string } | undefined;
  return d?.cwd ? d.cwd() : "/";
}

type FsPromises = typeof import("node:fs/promises");
type PathModule = typeof import("node:path");

/**
 * A Node built-in module (`"node:fs"`, ...) of Deno or Node, taken from
 * `process.getBuiltinModule` (Deno 2, Node 20.16 / 22.3 and newer) instead of an `import()`: a
 * bundler sees no import of it, so a browser bundle of core pulls in no Node built-in
 * (docs/in-browser.md). Only called where {@link hasFileSystem} is true. A Node without
 * `getBuiltinModule` (22.0 to 22.2) gets the module by an `import()` that bundlers and Deno's
 * publish analysis cannot follow, built at run time, which only such a Node ever runs.
 *
 * @throws {Error} (as a rejection) in a browser runtime.
 */
export function nodeBuiltin<T>(name: `node:${string}`): Promise<T> {
  if (!hasFileSystem) {
    return Promise.reject(new UnsupportedRuntimeError(`No ${name} in a browser runtime`));
  }
  const get = (g.process as { getBuiltinModule?: (id: string) => unknown } | undefined)
    ?.getBuiltinModule;
  if (typeof get === "function") return Promise.resolve(get(name) as T);
  // deno-lint-ignore no-explicit-any
  const load = new Function("name", "return import(name)") as (name: string) => Promise<any>;
  return load(name).then((m) => (m.default ?? m) as T);
}

/**
 * Node's `fs/promises` (works in Deno and Node), reached only when first asked for.
 *
 * @throws {Error} in a browser runtime, where no file system exists.
 */
export function nodeFs(): Promise<FsPromises> {
  if (!hasFileSystem) throw new UnsupportedRuntimeError("No file system in a browser runtime");
  return nodeBuiltin<FsPromises>("node:fs/promises");
}

/**
 * Node's `path`, reached only when first asked for.
 *
 * @throws {Error} in a browser runtime.
 */
export function nodePath(): Promise<PathModule> {
  if (!hasFileSystem) throw new UnsupportedRuntimeError("No file system in a browser runtime");
  return nodeBuiltin<PathModule>("node:path");
}

/**
 * Reads a whole local file (prompt images, spec 2.5). A relative path resolves from the working
 * directory; a `file:` URL is read as is.
 *
 * @returns the absolute path (or the URL) read, and the file's bytes.
 * @throws {Error} in a browser runtime (no file system); otherwise the file system's error, with
 * `code` `ENOENT` for a missing file and `EISDIR` for a directory.
 */
export async function readLocalFile(
  file: string | URL,
): Promise<{ path: string; bytes: Uint8Array }> {
  const fs = await nodeFs();
  const full = typeof file === "string" ? (await nodePath()).resolve(cwd(), file) : file;
  const bytes = await fs.readFile(full);
  return {
    path: typeof full === "string" ? full : full.href,
    bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength),
  };
}

/** Directory of run output: `SDK_RUN_DIR` or `sdk_run`, resolved from the working directory. */
export async function runDir(): Promise<string> {
  const path = await nodePath();
  return path.resolve(cwd(), getEnv("SDK_RUN_DIR") || "sdk_run");
}

/** The mode of the SDK's private folders: this user's only. */
export const PRIVATE_DIR_MODE = 0o700;

/** The mode of the SDK's private files (run logs, cache files, observed frames). */
export const PRIVATE_FILE_MODE = 0o600;

/**
 * Makes `dir` a folder of this user only (0700): its parents as the umask says, the folder itself
 * with an explicit mode (Deno's `node:fs` ignores the umask where a mode is given or appends
 * create files, so modes are always explicit), and an existing one is made 0700 too (a folder
 * another user owns keeps its mode).
 */
async function ensurePrivateDir(dir: string): Promise<void> {
  const fs = await nodeFs();
  const path = await nodePath();
  await fs.mkdir(path.dirname(dir), { recursive: true });
  await fs.mkdir(dir, { mode: PRIVATE_DIR_MODE }).catch((e) => {
    if ((e as { code?: string }).code !== "EEXIST") throw e;
  });
  await fs.chmod(dir, PRIVATE_DIR_MODE).catch(() => {});
}

/**
 * Writes a file atomically: a temporary file beside it, then a rename, so a reader never sees a
 * half-written file. Creates the parent directory; with `private: true` the parent is made a
 * private folder ({@link ensurePrivateDir}) and the file 0600, else both follow the umask.
 */
export async function writeFileAtomic(
  file: string,
  data: string | Uint8Array,
  options: { private?: boolean } = {},
): Promise<void> {
  const fs = await nodeFs();
  const path = await nodePath();
  if (options.private) await ensurePrivateDir(path.dirname(file));
  else await fs.mkdir(path.dirname(file), { recursive: true });
  const tmp = `${file}.${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}.tmp`;
  await fs.writeFile(tmp, data, options.private ? { mode: PRIVATE_FILE_MODE } : {});
  await fs.rename(tmp, file);
}

/** Removes a file or a whole directory; does nothing when nothing is there. */
export async function removePath(path: string): Promise<void> {
  const fs = await nodeFs();
  await fs.rm(path, { recursive: true, force: true });
}

/** What a path leads to once symlinks are followed. */
export type PathKind = "file" | "directory" | "other";

/**
 * The real absolute path of `path` (relative paths from the working directory; every symlink
 * resolved) and what is there; `undefined` when nothing exists there (a dangling symlink too).
 *
 * @throws {Error} in a browser runtime, or when the path cannot be read (e.g. permissions).
 */
export async function realPathInfo(
  path: string,
): Promise<{ real: string; kind: PathKind } | undefined> {
  const fs = await nodeFs();
  try {
    const real = await fs.realpath(path);
    const stat = await fs.stat(real);
    return { real, kind: stat.isFile() ? "file" : stat.isDirectory() ? "directory" : "other" };
  } catch (e) {
    const code = (e as { code?: string }).code;
    if (code === "ENOENT" || code === "ENOTDIR") return undefined;
    throw e;
  }
}

/**
 * Lets the process exit while a timer is pending (Deno's `unrefTimer`, Node's `unref()`); does
 * nothing in a browser.
 */
export function unrefTimer(timer: unknown): void {
  if (timer === undefined) return;
  const d = g.Deno as unknown as { unrefTimer?: (id: number) => void } | undefined;
  if (typeof timer === "number" && d?.unrefTimer) return d.unrefTimer(timer);
  (timer as { unref?: () => void }).unref?.();
}

/** Resolves after `ms` milliseconds, or rejects with the signal's reason when it aborts first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** What this process is, for a marker file other processes read: its id and its host. */
export async function processIdentity(): Promise<{ pid: number; host: string }> {
  const os = await nodeBuiltin<{ hostname(): string }>("node:os");
  const proc = await nodeBuiltin<{ pid: number }>("node:process");
  return { pid: proc.pid, host: os.hostname() };
}

/**
 * Whether the process `pid` of this host is running: a signal-0 probe (`ESRCH`: gone; `EPERM`:
 * there, another user's).
 *
 * @throws {Error} in a browser runtime.
 */
export async function processRunning(pid: number): Promise<boolean> {
  const proc = await nodeBuiltin<{ kill(pid: number, signal: number): void }>("node:process");
  try {
    proc.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as { code?: string }).code !== "ESRCH";
  }
}
