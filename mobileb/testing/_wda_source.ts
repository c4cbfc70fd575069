/**
 * The page source of the WDA front (private to `@sdk/mobileb/testing`): the visible elements of the
 * page on screen as an XCUIElementType tree, the shape of WDA's `GET /source` (XML by default,
 * `?format=json` for WDA's JSON tree). Frames are in points.
 *
 * @module
 */

import type { Page } from "playwright-core";

/** One element of the tree. Frames in points. */
export interface SourceNode {
  type: string;
  name: string | null;
  label: string | null;
  value: string | null;
  enabled: boolean;
  rect: { x: number; y: number; width: number; height: number };
  children: SourceNode[];
}

// Runs in the page: its visible elements as XCUIElementType nodes in CSS pixels. An element is
// kept when it is interactive, an image, or carries its own text; other elements only when they
// group two or more kept children, else their children move up.
const COLLECT = `(() => {
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
  const visible = (el, r) => {
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
  const walk = (el) => {
    const kids = [];
    for (const child of el.children) kids.push(...walk(child));
    const r = el.getBoundingClientRect();
    if (!visible(el, r)) return kids;
    const rect = { x: r.left, y: r.top, width: r.width, height: r.height };
    const type = typeOf(el);
    const text = ownText(el);
    const editable = type && /TextField|TextView|SearchField/.test(type);
    if (type) {
      const leaf = type !== "XCUIElementTypeCell" && type !== "XCUIElementTypeTable";
      const label = labelOf(el);
      const value = editable ? (el.value ?? el.textContent ?? "") :
        type === "XCUIElementTypeSwitch" ? (el.checked ? "1" : "0") :
        type === "XCUIElementTypeSlider" ? String(el.value) : null;
      return [{ type, name: el.id || label, label, value: value === "" ? null : value,
        enabled: !el.disabled, rect, children: leaf ? [] : kids }];
    }
    if (text) {
      const node = { type: "XCUIElementTypeStaticText", name: text, label: text, value: text,
        enabled: true, rect, children: [] };
      return kids.length ? [{ type: "XCUIElementTypeOther", name: null, label: null, value: null,
        enabled: true, rect, children: [node, ...kids] }] : [node];
    }
    if (kids.length >= 2) {
      return [{ type: "XCUIElementTypeOther", name: el.id || null, label: null, value: null,
        enabled: true, rect, children: kids }];
    }
    return kids;
  };
  return { width: innerWidth, height: innerHeight, children: walk(document.body) };
})()`;

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
  type Raw = Omit<SourceNode, "children"> & { children: Raw[] };
  const raw = await page.evaluate(COLLECT) as { width: number; height: number; children: Raw[] };
  const round = (n: number) => Math.round(n * pointsPerCss);
  const convert = (node: Raw): SourceNode => ({
    ...node,
    rect: {
      x: round(node.rect.x),
      y: round(node.rect.y),
      width: round(node.rect.width),
      height: round(node.rect.height),
    },
    children: node.children.map(convert),
  });
  const screen = { x: 0, y: 0, width: round(raw.width), height: round(raw.height) };
  return {
    type: "XCUIElementTypeApplication",
    name: appName,
    label: appName,
    value: null,
    enabled: true,
    rect: screen,
    children: [{
      type: "XCUIElementTypeWindow",
      name: null,
      label: null,
      value: null,
      enabled: true,
      rect: screen,
      children: raw.children.map(convert),
    }],
  };
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
      ["visible", "true"],
      ["accessible", String(node.type !== "XCUIElementTypeOther" && node.children.length === 0)],
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
    isVisible: "1",
    type: node.type.replace(/^XCUIElementType/, ""),
    name: node.name,
    label: node.label,
    value: node.value,
    rect: node.rect,
    frame: `{{${node.rect.x}, ${node.rect.y}}, {${node.rect.width}, ${node.rect.height}}}`,
    rawIdentifier: node.name,
    ...(node.children.length ? { children: node.children.map(convert) } : {}),
  });
  return convert(root);
}
