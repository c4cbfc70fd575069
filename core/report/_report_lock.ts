/**
 * Which reports belong to a live agent: a marker file `.<report file>.lock` beside a report's HTML
 * file, created exclusively (`wx`) when an agent claims the report and removed when the agent
 * finalizes it (`destroy()`). It holds the agent's process id and host. A report without a marker,
 * or whose marker names a process of this host that is gone (a script that ended without
 * `destroy()`, or was killed), belongs to a finished agent: the next agent of that name replaces
 * it. A marker of a live process (this one included: another agent of it), or of another host
 * (nothing to ask), keeps the name taken.
 *
 * @module
 */

import { nodeFs, nodePath, processIdentity, processRunning } from "../runtime/runtime.ts";

/** A marker this process holds. */
export interface ReportLock {
  /** The marker file. */
  readonly path: string;
  /** Removes the marker (the report's agent finished); safe to call more than once. */
  release(): Promise<void>;
}

/** What a marker says. */
interface LockContent {
  pid: number;
  host: string;
}

/** How old an unreadable marker (created, not yet written) may be before it counts as stale, ms. */
const UNWRITTEN_MARKER_MS = 10_000;

/** The marker of a report's HTML file: `.<name>.lock` in its folder. */
async function lockPathOf(reportFile: string): Promise<string> {
  const path = await nodePath();
  return path.join(path.dirname(reportFile), `.${path.basename(reportFile)}.lock`);
}

const code = (e: unknown) => (e as { code?: string }).code;

/** The marker's text and what it says; `undefined` when it is gone. */
async function readMarker(
  lock: string,
): Promise<{ raw: string; content?: LockContent; ageMs: number } | undefined> {
  const fs = await nodeFs();
  try {
    const [raw, stat] = await Promise.all([fs.readFile(lock, "utf8"), fs.stat(lock)]);
    let content: LockContent | undefined;
    try {
      const parsed = JSON.parse(raw) as Partial<LockContent>;
      if (typeof parsed.pid === "number" && typeof parsed.host === "string") {
        content = { pid: parsed.pid, host: parsed.host };
      }
    } catch {
      // Created and not written yet, or cut: judged by its age.
    }
    return { raw, content, ageMs: Date.now() - stat.mtimeMs };
  } catch (e) {
    if (code(e) === "ENOENT") return undefined;
    throw e;
  }
}

/**
 * Takes the marker of a report file for this process, taking over a stale one.
 *
 * @param reportFile the report's HTML file.
 * @returns the marker, or `undefined` when a live agent holds it (take another name).
 * @throws {Error} the file system's error when the marker cannot be written.
 */
export async function lockReport(reportFile: string): Promise<ReportLock | undefined> {
  const fs = await nodeFs();
  const lock = await lockPathOf(reportFile);
  const me = await processIdentity();
  const mine = JSON.stringify({ pid: me.pid, host: me.host, createdAt: Date.now() });
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      await fs.writeFile(lock, mine, { flag: "wx" });
      let released = false;
      return {
        path: lock,
        release: async () => {
          if (released) return;
          released = true;
          await fs.rm(lock, { force: true });
        },
      };
    } catch (e) {
      if (code(e) !== "EEXIST") throw e;
    }
    const held = await readMarker(lock);
    if (held === undefined) continue; // released meanwhile: try again
    const stale = held.content
      ? held.content.host === me.host && held.content.pid !== me.pid &&
        !(await processRunning(held.content.pid))
      : held.ageMs > UNWRITTEN_MARKER_MS;
    if (!stale) return undefined;
    // One process takes a stale marker over: the one that creates this file for it. It removes
    // the marker only while it still holds what was judged stale, so a fresh one is never lost.
    const takeover = `${lock}.takeover-${held.content?.pid ?? "unwritten"}`;
    try {
      await fs.writeFile(takeover, mine, { flag: "wx" });
    } catch (e) {
      if (code(e) !== "EEXIST") throw e;
      const other = await readMarker(takeover);
      if (other && other.ageMs > UNWRITTEN_MARKER_MS) await fs.rm(takeover, { force: true });
      continue;
    }
    try {
      if ((await readMarker(lock))?.raw === held.raw) await fs.rm(lock, { force: true });
    } finally {
      await fs.rm(takeover, { force: true });
    }
  }
  return undefined;
}
