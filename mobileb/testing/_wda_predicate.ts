/**
 * NSPredicate format strings for the WDA front's `predicate string` locator and class chain
 * predicates (private to `@sdk/mobileb/testing`): the subset that element lookups use, evaluated
 * over the source tree's nodes with WDA's attribute names (`name`, `label`, `value`, `type`,
 * `enabled`, `visible`, `accessible`, `selected`, `focused`, `hittable`, `index`, `rect`,
 * `placeholderValue`, `identifier`, and their `wd` forms).
 *
 * Comparisons: `==` `=` `!=` `<>` `<` `<=` `>` `>=` `CONTAINS` `BEGINSWITH` `ENDSWITH` `LIKE`
 * (`*` and `?`) `MATCHES` (a regular expression over the whole string) `IN` (a `{...}` list or a
 * string) `BETWEEN {low, high}`, with the `[c]` (case) and `[d]` (diacritics) options; `AND` `&&`
 * `OR` `||` `NOT` `!`, parentheses, `TRUEPREDICATE` and `FALSEPREDICATE`. Literals: quoted strings,
 * numbers, `YES` `NO` `TRUE` `FALSE`, `NIL` `NULL`.
 *
 * @module
 */

import { isAccessible, type SourceNode } from "./_wda_source.ts";

/** What a predicate is evaluated on: a node and its position among its siblings. */
export interface PredicateSubject {
  node: SourceNode;
  /** Position among the siblings (WDA's `index`). */
  index: number;
}

/** A parsed predicate. */
export type Predicate = (subject: PredicateSubject) => boolean;

/** A format string that does not parse; `message` is NSPredicate's. */
export class PredicateSyntaxError extends Error {
  constructor(format: string, detail: string) {
    super(`Unable to parse the format string "${format}" (${detail})`);
    this.name = "PredicateSyntaxError";
  }
}

/** A key the elements do not have; `message` is Key-Value Coding's. */
export class UnknownKeyError extends Error {
  constructor(key: string) {
    super(
      `[<FBXCElementSnapshotWrapper> valueForUndefinedKey:]: this class is not key value ` +
        `coding-compliant for the key ${key}.`,
    );
    this.name = "UnknownKeyError";
  }
}

type Value = string | number | boolean | null | Value[] | Record<string, number>;

/**
 * The attributes of a node that element requests and predicates both read (FBElement's `wd`
 * properties, without the prefix).
 */
export const NODE_ATTRIBUTES: Readonly<Record<string, (s: PredicateSubject) => Value>> = {
  name: ({ node }) => node.name,
  label: ({ node }) => node.label,
  value: ({ node }) => node.value,
  type: ({ node }) => node.type,
  enabled: ({ node }) => node.enabled,
  visible: ({ node }) => node.visible,
  accessible: ({ node }) => isAccessible(node),
  selected: ({ node }) => node.selected,
  focused: ({ node }) => node.focused,
  hittable: ({ node }) => node.visible && node.enabled,
  index: ({ index }) => index,
  rect: ({ node }) => ({ ...node.rect }),
  placeholderValue: ({ node }) => node.placeholder,
};

/** What a predicate may name: the node's attributes and the snapshot's `identifier`. */
const ATTRIBUTES: Readonly<Record<string, (s: PredicateSubject) => Value>> = {
  ...NODE_ATTRIBUTES,
  identifier: ({ node }) => node.identifier ?? "",
};

/** The attribute a key names (`name`, `wdName`, `isWDEnabled`, ...), or undefined. */
function attributeOf(key: string): ((s: PredicateSubject) => Value) | undefined {
  const plain = key.replace(/^isWD/, "").replace(/^wd/, "");
  const name = plain === "UID" ? undefined : plain.charAt(0).toLowerCase() + plain.slice(1);
  return name !== undefined && Object.hasOwn(ATTRIBUTES, name) ? ATTRIBUTES[name] : undefined;
}

type Token =
  | { kind: "string"; value: string }
  | { kind: "number"; value: number }
  | { kind: "word"; value: string }
  | { kind: "symbol"; value: string };

const SYMBOLS = [
  "==",
  "!=",
  "<>",
  "<=",
  "=<",
  ">=",
  "=>",
  "&&",
  "||",
  "=",
  "<",
  ">",
  "!",
  "(",
  ")",
  "{",
  "}",
  ",",
];

function tokenize(format: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < format.length) {
    const c = format[i];
    if (/\s/.test(c)) {
      i++;
    } else if (c === '"' || c === "'") {
      let value = "";
      i++;
      while (i < format.length && format[i] !== c) {
        if (format[i] === "\\" && i + 1 < format.length) i++;
        value += format[i++];
      }
      if (i >= format.length) throw new PredicateSyntaxError(format, "unterminated string");
      i++;
      tokens.push({ kind: "string", value });
    } else if (/[0-9]/.test(c) || (c === "-" && /[0-9]/.test(format[i + 1] ?? ""))) {
      const match = /^-?\d+(\.\d+)?/.exec(format.slice(i))!;
      tokens.push({ kind: "number", value: Number(match[0]) });
      i += match[0].length;
    } else if (/[A-Za-z_$@#]/.test(c)) {
      const match = /^[A-Za-z_$@#][\w.$]*/.exec(format.slice(i))!;
      tokens.push({ kind: "word", value: match[0] });
      i += match[0].length;
    } else if (c === "[") {
      const end = format.indexOf("]", i);
      if (end < 0) throw new PredicateSyntaxError(format, "unterminated option");
      tokens.push({ kind: "symbol", value: format.slice(i, end + 1).toLowerCase() });
      i = end + 1;
    } else {
      const symbol = SYMBOLS.find((s) => format.startsWith(s, i));
      if (!symbol) throw new PredicateSyntaxError(format, `unexpected '${c}'`);
      tokens.push({ kind: "symbol", value: symbol });
      i += symbol.length;
    }
  }
  return tokens;
}

type Operand = (s: PredicateSubject) => Value;

const OPERATORS = new Set([
  "==",
  "=",
  "!=",
  "<>",
  "<",
  "<=",
  "=<",
  ">",
  ">=",
  "=>",
  "CONTAINS",
  "BEGINSWITH",
  "ENDSWITH",
  "LIKE",
  "MATCHES",
  "IN",
  "BETWEEN",
]);

function fold(text: string, caseless: boolean, diacriticless: boolean): string {
  let out = diacriticless ? text.normalize("NFD").replace(/\p{M}/gu, "") : text;
  if (caseless) out = out.toLowerCase();
  return out;
}

function scalar(value: Value): string | number | null | undefined {
  if (typeof value === "boolean") return value ? 1 : 0;
  if (typeof value === "string" || typeof value === "number" || value === null) return value;
  return undefined;
}

function equal(a: Value, b: Value, fold_: (s: string) => string): boolean {
  const [x, y] = [scalar(a), scalar(b)];
  if (x === null || y === null) return x === y;
  if (typeof x === "string" && typeof y === "string") return fold_(x) === fold_(y);
  return typeof x === "number" && typeof y === "number" && x === y;
}

function compare(
  op: string,
  options: string,
  left: Value,
  right: Value,
): boolean {
  const f = (s: string) => fold(s, options.includes("c"), options.includes("d"));
  switch (op) {
    case "==":
    case "=":
      return equal(left, right, f);
    case "!=":
    case "<>":
      return !equal(left, right, f);
    case "IN":
      if (Array.isArray(right)) return right.some((item) => equal(left, item, f));
      return typeof left === "string" && typeof right === "string" && f(right).includes(f(left));
    case "BETWEEN": {
      const [low, high] = Array.isArray(right) ? right.map(scalar) : [];
      const x = scalar(left);
      return typeof x === "number" && typeof low === "number" && typeof high === "number" &&
        x >= low && x <= high;
    }
  }
  const [x, y] = [scalar(left), scalar(right)];
  if (["<", "<=", "=<", ">", ">=", "=>"].includes(op)) {
    if (x === null || x === undefined || y === null || y === undefined) return false;
    const [a, b] = typeof x === "string" && typeof y === "string" ? [f(x), f(y)] : [x, y];
    if (op === "<") return a < b;
    if (op === ">") return a > b;
    return op === "<=" || op === "=<" ? a <= b : a >= b;
  }
  if (typeof x !== "string" || typeof y !== "string") return false;
  const [a, b] = [f(x), f(y)];
  if (op === "CONTAINS") return a.includes(b);
  if (op === "BEGINSWITH") return a.startsWith(b);
  if (op === "ENDSWITH") return a.endsWith(b);
  if (op === "LIKE") {
    const pattern = b.replace(/[.+^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*").replace(/\?/g, ".");
    return new RegExp(`^${pattern}$`, "s").test(a);
  }
  // MATCHES: ICU regular expression over the whole string.
  return new RegExp(`^(?:${y})$`, options.includes("c") ? "si" : "s").test(x);
}

/**
 * Parses an NSPredicate format string.
 *
 * @throws {PredicateSyntaxError} when it does not parse; {UnknownKeyError} when it names an
 *   attribute the elements do not have.
 */
export function parsePredicate(format: string): Predicate {
  const tokens = tokenize(format);
  let at = 0;
  const peek = () => tokens[at];
  const isWord = (t: Token | undefined, ...words: string[]) =>
    t?.kind === "word" && words.includes(t.value.toUpperCase());
  const isSymbol = (t: Token | undefined, ...symbols: string[]) =>
    t?.kind === "symbol" && symbols.includes(t.value);
  const fail = (what: string): never => {
    const t = peek();
    throw new PredicateSyntaxError(format, t ? `${what} at '${t.value}'` : `${what} at the end`);
  };

  const operand = (): Operand => {
    const t = tokens[at++];
    if (!t) return fail("a value expected");
    if (t.kind === "string" || t.kind === "number") return () => t.value;
    if (t.kind === "symbol" && t.value === "{") {
      const items: Operand[] = [];
      while (!isSymbol(peek(), "}")) {
        items.push(operand());
        if (isSymbol(peek(), ",")) at++;
        else if (!isSymbol(peek(), "}")) fail("',' or '}' expected");
      }
      at++;
      return (s) => items.map((item) => item(s));
    }
    if (t.kind !== "word") return fail("a value expected");
    const upper = t.value.toUpperCase();
    if (upper === "YES" || upper === "TRUE") return () => true;
    if (upper === "NO" || upper === "FALSE") return () => false;
    if (upper === "NIL" || upper === "NULL") return () => null;
    const [key, ...path] = t.value.split(".");
    const attribute = attributeOf(key);
    if (!attribute) throw new UnknownKeyError(key);
    return (s) => {
      let value = attribute(s);
      for (const part of path) {
        value = value !== null && typeof value === "object" && !Array.isArray(value)
          ? (value as Record<string, number>)[part] ?? null
          : null;
      }
      return value;
    };
  };

  const comparison = (): Predicate => {
    if (isWord(peek(), "TRUEPREDICATE")) return at++, () => true;
    if (isWord(peek(), "FALSEPREDICATE")) return at++, () => false;
    const left = operand();
    const t = tokens[at++];
    const op = t?.kind === "word" ? t.value.toUpperCase() : t?.value;
    if (!t || typeof op !== "string" || !OPERATORS.has(op)) {
      at--;
      return fail("an operator expected");
    }
    let options = "";
    const next = peek();
    if (next?.kind === "symbol" && /^\[[a-z]*\]$/.test(next.value)) {
      options = next.value;
      at++;
    }
    const right = operand();
    return (s) => compare(op, options, left(s), right(s));
  };

  const unary = (): Predicate => {
    if (isWord(peek(), "NOT") || isSymbol(peek(), "!")) {
      at++;
      const inner = unary();
      return (s) => !inner(s);
    }
    if (isSymbol(peek(), "(")) {
      at++;
      const inner = or();
      if (!isSymbol(tokens[at++], ")")) {
        at--;
        fail("')' expected");
      }
      return inner;
    }
    return comparison();
  };

  const and = (): Predicate => {
    let left = unary();
    while (isWord(peek(), "AND") || isSymbol(peek(), "&&")) {
      at++;
      const [a, b] = [left, unary()];
      left = (s) => a(s) && b(s);
    }
    return left;
  };

  const or = (): Predicate => {
    let left = and();
    while (isWord(peek(), "OR") || isSymbol(peek(), "||")) {
      at++;
      const [a, b] = [left, and()];
      left = (s) => a(s) || b(s);
    }
    return left;
  };

  if (tokens.length === 0) throw new PredicateSyntaxError(format, "empty");
  const predicate = or();
  if (at < tokens.length) fail("unexpected");
  return predicate;
}
