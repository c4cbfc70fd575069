/**
 * The command line's check of the runtime it was started in, run by `bin.ts` before anything else
 * is loaded: on a Node.js too old for it, `sdk` says so in one line instead of dying on a
 * `SyntaxError` from a missing built-in export (Node 20 has no `fs.promises.glob`, which
 * `sdk run` uses to expand patterns). Nothing here imports the rest of the command line.
 *
 * @module
 */

/** The oldest Node.js major the command line runs on. */
export const MIN_NODE_MAJOR = 22;

/** What {@link runtimeProblem} reads of `process.versions`. */
export interface RuntimeVersions {
  /** Node's version (`"20.20.2"`); Deno and Bun report the Node version they mimic. */
  readonly node?: string;
  /** Present in Deno. */
  readonly deno?: string;
  /** Present in Bun. */
  readonly bun?: string;
}

/**
 * Why the command line cannot run here, or `undefined` when it can. Only Node.js is checked: Deno
 * and Bun carry their own built-ins.
 *
 * @param versions the runtime's versions; default `process.versions`.
 * @returns e.g. `"sdk needs Node 22 or newer; this is 20.20.2. ..."`.
 */
export function runtimeProblem(
  versions: RuntimeVersions | undefined =
    (globalThis as { process?: { versions?: RuntimeVersions } })
      .process?.versions,
): string | undefined {
  if (!versions?.node || versions.deno !== undefined || versions.bun !== undefined) {
    return undefined;
  }
  const major = Number(/^v?(\d+)\./.exec(versions.node)?.[1]);
  if (!Number.isInteger(major) || major >= MIN_NODE_MAJOR) return undefined;
  return `sdk needs Node ${MIN_NODE_MAJOR} or newer; this is ${versions.node}. Install Node ` +
    `${MIN_NODE_MAJOR} or newer (https://nodejs.org, or nvm install ${MIN_NODE_MAJOR}) and run ` +
    `it again; nothing ran.`;
}
