/**
 * Reading the source reports of a merge (spec 4.6): finding each on disk and telling its layout,
 * then reading its data tags a chunk at a time.
 *
 * @module
 */

import { FileError } from "../errors.ts";
import { nodeFs, nodePath } from "../runtime/runtime.ts";
import { type ReportTag, reportTags } from "./_format.ts";
import type { ReportAttributes } from "./types.ts";

/** How a report of this SDK starts (see `viewer.ts`). */
const GENERATOR = `<meta name="generator" content="@sdk/core report">`;
/** Sources are read in chunks of this many bytes. */
const READ_CHUNK = 1 << 20;

/** An appended entry, copied and with its path made absolute. */
export interface Entry {
  file: string | undefined;
  attributes: ReportAttributes;
}

/** A source report found on disk. */
export interface Source {
  entry: Entry;
  /** The HTML file. */
  file: string;
  /** Whether it is an `html-and-external-assets` report (its directory holds `screenshots/`). */
  external: boolean;
}

/**
 * The complete data tags of a report file, read a chunk at a time, so memory holds one chunk and
 * the tag being read rather than the whole file. Text is cut after the last `</script>` of what
 * was read: every data tag ends with one, so the tags before the cut are whole and the rest is
 * kept for the next chunk. A tag cut short at the end of the file is not yielded.
 */
export async function* streamTags(file: string): AsyncGenerator<ReportTag> {
  const fs = await nodeFs();
  const handle = await fs.open(file, "r");
  try {
    const decoder = new TextDecoder();
    const buf = new Uint8Array(READ_CHUNK);
    let carry = "";
    for (;;) {
      const { bytesRead } = await handle.read(buf, 0, buf.length, null);
      const text = carry + decoder.decode(buf.subarray(0, bytesRead), { stream: bytesRead > 0 });
      const end = text.lastIndexOf("</script>");
      if (end < 0) {
        carry = text;
      } else {
        const cut = end + "</script>".length;
        carry = text.slice(cut);
        yield* reportTags(text.slice(0, cut));
      }
      if (bytesRead === 0) return;
    }
  } finally {
    await handle.close();
  }
}

/** Finds a source on disk and tells its layout, or throws naming it. */
export async function locateSource(entry: Entry): Promise<Source> {
  const fs = await nodeFs();
  const path = await nodePath();
  let file = entry.file!;
  const test = entry.attributes.testId;
  let stat;
  try {
    stat = await fs.stat(file);
    if (stat.isDirectory()) {
      file = path.join(file, "index.html");
      stat = await fs.stat(file);
    }
  } catch (e) {
    const code = (e as { code?: string }).code;
    if (code === "ENOENT" || code === "ENOTDIR") {
      throw new FileError(
        `Cannot merge reports as the report ${file} of test '${test}' does not exist ` +
          `(finalize the agent with destroy() before merging, and pass agent.reportFile)`,
        { path: file, reason: "missing" },
        { cause: e },
      );
    }
    throw e;
  }
  if (!stat.isFile()) {
    throw new FileError(
      `Cannot merge reports as the report ${file} of test '${test}' is not a file`,
      { path: file, reason: "invalid" },
    );
  }
  const handle = await fs.open(file, "r");
  let head: string;
  try {
    const buf = new Uint8Array(2048);
    const { bytesRead } = await handle.read(buf, 0, buf.length, 0);
    head = new TextDecoder().decode(buf.subarray(0, bytesRead));
  } finally {
    await handle.close();
  }
  if (!head.includes(GENERATOR)) {
    throw new FileError(
      `Cannot merge reports as ${file} (test '${test}') is not a report of this SDK: it lacks ` +
        `the report page's header`,
      { path: file, reason: "invalid" },
    );
  }
  const csp = /Content-Security-Policy" content="([^"]*)"/.exec(head)?.[1] ?? "";
  return { entry, file, external: /img-src[^;]*\bfile:/.test(csp) };
}
