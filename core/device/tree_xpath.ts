/**
 * XPaths over a platform's element tree (spec 4.2 `xpath`, 2.2 the locate cache) for devices that
 * read their tree as nodes with bounds (uiautomator's XML, WebDriverAgent's source, HarmonyOS's
 * layout): the tree is written as an XML document whose elements carry the platform's own names
 * and attributes (`android.widget.Button` with `@resource-id`, `XCUIElementTypeButton` with
 * `@label`, `Button` with `@text`), and the expression is evaluated by the npm `xpath` package
 * (XPath 1.0) over an `@xmldom/xmldom` document. Both are loaded on first use.
 *
 * @module
 */

import { SdkTypeError } from "../errors.ts";
import type { LocatedElement, Point, Rect } from "./types.ts";
import { type TargetTreeNode, treePathAt } from "./target_identity.ts";

type XpathModule = typeof import("xpath");
type XmldomModule = typeof import("@xmldom/xmldom");
let modules: Promise<[XpathModule, XmldomModule]> | undefined;
const load = () => modules ??= Promise.all([import("xpath"), import("@xmldom/xmldom")]);

/** A DOM node as the `xpath` package returns it (the fields read here). */
interface DomNode {
  nodeType: number;
  parentNode: DomNode | null;
  ownerElement?: DomNode | null;
  childNodes: ArrayLike<DomNode>;
}

/** A tree written as a document, and the tree node of each of its elements. */
interface TreeDocument {
  doc: unknown;
  nodeOf: Map<DomNode, TargetTreeNode>;
  select(expression: string): DomNode[];
}

/** `name` as an XML element or attribute name: characters a name cannot hold become `_`. */
function xmlName(name: string): string {
  const n = name.replace(/[^\w.-]/g, "_");
  return /^[A-Za-z_]/.test(n) ? n : `_${n}`;
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/"/g, "&quot;")
    .replace(/\n/g, "&#10;").replace(/\r/g, "&#13;").replace(/\t/g, "&#9;");
}

function tagOf(node: TargetTreeNode): string {
  return xmlName(node.tag ?? node.kind);
}

/** The node's attributes as written: the platform's own, else its id and text. */
function attributesOf(node: TargetTreeNode): Record<string, string> {
  if (node.attributes) return node.attributes;
  return { ...(node.id ? { id: node.id } : {}), ...(node.text ? { text: node.text } : {}) };
}

// Characters XML 1.0 does not allow in a document, dropped from attribute values.
// deno-lint-ignore no-control-regex
const NOT_XML = /[\x00-\x08\x0b\x0c\x0e-\x1f]/g;

function toXml(node: TargetTreeNode): string {
  const attrs = Object.entries(attributesOf(node))
    .map(([k, v]) => ` ${xmlName(k)}="${escapeAttribute(v.replace(NOT_XML, ""))}"`)
    .join("");
  const tag = tagOf(node);
  if (node.children.length === 0) return `<${tag}${attrs}/>`;
  return `<${tag}${attrs}>${node.children.map(toXml).join("")}</${tag}>`;
}

const ELEMENT = 1, ATTRIBUTE = 2;

function elementChildren(node: DomNode): DomNode[] {
  return Array.from(node.childNodes).filter((c) => c.nodeType === ELEMENT);
}

async function treeDocument(root: TargetTreeNode): Promise<TreeDocument> {
  const [xpath, { DOMParser }] = await load();
  const doc = new DOMParser().parseFromString(toXml(root), "text/xml");
  const nodeOf = new Map<DomNode, TargetTreeNode>();
  const pair = (dom: DomNode, node: TargetTreeNode) => {
    nodeOf.set(dom, node);
    const children = elementChildren(dom);
    node.children.forEach((child, i) => children[i] && pair(children[i], child));
  };
  const top = elementChildren(doc as unknown as DomNode)[0];
  if (top) pair(top, root);
  const select = (expression: string): DomNode[] => {
    let result: unknown;
    try {
      result = xpath.select(expression, doc as unknown as Node);
    } catch (e) {
      throw new SdkTypeError(
        `Invalid xpath ${JSON.stringify(expression)}: ${e instanceof Error ? e.message : e}`,
      );
    }
    if (!Array.isArray(result)) {
      throw new SdkTypeError(
        `Invalid xpath ${JSON.stringify(expression)}: it selects a ${typeof result}, not elements`,
      );
    }
    return result as DomNode[];
  };
  return { doc, nodeOf, select };
}

/** The element a selected node stands for: itself, an attribute's owner, a text's parent. */
function elementOf(node: DomNode): DomNode | null | undefined {
  if (node.nodeType === ELEMENT) return node;
  if (node.nodeType === ATTRIBUTE) return node.ownerElement;
  return node.parentNode;
}

/** The part of `box` inside `screen`, or `undefined` when none is. */
function visiblePart(box: Rect, screen: Rect): Rect | undefined {
  const left = Math.max(box.left, screen.left);
  const top = Math.max(box.top, screen.top);
  const right = Math.min(box.left + box.width, screen.left + screen.width);
  const bottom = Math.min(box.top + box.height, screen.top + screen.height);
  if (right <= left || bottom <= top) return undefined;
  return { left, top, width: right - left, height: bottom - top };
}

/**
 * The first element `xpath` selects in `root`'s tree whose box has a part on the screen (the
 * root's box), as a located element in the tree's logical pixels: the box, and the middle of its
 * visible part. A selected attribute or text stands for its element. `undefined` when none does.
 *
 * @throws {SdkTypeError} naming the expression when it is not valid XPath 1.0 or selects no
 * nodes (a number, a string).
 */
export async function locateInTree(
  root: TargetTreeNode,
  xpath: string,
): Promise<LocatedElement | undefined> {
  const tree = await treeDocument(root);
  for (const selected of tree.select(xpath)) {
    const element = elementOf(selected);
    const node = element ? tree.nodeOf.get(element) : undefined;
    if (!node || node === root) continue;
    const part = visiblePart(node.box, root.box);
    if (!part) continue;
    return {
      description: `xpath ${xpath}`,
      rect: { ...node.box },
      center: [Math.round(part.left + part.width / 2), Math.round(part.top + part.height / 2)],
    };
  }
  return undefined;
}

/** `value` as an XPath 1.0 string literal, or `undefined` when it holds both quotes. */
function literal(value: string): string | undefined {
  if (!value.includes('"')) return `"${value}"`;
  if (!value.includes("'")) return `'${value}'`;
  return undefined;
}

/**
 * Attributes that name an element the same from run to run, preferred in this order over others
 * of the same value (a field's `value` is what was typed, and changes).
 */
const STABLE_ATTRIBUTES = ["resource-id", "id", "key", "name", "content-desc", "label", "text"];

/** The name of the attribute of `node` whose value is `value`, stable ones first. */
function attributeWith(node: TargetTreeNode, value: string | undefined): string | undefined {
  if (!value) return undefined;
  const attributes = attributesOf(node);
  const found = STABLE_ATTRIBUTES.find((name) => attributes[name] === value) ??
    Object.keys(attributes).find((name) => attributes[name] === value);
  return found && xmlName(found);
}

/**
 * XPaths that select the element at `point` (logical pixels) of `root`'s tree and nothing else,
 * best first: by its id attribute (`//*[@resource-id="..."]`), by its tag and name
 * (`//android.widget.Button[@text="Save"]`), by both, and by its position from the root
 * (`/hierarchy/android.widget.FrameLayout[1]/...`). Only expressions that select exactly this
 * element are given; `[]` when no element but the root is at the point. The id and name
 * survive a move of the element (a row added above it), the position does not; the locate
 * cache checks the element's identity after any of them.
 */
export async function xpathsInTree(root: TargetTreeNode, point: Point): Promise<string[]> {
  const path = treePathAt(root, point);
  if (path.length === 1) return [];
  const target = path[path.length - 1];
  const tree = await treeDocument(root);
  const element = [...tree.nodeOf].find(([, n]) => n === target)?.[0];
  if (!element) return [];
  const tag = tagOf(target);
  const idName = attributeWith(target, target.id);
  const textName = attributeWith(target, target.text);
  const id = idName && target.id && literal(target.id);
  const text = textName && target.text && literal(target.text);
  const selectsIt = (candidate: string) => {
    const selected = tree.select(candidate);
    return selected.length === 1 && elementOf(selected[0]) === element;
  };
  const found: string[] = [];
  if (id && selectsIt(`//*[@${idName}=${id}]`)) found.push(`//*[@${idName}=${id}]`);
  if (text && selectsIt(`//${tag}[@${textName}=${text}]`)) {
    found.push(`//${tag}[@${textName}=${text}]`);
  }
  // Both together, when neither alone tells the element apart (a list's rows share their ids).
  const both = `//${tag}[@${idName}=${id}][@${textName}=${text}]`;
  if (id && text && found.length === 0 && selectsIt(both)) found.push(both);
  const segments = path.map((node, i) => {
    if (i === 0) return tagOf(node);
    const siblings = path[i - 1].children.filter((c) => tagOf(c) === tagOf(node));
    return `${tagOf(node)}[${siblings.indexOf(node) + 1}]`;
  });
  const position = `/${segments.join("/")}`;
  if (selectsIt(position)) found.push(position);
  return found;
}
