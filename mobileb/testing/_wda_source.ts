/**
 * The page source of the WDA front (private to `@sdk/mobileb/testing`): the visible elements of the
 * page on screen as an XCUIElementType tree, the shape of WDA's `GET /source` (XML by default,
 * `?format=json` for WDA's JSON tree), and the element references that finding hands out. Frames
 * are in points.
 *
 * A small library runs in the page ({@link PAGE_LIBRARY}): it walks the DOM into nodes and keeps a
 * reference (`ref`) to the DOM element behind each node, so an element found once can be looked
 * up again later, live, as XCUITest resolves an element again for each command.
 *
 * @module
 */

import type { Page } from "playwright-core";

/** A frame in points (or CSS pixels inside the page). */
export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** One element of the tree. Frames in points. */
export interface SourceNode {
  /** `XCUIElementType...`. */
  type: string;
  /** WDA's `name`: the accessibility identifier, else the label. */
  name: string | null;
  label: string | null;
  value: string | null;
  /** The accessibility identifier (the DOM element's `id`), if any. */
  identifier: string | null;
  enabled: boolean;
  /** Drawn on screen (a node of the tree always is; a looked-up element may not be). */
  visible: boolean;
  selected: boolean;
  /** Has the keyboard focus. */
  focused: boolean;
  /** A text field's placeholder. */
  placeholder: string | null;
  rect: Rect;
  /** The page's reference of the DOM element behind the node; `application` and `window` for the top two. */
  ref: string;
  children: SourceNode[];
}

/** The reference of the Application node, and of the Window node. */
export const APPLICATION_REF = "application";
/** The reference of the Window node. */
export const WINDOW_REF = "window";

// The library, as an expression that evaluates to it (installed once per document). An element is
// kept in the tree when it is interactive, an image, or carries its own text; other elements only
// when they group two or more kept children, else their children move up. A text element with
// kept children becomes an Other (ref "N:group") holding its StaticText (ref "N") and them.
const PAGE_LIBRARY = `(() => {
  const KEY = Symbol.for("sdk.simulator.wda");
  if (globalThis[KEY]) return globalThis[KEY];
  const elements = [];
  const ids = new WeakMap();
  const refOf = (el) => {
    let i = ids.get(el);
    if (i === undefined) {
      i = elements.length;
      elements.push(el);
      ids.set(el, i);
    }
    return String(i);
  };
  const typeOf = (el) => {
    const tag = el.tagName.toLowerCase();
    const role = el.getAttribute("role");
    if (tag === "button" || role === "button" || (tag === "input" && /^(button|submit|reset)$/i.test(el.type))) return "XCUIElementTypeButton";
    if (tag === "a" && el.hasAttribute("href")) return "XCUIElementTypeLink";
    if (tag === "input" && el.type === "password") return "XCUIElementTypeSecureTextField";
    if (tag === "input" && /^(checkbox|radio)$/i.test(el.type)) return "XCUIElementTypeSwitch";
    if (tag === "input" && el.type === "range") return "XCUIElementTypeSlider";
    if (tag === "input" && el.type === "search") return "XCUIElementTypeSearchField";
    if (tag === "input") return "XCUIElementTypeTextField";
    if (tag === "textarea" || el.isContentEditable) return "XCUIElementTypeTextView";
    if (tag === "img" || tag === "svg" || tag === "canvas") return "XCUIElementTypeImage";
    if (tag === "li") return "XCUIElementTypeCell";
    if (tag === "ul" || tag === "ol") return "XCUIElementTypeTable";
    if (tag === "select") return "XCUIElementTypePopUpButton";
    return null;
  };
  const ownText = (el) => [...el.childNodes].filter((n) => n.nodeType === 3)
    .map((n) => n.textContent).join(" ").replace(/\\s+/g, " ").trim();
  const shown = (el, r) => {
    if (r.width <= 0 || r.height <= 0) return false;
    if (r.bottom <= 0 || r.right <= 0 || r.top >= innerHeight || r.left >= innerWidth) return false;
    const style = getComputedStyle(el);
    return style.visibility !== "hidden" && style.display !== "none" && Number(style.opacity) !== 0;
  };
  const labelOf = (el) => {
    const aria = el.getAttribute("aria-label");
    if (aria) return aria.trim();
    if (el.labels && el.labels[0]) return el.labels[0].textContent.trim();
    if (el.alt) return el.alt;
    if (el.placeholder) return el.placeholder;
    const text = (el.innerText || el.textContent || "").replace(/\\s+/g, " ").trim();
    return text || null;
  };
  const describe = (el, kind) => {
    const r = el.getBoundingClientRect();
    const group = kind === "group";
    const node = {
      ref: group ? refOf(el) + ":group" : refOf(el),
      type: "XCUIElementTypeOther", name: null, label: null, value: null, identifier: null,
      enabled: true, visible: shown(el, r), selected: false,
      focused: !group && document.activeElement === el, placeholder: null,
      rect: { x: r.left, y: r.top, width: r.width, height: r.height }, children: [],
    };
    const type = group ? null : typeOf(el);
    if (type) {
      const label = labelOf(el);
      const value = /TextField|TextView|SearchField/.test(type) ? (el.value ?? el.textContent ?? "") :
        type === "XCUIElementTypeSwitch" ? (el.checked ? "1" : "0") :
        type === "XCUIElementTypeSlider" ? String(el.value) : null;
      return { ...node, type, identifier: el.id || null, name: el.id || label, label,
        value: value === "" ? null : value, enabled: !el.disabled,
        selected: el.selected === true || el.getAttribute("aria-selected") === "true",
        placeholder: el.placeholder || null };
    }
    const text = group ? "" : ownText(el);
    if (text) return { ...node, type: "XCUIElementTypeStaticText", name: text, label: text, value: text };
    return group ? node : { ...node, identifier: el.id || null, name: el.id || null };
  };
  const walk = (el) => {
    const kids = [];
    for (const child of el.children) kids.push(...walk(child));
    if (!shown(el, el.getBoundingClientRect())) return kids;
    const type = typeOf(el);
    if (type) {
      const node = describe(el, "element");
      if (type === "XCUIElementTypeCell" || type === "XCUIElementTypeTable") node.children = kids;
      return [node];
    }
    if (ownText(el)) {
      const node = describe(el, "element");
      if (!kids.length) return [node];
      return [{ ...describe(el, "group"), children: [node, ...kids] }];
    }
    if (kids.length >= 2) return [{ ...describe(el, "element"), children: kids }];
    return kids;
  };
  return globalThis[KEY] = {
    collect: () => ({ width: innerWidth, height: innerHeight, children: document.body ? walk(document.body) : [] }),
    // An element that is not rendered (detached, display: none, visibility: hidden) is out of
    // the accessibility tree: gone. One that is rendered off screen is there, not visible.
    lookup: (ref) => {
      const [index, kind] = ref.split(":");
      const el = elements[Number(index)];
      if (!el || !el.isConnected || !el.getClientRects().length) return null;
      return getComputedStyle(el).visibility === "hidden" ? null : describe(el, kind);
    },
    focused: () => document.activeElement && document.activeElement !== document.body
      ? refOf(document.activeElement) : null,
  };
})()`;

const round = (n: number, scale: number) => Math.round(n * scale);

function toPoints(node: SourceNode, pointsPerCss: number): SourceNode {
  return {
    ...node,
    rect: {
      x: round(node.rect.x, pointsPerCss),
      y: round(node.rect.y, pointsPerCss),
      width: round(node.rect.width, pointsPerCss),
      height: round(node.rect.height, pointsPerCss),
    },
    children: node.children.map((child) => toPoints(child, pointsPerCss)),
  };
}

function topNode(type: string, ref: string, name: string | null, rect: Rect): SourceNode {
  return {
    type,
    name,
    label: name,
    value: null,
    identifier: null,
    enabled: true,
    visible: true,
    selected: false,
    focused: false,
    placeholder: null,
    rect,
    ref,
    children: [],
  };
}

/**
 * The tree of the page on screen: an `XCUIElementTypeApplication` named `appName` holding an
 * `XCUIElementTypeWindow` of the whole screen, then the page's visible elements.
 *
 * @param pointsPerCss points per CSS pixel of the page (`density / scale`).
 */
export async function pageSource(
  page: Page,
  appName: string,
  pointsPerCss: number,
): Promise<SourceNode> {
  const raw = await page.evaluate(`${PAGE_LIBRARY}.collect()`) as {
    width: number;
    height: number;
    children: SourceNode[];
  };
  const screen = {
    x: 0,
    y: 0,
    width: round(raw.width, pointsPerCss),
    height: round(raw.height, pointsPerCss),
  };
  const window = topNode("XCUIElementTypeWindow", WINDOW_REF, null, screen);
  window.children = raw.children.map((node) => toPoints(node, pointsPerCss));
  const application = topNode("XCUIElementTypeApplication", APPLICATION_REF, appName, screen);
  application.children = [window];
  return application;
}

/**
 * One element of the page by its reference, live, without children (`visible` false when it is
 * rendered off screen); undefined when it is gone: removed, not rendered (`display: none`,
 * `visibility: hidden`), or the page navigated.
 */
export async function lookupNode(
  page: Page,
  ref: string,
  pointsPerCss: number,
): Promise<SourceNode | undefined> {
  const node = await page.evaluate(`${PAGE_LIBRARY}.lookup(${JSON.stringify(ref)})`) as
    | SourceNode
    | null;
  return node ? toPoints(node, pointsPerCss) : undefined;
}

/** The reference of the page's focused element; undefined when nothing has the focus. */
export async function focusedRef(page: Page): Promise<string | undefined> {
  return (await page.evaluate(`${PAGE_LIBRARY}.focused()`) as string | null) ?? undefined;
}

/** Every node of a tree in document order (the order of the XML source), the root first. */
export function flatten(root: SourceNode): SourceNode[] {
  const all: SourceNode[] = [];
  const visit = (node: SourceNode) => {
    all.push(node);
    node.children.forEach(visit);
  };
  visit(root);
  return all;
}

/** Whether WDA reports a node accessible: a leaf that is not an Other. */
export function isAccessible(node: SourceNode): boolean {
  return node.type !== "XCUIElementTypeOther" && node.children.length === 0;
}

const escapeXml = (text: string) => text.replace(/[&<>"'\n]/g, (c) => `&#${c.charCodeAt(0)};`);

/** The tree as WDA's XML source. */
export function sourceXml(root: SourceNode): string {
  const element = (node: SourceNode, index: number, indent: string): string => {
    const attributes: [string, string | null][] = [
      ["type", node.type],
      ["value", node.value],
      ["name", node.name],
      ["label", node.label],
      ["enabled", String(node.enabled)],
      ["visible", String(node.visible)],
      ["accessible", String(isAccessible(node))],
      ["x", String(node.rect.x)],
      ["y", String(node.rect.y)],
      ["width", String(node.rect.width)],
      ["height", String(node.rect.height)],
      ["index", String(index)],
    ];
    const attrs = attributes.filter(([, v]) => v !== null).map(([k, v]) =>
      `${k}="${escapeXml(v!)}"`
    ).join(" ");
    if (!node.children.length) return `${indent}<${node.type} ${attrs}/>\n`;
    return `${indent}<${node.type} ${attrs}>\n` +
      node.children.map((child, i) => element(child, i, indent + "  ")).join("") +
      `${indent}</${node.type}>\n`;
  };
  return `<?xml version="1.0" encoding="UTF-8"?>\n${element(root, 0, "")}`;
}

/** The tree as WDA's JSON source (`?format=json`). */
export function sourceJson(root: SourceNode): unknown {
  const convert = (node: SourceNode): Record<string, unknown> => ({
    isEnabled: node.enabled ? "1" : "0",
    isVisible: node.visible ? "1" : "0",
    isAccessible: isAccessible(node) ? "1" : "0",
    type: node.type.replace(/^XCUIElementType/, ""),
    name: node.name,
    label: node.label,
    value: node.value,
    rect: node.rect,
    frame: `{{${node.rect.x}, ${node.rect.y}}, {${node.rect.width}, ${node.rect.height}}}`,
    rawIdentifier: node.identifier,
    ...(node.children.length ? { children: node.children.map(convert) } : {}),
  });
  return convert(root);
}

/**
 * Runs an XPath 1.0 query over the XML source in the page (the browser's XPath engine), with
 * `contextIndex` (the document-order index of a node; -1: the document) as the context node.
 * Returns the
 * document-order indexes of the element nodes it selects, or what failed: `syntax` for a query
 * that does not parse, `nodes` for a result that holds other nodes than elements.
 */
export async function evaluateXPath(
  page: Page,
  xml: string,
  query: string,
  contextIndex: number,
): Promise<{ indexes: number[] } | { failed: "syntax" | "nodes"; detail: string }> {
  const script = `((xml, query, contextIndex) => {
    const doc = new DOMParser().parseFromString(xml, "application/xml");
    const all = [...doc.getElementsByTagName("*")];
    let result;
    try {
      const context = contextIndex < 0 ? doc : all[contextIndex];
      result = doc.evaluate(query, context, null, XPathResult.ANY_TYPE, null);
    } catch (error) {
      return { failed: "syntax", detail: String(error && error.message || error) };
    }
    const types = [XPathResult.UNORDERED_NODE_ITERATOR_TYPE, XPathResult.ORDERED_NODE_ITERATOR_TYPE];
    if (!types.includes(result.resultType)) return { indexes: [] };
    const indexes = [];
    for (let node = result.iterateNext(); node; node = result.iterateNext()) {
      if (node.nodeType !== 1) return { failed: "nodes", detail: node.nodeName };
      indexes.push(all.indexOf(node));
    }
    return { indexes: indexes.sort((a, b) => a - b) };
  })(${JSON.stringify(xml)}, ${JSON.stringify(query)}, ${contextIndex})`;
  return await page.evaluate(script) as
    | { indexes: number[] }
    | { failed: "syntax" | "nodes"; detail: string };
}
