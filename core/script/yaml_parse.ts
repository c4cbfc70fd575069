/**
 * The one place that imports the YAML parser (`yaml` on npm, loaded on first use so importing the
 * SDK stays light). It turns a script's text into a small tree of maps, lists and scalars where
 * every node and every key knows its line and column, so each later error can point at the text.
 * Swapping the parser means rewriting only this file.
 *
 * @module
 */

import { MAX_SCRIPT_ERRORS, scriptErrors, YamlScriptError } from "./script_errors.ts";

/** A place in the script's text: 1-based line and column. */
export interface SourcePosition {
  /** Line, from 1. */
  line: number;
  /** Column, from 1. */
  column: number;
}

/** A scalar: text, number, boolean or null (an empty value). */
export interface YamlScalarNode {
  /** Node kind. */
  kind: "scalar";
  /** The value as YAML reads it (`01234` is the number 1234). */
  value: string | number | boolean | null;
  /** The text as written, without quotes (`01234`). */
  source: string;
  /** Where the value starts. */
  pos: SourcePosition;
}

/** One `key: value` of a mapping. */
export interface YamlEntry {
  /** The key as text. */
  key: string;
  /** Where the key starts. */
  keyPos: SourcePosition;
  /** The value; an empty value is a null scalar. */
  value: YamlNode;
}

/** A mapping, its entries in the order written. */
export interface YamlMapNode {
  /** Node kind. */
  kind: "map";
  /** The entries. */
  entries: YamlEntry[];
  /** Where the mapping starts. */
  pos: SourcePosition;
}

/** A list. */
export interface YamlSeqNode {
  /** Node kind. */
  kind: "seq";
  /** The items. */
  items: YamlNode[];
  /** Where the list starts. */
  pos: SourcePosition;
}

/** Any node of a parsed script. */
export type YamlNode = YamlScalarNode | YamlMapNode | YamlSeqNode;

type YamlModule = typeof import("yaml");
let yamlModule: Promise<YamlModule> | undefined;
const loadYaml = (): Promise<YamlModule> => yamlModule ??= import("yaml");
const MAX_ALIASES = 1000;

/**
 * Parses a script's text into a positioned tree; `null` when the text holds no document (empty,
 * or only comments).
 *
 * @param content the YAML text.
 * @param fileName named in errors.
 * @throws {YamlScriptError} for a syntax error (the parser's message, its line and column and the
 * offending text), a duplicate key, several documents in one text, or a key that is not a scalar.
 */
export async function parseYamlTree(content: string, fileName: string): Promise<YamlNode | null> {
  const Y = await loadYaml();
  const lineCounter = new Y.LineCounter();
  const doc = Y.parseDocument(content, { lineCounter, prettyErrors: true });
  const posAt = (offset: number): SourcePosition => {
    const { line, col } = lineCounter.linePos(offset);
    return { line, column: col };
  };
  if (doc.errors.length > 0) {
    // Each message reads "<what> at line L, column C:\n\n<the text>"; the position goes in front.
    const errors = doc.errors.slice(0, MAX_SCRIPT_ERRORS).map((error) => {
      const [what, snippet] = error.message.split(/ at line \d+, column \d+:\n/);
      const pos = error.linePos?.[0];
      return new YamlScriptError(
        `invalid YAML: ${what}${snippet ? `\n${snippet.trimEnd()}` : ""}`,
        {
          fileName,
          line: pos?.line ?? 1,
          column: pos?.col ?? 1,
        },
      );
    });
    throw scriptErrors(errors, doc.errors.length > MAX_SCRIPT_ERRORS);
  }
  // Aliases repeat nodes written elsewhere (at their anchor's position); a bound on how many are
  // expanded stops cycles and exponential "billion laughs" texts.
  let aliases = 0;
  const convert = (node: unknown): YamlNode => {
    if (Y.isAlias(node)) {
      if (++aliases > MAX_ALIASES) {
        const pos = posAt(node.range?.[0] ?? 0);
        throw new YamlScriptError(`more than ${MAX_ALIASES} aliases (*name) to expand`, {
          fileName,
          ...pos,
        });
      }
      return convert(node.resolve(doc));
    }
    const pos = posAt((node as { range?: [number] } | null)?.range?.[0] ?? 0);
    if (Y.isMap(node)) {
      const entries: YamlEntry[] = node.items.map((pair) => {
        const key = pair.key;
        const keyPos = posAt((key as { range?: [number] } | null)?.range?.[0] ?? 0);
        if (!Y.isScalar(key) || key.value === null || typeof key.value === "object") {
          throw new YamlScriptError("a key must be plain text", { fileName, ...keyPos });
        }
        const value = pair.value === null || pair.value === undefined
          ? { kind: "scalar" as const, value: null, source: "", pos: keyPos }
          : convert(pair.value);
        return { key: String(key.value), keyPos, value };
      });
      return { kind: "map", entries, pos };
    }
    if (Y.isSeq(node)) return { kind: "seq", items: node.items.map((n) => convert(n)), pos };
    if (Y.isScalar(node)) {
      const v = node.value;
      const value = v === null || v === undefined
        ? null
        : typeof v === "string" || typeof v === "number" || typeof v === "boolean"
        ? v
        : String(v);
      return { kind: "scalar", value, source: node.source ?? String(value ?? ""), pos };
    }
    return { kind: "scalar", value: null, source: "", pos };
  };
  if (doc.contents === null) return null;
  return convert(doc.contents);
}
