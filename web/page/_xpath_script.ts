/**
 * The page function behind `WebPageDevice.locateByXpath` (private). It runs through
 * `PageDriver.evaluate`, so it is self-contained; the package is checked without the DOM library,
 * so the page shapes it uses are declared here.
 *
 * @module
 */

interface XpathBox {
  readonly left: number;
  readonly top: number;
  readonly right: number;
  readonly bottom: number;
  readonly width: number;
  readonly height: number;
}

interface XpathNode {
  readonly nodeType: number;
  readonly parentElement: XpathElement | null;
  readonly ownerElement?: XpathElement | null;
}

interface XpathElement extends XpathNode {
  getBoundingClientRect(): XpathBox;
  checkVisibility?(options: { visibilityProperty: boolean }): boolean;
  scrollIntoView(options: { block: string; inline: string; behavior: string }): void;
}

interface XpathPage {
  readonly innerWidth: number;
  readonly innerHeight: number;
  readonly document: {
    evaluate(
      expression: string,
      context: unknown,
      resolver: null,
      type: number,
      result: null,
    ): { readonly snapshotLength: number; snapshotItem(i: number): XpathNode | null };
  };
}

/** What {@link findByXpath} answers. */
export type XpathHit =
  | {
    /** The element's bounding box, CSS pixels of the viewport. */
    rect: { left: number; top: number; width: number; height: number };
    /** The middle of the element's part inside the viewport, CSS pixels. */
    center: [number, number];
  }
  | { error: string }
  | null;

/**
 * Evaluates `xpath` in the main frame and returns the first element it selects that is rendered
 * (non-zero size, not hidden by `display` or `visibility`). An element outside the viewport is
 * scrolled into its middle first. A selected text or attribute node stands for its element.
 * `null` when no such element exists; `{ error }` when the expression is invalid or does not
 * select nodes.
 */
export function findByXpath(xpath: string): XpathHit {
  const page = globalThis as unknown as XpathPage;
  const ELEMENT = 1, ATTRIBUTE = 2, ORDERED_NODE_SNAPSHOT = 7;
  let nodes;
  try {
    nodes = page.document.evaluate(xpath, page.document, null, ORDERED_NODE_SNAPSHOT, null);
  } catch (e) {
    return { error: String((e as Error)?.message ?? e) };
  }
  const outside = (r: XpathBox) =>
    r.right <= 0 || r.bottom <= 0 || r.left >= page.innerWidth || r.top >= page.innerHeight;
  for (let i = 0; i < nodes.snapshotLength; i++) {
    const node = nodes.snapshotItem(i);
    const el = (node?.nodeType === ELEMENT
      ? node
      : node?.nodeType === ATTRIBUTE
      ? node.ownerElement
      : node?.parentElement) as XpathElement | null | undefined;
    if (!el) {
      continue;
    }
    let r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) {
      continue;
    }
    if (el.checkVisibility && !el.checkVisibility({ visibilityProperty: true })) {
      continue;
    }
    if (outside(r)) {
      el.scrollIntoView({ block: "center", inline: "center", behavior: "instant" });
      r = el.getBoundingClientRect();
      if (outside(r)) {
        continue;
      }
    }
    const left = Math.max(0, r.left), top = Math.max(0, r.top);
    const right = Math.min(page.innerWidth, r.right), bottom = Math.min(page.innerHeight, r.bottom);
    return {
      rect: { left: r.left, top: r.top, width: r.width, height: r.height },
      center: [(left + right) / 2, (top + bottom) / 2],
    };
  }
  return null;
}
