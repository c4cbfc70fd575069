/**
 * The page function behind `WebPageDevice.xpathsAt` (private), for the locate cache. It runs
 * through `PageDriver.evaluate`, so it is self-contained; the package is checked without the DOM
 * library, so the page shapes it uses are declared here.
 *
 * @module
 */

interface AtElement {
  readonly tagName: string;
  readonly localName: string;
  readonly namespaceURI: string | null;
  readonly id: string;
  readonly shadowRoot: unknown;
  readonly parentElement: AtElement | null;
  readonly previousElementSibling: AtElement | null;
}

interface AtPage {
  readonly document: {
    elementFromPoint(x: number, y: number): AtElement | null;
    evaluate(
      expression: string,
      context: unknown,
      resolver: null,
      type: number,
      result: null,
    ): { readonly snapshotLength: number };
  };
}

/**
 * XPaths of the element at `point` (CSS pixels of the viewport) in the main frame: an id-based
 * `//*[@id="..."]` when the element has an id no other element shares, else its positional
 * absolute path (`/html/body/main[1]/button[2]`). Only one is given: a positional path that
 * outlived a page change could select a different element, so it is not kept beside a unique id.
 * `[]` when nothing is there, or for a frame or a shadow host, whose inside an xpath of the page
 * cannot reach.
 */
export function xpathsAtPoint(point: [number, number]): string[] {
  const page = globalThis as unknown as AtPage;
  const doc = page.document;
  const el = doc.elementFromPoint(point[0], point[1]);
  if (!el || /^i?frame$/i.test(el.tagName) || el.shadowRoot) {
    return [];
  }
  const ORDERED_NODE_SNAPSHOT = 7;
  const count = (xpath: string) => {
    try {
      return doc.evaluate(xpath, doc, null, ORDERED_NODE_SNAPSHOT, null).snapshotLength;
    } catch {
      return 0;
    }
  };
  if (el.id) {
    const quote = !el.id.includes('"') ? '"' : !el.id.includes("'") ? "'" : undefined;
    const byId = quote && `//*[@id=${quote}${el.id}${quote}]`;
    if (byId && count(byId) === 1) {
      return [byId];
    }
  }
  const HTML = "http://www.w3.org/1999/xhtml";
  const segments: string[] = [];
  for (let e: AtElement | null = el; e; e = e.parentElement) {
    let index = 1;
    for (let p = e.previousElementSibling; p; p = p.previousElementSibling) {
      if (p.localName === e.localName && p.namespaceURI === e.namespaceURI) {
        index++;
      }
    }
    // SVG and MathML elements are not selected by a bare name in an HTML document.
    const name = e.namespaceURI === HTML ? e.localName : `*[local-name()="${e.localName}"]`;
    segments.unshift(e.parentElement ? `${name}[${index}]` : name);
  }
  const path = `/${segments.join("/")}`;
  return count(path) === 1 ? [path] : [];
}
