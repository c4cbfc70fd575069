/**
 * Functions the web page device runs inside the page through `PageDriver.evaluate` (private).
 *
 * Each one is serialised by the driver, so it must be self-contained: no imports, no closure,
 * no helpers defined outside it. The package is checked without the DOM library (it must not
 * leak DOM globals into Deno code), so the few page shapes used are declared here.
 *
 * @module
 */

/** What {@link editFocusedField} does to the focused field. */
export type FieldEdit = "selectAll" | "caretToEnd";

interface PageElement {
  readonly tagName: string;
  readonly shadowRoot: { readonly activeElement: PageElement | null } | null;
  readonly parentElement: PageElement | null;
  readonly isContentEditable?: boolean;
  readonly ownerDocument: PageDocument;
  readonly contentDocument?: PageDocument | null;
  readonly value?: string;
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
