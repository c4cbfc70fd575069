/**
 * `uitest dumpLayout` of the hdc front (private to `@sdk/mobilec/testing`): the page on screen as
 * the component tree HarmonyOS's uitest writes, in its JSON shape and field names (`attributes`
 * with string values, `children`; `bounds` as `[left,top][right,bottom]` in physical pixels): a
 * root of the whole screen holding the window's `root` node (with `bundleName`, `abilityName` and
 * `pagePath`), then one node per drawn element of the page.
 *
 * Element types are ArkUI's component names for what the element is: `Button`, `Hyperlink`,
 * `TextInput`, `TextArea`, `Search`, `Checkbox`, `Radio`, `Slider`, `Select`, `Image`, `List`,
 * `ListItem`, `Text` (an element with its own text), `Scroll` (an element that scrolls), and
 * `Row` / `Column` (flex rows, other containers).
 *
 * @module
 */

import type { VirtualPhone } from "@sdk/web/testing";

/** One node of the layout: HarmonyOS's attribute names, every value a string. */
export interface LayoutNode {
  attributes: Record<string, string>;
  children: LayoutNode[];
}

// Runs in the page: the drawn elements of the body as nodes, bounds in CSS pixels.
const COLLECT = `(() => {
  const typeOf = (el, style) => {
    const tag = el.tagName.toLowerCase();
    const type = (el.getAttribute("type") || "").toLowerCase();
    if (tag === "button" || el.getAttribute("role") === "button" ||
      (tag === "input" && /^(button|submit|reset)$/.test(type))) return "Button";
    if (tag === "a" && el.hasAttribute("href")) return "Hyperlink";
    if (tag === "input" && type === "checkbox") return "Checkbox";
    if (tag === "input" && type === "radio") return "Radio";
    if (tag === "input" && type === "range") return "Slider";
    if (tag === "input" && type === "search") return "Search";
    if (tag === "input") return "TextInput";
    if (tag === "textarea" || el.isContentEditable) return "TextArea";
    if (tag === "select") return "Select";
    if (tag === "img" || tag === "svg" || tag === "canvas") return "Image";
    if (tag === "ul" || tag === "ol") return "List";
    if (tag === "li") return "ListItem";
    const scrolls = /(auto|scroll)/.test(style.overflowY + style.overflowX) &&
      (el.scrollHeight > el.clientHeight || el.scrollWidth > el.clientWidth);
    if (scrolls) return "Scroll";
    if (ownText(el)) return "Text";
    return style.display.includes("flex") && !style.flexDirection.startsWith("column")
      ? "Row" : "Column";
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
    const type = typeOf(el, style);
    const editable = type === "TextInput" || type === "TextArea" || type === "Search";
    const checkable = type === "Checkbox" || type === "Radio";
    const interactive = ["Button", "Hyperlink", "Checkbox", "Radio", "Slider", "Select"].includes(type) ||
      editable || style.cursor === "pointer" || typeof el.onclick === "function";
    return [{
      type,
      rect: { left: r.left, top: r.top, right: r.right, bottom: r.bottom },
      text: editable ? String(el.value ?? el.textContent ?? "") : ["Button", "Hyperlink"].includes(type)
        ? (el.innerText || el.textContent || "").replace(/\\s+/g, " ").trim() : ownText(el),
      id: el.id || "",
      description: el.getAttribute("aria-label") || el.getAttribute("alt") || "",
      hint: el.getAttribute("placeholder") || "",
      checkable, checked: checkable && el.checked === true,
      clickable: interactive, enabled: !el.disabled,
      focused: document.activeElement === el,
      scrollable: type === "Scroll" || type === "List" && el.scrollHeight > el.clientHeight,
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

interface RawNode {
  type: string;
  rect: { left: number; top: number; right: number; bottom: number };
  text: string;
  id: string;
  description: string;
  hint: string;
  checkable: boolean;
  checked: boolean;
  clickable: boolean;
  enabled: boolean;
  focused: boolean;
  scrollable: boolean;
  selected: boolean;
  opacity: number;
  backgroundColor: string;
  zIndex: number;
  children: RawNode[];
}

/** The window id uitest reports for the app on screen (a fixed number: there is one window). */
const WINDOW_ID = "1";

const bounds = (l: number, t: number, r: number, b: number) => `[${l},${t}][${r},${b}]`;

/** The attributes of the top node, all empty but its bounds (uitest's screen root). */
const TOP_KEYS = [
  "accessibilityId",
  "backgroundColor",
  "backgroundImage",
  "blur",
  "bounds",
  "checkable",
  "checked",
  "clickable",
  "description",
  "enabled",
  "focused",
  "hitTestBehavior",
  "hostWindowId",
  "id",
  "key",
  "longClickable",
  "opacity",
  "origBounds",
  "scrollable",
  "selected",
  "text",
  "type",
  "zIndex",
];

/**
 * The layout of the page on screen, as `uitest dumpLayout` writes it. The window's `root` node
 * names the app in front (`bundleName`), its ability (the phone's activity, without its package)
 * and the page (`pagePath`: the URL's path and hash).
 */
export async function dumpLayout(phone: VirtualPhone): Promise<LayoutNode> {
  const { packageName, activity } = phone.foregroundApp();
  const raw = await phone.foregroundPage().evaluate(COLLECT) as {
    width: number;
    height: number;
    location: string;
    children: RawNode[];
  };
  const px = (n: number) => Math.round(n * phone.density);
  const screen = bounds(0, 0, phone.width, phone.height);
  let next = 0;
  const convert = (node: RawNode, hierarchy: string): LayoutNode => {
    const id = String(++next);
    const clipped = bounds(
      Math.max(0, px(node.rect.left)),
      Math.max(0, px(node.rect.top)),
      Math.min(phone.width, px(node.rect.right)),
      Math.min(phone.height, px(node.rect.bottom)),
    );
    return {
      attributes: {
        accessibilityId: id,
        backgroundColor: node.backgroundColor,
        backgroundImage: "empty source",
        blur: "",
        bounds: clipped,
        checkable: String(node.checkable),
        checked: String(node.checked),
        clickable: String(node.clickable),
        description: node.description,
        enabled: String(node.enabled),
        focused: String(node.focused),
        hashcode: `${WINDOW_ID}:${id}`,
        hierarchy,
        hint: node.hint,
        hitTestBehavior: "HitTestMode.Default",
        hostWindowId: WINDOW_ID,
        id: node.id,
        key: node.id,
        longClickable: String(node.clickable),
        opacity: node.opacity.toFixed(6),
        origBounds: bounds(
          px(node.rect.left),
          px(node.rect.top),
          px(node.rect.right),
          px(node.rect.bottom),
        ),
        scrollable: String(node.scrollable),
        selected: String(node.selected),
        text: node.text,
        type: node.type,
        visible: "true",
        zIndex: String(node.zIndex),
      },
      children: node.children.map((child, i) => convert(child, `${hierarchy},${i}`)),
    };
  };
  const root = `ROOT${WINDOW_ID}`;
  const windowRoot: LayoutNode = {
    attributes: {
      abilityName: activity.slice(activity.lastIndexOf(".") + 1),
      accessibilityId: "0",
      bounds: screen,
      bundleName: packageName,
      checkable: "false",
      checked: "false",
      clickable: "false",
      description: "",
      enabled: "true",
      focused: "true",
      hashcode: `${WINDOW_ID}:0`,
      hierarchy: root,
      hint: "",
      hostWindowId: WINDOW_ID,
      id: "",
      key: "",
      longClickable: "false",
      origBounds: screen,
      pagePath: raw.location.replace(/^\//, ""),
      scrollable: "false",
      selected: "false",
      text: "",
      type: "root",
      visible: "true",
      zIndex: "0",
    },
    children: raw.children.map((child, i) => convert(child, `${root},${i}`)),
  };
  const empty = Object.fromEntries(TOP_KEYS.map((k) => [k, ""]));
  return { attributes: { ...empty, bounds: screen }, children: [windowRoot] };
}
