/**
 * The page script behind `WebPageDevice.getElementsDescription` (private): a compact, simplified
 * DOM for extraction with `domIncluded` (spec 4.3).
 *
 * Like the scripts of `_page_scripts.ts`, {@link describePageElements} is serialised by the driver,
 * so it is self-contained (no imports, no closure), and the few page shapes it uses are declared
 * here because the package is checked without the DOM library.
 *
 * @module
 */

/** Arguments of {@link describePageElements}. */
export interface DescribeElementsArgs {
  /** Keep only elements that are rendered and intersect the viewport. */
  visibleOnly: boolean;
  /** Longest result in characters, the truncation note included. */
  maxChars: number;
}

interface DomRect {
  readonly left: number;
  readonly top: number;
  readonly width: number;
  readonly height: number;
}

interface DomStyle {
  readonly paddingLeft: string;
  readonly paddingTop: string;
}

interface DomWindow {
  readonly innerWidth: number;
  readonly innerHeight: number;
  getComputedStyle(element: DomElement): DomStyle;
}

interface DomDocument {
  readonly URL: string;
  readonly title: string;
  readonly body: DomElement | null;
  readonly documentElement: DomElement | null;
  readonly defaultView: DomWindow | null;
}

interface DomNode {
  readonly nodeType: number;
  readonly nodeValue: string | null;
}

interface DomElement extends DomNode {
  readonly localName: string;
  readonly id: string;
  readonly childNodes: ArrayLike<DomNode>;
  readonly children: ArrayLike<DomElement>;
  readonly attributes: ArrayLike<{ readonly name: string; readonly value: string }>;
  readonly shadowRoot: { readonly children: ArrayLike<DomElement> } | null;
  readonly ownerDocument: DomDocument;
  readonly contentDocument?: DomDocument | null;
  readonly clientLeft: number;
  readonly clientTop: number;
  readonly value?: unknown;
  readonly checked?: unknown;
  readonly selected?: unknown;
  readonly disabled?: unknown;
  getAttribute(name: string): string | null;
  getBoundingClientRect(): DomRect;
  getClientRects(): { readonly length: number };
  checkVisibility?(options: object): boolean;
  assignedElements?(options: { flatten: boolean }): DomElement[];
}

/**
 * Describes the page's elements, one line per meaningful element, two spaces of indentation per
 * nesting level. The first line is `page url="..." title="..." viewport=(width,height)`; then
 *
 * `tag#id name="value" ... text="..." box=(left,top,width,height) [hidden|off-screen]`
 *
 * - attributes: `href`, `src`, `alt`, `title`, `aria-label` and a few other `aria-*` states,
 *   `placeholder`, `name`, `type`, `role`, `for`, short `data-*` ones, the current `value` of
 *   inputs, text areas and selects (never of a password field), and the flags `checked`,
 *   `selected`, `disabled`; values are JSON strings cut at 200 characters, with `<` escaped so the
 *   text cannot close the tag it is sent in;
 * - `text`: the element's own text (its text-node children), whitespace collapsed;
 * - `box`: CSS pixels relative to the top page's viewport (elements of same-origin frames are
 *   offset into it); left out for an element that is not rendered;
 * - `hidden`: not rendered (`display: none`, `visibility: hidden`, `opacity: 0`, no size);
 *   `off-screen`: rendered but outside the viewport (or outside its frame's visible part).
 *
 * Skipped: `script`, `style`, `noscript`, `template`, the head and the shapes inside an `svg`;
 * wrappers without an id, attributes or text of their own (their children move up a level; form
 * controls, media, frames and `svg` always get a line). Open shadow roots and
 * same-origin frames are walked as if inline; a cross-origin frame is listed with the flag
 * `cross-origin` and without its content. With `visibleOnly`, only lines of visible elements are
 * kept. The result is cut at `maxChars`, ending with a line `... (truncated)`.
 */
export function describePageElements(args: DescribeElementsArgs): string {
  const page = globalThis as unknown as DomWindow & { readonly document: DomDocument };
  const SKIP = ["script", "style", "noscript", "template", "head", "link", "meta", "base"];
  // Elements worth a line even without attributes or text: what a user sees or operates.
  const ALWAYS = [
    "input",
    "textarea",
    "select",
    "button",
    "img",
    "video",
    "audio",
    "canvas",
    "svg",
    "iframe",
    "frame",
    "embed",
    "object",
    "hr",
    "progress",
    "meter",
  ];
  const ATTRIBUTES = [
    "href",
    "src",
    "alt",
    "title",
    "aria-label",
    "aria-current",
    "aria-expanded",
    "aria-checked",
    "aria-selected",
    "placeholder",
    "name",
    "type",
    "role",
    "for",
  ];
  const TRUNCATED = "... (truncated)";
  const budget = args.maxChars - TRUNCATED.length - 1;
  const lines: string[] = [];
  let used = 0;
  let truncated = false;

  type Clip = { left: number; top: number; right: number; bottom: number };
  type State = "visible" | "off-screen" | "hidden";

  const quote = (value: string): string =>
    JSON.stringify(value.length > 200 ? value.slice(0, 200) + "..." : value).replace(
      /</g,
      "\\u003c",
    );
  const push = (line: string): boolean => {
    if (used + line.length + 1 > budget) {
      truncated = true;
      return false;
    }
    lines.push(line);
    used += line.length + 1;
    return true;
  };
  const ownText = (element: DomElement): string => {
    let text = "";
    const nodes = element.childNodes;
    for (let i = 0; i < nodes.length; i++) {
      if (nodes[i].nodeType === 3) text += " " + (nodes[i].nodeValue ?? "");
    }
    return text.replace(/\s+/g, " ").trim();
  };
  const attributesOf = (element: DomElement, tag: string): string[] => {
    const out: string[] = [];
    for (const name of ATTRIBUTES) {
      const value = element.getAttribute(name);
      if (value !== null && value.trim() !== "") out.push(`${name}=${quote(value.trim())}`);
    }
    const attrs = element.attributes;
    let data = 0;
    for (let i = 0; i < attrs.length && data < 5; i++) {
      const { name, value } = attrs[i];
      if (name.startsWith("data-") && name.length <= 40 && value.length <= 60) {
        out.push(`${name}=${quote(value)}`);
        data++;
      }
    }
    const type = (element.getAttribute("type") ?? "").toLowerCase();
    const hasValue = tag === "textarea" || tag === "select" ||
      (tag === "input" && !["password", "checkbox", "radio", "file"].includes(type));
    if (hasValue && typeof element.value === "string" && element.value !== "") {
      out.push(`value=${quote(element.value)}`);
    }
    if (element.checked === true) out.push("checked");
    if (tag === "option" && element.selected === true) out.push("selected");
    if (element.disabled === true) out.push("disabled");
    return out;
  };
  const stateOf = (element: DomElement, box: DomRect | null, clip: Clip): State => {
    const rendered = typeof element.checkVisibility === "function"
      ? element.checkVisibility({ visibilityProperty: true, opacityProperty: true })
      : element.getClientRects().length > 0;
    if (!rendered || !box || (box.width <= 0 && box.height <= 0)) return "hidden";
    const right = box.left + box.width, bottom = box.top + box.height;
    const inside = right > clip.left && box.left < clip.right && bottom > clip.top &&
      box.top < clip.bottom;
    return inside ? "visible" : "off-screen";
  };
  const childrenOf = (element: DomElement): DomElement[] => {
    if (element.shadowRoot) return Array.from(element.shadowRoot.children);
    if (element.localName === "slot" && element.assignedElements) {
      const assigned = element.assignedElements({ flatten: true });
      if (assigned.length > 0) return assigned;
    }
    return Array.from(element.children);
  };

  const walk = (
    element: DomElement,
    depth: number,
    dx: number,
    dy: number,
    clip: Clip,
    inHiddenFrame: boolean,
  ): void => {
    const tag = element.localName;
    if (truncated || SKIP.includes(tag)) return;
    const attributes = attributesOf(element, tag);
    const text = tag === "textarea" ? "" : ownText(element);
    const meaningful = element.id !== "" || attributes.length > 0 || text !== "" ||
      ALWAYS.includes(tag);
    const frame = tag === "iframe" || tag === "frame";
    if (!meaningful && !frame) {
      for (const child of childrenOf(element)) walk(child, depth, dx, dy, clip, inHiddenFrame);
      return;
    }
    const r = element.getBoundingClientRect();
    const box = { left: r.left + dx, top: r.top + dy, width: r.width, height: r.height };
    const state: State = inHiddenFrame ? "hidden" : stateOf(element, box, clip);
    let inner: DomDocument | null = null;
    if (frame) {
      try {
        inner = element.contentDocument ?? null;
      } catch {
        inner = null; // cross-origin
      }
    }
    const listed = !args.visibleOnly || state === "visible";
    if (listed) {
      let line = "  ".repeat(depth) + tag + (element.id ? `#${element.id}` : "");
      for (const attribute of attributes) line += " " + attribute;
      if (text) line += ` text=${quote(text)}`;
      if (state !== "hidden") {
        line += ` box=(${Math.round(box.left)},${Math.round(box.top)},${Math.round(box.width)},${
          Math.round(box.height)
        })`;
      }
      if (state !== "visible") line += ` ${state}`;
      if (frame && !inner) line += " cross-origin";
      if (!push(line)) return;
    }
    const childDepth = listed ? depth + 1 : depth;
    if (inner) {
      const root = inner.body ?? inner.documentElement;
      if (!root) return;
      // The frame's content box, in top-page coordinates: its own viewport.
      const style = element.ownerDocument.defaultView?.getComputedStyle(element);
      const fx = box.left + element.clientLeft + (parseFloat(style?.paddingLeft ?? "0") || 0);
      const fy = box.top + element.clientTop + (parseFloat(style?.paddingTop ?? "0") || 0);
      const view = inner.defaultView;
      const frameClip = {
        left: Math.max(clip.left, fx),
        top: Math.max(clip.top, fy),
        right: Math.min(clip.right, fx + (view?.innerWidth ?? 0)),
        bottom: Math.min(clip.bottom, fy + (view?.innerHeight ?? 0)),
      };
      walk(root, childDepth, fx, fy, frameClip, inHiddenFrame || state === "hidden");
      return;
    }
    // An SVG's shapes say nothing its own line does not.
    if (tag === "svg") return;
    for (const child of childrenOf(element)) walk(child, childDepth, dx, dy, clip, inHiddenFrame);
  };

  const doc = page.document;
  push(
    `page url=${quote(doc.URL)} title=${
      quote(doc.title)
    } viewport=(${page.innerWidth},${page.innerHeight})`,
  );
  const root = doc.body ?? doc.documentElement;
  if (root) {
    walk(
      root,
      0,
      0,
      0,
      { left: 0, top: 0, right: page.innerWidth, bottom: page.innerHeight },
      false,
    );
  }
  return lines.join("\n") + (truncated ? `\n${TRUNCATED}` : "");
}
