/**
 * Readers of a script's values: each checks one node's type, reads `${NAME}` references in its
 * text (./env_vars.ts) and returns a plain value, or throws a {@link YamlScriptError} that names
 * the file, the line and column, the key and what was expected. The schema of flow items and
 * sections is written with them.
 *
 * @module
 */

import type { TUserPrompt } from "../session/options.ts";
import { type EnvLookup, interpolateEnvVars } from "./env_vars.ts";
import { MAX_SCRIPT_ERRORS, YamlScriptError } from "./script_errors.ts";
import type { SourcePosition, YamlNode, YamlScalarNode } from "./yaml_parse.ts";

/** Where a value is read: the file, the environment, and the key that holds it. */
export interface ReadContext {
  /** The script's file name, for errors. */
  readonly fileName: string;
  /** Reads environment variables for `${NAME}`. */
  readonly env: EnvLookup;
  /** Path from the top of the file, e.g. `tasks[0].flow[1].timeout`. */
  readonly path: string;
  /** The key whose value is read. */
  readonly key: string;
  /** Whose key it is, for messages: `"the aiWaitFor item"`, `"the web section"`. */
  readonly owner: string;
  /**
   * Where the errors of a whole file are gathered, so that reading goes on after one: each
   * mapping entry, task and flow item read inside {@link collect} adds its error here instead of
   * stopping the read. Without it the first error is thrown.
   */
  readonly errors?: { readonly list: YamlScriptError[] };
  /** The flow keys the script's target offers, for the unknown flow key's message. */
  readonly flowKeys?: readonly string[];
  /**
   * The script's platform's other names of items (`platformFlowAliases`): alias -> the flow key
   * it reads as.
   */
  readonly flowAliases?: Readonly<Record<string, string>>;
  /**
   * Why the script may not read a variable (`envRefusal` of ./script_trust.ts), or `undefined`
   * when it may; a refused variable is never looked up.
   */
  readonly refuseEnv?: (name: string) => string | undefined;
}

/** The errors of one file, gathered while it is read (`list`: in the order found). */
export type ScriptErrorList = NonNullable<ReadContext["errors"]>;

/**
 * Thrown where a part of the file cannot be read further because its error is in the collector
 * already: {@link collect} skips the part without adding an error.
 */
export class ReportedAlready extends Error {
  /** Always `"ReportedAlready"`. */
  override readonly name: string = "ReportedAlready";
}

/** Thrown when a file has more errors than are reported: reading stops there. */
export class TooManyScriptErrors extends Error {
  /** Always `"TooManyScriptErrors"`. */
  override readonly name: string = "TooManyScriptErrors";
}

/**
 * Runs `read`; with a collector on `at`, a {@link YamlScriptError} it throws is added to the
 * collector and `undefined` returned, so the caller goes on to the next part of the file. Once
 * the collector holds {@link MAX_SCRIPT_ERRORS} errors, reading stops with
 * {@link TooManyScriptErrors}.
 */
export function collect<T>(at: ReadContext, read: () => T): T | undefined {
  if (!at.errors) return read();
  try {
    return read();
  } catch (e) {
    if (e instanceof ReportedAlready) return undefined;
    if (!(e instanceof YamlScriptError)) throw e;
    at.errors.list.push(e);
    if (at.errors.list.length >= MAX_SCRIPT_ERRORS) throw new TooManyScriptErrors();
    return undefined;
  }
}

/**
 * The known name closest to `word` (a typo of it: at most 2 edits, and fewer than a third of its
 * letters), or undefined.
 */
export function closestName(word: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of known) {
    const d = editDistance(word.toLowerCase(), candidate.toLowerCase());
    if (d < bestDistance) [best, bestDistance] = [candidate, d];
  }
  return bestDistance <= Math.min(2, Math.ceil(word.length / 3)) ? best : undefined;
}

function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = row;
  }
  return prev[b.length];
}

/** Reads and checks one value. */
export interface Reader<T> {
  /** What the value must be, for messages and help: `"a number >= 0"`. */
  readonly describe: string;
  /** Reads `node`. @throws {YamlScriptError} when it does not fit. */
  read(node: YamlNode, at: ReadContext): T;
}

/** A value of the wrong type: {@link either} tries the next reader on it. */
class Mismatch extends YamlScriptError {
  override name = "YamlScriptError";
}

/** The context of `key` inside the value read at `at`. */
export function childAt(at: ReadContext, key: string, owner: string): ReadContext {
  return { ...at, path: at.path ? `${at.path}.${key}` : key, key, owner };
}

/** Throws a {@link YamlScriptError} at `pos` naming `at`'s key and path. */
export function failAt(at: ReadContext, pos: SourcePosition, message: string): never {
  throw new YamlScriptError(message, {
    fileName: at.fileName,
    ...pos,
    key: at.key,
    path: at.path,
  });
}

/** Describes a node for "got ..." in messages. */
export function describeNode(node: YamlNode): string {
  if (node.kind === "map") return "a mapping";
  if (node.kind === "seq") return "a list";
  if (node.value === null) return "nothing";
  if (typeof node.value === "string") {
    const s = node.value.length > 60 ? `${node.value.slice(0, 57)}...` : node.value;
    return JSON.stringify(s);
  }
  return `${typeof node.value} ${node.source}`;
}

function mismatch(at: ReadContext, node: YamlNode, describe: string): never {
  throw new Mismatch(`'${at.key}' of ${at.owner} must be ${describe}: got ${describeNode(node)}`, {
    fileName: at.fileName,
    ...node.pos,
    key: at.key,
    path: at.path,
  });
}

/**
 * The text of a string scalar with `${NAME}` read; `interpolated` tells whether a reference was
 * replaced.
 *
 * @throws {YamlScriptError} naming the first variable that is not set.
 */
function stringValue(
  node: YamlScalarNode & { value: string },
  at: ReadContext,
): { text: string; interpolated: boolean } {
  const refused: [string, string][] = [];
  const r = interpolateEnvVars(node.value, (name) => {
    const why = at.refuseEnv?.(name);
    if (why === undefined) return at.env(name);
    refused.push([name, why]);
    return "";
  });
  if (refused.length) {
    failAt(
      at,
      node.pos,
      `'\${${refused[0][0]}}' in '${at.key}' of ${at.owner} is refused: ${refused[0][1]}`,
    );
  }
  if (r.missing.length) {
    failAt(
      at,
      node.pos,
      `environment variable '${r.missing[0]}' is not set (read by '\${${
        r.missing[0]
      }}' in '${at.key}' of ${at.owner}); set it, or write '$\${${
        r.missing[0]
      }}' for the literal text`,
    );
  }
  return { text: r.value, interpolated: r.used.length > 0 };
}

function isString(node: YamlNode): node is YamlScalarNode & { value: string } {
  return node.kind === "scalar" && typeof node.value === "string";
}

/**
 * Text: a string (with `${NAME}` read), or a number or boolean taken as written (`01234` stays
 * `"01234"`).
 */
export const text: Reader<string> = {
  describe: "text",
  read(node, at) {
    if (isString(node)) return stringValue(node, at).text;
    if (node.kind === "scalar" && node.value !== null) return node.source;
    return mismatch(at, node, "text");
  },
};

/** `true` or `false`; also a string that is `true`/`false` after reading `${NAME}`. */
export const bool: Reader<boolean> = {
  describe: "true or false",
  read(node, at) {
    if (node.kind === "scalar" && typeof node.value === "boolean") return node.value;
    if (isString(node)) {
      const { text, interpolated } = stringValue(node, at);
      if (interpolated && (text === "true" || text === "false")) return text === "true";
    }
    return mismatch(at, node, "true or false");
  },
};

/** Bounds of {@link num}. */
export interface NumberBounds {
  /** Smallest value allowed. */
  min?: number;
  /** Values must be greater than this. */
  above?: number;
  /** Whole numbers only. */
  integer?: boolean;
  /** Unit named in messages, e.g. `"ms"`. */
  unit?: string;
}

/**
 * A finite number within `bounds`; also a string that is a number after reading `${NAME}`
 * (`timeout: ${WAIT_MS}`).
 */
export function num(bounds: NumberBounds = {}): Reader<number> {
  const parts = [bounds.integer ? "a whole number" : "a number"];
  if (bounds.min !== undefined) parts.push(`>= ${bounds.min}`);
  if (bounds.above !== undefined) parts.push(`> ${bounds.above}`);
  if (bounds.unit) parts.push(`(${bounds.unit})`);
  const describe = parts.join(" ");
  return {
    describe,
    read(node, at) {
      let n: number | undefined;
      if (node.kind === "scalar" && typeof node.value === "number") n = node.value;
      else if (isString(node)) {
        const { text, interpolated } = stringValue(node, at);
        if (interpolated && text.trim() !== "") n = Number(text);
      }
      if (
        n === undefined || !Number.isFinite(n) ||
        (bounds.integer && !Number.isInteger(n)) ||
        (bounds.min !== undefined && n < bounds.min) ||
        (bounds.above !== undefined && n <= bounds.above)
      ) {
        return mismatch(at, node, describe);
      }
      return n;
    },
  };
}

/** One of the given strings. */
export function oneOf<const T extends string>(...values: T[]): Reader<T> {
  const describe = `one of ${values.map((v) => `'${v}'`).join(", ")}`;
  return {
    describe,
    read(node, at) {
      if (isString(node)) {
        const { text } = stringValue(node, at);
        if ((values as string[]).includes(text)) return text as T;
      }
      return mismatch(at, node, describe);
    },
  };
}

/** An empty value (`distance:` or `distance: null`). */
export const nullValue: Reader<null> = {
  describe: "empty (null)",
  read(node, at) {
    if (node.kind === "scalar" && node.value === null) return null;
    return mismatch(at, node, "empty (null)");
  },
};

/** The first reader that fits; a deeper error of one (inside a mapping, a missing variable) wins. */
export function either<A, B>(a: Reader<A>, b: Reader<B>): Reader<A | B> {
  const describe = `${a.describe} or ${b.describe}`;
  return {
    describe,
    read(node, at) {
      for (const r of [a, b] as Reader<A | B>[]) {
        try {
          return r.read(node, at);
        } catch (e) {
          if (!(e instanceof Mismatch) || e.path !== at.path) throw e;
        }
      }
      return mismatch(at, node, describe);
    },
  };
}

/** A list of values each read by `item`. */
export function list<T>(item: Reader<T>): Reader<T[]> {
  const describe = `a list of ${item.describe}`;
  return {
    describe,
    read(node, at) {
      if (node.kind !== "seq") return mismatch(at, node, describe);
      return node.items.map((n, i) => item.read(n, { ...at, path: `${at.path}[${i}]` }));
    },
  };
}

/** A mapping whose keys are checked against `fields`; `required` keys must be present. */
export function mapping<T extends Record<string, unknown>>(
  name: string,
  fields: { [K in keyof T]-?: Reader<T[K]> },
  required: readonly (keyof T & string)[] = [],
): Reader<T> {
  const describe = `a mapping (${Object.keys(fields).join(", ")})`;
  return {
    describe,
    read(node, at) {
      if (node.kind !== "map") return mismatch(at, node, describe);
      return readMapping(node, at, name, fields as Record<string, Reader<unknown>>, required) as T;
    },
  };
}

/**
 * Reads a mapping node against `fields`: unknown keys and missing `required` keys are errors.
 *
 * @param owner names the mapping in messages (`"the web section"`).
 */
export function readMapping(
  node: YamlNode & { kind: "map" },
  at: ReadContext,
  owner: string,
  fields: Record<string, Reader<unknown>>,
  required: readonly string[] = [],
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const entry of node.entries) {
    const reader = Object.hasOwn(fields, entry.key) ? fields[entry.key] : undefined;
    const child = childAt(at, entry.key, owner);
    const value = collect(at, () => {
      if (!reader) failAt(child, entry.keyPos, unknownKeyMessage(entry.key, owner, fields));
      return reader.read(entry.value, child);
    });
    if (value !== undefined) out[entry.key] = value;
  }
  for (const key of required) {
    if (!node.entries.some((e) => e.key === key)) {
      collect(at, () => failAt(childAt(at, key, owner), node.pos, `${owner} needs '${key}'`));
    }
  }
  return out;
}

/** "unknown key 'x' in OWNER (did you mean 'y'?); known keys: a, b". */
export function unknownKeyMessage(key: string, owner: string, known: object): string {
  const keys = Object.keys(known);
  const near = closestName(key, keys);
  return `unknown key '${key}' in ${owner}${near ? ` (did you mean '${near}'?)` : ""}; known ` +
    `keys: ${keys.join(", ")}`;
}

/** A mapping with any keys, each value read by `value`. */
export function record<T>(value: Reader<T>): Reader<Record<string, T>> {
  const describe = `a mapping of names to ${value.describe}`;
  return {
    describe,
    read(node, at) {
      if (node.kind !== "map") return mismatch(at, node, describe);
      const out: Record<string, T> = {};
      for (const entry of node.entries) {
        out[entry.key] = value.read(entry.value, childAt(at, entry.key, at.owner));
      }
      return out;
    },
  };
}

/**
 * Any value as plain JSON data (a request body, for example): mappings become objects, lists
 * arrays, scalars their value; `${NAME}` is read in every string.
 */
export const jsonValue: Reader<unknown> = {
  describe: "any value",
  read(node, at): unknown {
    if (node.kind === "map") {
      const out: Record<string, unknown> = {};
      for (const entry of node.entries) {
        out[entry.key] = jsonValue.read(entry.value, childAt(at, entry.key, at.owner));
      }
      return out;
    }
    if (node.kind === "seq") {
      return node.items.map((n, i) => jsonValue.read(n, { ...at, path: `${at.path}[${i}]` }));
    }
    return isString(node) ? stringValue(node, at).text : node.value;
  },
};

/** `reader`, with an empty value read as `undefined`. */
export function optional<T>(reader: Reader<T>): Reader<T | undefined> {
  return {
    describe: `${reader.describe}, or empty`,
    read(node, at) {
      if (node.kind === "scalar" && node.value === null) return undefined;
      return reader.read(node, at);
    },
  };
}

const promptFields = {
  prompt: text,
  images: list(mapping<{ name: string; url: string }>("an image", { name: text, url: text }, [
    "name",
    "url",
  ])),
  convertHttpImage2Base64: bool,
};

/**
 * A prompt (spec 2.5): text, or a mapping with `prompt` and optional `images` (each `name` and
 * `url`) and `convertHttpImage2Base64`.
 */
export const prompt: Reader<TUserPrompt> = {
  describe: "text, or a mapping with 'prompt' and 'images'",
  read(node, at) {
    if (node.kind !== "map") {
      try {
        return text.read(node, at);
      } catch (e) {
        if (!(e instanceof Mismatch)) throw e;
        return mismatch(at, node, this.describe);
      }
    }
    if (!node.entries.some((e) => e.key === "prompt")) {
      // Usually options indented one level too deep, under the flow key instead of beside it.
      return failAt(
        at,
        node.pos,
        `'${at.key}' of ${at.owner} must be ${this.describe}: got a mapping without 'prompt' ` +
          `(${node.entries.map((e) => e.key).join(", ")}); an item's options go beside its ` +
          `flow key, at the same indentation`,
      );
    }
    return readMapping(node, at, `the prompt of ${at.owner}`, promptFields, [
      "prompt",
    ]) as unknown as TUserPrompt;
  },
};
