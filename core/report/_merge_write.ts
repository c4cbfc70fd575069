/**
 * Writing the merged report's body (spec 4.6): each source's screenshots (each id once, inline or
 * as files of the merged report's `screenshots/`), its executions folded and prefixed, and its
 * source tag, appended to the output a large chunk at a time.
 *
 * @module
 */

import { FileError } from "../errors.ts";
import { nodeFs, nodePath } from "../runtime/runtime.ts";
import { decodeBase64, encodeBase64 } from "../image/base64.ts";
import {
  executionTag,
  type ExecutionTagPayload,
  externalScreenshotTag,
  foldExecution,
  inlineScreenshotTag,
  REPORT_FORMAT_VERSION,
  sourceTag,
  type SourceTagPayload,
} from "./_format.ts";
import { type Entry, type Source, streamTags } from "./_merge_read.ts";
import type { ReportExecution, ReportMeta } from "./types.ts";

/** A safe asset path inside a report directory. */
const ASSET_SRC = /^screenshots\/(?!\.+$)[A-Za-z0-9._-]+$/;
const DATA_URI = /^data:image\/(png|jpe?g|webp|gif);base64,[A-Za-z0-9+/=\r\n]*$/i;
/** Output is written to the temporary file in chunks of about this many characters. */
const CHUNK = 1 << 20;

/** Writes the data tags of each source in turn into the merged body. */
export class SourceWriter {
  readonly #out: ChunkedFile;
  /** Screenshot folder of an external merged report; undefined for a single file. */
  readonly #assetsDir: string | undefined;
  /** Screenshot ids already written. */
  readonly #written = new Set<string>();

  constructor(out: ChunkedFile, assetsDir: string | undefined) {
    this.#out = out;
    this.#assetsDir = assetsDir;
  }

  /** Reads one source and writes its screenshots, executions and source tag. */
  async add(id: string, source: Source | Entry): Promise<void> {
    const attrs = "entry" in source ? source.entry.attributes : source.attributes;
    const payload: SourceTagPayload = { id, ...attrs, executionIds: [] };
    if (!("entry" in source)) {
      this.#out.write(sourceTag(payload));
      return;
    }
    const notReport = (why: string) =>
      new FileError(
        `Cannot merge reports as ${source.file} (test '${attrs.testId}') is not a report of ` +
          `this SDK: ${why}`,
        { path: source.file, reason: "invalid" },
      );
    let meta: (Partial<ReportMeta> & { format?: unknown }) | undefined;
    const executions = new Map<string, ReportExecution>();
    const missing: string[] = [];
    for await (const tag of streamTags(source.file)) {
      if (meta === undefined) {
        // The writer puts the header in the same write as the page: it is always the first tag.
        try {
          meta = tag.kind === "meta" ? JSON.parse(tag.body) : undefined;
        } catch { /* reported below */ }
        if (!meta || typeof meta !== "object" || typeof meta.format !== "number") {
          throw notReport("its data does not start with a readable report header");
        }
        if (meta.format > REPORT_FORMAT_VERSION) {
          throw new FileError(
            `Cannot merge reports as ${source.file} (test '${attrs.testId}') has report format ` +
              `${meta.format}, newer than this SDK's ${REPORT_FORMAT_VERSION}: merge with a ` +
              `newer SDK`,
            { path: source.file, reason: "invalid" },
          );
        }
      } else if (tag.kind === "screenshot") {
        if (!tag.id || this.#written.has(tag.id)) continue;
        const ok = tag.src === undefined
          ? await this.#inline(tag.id, tag.body)
          : await this.#external(tag.id, source, tag.src);
        if (ok) this.#written.add(tag.id);
        else if (tag.src !== undefined) missing.push(tag.src);
      } else if (tag.kind === "execution") {
        let exec: ExecutionTagPayload;
        try {
          exec = JSON.parse(tag.body);
        } catch {
          continue; // a tag cut short: skipped, as the viewer does
        }
        if (!exec || typeof exec !== "object" || exec.id === undefined) continue;
        const key = String(exec.id);
        executions.set(key, foldExecution(executions.get(key), exec));
      }
      // A merged report's own source tags are dropped: it becomes one source.
    }
    if (meta === undefined) throw notReport("it has no report data (cut short, or another page)");
    if (missing.length) {
      console.warn(
        `Merging ${source.file}: ${missing.length} screenshot file(s) missing (first: ` +
          `${missing[0]}); the merged report shows those steps without a screenshot.`,
      );
    }
    if (typeof meta.name === "string") payload.reportName = meta.name;
    if (typeof meta.interfaceType === "string") payload.interfaceType = meta.interfaceType;
    if (typeof meta.createdAt === "number") payload.createdAt = meta.createdAt;
    payload.executionIds = [...executions.keys()].map((k) => `${id}:${k}`);
    this.#out.write(sourceTag(payload));
    for (const [key, exec] of executions) {
      const prefixed = `${id}:${key}`;
      this.#out.write(executionTag(prefixed, JSON.stringify({ ...exec, id: prefixed })));
      await this.#out.maybeFlush();
    }
  }

  /** An inline screenshot of a single-html source. */
  async #inline(id: string, uri: string): Promise<boolean> {
    const text = uri.trim();
    if (!DATA_URI.test(text)) return false;
    if (!this.#assetsDir) {
      this.#out.write(inlineScreenshotTag(id, text));
      await this.#out.maybeFlush();
      return true;
    }
    let bytes: Uint8Array;
    try {
      bytes = decodeBase64(text.slice(text.indexOf(",") + 1));
    } catch {
      return false; // not decodable: the viewer would not show it either
    }
    const declared = /^data:image\/([a-z]+)/i.exec(text)![1].toLowerCase();
    await this.#writeAsset(id, bytes, declared === "jpeg" ? "jpg" : declared);
    return true;
  }

  /** An external screenshot of an html-and-external-assets source. */
  async #external(id: string, source: Source, src: string): Promise<boolean> {
    if (!ASSET_SRC.test(src)) return false;
    const fs = await nodeFs();
    const path = await nodePath();
    let bytes: Uint8Array;
    try {
      bytes = await fs.readFile(path.join(path.dirname(source.file), src));
    } catch (e) {
      if ((e as { code?: string }).code === "ENOENT") return false;
      throw e;
    }
    const given = /\.([A-Za-z0-9]+)$/.exec(src)?.[1].toLowerCase() ?? "png";
    if (this.#assetsDir) {
      await this.#writeAsset(id, bytes, given);
    } else {
      // A source with external files although none was detected as such: inline them.
      const ext = sniff(bytes) ?? given;
      const mime = ext === "jpg" ? "jpeg" : ext;
      this.#out.write(inlineScreenshotTag(id, `data:image/${mime};base64,${encodeBase64(bytes)}`));
      await this.#out.maybeFlush();
    }
    return true;
  }

  async #writeAsset(id: string, bytes: Uint8Array, fallbackExt: string): Promise<void> {
    const fs = await nodeFs();
    const path = await nodePath();
    const ext = sniff(bytes) ?? (/^(png|jpg|webp|gif)$/.test(fallbackExt) ? fallbackExt : "png");
    const stem = /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/.test(id) ? id : `x${hashName(id)}`;
    const file = `${stem}.${ext}`;
    await fs.writeFile(path.join(this.#assetsDir!, file), bytes);
    this.#out.write(externalScreenshotTag(id, `screenshots/${file}`));
    await this.#out.maybeFlush();
  }
}

/** Text appended to a file in large chunks. */
export class ChunkedFile {
  readonly file: string;
  #parts: string[] = [];
  #size = 0;

  constructor(file: string) {
    this.file = file;
  }

  write(text: string): void {
    this.#parts.push(text);
    this.#size += text.length;
  }

  async maybeFlush(): Promise<void> {
    if (this.#size >= CHUNK) await this.flush();
  }

  async flush(): Promise<void> {
    const fs = await nodeFs();
    const data = this.#parts.join("");
    this.#parts = [];
    this.#size = 0;
    await fs.appendFile(this.file, data);
  }
}

/** The image format of some bytes, by their magic number. */
function sniff(b: Uint8Array): "png" | "jpg" | "gif" | "webp" | undefined {
  if (b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47) return "png";
  if (b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return "jpg";
  if (b[0] === 0x47 && b[1] === 0x49 && b[2] === 0x46 && b[3] === 0x38) return "gif";
  if (
    b[0] === 0x52 && b[1] === 0x49 && b[2] === 0x46 && b[3] === 0x46 && b[8] === 0x57 &&
    b[9] === 0x45 && b[10] === 0x42 && b[11] === 0x50
  ) return "webp";
  return undefined;
}

function hashName(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h.toString(16).padStart(8, "0");
}
