/**
 * The report file format, shared by the writer, the tests and later tools (merging). Private to
 * `@sdk/core/report`: the format may change between versions (spec 2.8).
 *
 * A report is the viewer page followed by data tags, appended in order:
 *
 * ```text
 * <!doctype html> ... viewer (CSS + JS) ...
 * <script type="sdk-meta">{"format":1,"name":...,"sdkVersion":...}</script>
 * <script type="sdk-screenshot" data-id="ID">data:image/png;base64,...</script>
 * <script type="sdk-screenshot" data-id="ID" data-src="screenshots/ID.png"></script>
 * <script type="sdk-execution" data-id="EXEC-ID">{...execution JSON...}</script>
 * <script type="sdk-source" data-id="SOURCE-ID">{...source JSON...}</script>
 * ```
 *
 * Execution tags fold in file order, per id: a tag without `stepsFrom` replaces the execution; a
 * tag with `stepsFrom: k` keeps the first `k` steps of the previous state and puts its `steps`
 * after them (a delta, so a long `aiAct` does not rewrite all its steps on every update). A
 * trailing tag cut short by a crash is skipped. Nothing in a tag contains `<`: JSON escapes it as
 * `\u003c` and screenshot bodies are base64.
 *
 * A merged report (`ReportMergingTool`, spec 4.6) has the same layout: one meta tag for the merged
 * report, the screenshots of all sources (each id once), each source's executions folded into one
 * tag each with ids prefixed by the source id (`s1:`, `s2:`, ...) so two sources never collide,
 * and one `sdk-source` tag per source ({@link SourceTagPayload}: the test's attributes and its
 * execution ids). Plain agent reports have no `sdk-source` tag.
 *
 * @module
 */

import { SdkTypeError } from "../errors.ts";
import type { ReportExecution, ReportMeta } from "./types.ts";

/** Version of the file format, written into the meta tag. */
export const REPORT_FORMAT_VERSION = 1;

/** An execution tag's payload: an execution, or a delta of one when `stepsFrom` is set. */
export interface ExecutionTagPayload extends ReportExecution {
  /** Index of the first step carried; earlier steps are kept from the previous tag. */
  stepsFrom?: number;
}

/**
 * Makes JSON text safe inside a `<script>` element: `<` becomes `\u003c`, so no `</script>` or
 * `<!--` can appear, and U+2028 / U+2029 are escaped for old JS parsers. The result is still
 * valid JSON for the same value.
 */
export function escapeJsonForScript(json: string): string {
  return json.replace(
    /[<\u2028\u2029]/g,
    (c) => c === "<" ? "\\u003c" : c === "\u2028" ? "\\u2028" : "\\u2029",
  );
}

/** `JSON.stringify` made safe inside a `<script>` element (see {@link escapeJsonForScript}). */
export function jsonForScript(value: unknown): string {
  return escapeJsonForScript(JSON.stringify(value));
}

/** Escapes text for an HTML attribute value in double quotes or for element text. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The meta tag written once after the viewer. */
export function metaTag(meta: ReportMeta): string {
  return `<script type="sdk-meta">${jsonForScript({ format: REPORT_FORMAT_VERSION, ...meta })}` +
    `</script>\n`;
}

/** A screenshot tag carrying the data URI inline (`single-html`). */
export function inlineScreenshotTag(id: string, dataUri: string): string {
  return `<script type="sdk-screenshot" data-id="${escapeHtml(id)}">${dataUri}</script>\n`;
}

/** A screenshot tag pointing at an external file (`html-and-external-assets`). */
export function externalScreenshotTag(id: string, src: string): string {
  return `<script type="sdk-screenshot" data-id="${escapeHtml(id)}" data-src="${
    escapeHtml(src)
  }"></script>\n`;
}

/**
 * An execution tag. `json` is the payload as JSON text (a whole execution or a delta, see the
 * module doc); it is escaped here.
 */
export function executionTag(id: string, json: string): string {
  return `<script type="sdk-execution" data-id="${escapeHtml(id)}">${
    escapeJsonForScript(json)
  }</script>\n`;
}

/** A source tag's payload: one report merged into a merged report (spec 2.8, 4.6). */
export interface SourceTagPayload {
  /** Id of the source within the merged report (`s1`, `s2`, ...); prefixes its execution ids. */
  id: string;
  /** `reportAttributes.testId`. */
  testId: string;
  /** `reportAttributes.testTitle`. */
  testTitle: string;
  /** `reportAttributes.testDescription`. */
  testDescription: string;
  /** `reportAttributes.testDuration`, in ms. */
  testDuration: number;
  /** `reportAttributes.testStatus`. */
  testStatus: string;
  /** Name of the source report (its meta `name`); unset for a skipped test without a report. */
  reportName?: string;
  /** Interface type of the source report's agent, when it had a report. */
  interfaceType?: string;
  /** Creation time of the source report, ms since epoch, when it had a report. */
  createdAt?: number;
  /** Ids (already prefixed) of the source's executions in the merged report, in order. */
  executionIds: string[];
}

/** A source tag (merged reports only); `payload.id` is its `data-id`. */
export function sourceTag(payload: SourceTagPayload): string {
  return `<script type="sdk-source" data-id="${escapeHtml(payload.id)}">${
    jsonForScript(payload)
  }</script>\n`;
}

/**
 * Content hash of a string: FNV-1a 64 over its UTF-16 code units (for the ASCII of a data URI,
 * the same as over its bytes), computed in four 16-bit limbs (no BigInt), followed by the length
 * in base 36. Not cryptographic; it only has to tell screenshots apart. Walking the string makes no
 * copy of the ~85 KB screenshot on every step (about 0.3 ms for 64 KB).
 */
export function contentHash(text: string): string {
  // Offset basis 0xcbf29ce484222325, low limb first.
  let h0 = 0x2325, h1 = 0x8422, h2 = 0x9ce4, h3 = 0xcbf2;
  for (let i = 0; i < text.length; i++) {
    h0 ^= text.charCodeAt(i) & 0xffff;
    // Multiply by the prime 0x100000001b3 = 2^40 + 0x1b3, mod 2^64.
    const t0 = h0 * 0x1b3;
    const t1 = h1 * 0x1b3 + (t0 >>> 16);
    const t2 = h2 * 0x1b3 + (h0 << 8) + (t1 >>> 16);
    const t3 = h3 * 0x1b3 + (h1 << 8) + (t2 >>> 16);
    h0 = t0 & 0xffff;
    h1 = t1 & 0xffff;
    h2 = t2 & 0xffff;
    h3 = t3 & 0xffff;
  }
  const hex = (n: number) => n.toString(16).padStart(4, "0");
  return `${hex(h3)}${hex(h2)}${hex(h1)}${hex(h0)}-${text.length.toString(36)}`;
}

/** Image types accepted in a screenshot data URI. */
const DATA_URI = /^data:image\/(png|jpeg|jpg|webp|gif);base64,/i;
/** The base64 alphabet (line breaks allowed, as some encoders wrap). */
const BASE64_BODY = /^[A-Za-z0-9+/=\r\n]*$/;

/**
 * Normalises a screenshot to a base64 image data URI: a data URI is kept, a raw base64 body is
 * taken as PNG (spec 2.8).
 *
 * @throws {TypeError} when the text is neither; this also guarantees it holds no `<`, so it can
 * sit inside a `<script>` tag unescaped.
 */
export function normalizeScreenshot(dataUri: string): { uri: string; mime: string } {
  const m = typeof dataUri === "string" ? DATA_URI.exec(dataUri) : null;
  const body = m ? dataUri.slice(m[0].length) : dataUri;
  if (typeof body !== "string" || !BASE64_BODY.test(body) || (!m && body.length === 0)) {
    const shown = String(dataUri).slice(0, 40);
    throw new SdkTypeError(
      `Cannot add screenshot: expected a base64 PNG/JPEG/WebP/GIF data URI or a raw base64 ` +
        `body: current value starts with '${shown}'`,
    );
  }
  const mime = m ? `image/${m[1].toLowerCase().replace("jpg", "jpeg")}` : "image/png";
  return { uri: m ? dataUri : `data:image/png;base64,${body}`, mime };
}

/** A report read back from its HTML. */
export interface ParsedReport {
  /** The meta tag's content (with `format`), or undefined when missing or unreadable. */
  meta: (ReportMeta & { format: number }) | undefined;
  /** Executions folded from their tags, in order of first appearance. */
  executions: ReportExecution[];
  /** Screenshots by id: the data URI, or the relative file path of an external asset. */
  screenshots: Map<string, string>;
  /** Source tags of a merged report, in file order; empty for an agent's report. */
  sources: SourceTagPayload[];
}

/** One data tag of a report as found in its text. */
export interface ReportTag {
  /** The tag kind: `type="sdk-<kind>"`. */
  kind: "meta" | "screenshot" | "execution" | "source";
  /** The `data-id` attribute, unescaped (empty when missing). */
  id: string;
  /** The `data-src` attribute, unescaped, when present (external screenshots). */
  src: string | undefined;
  /** The text between the tags, as written (JSON, a data URI, or empty). */
  body: string;
}

const TAG = /<script type="sdk-(meta|screenshot|execution|source)"([^>]*)>([^<]*)<\/script>/g;
const ATTR = /data-(id|src)="([^"]*)"/g;

function unescapeHtml(text: string): string {
  return text.replace(/&#(\d+);/g, (_, n: string) => String.fromCharCode(Number(n)));
}

/** Folds one execution tag onto the previous state of that execution (see the module doc). */
export function foldExecution(
  previous: ReportExecution | undefined,
  payload: ExecutionTagPayload,
): ReportExecution {
  const { stepsFrom, ...exec } = payload;
  if (stepsFrom && previous) exec.steps = previous.steps.slice(0, stepsFrom).concat(exec.steps);
  return exec;
}

/**
 * The complete data tags of a report's text, in file order. A tag cut short (a truncated tail)
 * does not match and is not yielded; bodies are not parsed here.
 */
export function* reportTags(html: string): Generator<ReportTag> {
  for (const [, kind, attrText, body] of html.matchAll(TAG)) {
    const attrs: Record<string, string> = {};
    for (const [, k, v] of attrText.matchAll(ATTR)) attrs[k] = unescapeHtml(v);
    yield { kind: kind as ReportTag["kind"], id: attrs.id ?? "", src: attrs.src, body };
  }
}

/**
 * Reads a report file's text back into data, the way the viewer does. Tags that do not parse
 * (a truncated tail) are skipped.
 */
export function parseReportHtml(html: string): ParsedReport {
  let meta: ParsedReport["meta"];
  const executions = new Map<string, ReportExecution>();
  const screenshots = new Map<string, string>();
  const sources: SourceTagPayload[] = [];
  for (const { kind, id, src, body } of reportTags(html)) {
    try {
      if (kind === "meta") meta = JSON.parse(body);
      else if (kind === "screenshot") screenshots.set(id, src ?? body);
      else if (kind === "source") sources.push(JSON.parse(body));
      else {
        const payload = JSON.parse(body) as ExecutionTagPayload;
        executions.set(payload.id, foldExecution(executions.get(payload.id), payload));
      }
    } catch {
      // A tag cut short by a crash: skip it, as the viewer does.
    }
  }
  return { meta, executions: [...executions.values()], screenshots, sources };
}
