/**
 * Reading the element trees phones print (docs/model-protocol.md, "Target checks"): a small XML
 * reader for `uiautomator dump` and WebDriverAgent's `/source` (elements and attributes only:
 * text between tags, comments, processing instructions and doctypes are skipped), and the
 * `[left,top][right,bottom]` bounds that uiautomator and HarmonyOS's uitest write.
 *
 * @module
 */

import type { Rect } from "./types.ts";

/** One XML element: its name, its attributes (entities decoded) and its child elements. */
export interface XmlElement {
  /** The tag name. */
  name: string;
  /** Attribute values by name, entities decoded. */
  attributes: Record<string, string>;
  /** Child elements, in document order. */
  children: XmlElement[];
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

/** `text` with XML's entities and character references decoded (an unknown one is kept). */
export function decodeXmlText(text: string): string {
  return text.replace(/&(#x[\da-f]+|#\d+|[a-z]+);/gi, (whole, ref: string) => {
    if (ref[0] !== "#") return ENTITIES[ref] ?? whole;
    const code = ref[1] === "x" || ref[1] === "X"
      ? Number.parseInt(ref.slice(2), 16)
      : Number(ref.slice(1));
    return code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}

const ATTRIBUTE = /([^\s=/>]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;

/**
 * The root element of an XML document, or `undefined` when `xml` holds no element. Lenient: text
 * before the document (a command's message) is skipped, an end tag closes the innermost open
 * element of its name, and elements left open at the end are closed.
 */
export function readXmlTree(xml: string): XmlElement | undefined {
  const top: XmlElement = { name: "", attributes: {}, children: [] };
  const open: XmlElement[] = [top];
  const tags = /<(!--[\s\S]*?--|![^>]*|\?[\s\S]*?\?|\/?[^\s/>!?]+)((?:[^>"']|"[^"]*"|'[^']*')*)>/g;
  for (const [, head, rest] of xml.matchAll(tags)) {
    if (head[0] === "!" || head[0] === "?") continue;
    if (head[0] === "/") {
      const at = open.findLastIndex((e, i) => i > 0 && e.name === head.slice(1));
      if (at > 0) open.length = at;
      continue;
    }
    const attributes: Record<string, string> = {};
    for (const [, name, double, single] of rest.matchAll(ATTRIBUTE)) {
      attributes[name] = decodeXmlText(double ?? single ?? "");
    }
    const element: XmlElement = { name: head, attributes, children: [] };
    open[open.length - 1].children.push(element);
    if (!rest.trimEnd().endsWith("/")) open.push(element);
  }
  return top.children[0];
}

/**
 * A `[left,top][right,bottom]` bounds text (physical pixels) as a rectangle divided by `ratio`
 * (physical pixels per logical pixel), or `undefined` when the text is not one.
 */
export function readBoundsText(bounds: string | undefined, ratio: number): Rect | undefined {
  const m = /^\s*\[(-?[\d.]+),(-?[\d.]+)\]\[(-?[\d.]+),(-?[\d.]+)\]\s*$/.exec(bounds ?? "");
  if (!m) return undefined;
  const [left, top, right, bottom] = m.slice(1).map((v) => Number(v) / ratio);
  return { left, top, width: Math.max(0, right - left), height: Math.max(0, bottom - top) };
}
