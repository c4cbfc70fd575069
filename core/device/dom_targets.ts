/**
 * The page function that reads target identities in a web page (docs/model-protocol.md, "Target
 * checks"): the web page device runs it through its driver, the in-page device calls it in
 * place. It is self-contained (a driver sends its source text to the page), so it declares the
 * few DOM shapes it uses instead of the DOM library, which core's type check leaves out.
 *
 * @module
 */

import type { Point, TargetIdentity } from "./types.ts";

interface DomRect {
  readonly left: number;
  readonly top: number;
  readonly width: number;
  readonly height: number;
}

interface DomEl {
  readonly tagName: string;
  readonly id: string;
  readonly parentElement: DomEl | null;
  readonly textContent: string | null;
  readonly innerText?: string;
  readonly shadowRoot: { elementFromPoint(x: number, y: number): DomEl | null } | null;
  readonly contentDocument?: DomDoc | null;
  readonly clientLeft: number;
  readonly clientTop: number;
  readonly labels?: ArrayLike<DomEl> | null;
  readonly type?: string;
  readonly value?: string;
  getAttribute(name: string): string | null;
  getBoundingClientRect(): DomRect;
}

interface DomDoc {
  elementFromPoint(x: number, y: number): DomEl | null;
  getElementById(id: string): DomEl | null;
}

/**
 * The identity of the element at each point (CSS pixels of the top viewport): the topmost
 * element there, followed into open shadow roots and same-origin frames. `kind` is its tag with
 * its role (or an input's type), `name` its accessible name (`aria-label`, `aria-labelledby`,
 * its labels, `alt`, `placeholder`, `title`, a button input's value, else its text; never a
 * field's typed value), `context` the text of the nearest row-sized ancestor with more text, `box`
 * its bounds in the top viewport. `undefined` where nothing is, and for a canvas, video, embed,
 * object or cross-origin frame, whose inside the DOM does not name: the agent compares pixels
 * there.
 *
 * @param points where to look, CSS pixels of the viewport.
 * @param document the page's document; default `globalThis.document` (the page it runs in).
 */
export function domTargetsAt(
  points: readonly Point[],
  document?: unknown,
): (TargetIdentity | undefined)[] {
  const NAME_MAX = 80;
  const CONTEXT_MAX = 120;
  const OPAQUE = /^(canvas|video|embed|object|iframe|frame)$/i;
  // The rendered text (block boundaries as spaces: "Water plants ×"), else the raw text.
  const textOf = (el: DomEl) => el.innerText ?? el.textContent ?? "";
  const clean = (t: string | null | undefined, max: number) => {
    const s = (t ?? "").replace(/\s+/g, " ").trim();
    return s ? s.slice(0, max) : undefined;
  };
  const accessibleName = (el: DomEl, doc: DomDoc): string | undefined => {
    const label = el.getAttribute("aria-label");
    if (label && label.trim()) return clean(label, NAME_MAX);
    const by = el.getAttribute("aria-labelledby");
    if (by) {
      const text = by.split(/\s+/).map((id) => doc.getElementById(id))
        .map((labelledBy) => labelledBy ? textOf(labelledBy) : "").join(" ");
      if (text.trim()) return clean(text, NAME_MAX);
    }
    const tag = el.tagName.toLowerCase();
    if (tag === "input" || tag === "textarea" || tag === "select") {
      const type = (el.type ?? "").toLowerCase();
      if (tag === "input" && /^(button|submit|reset)$/.test(type)) return clean(el.value, NAME_MAX);
      const labels = Array.from(el.labels ?? []).map(textOf).join(" ");
      return clean(labels, NAME_MAX) ?? clean(el.getAttribute("placeholder"), NAME_MAX) ??
        clean(el.getAttribute("title"), NAME_MAX) ?? clean(el.getAttribute("name"), NAME_MAX);
    }
    return clean(el.getAttribute("alt"), NAME_MAX) ?? clean(textOf(el), NAME_MAX) ??
      clean(el.getAttribute("title"), NAME_MAX);
  };
  const identityAt = ([x, y]: Point): TargetIdentity | undefined => {
    let doc = (document ?? (globalThis as unknown as { document: DomDoc }).document) as DomDoc;
    let dx = 0;
    let dy = 0;
    let el = doc.elementFromPoint(x, y);
    for (;;) {
      if (!el) return undefined;
      const inner = el.shadowRoot?.elementFromPoint(x - dx, y - dy);
      if (inner && inner !== el) {
        el = inner;
        continue;
      }
      if (!/^i?frame$/i.test(el.tagName)) break;
      let frameDoc: DomDoc | null | undefined;
      try {
        frameDoc = el.contentDocument;
      } catch {
        frameDoc = undefined;
      }
      if (!frameDoc) return undefined;
      const r = el.getBoundingClientRect();
      dx += r.left + el.clientLeft;
      dy += r.top + el.clientTop;
      doc = frameDoc;
      el = doc.elementFromPoint(x - dx, y - dy);
    }
    if (OPAQUE.test(el.tagName)) return undefined;
    const tag = el.tagName.toLowerCase();
    const role = el.getAttribute("role");
    const kind = role ? `${tag} ${role}` : tag === "input" ? `${tag} ${el.type || "text"}` : tag;
    const r = el.getBoundingClientRect();
    const own = textOf(el).replace(/\s+/g, "");
    let context: string | undefined;
    for (let a = el.parentElement; a; a = a.parentElement) {
      const text = textOf(a);
      if (text.replace(/\s+/g, "") === own) continue;
      const h = a.getBoundingClientRect().height;
      if (h <= Math.max(3 * r.height, r.height + 60)) context = clean(text, CONTEXT_MAX);
      break;
    }
    const name = accessibleName(el, doc);
    return {
      kind,
      ...(el.id ? { id: el.id } : {}),
      ...(name ? { name } : {}),
      ...(context ? { context } : {}),
      box: { left: r.left + dx, top: r.top + dy, width: r.width, height: r.height },
    };
  };
  return points.map(identityAt);
}
