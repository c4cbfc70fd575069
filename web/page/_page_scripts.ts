/**
 * Functions the web page device runs inside the page through `PageDriver.evaluate` (private).
 *
 * Each one is serialised by the driver, so it must be self-contained: no imports, no closure,
 * no helpers defined outside it. The package is checked without the DOM library (it must not
 * leak DOM globals into Deno code), so the few page shapes used are declared here.
 *
 * @module
 */

/**
 * What {@link editFocusedField} does to the focused field; `isSecret` only tells whether it is a
 * password field.
 */
export type FieldEdit = "selectAll" | "caretToEnd" | "isSecret";

interface PageElement {
  readonly tagName: string;
  readonly shadowRoot: { readonly activeElement: PageElement | null } | null;
  readonly parentElement: PageElement | null;
  readonly isContentEditable?: boolean;
  readonly ownerDocument: PageDocument;
  readonly contentDocument?: PageDocument | null;
  readonly value?: string;
  readonly type?: string;
  select?(): void;
  setSelectionRange?(start: number, end: number): void;
}

interface PageRange {
  selectNodeContents(node: PageElement): void;
  collapse(toStart: boolean): void;
}

interface PageDocument {
  readonly activeElement: PageElement | null;
  getSelection(): { removeAllRanges(): void; addRange(range: PageRange): void } | null;
  createRange(): PageRange;
}

interface PageWindow {
  readonly document: PageDocument;
  addEventListener(type: string, listener: () => void, options: object): void;
  removeEventListener(type: string, listener: () => void, options: object): void;
  requestAnimationFrame(callback: () => void): number;
}

/**
 * Selects the whole content of the focused text field, or puts the caret at its end.
 *
 * Follows focus into shadow roots and same-origin frames. Works on `input`, `textarea` and
 * content-editable elements; returns `false` (nothing done) for anything else, so the caller can
 * fall back to keyboard shortcuts.
 */
export function editFocusedField(edit: FieldEdit): boolean {
  const page = globalThis as unknown as PageWindow;
  let element = page.document.activeElement;
  for (;;) {
    const shadowActive = element?.shadowRoot?.activeElement;
    if (shadowActive) {
      element = shadowActive;
      continue;
    }
    if (element?.tagName === "IFRAME") {
      let inner: PageElement | null | undefined;
      try {
        inner = element.contentDocument?.activeElement;
      } catch {
        inner = undefined; // cross-origin frame
      }
      if (inner && inner !== element) {
        element = inner;
        continue;
      }
    }
    break;
  }
  if (!element) return false;
  if (edit === "isSecret") {
    return element.tagName === "INPUT" && String(element.type).toLowerCase() === "password";
  }
  // Tag names, not instanceof: an element in a frame belongs to another realm.
  if (element.tagName === "INPUT" || element.tagName === "TEXTAREA") {
    if (edit === "selectAll") {
      element.select?.();
      return true;
    }
    try {
      const end = (element.value ?? "").length;
      element.setSelectionRange?.(end, end);
      return true;
    } catch {
      return false; // types without a caret API (email, number)
    }
  }
  if (!element.isContentEditable) return false;
  let host = element;
  while (host.parentElement?.isContentEditable) host = host.parentElement;
  const selection = host.ownerDocument.getSelection();
  if (!selection) return false;
  const range = host.ownerDocument.createRange();
  range.selectNodeContents(host);
  if (edit === "caretToEnd") range.collapse(false);
  selection.removeAllRanges();
  selection.addRange(range);
  return true;
}

/**
 * Resolves once scrolling has settled: after a few animation frames without a `scroll` event
 * anywhere in the document (smooth scrolling keeps firing them), or after `maxMs`.
 *
 * A wheel event is applied by the compositor a frame or so after the driver dispatched it, so
 * the device waits here before reporting the action done.
 */
export function waitForScrollToSettle(maxMs: number): Promise<void> {
  const page = globalThis as unknown as PageWindow;
  return new Promise<void>((resolve) => {
    const quietFramesNeeded = 3;
    let quietFrames = 0;
    let finished = false;
    const onScroll = () => {
      quietFrames = 0;
    };
    const finish = () => {
      if (finished) return;
      finished = true;
      page.removeEventListener("scroll", onScroll, { capture: true });
      clearTimeout(timer);
      resolve();
    };
    // Capturing on window sees element scrolls too (they do not bubble).
    page.addEventListener("scroll", onScroll, { capture: true, passive: true });
    // rAF does not run in a hidden page; the timer bounds the wait there.
    const timer = setTimeout(finish, maxMs);
    const tick = () => {
      if (finished) return;
      quietFrames++;
      if (quietFrames > quietFramesNeeded) finish();
      else page.requestAnimationFrame(tick);
    };
    page.requestAnimationFrame(tick);
  });
}

interface SameTabElement {
  readonly tagName?: unknown;
  readonly ownerDocument?: { querySelector(selector: string): SameTabElement | null } | null;
  getAttribute(name: string): string | null;
  setAttribute(name: string, value: string): void;
}

interface SameTabEvent {
  readonly submitter?: SameTabElement | null;
  composedPath(): unknown[];
}

type WindowOpen = (url?: unknown, target?: string, features?: string) => unknown;

interface SameTabWindow {
  open: WindowOpen;
  addEventListener(type: string, listener: (event: SameTabEvent) => void, capture: boolean): void;
}

/**
 * Keeps navigation in the current tab (`forceSameTabNavigation`): a click on a link or area
 * whose target is `_blank` (its own or the document's `<base target>`), and the submission of
 * such a form, navigate the top-level page instead; `window.open(url)` with a URL and any target
 * but `_self`, `_parent` or `_top` opens `url` in the top-level page and returns its window.
 * `window.open()` without a URL is left alone (it has nothing to navigate to).
 *
 * Run in each document (the driver's init script) and once in the current one; a second run in
 * the same document does nothing.
 */
export function keepNavigationInTab(): void {
  const page = globalThis as unknown as SameTabWindow;
  const flag = "__sdkSameTabNavigation";
  if (Object.prototype.hasOwnProperty.call(page, flag)) return;
  Object.defineProperty(page, flag, { value: true });

  const opensNewTab = (element: SameTabElement, attribute: string): boolean => {
    const own = element.getAttribute(attribute);
    const target = own ??
      element.ownerDocument?.querySelector("base[target]")?.getAttribute("target") ?? "";
    return target.trim().toLowerCase() === "_blank";
  };
  // Capturing on window runs before the page's own handlers, which can still cancel the click.
  const retarget = (event: SameTabEvent, tags: readonly string[]) => {
    for (const node of event.composedPath()) {
      const element = node as SameTabElement;
      if (typeof element?.tagName !== "string") continue;
      if (!tags.includes(element.tagName.toUpperCase())) continue;
      if (opensNewTab(element, "target")) element.setAttribute("target", "_top");
      return;
    }
  };
  page.addEventListener("click", (event) => retarget(event, ["A", "AREA"]), true);
  page.addEventListener("submit", (event) => {
    const submitter = event.submitter;
    if (submitter && submitter.getAttribute("formtarget")?.trim().toLowerCase() === "_blank") {
      submitter.setAttribute("formtarget", "_top");
    }
    retarget(event, ["FORM"]);
  }, true);

  const open = page.open;
  page.open = function (url?: unknown, target?: string, features?: string): unknown {
    const name = String(target ?? "").trim().toLowerCase();
    if (
      url === undefined || url === null || String(url) === "" || /^_(self|parent|top)$/.test(name)
    ) {
      return open.call(page, url, target, features);
    }
    // Features (popup size, noopener) only matter for a new window: there is none.
    return open.call(page, url, "_top");
  };
}

interface SelectStyleDocument {
  readonly documentElement: { append(node: unknown): void } | null;
  readonly head: { append(node: unknown): void } | null;
  getElementById(id: string): unknown;
  createElement(tag: "style"): { id: string; textContent: string };
}

interface SelectStyleWindow {
  readonly document: SelectStyleDocument;
  readonly frames: { readonly length: number; readonly [index: number]: SelectStyleWindow };
  MutationObserver: new (callback: () => void) => {
    observe(target: unknown, options: object): void;
    disconnect(): void;
  };
}

/**
 * Renders `select` elements in the page (`forceChromeSelectRendering`): adds a style element
 * giving `select` and its `::picker(select)` the `appearance: base-select` of Chromium's
 * customizable select, so an open picker is part of the page (in screenshots, with real option
 * boxes) instead of a native popup. `!important` because many pages set `appearance: none` on
 * selects, which would keep the native popup.
 *
 * Run in each document (the driver's init script, before the document has an element: the style
 * is added as soon as it has one) and once in the current one, where it also covers same-origin
 * frames. Idempotent: a document that has the style keeps its one copy.
 */
export function renderSelectsInPage(): void {
  const id = "__sdk-select-rendering";
  const css = "select, ::picker(select) { appearance: base-select !important; }";
  const addTo = (doc: SelectStyleDocument): boolean => {
    if (doc.getElementById(id)) return true;
    const parent = doc.head ?? doc.documentElement;
    if (!parent) return false;
    const style = doc.createElement("style");
    style.id = id;
    style.textContent = css;
    parent.append(style);
    return true;
  };
  const page = globalThis as unknown as SelectStyleWindow;
  if (!addTo(page.document)) {
    // An init script runs before the parser has made <html>: add the style once it exists.
    const observer = new page.MutationObserver(() => {
      if (addTo(page.document)) observer.disconnect();
    });
    observer.observe(page.document, { childList: true });
  }
  const visit = (win: SelectStyleWindow) => {
    for (let i = 0; i < win.frames.length; i++) {
      try {
        addTo(win.frames[i].document);
        visit(win.frames[i]);
      } catch {
        // A cross-origin frame: its own init script styles it when it loads.
      }
    }
  };
  visit(page);
}

/**
 * The page's local time as ISO 8601 with the page's UTC offset, e.g.
 * `"2020-05-17T15:50:30.000+05:30"`: what `Date.parse` reads back to the same instant
 * (`useDeviceTime`). Uses the page's own `Date`, so a page (or test) that changes its clock or
 * time zone is what the agent sees.
 */
export function pageLocalTime(): string {
  const now = new Date();
  const offsetMin = -now.getTimezoneOffset();
  const pad = (n: number) => String(Math.floor(Math.abs(n))).padStart(2, "0");
  // The instant shifted by the offset, printed as UTC, is the local wall-clock time.
  const wall = new Date(now.getTime() + offsetMin * 60_000).toISOString().slice(0, 23);
  const sign = offsetMin < 0 ? "-" : "+";
  return `${wall}${sign}${pad(offsetMin / 60)}:${pad(offsetMin % 60)}`;
}
