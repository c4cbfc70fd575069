/**
 * Finding elements in the WDA front (private to `@sdk/mobileb/testing`), as WDA's
 * FBFindElementCommands does it over the source tree: `accessibility id` (also `id` and `name`:
 * WDA's `name`, the identifier or else the label), `class name`, `predicate string`,
 * `class chain`, `xpath` (over the XML source, by the browser's XPath 1.0 engine) and
 * `link text` / `partial link text` (`attribute=value`). As in WDA, a search from an element
 * includes that element when it matches, and results are in document order.
 *
 * @module
 */

import type { Page } from "playwright-core";
import { WdaError } from "./_wda_protocol.ts";
import {
  parsePredicate,
  type Predicate,
  PredicateSyntaxError,
  UnknownKeyError,
} from "./_wda_predicate.ts";
import { evaluateXPath, flatten, type SourceNode, sourceXml } from "./_wda_source.ts";

/** The element types WDA knows by name (FBElementTypeTransformer), without the prefix. */
const ELEMENT_TYPES = new Set(
  ("Any Other Application Group Window Sheet Drawer Alert Dialog Button RadioButton RadioGroup " +
    "CheckBox DisclosureTriangle PopUpButton ComboBox MenuButton ToolbarButton Popover Keyboard " +
    "Key NavigationBar TabBar TabGroup Toolbar StatusBar Table TableRow TableColumn Outline " +
    "OutlineRow Browser CollectionView Slider PageIndicator ProgressIndicator ActivityIndicator " +
    "SegmentedControl Picker PickerWheel Switch Toggle Link Image Icon SearchField ScrollView " +
    "ScrollBar StaticText TextField SecureTextField DatePicker TextView Menu MenuItem MenuBar " +
    "MenuBarItem Map WebView IncrementArrow DecrementArrow Timeline RatingIndicator " +
    "ValueIndicator SplitGroup Splitter RelevanceIndicator ColorWell HelpTag Matte DockItem Ruler " +
    "RulerMarker Grid LevelIndicator Cell LayoutArea LayoutItem Handle Stepper Tab TouchBar " +
    "StatusItem").split(" "),
);

const PREFIX = "XCUIElementType";

/**
 * The element type a class name means: `XCUIElementTypeAny` (or `*` in a class chain) any type;
 * an unknown name with the prefix is `XCUIElementTypeOther`, as WDA takes it.
 *
 * @throws {WdaError} `invalid argument` for a name without the prefix.
 */
function elementType(name: string): string {
  if (name.startsWith(PREFIX) && name.length > PREFIX.length) {
    return ELEMENT_TYPES.has(name.slice(PREFIX.length)) ? name : `${PREFIX}Other`;
  }
  throw new WdaError(
    "invalid argument",
    `Invalid argument for class used '${name}'. Did you mean ${PREFIX}${name}?`,
  );
}

const typeMatches = (type: string, node: SourceNode) =>
  type === `${PREFIX}Any` || node.type === type;

/** The tree as flat lists: nodes in document order, each one's parent and sibling position. */
interface Indexed {
  nodes: SourceNode[];
  parent: number[];
  position: number[];
  children: number[][];
}

function indexTree(root: SourceNode): Indexed {
  const nodes = flatten(root);
  const at = new Map(nodes.map((node, i) => [node, i]));
  const parent = nodes.map(() => -1);
  const position = nodes.map(() => 0);
  const children = nodes.map((node) => node.children.map((child) => at.get(child)!));
  children.forEach((kids, i) =>
    kids.forEach((kid, k) => {
      parent[kid] = i;
      position[kid] = k;
    })
  );
  return { nodes, parent, position, children };
}

function descendantsOf(tree: Indexed, i: number): number[] {
  const out: number[] = [];
  const visit = (n: number) => {
    for (const kid of tree.children[n]) {
      out.push(kid);
      visit(kid);
    }
  };
  visit(i);
  return out;
}

const subject = (tree: Indexed, i: number) => ({ node: tree.nodes[i], index: tree.position[i] });

function predicateOf(format: string): Predicate {
  try {
    return parsePredicate(format);
  } catch (error) {
    if (error instanceof PredicateSyntaxError || error instanceof UnknownKeyError) {
      throw new WdaError("unknown error", error.message);
    }
    throw error;
  }
}

// ---- class chain ---------------------------------------------------------------------------

interface ChainItem {
  type: string;
  descendant: boolean;
  predicates: { descendant: boolean; predicate: Predicate }[];
  position?: number;
}

function parseClassChain(query: string): ChainItem[] {
  const fail = (at: number, why?: string): never => {
    const detail = why ??
      `Unexpected character detected at position ${at + 1}:\n${query.slice(0, at + 1)} <----`;
    throw new WdaError("invalid selector", `Cannot parse class chain query '${query}'. ${detail}`);
  };
  const items: ChainItem[] = [];
  let i = 0;
  while (i < query.length || items.length === 0) {
    let descendant = false;
    if (query.startsWith("**/", i)) {
      descendant = true;
      i += 3;
    }
    const name = /^(\*|[A-Za-z]+)/.exec(query.slice(i))?.[0];
    if (!name) fail(i);
    i += name!.length;
    let type: string;
    try {
      type = name === "*" ? `${PREFIX}Any` : elementType(name!);
    } catch {
      return fail(i - 1, `'${name}' is not a valid element type`);
    }
    const item: ChainItem = { type, descendant, predicates: [] };
    while (query[i] === "[") {
      const quote = query[i + 1];
      if (quote === "`" || quote === "$") {
        let text = "";
        let j = i + 2;
        for (; j < query.length; j++) {
          if (query[j] === quote && query[j + 1] === quote) text += query[j++];
          else if (query[j] === quote) break;
          else text += query[j];
        }
        if (query[j] !== quote || query[j + 1] !== "]") fail(j);
        if (item.position !== undefined) fail(i, "Predicates must be set before the index");
        let predicate: Predicate;
        try {
          predicate = parsePredicate(text);
        } catch (error) {
          return fail(i, (error as Error).message);
        }
        item.predicates.push({ descendant: quote === "$", predicate });
        i = j + 2;
      } else {
        const number = /^\[(-?\d+)\]/.exec(query.slice(i));
        if (!number || item.position !== undefined) fail(i);
        item.position = Number(number![1]);
        i += number![0].length;
      }
    }
    items.push(item);
    if (i >= query.length) break;
    if (query[i] !== "/") fail(i);
    i++;
    if (i >= query.length) fail(i - 1);
  }
  return items;
}

function matchClassChain(tree: Indexed, from: number, chain: ChainItem[]): number[] {
  let current = [from];
  for (const item of chain) {
    const found = new Set<number>();
    for (const root of current) {
      const pool = item.descendant ? descendantsOf(tree, root) : tree.children[root];
      for (const i of pool) if (typeMatches(item.type, tree.nodes[i])) found.add(i);
    }
    let candidates = [...found].sort((a, b) => a - b);
    for (const { descendant, predicate } of item.predicates) {
      candidates = candidates.filter((i) =>
        descendant
          ? descendantsOf(tree, i).some((d) => predicate(subject(tree, d)))
          : predicate(subject(tree, i))
      );
    }
    if (item.position !== undefined && item.position !== 0) {
      const pick = item.position > 0
        ? candidates[item.position - 1]
        : candidates[candidates.length + item.position];
      candidates = pick === undefined ? [] : [pick];
    }
    current = candidates;
  }
  return current;
}

// ---- the strategies ------------------------------------------------------------------------

/** Nodes from `from` (included) and its descendants that a test accepts, in document order. */
function selfAndDescendants(tree: Indexed, from: number, test: (i: number) => boolean): number[] {
  return [from, ...descendantsOf(tree, from)].filter(test);
}

/**
 * Finds elements with one of WDA's locator strategies, from the node at `from` (document-order
 * index in `root`'s tree). Returns the document-order indexes of the matches.
 *
 * @throws {WdaError} `invalid argument` for an unknown strategy or class name, `invalid selector`
 *   for an XPath or class chain that does not parse, `unknown error` for a predicate that does not
 *   parse or names an unknown attribute, as WDA answers each.
 */
export async function findIndexes(
  page: Page,
  root: SourceNode,
  from: number,
  using: unknown,
  value: unknown,
): Promise<number[]> {
  if (typeof using !== "string" || typeof value !== "string") {
    throw new WdaError(
      "invalid argument",
      `'using' and 'value' must be strings, got ${JSON.stringify(using)} and ` +
        `${JSON.stringify(value)}`,
    );
  }
  const tree = indexTree(root);
  switch (using) {
    case "accessibility id":
    case "id":
    case "name":
      return selfAndDescendants(tree, from, (i) => tree.nodes[i].name === value);
    case "class name": {
      const type = elementType(value);
      return selfAndDescendants(tree, from, (i) => typeMatches(type, tree.nodes[i]));
    }
    case "predicate string": {
      const predicate = predicateOf(value);
      return selfAndDescendants(tree, from, (i) => predicate(subject(tree, i)));
    }
    case "link text":
    case "partial link text": {
      const eq = value.indexOf("=");
      const [key, wanted] = eq < 0 ? ["name", value] : [value.slice(0, eq), value.slice(eq + 1)];
      const op = using === "link text" ? "==" : "CONTAINS";
      const predicate = predicateOf(`${key} ${op} ${JSON.stringify(wanted)}`);
      return selfAndDescendants(tree, from, (i) => predicate(subject(tree, i)));
    }
    case "class chain":
      return matchClassChain(tree, from, parseClassChain(value));
    case "xpath": {
      const query = value.replaceAll(`${PREFIX}Any`, "*");
      const result = await evaluateXPath(page, sourceXml(root), query, from === 0 ? -1 : from);
      if ("indexes" in result) return result.indexes;
      const reason = `Cannot evaluate results for XPath expression "${query}"`;
      if (result.failed === "syntax") {
        throw new WdaError("invalid selector", `${reason}: ${result.detail}`);
      }
      throw new WdaError("unknown error", reason);
    }
    default:
      throw new WdaError("invalid argument", `Invalid locator requested: ${using}`);
  }
}
