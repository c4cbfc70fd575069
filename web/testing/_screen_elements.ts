/**
 * The drawn elements of the page on the virtual phone's screen, as the fronts' element trees are
 * built from them (the hdc front's `uitest dumpLayout`, the adb front's `uiautomator dump`): one
 * node per drawn element of the body, with what kind of control it is, its box in CSS pixels and
 * the state a platform's tree reports. Each front names the kinds in its platform's words.
 *
 * @module
 */

import type { VirtualPhone } from "./virtual_phone.ts";

/**
 * What a drawn element is, as the fronts tell controls apart: an interactive control
 * (`button`, `link`, `checkbox`, `radio`, `slider`, `select`), a text field (`textInput`,
 * `textArea`, `search`), an `image`, a `list` (`ul`, `ol`) and its `listItem`s, an element that
 * scrolls (`scroll`), one with its own text (`text`), and other containers: `row` (a flex row)
 * or `column`.
 */
export type ScreenElementKind =
  | "button"
  | "link"
  | "checkbox"
  | "radio"
  | "slider"
  | "search"
  | "textInput"
  | "textArea"
  | "select"
  | "image"
  | "list"
  | "listItem"
  | "scroll"
  | "text"
  | "row"
  | "column";

/** One drawn element of the page. Boxes in CSS pixels of the page's viewport. */
export interface ScreenElement {
  /** What it is. */
  kind: ScreenElementKind;
  /** Its box, CSS pixels (not clipped to the viewport). */
  rect: { left: number; top: number; right: number; bottom: number };
  /**
   * A text field's value; a button's or link's whole text; any other element's own text (its
   * text nodes, not its children's).
   */
  text: string;
  /** The DOM id; `""` without one. */
  id: string;
  /** `aria-label`, else `alt`; `""` without one. */
  description: string;
  /** A text field's `placeholder`; `""` without one. */
  hint: string;
  /** A password field. */
  password: boolean;
  /** A checkbox or radio button. */
  checkable: boolean;
  /** A checkable that is checked. */
  checked: boolean;
  /** Interactive: a control, a text field, `cursor: pointer` or an `onclick` handler. */
  clickable: boolean;
  /** Not `disabled`. */
  enabled: boolean;
  /** Has the keyboard focus. */
  focused: boolean;
  /** Scrolls (`scroll`, or a `list` taller than its box). */
  scrollable: boolean;
  /** `aria-selected` or a selected option. */
  selected: boolean;
  /** CSS opacity. */
  opacity: number;
  /** The background color as `#AARRGGBB`. */
  backgroundColor: string;
  /** CSS `z-index` (0 when `auto`). */
  zIndex: number;
  /** Drawn child elements, in document order. */
  children: ScreenElement[];
}

/** The page on screen: its viewport in CSS pixels, its path and hash, and its drawn elements. */
export interface ScreenElements {
  /** The viewport's width, CSS pixels. */
  width: number;
  /** The viewport's height, CSS pixels. */
  height: number;
  /** The page URL's path and hash (`/notes/index.html#/note/3`). */
  location: string;
  /** The body's drawn elements. */
  children: ScreenElement[];
}

// Runs in the page: the drawn elements of the body, boxes in CSS pixels.
const COLLECT = `(() => {
  const kindOf = (el, style) => {
    const tag = el.tagName.toLowerCase();
    const type = (el.getAttribute("type") || "").toLowerCase();
    if (tag === "button" || el.getAttribute("role") === "button" ||
      (tag === "input" && /^(button|submit|reset)$/.test(type))) return "button";
    if (tag === "a" && el.hasAttribute("href")) return "link";
    if (tag === "input" && type === "checkbox") return "checkbox";
    if (tag === "input" && type === "radio") return "radio";
    if (tag === "input" && type === "range") return "slider";
    if (tag === "input" && type === "search") return "search";
    if (tag === "input") return "textInput";
    if (tag === "textarea" || el.isContentEditable) return "textArea";
    if (tag === "select") return "select";
    if (tag === "img" || tag === "svg" || tag === "canvas") return "image";
    if (tag === "ul" || tag === "ol") return "list";
    if (tag === "li") return "listItem";
    const scrolls = /(auto|scroll)/.test(style.overflowY + style.overflowX) &&
      (el.scrollHeight > el.clientHeight || el.scrollWidth > el.clientWidth);
    if (scrolls) return "scroll";
    if (ownText(el)) return "text";
    return style.display.includes("flex") && !style.flexDirection.startsWith("column")
      ? "row" : "column";
  };
  const ownText = (el) => [...el.childNodes].filter((n) => n.nodeType === 3)
    .map((n) => n.textContent).join(" ").replace(/\\s+/g, " ").trim();
  const color = (css) => {
    const m = /rgba?\\(([\\d.]+),\\s*([\\d.]+),\\s*([\\d.]+)(?:,\\s*([\\d.]+))?\\)/.exec(css);
    if (!m) return "#00000000";
    const hex = (n) => Math.round(Number(n)).toString(16).padStart(2, "0").toUpperCase();
    return "#" + hex(m[4] === undefined ? 255 : Number(m[4]) * 255) + hex(m[1]) + hex(m[2]) + hex(m[3]);
  };
  const SKIP = new Set(["script", "style", "noscript", "template", "head", "meta", "link", "title"]);
  const walk = (el) => {
    if (SKIP.has(el.tagName.toLowerCase())) return [];
    const style = getComputedStyle(el);
    if (style.display === "none") return [];
    const children = [];
    for (const child of el.children) children.push(...walk(child));
    const r = el.getBoundingClientRect();
    if (style.visibility === "hidden" || r.width <= 0 || r.height <= 0) return children;
    const kind = kindOf(el, style);
    const editable = kind === "textInput" || kind === "textArea" || kind === "search";
    const checkable = kind === "checkbox" || kind === "radio";
    const interactive = ["button", "link", "checkbox", "radio", "slider", "select"].includes(kind) ||
      editable || style.cursor === "pointer" || typeof el.onclick === "function";
    return [{
      kind,
      rect: { left: r.left, top: r.top, right: r.right, bottom: r.bottom },
      text: editable ? String(el.value ?? el.textContent ?? "") : ["button", "link"].includes(kind)
        ? (el.innerText || el.textContent || "").replace(/\\s+/g, " ").trim() : ownText(el),
      id: el.id || "",
      description: el.getAttribute("aria-label") || el.getAttribute("alt") || "",
      hint: el.getAttribute("placeholder") || "",
      password: el.tagName.toLowerCase() === "input" && el.type === "password",
      checkable, checked: checkable && el.checked === true,
      clickable: interactive, enabled: !el.disabled,
      focused: document.activeElement === el,
      scrollable: kind === "scroll" || kind === "list" && el.scrollHeight > el.clientHeight,
      selected: el.getAttribute("aria-selected") === "true" || el.selected === true,
      opacity: Number(style.opacity),
      backgroundColor: color(style.backgroundColor),
      zIndex: Number.parseInt(style.zIndex) || 0,
      children,
    }];
  };
  const body = document.body;
  return { width: innerWidth, height: innerHeight, location: location.pathname + location.hash,
    children: body ? walk(body) : [] };
})()`;

/**
 * The drawn elements of the page on the phone's screen now (the foreground app's page, or the
 * launcher's): every element of the body that is rendered with a size, in document order, an
 * element without a box (`display: contents`, empty) replaced by its children. Boxes are CSS
 * pixels of the viewport; elements scrolled out of view are included, with boxes outside it.
 */
export async function readScreenElements(phone: VirtualPhone): Promise<ScreenElements> {
  return await phone.foregroundPage().evaluate(COLLECT) as ScreenElements;
}
