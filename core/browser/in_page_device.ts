/**
 * The in-page device: an {@link AbstractInterface} that runs inside the web page it drives, for
 * core bundled into a page (docs/in-browser.md).
 *
 * A page has no screenshot API, so the screenshot comes from a callback the user gives
 * (`captureScreenshot`: e.g. html2canvas, or an extension's `captureVisibleTab`). Actions are
 * **synthetic DOM events** dispatched at the point the model chose (`document.elementFromPoint`):
 * the page sees `isTrusted === false`, the browser does no default action for key events (typing,
 * Tab focus moves), and a page that checks for trusted input ignores them. For real input, drive
 * the page from outside (`@sdk/web`).
 *
 * @module
 */

import { SdkTypeError, ToolError } from "../errors.ts";
import type {
  AbstractInterface,
  DeviceAction,
  Point,
  Size,
  TargetIdentity,
} from "../device/types.ts";
import { domTargetsAt } from "../device/dom_targets.ts";
import {
  INPUT_MODES,
  inputAction,
  keyboardPressAction,
  SCROLL_DIRECTIONS,
  SCROLL_TYPES,
  scrollAction,
  tapAction,
} from "../device/actions.ts";
import {
  type ActionParams,
  readEnumParam,
  readLocateParam,
  readPositiveNumberParam,
  readStringParam,
} from "../device/params.ts";
import { readKeyComboParam } from "../device/keys.ts";

// ---------------------------------------------------------------------------------------------
// The few DOM shapes used here, typed locally: core's type check does not include the DOM lib.

/** An element as this device uses it. */
interface DomElement {
  readonly tagName: string;
  readonly parentElement: DomElement | null;
  readonly isContentEditable?: boolean;
  readonly form?: { requestSubmit?(): void } | null;
  readonly type?: string;
  readonly disabled?: boolean;
  value?: string;
  textContent: string | null;
  scrollTop: number;
  scrollLeft: number;
  readonly scrollHeight: number;
  readonly scrollWidth: number;
  readonly clientHeight: number;
  readonly clientWidth: number;
  closest(selector: string): DomElement | null;
  focus?(options?: { preventScroll?: boolean }): void;
  dispatchEvent(event: unknown): boolean;
}

type EventConstructor = new (type: string, init?: Record<string, unknown>) => {
  readonly defaultPrevented: boolean;
};

/**
 * The window an {@link InPageDevice} drives: the page's own `window` by default. Only what the
 * device reads is listed.
 */
export interface InPageWindow {
  /** Viewport width, CSS pixels. */
  readonly innerWidth: number;
  /** Viewport height, CSS pixels. */
  readonly innerHeight: number;
  /** Physical pixels per CSS pixel. */
  readonly devicePixelRatio: number;
  /** The page's document. */
  readonly document: unknown;
  /** The page's URL. */
  readonly location: { readonly href: string };
  /** Style of an element, for finding a scrollable area. */
  getComputedStyle(element: unknown): { overflowX: string; overflowY: string };
  /** Runs a callback before the next paint. */
  requestAnimationFrame(callback: () => void): number;
}

interface DomDocument {
  readonly title: string;
  readonly activeElement: DomElement | null;
  readonly body: DomElement | null;
  readonly scrollingElement: DomElement | null;
  elementFromPoint(x: number, y: number): DomElement | null;
}

interface DomEvents {
  PointerEvent?: EventConstructor;
  MouseEvent: EventConstructor;
  KeyboardEvent: EventConstructor;
  InputEvent?: EventConstructor;
  Event: EventConstructor;
}

/** Options of {@link InPageDevice}. */
export interface InPageDeviceOptions {
  /**
   * Takes a screenshot of the viewport as a `data:image/png;base64,...` or
   * `data:image/jpeg;base64,...` URI, in physical pixels (`innerWidth * devicePixelRatio` wide)
   * or in CSS pixels. A page cannot take a real screenshot of itself: use a library that draws
   * the DOM into a canvas (html2canvas and the like; an approximation of what is shown), or ask
   * an extension (`chrome.tabs.captureVisibleTab`, real pixels).
   */
  captureScreenshot(): Promise<string>;
  /** The window to drive. Default: `globalThis` (the page's own window). */
  window?: InPageWindow;
  /** Short name for reports. Default `"in-page"`. */
  interfaceType?: string;
}

const FOCUSABLE =
  "input, textarea, select, button, a[href], [tabindex], [contenteditable=''], [contenteditable='true']";
const TEXT_INPUT_TYPES = new Set([
  "",
  "text",
  "search",
  "email",
  "url",
  "tel",
  "password",
  "number",
  "date",
  "time",
  "datetime-local",
  "month",
  "week",
]);

/**
 * Drives the page it runs in, from inside (docs/in-browser.md): screenshots from the user's
 * `captureScreenshot`, the size from `window.innerWidth` / `innerHeight` / `devicePixelRatio`,
 * and the actions `Tap`, `Input`, `Scroll` and `KeyboardPress` as **synthetic events** (not
 * trusted input; see the module documentation for what that means).
 *
 * @example Drive the page from a script inside it
 * ```ts ignore
 * import { Agent, InPageDevice } from "./sdk-core.js"; // deno task build:browser
 * import html2canvas from "html2canvas";
 *
 * const device = new InPageDevice({
 *   captureScreenshot: async () => (await html2canvas(document.body)).toDataURL("image/png"),
 * });
 * const agent = new Agent(device, { modelConfig: { ... } });
 * await agent.aiTap("the Sign in button");
 * ```
 */
export class InPageDevice implements AbstractInterface {
  /** `"in-page"` unless set in the options. */
  readonly interfaceType: string;
  readonly #capture: () => Promise<string>;
  readonly #window: InPageWindow;
  #pointer: Point | undefined;

  /**
   * Creates the device.
   *
   * @throws {TypeError} when `captureScreenshot` is not a function, or there is no window (not
   *   in a page, and none given).
   */
  constructor(options: InPageDeviceOptions) {
    if (typeof options?.captureScreenshot !== "function") {
      throw new SdkTypeError(
        "InPageDevice needs 'captureScreenshot': a function returning a data:image/png or " +
          "data:image/jpeg URI of the viewport (a page cannot take its own screenshot)",
      );
    }
    const win = options.window ?? (globalThis as unknown as Partial<InPageWindow>);
    if (!win || typeof win.innerWidth !== "number" || !win.document) {
      throw new SdkTypeError(
        "InPageDevice runs inside a web page: there is no window here (pass 'window')",
      );
    }
    this.#capture = options.captureScreenshot;
    this.#window = win as InPageWindow;
    this.interfaceType = options.interfaceType ?? "in-page";
  }

  get #doc(): DomDocument {
    return this.#window.document as DomDocument;
  }

  get #events(): DomEvents {
    return this.#window as unknown as DomEvents;
  }

  /**
   * The user's screenshot.
   *
   * @throws {TypeError} when `captureScreenshot` gave something other than an image data URI.
   */
  async screenshotBase64(): Promise<string> {
    const uri = await this.#capture();
    if (typeof uri !== "string" || !/^data:image\/(png|jpeg);base64,/.test(uri)) {
      throw new SdkTypeError(
        `InPageDevice: captureScreenshot must return a data:image/png or data:image/jpeg base64 URI: got ${
          typeof uri === "string" ? JSON.stringify(uri.slice(0, 40)) : typeof uri
        }`,
      );
    }
    return uri;
  }

  /** The viewport in CSS pixels and the device pixel ratio. */
  size(): Promise<Size> {
    const w = this.#window;
    return Promise.resolve({
      width: w.innerWidth,
      height: w.innerHeight,
      dpr: w.devicePixelRatio || 1,
    });
  }

  /** The page's URL and title, for the report. */
  describe(): Promise<string> {
    const title = this.#doc.title;
    return Promise.resolve(
      title ? `${title} (${this.#window.location.href})` : this.#window.location.href,
    );
  }

  /**
   * The identity of the element at each point (CSS pixels), for the target checks between the
   * actions of one plan (docs/model-protocol.md, "Target checks"); read as the web page device
   * reads it.
   */
  targetsAt(points: readonly Point[]): Promise<(TargetIdentity | undefined)[]> {
    return Promise.resolve(domTargetsAt(points, this.#doc));
  }

  /** Waits two animation frames, so what an action started is painted before the next look. */
  afterAction(): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, 100); // a hidden tab runs no animation frames
      this.#window.requestAnimationFrame(() =>
        this.#window.requestAnimationFrame(() => {
          clearTimeout(timer);
          resolve();
        })
      );
    });
  }

  /**
   * `Tap`, `Input`, `Scroll` and `KeyboardPress`: the shared definitions of `core/device`, worded
   * for a mouse, lengths in CSS pixels.
   */
  actionSpace(): DeviceAction[] {
    const sync = (run: (p: ActionParams) => void) => (p: ActionParams) => {
      run(p);
      return Promise.resolve();
    };
    return [
      tapAction(sync((p) => this.#tap(readLocateParam("Tap", p, true).center)), {
        description: "Click an element once.",
        params: { locate: "the element to click" },
      }),
      inputAction((p, context) => {
        this.#input(p, context.secret);
        return Promise.resolve();
      }),
      scrollAction(sync((p) => this.#scroll(p)), {
        unit: "CSS pixels",
        params: {
          locate: "a point inside the area to scroll; the last pointer position when left out",
        },
      }),
      keyboardPressAction(sync((p) => this.#keyboardPress(p))),
    ];
  }

  // ---- actions ----------------------------------------------------------------------------

  #elementAt(action: string, [x, y]: Point): DomElement {
    const element = this.#doc.elementFromPoint(x, y);
    if (!element) {
      throw new ToolError(
        `Cannot run ${action}: no element at (${x}, ${y}) in the ${this.#window.innerWidth}x${this.#window.innerHeight} viewport`,
        { tool: "page" },
      );
    }
    return element;
  }

  #mouse(type: string, target: DomElement, [x, y]: Point, buttons: number): void {
    const init = {
      bubbles: true,
      cancelable: true,
      composed: true,
      clientX: x,
      clientY: y,
      screenX: x,
      screenY: y,
      button: 0,
      buttons,
      detail: 1,
      view: this.#window,
    };
    const { PointerEvent, MouseEvent } = this.#events;
    if (type.startsWith("pointer")) {
      if (!PointerEvent) return;
      target.dispatchEvent(
        new PointerEvent(type, { ...init, pointerId: 1, pointerType: "mouse", isPrimary: true }),
      );
    } else target.dispatchEvent(new MouseEvent(type, init));
  }

  #tap(point: Point): DomElement {
    const target = this.#elementAt("Tap", point);
    this.#pointer = point;
    this.#mouse("pointerover", target, point, 0);
    this.#mouse("mouseover", target, point, 0);
    this.#mouse("pointerdown", target, point, 1);
    this.#mouse("mousedown", target, point, 1);
    const focusable = target.closest(FOCUSABLE);
    if (focusable && !focusable.disabled) focusable.focus?.({ preventScroll: true });
    this.#mouse("pointerup", target, point, 0);
    this.#mouse("mouseup", target, point, 0);
    // A dispatched click runs the element's activation behaviour (links, checkboxes, submit).
    this.#mouse("click", target, point, 0);
    return target;
  }

  #input(p: ActionParams, secret?: { value: boolean }): void {
    const target = readLocateParam("Input", p, false);
    const mode = readEnumParam("Input", p, "mode", INPUT_MODES, "replace");
    const value = mode === "clear" ? "" : readStringParam("Input", p, "value", true);
    if (target) this.#tap(target.center);
    const field = this.#doc.activeElement;
    const tag = field?.tagName.toLowerCase();
    const isText = field && (tag === "textarea" ||
      (tag === "input" && TEXT_INPUT_TYPES.has((field.type ?? "").toLowerCase())));
    if (!field || (!isText && !field.isContentEditable)) {
      throw new SdkTypeError(
        `Cannot run Input: the ${target ? "element there" : "focused element"} is ${
          tag ? `a <${tag}>` : "nothing"
        }, not a text field`,
      );
    }
    // A password field takes a secret: the SDK writes the value as *** wherever it records it.
    if (secret && tag === "input" && (field.type ?? "").toLowerCase() === "password") {
      secret.value = true;
    }
    const before = isText ? field.value ?? "" : field.textContent ?? "";
    const next = mode === "typeOnly" ? before + value : value;
    if (isText) setNativeValue(field, next);
    else field.textContent = next;
    const { InputEvent, Event } = this.#events;
    const inputInit = {
      bubbles: true,
      composed: true,
      inputType: mode === "clear" ? "deleteContentBackward" : "insertText",
      data: mode === "clear" ? null : value,
    };
    field.dispatchEvent(
      InputEvent ? new InputEvent("input", inputInit) : new Event("input", inputInit),
    );
    field.dispatchEvent(new Event("change", { bubbles: true }));
  }

  #scroll(p: ActionParams): void {
    const target = readLocateParam("Scroll", p, false);
    const direction = readEnumParam("Scroll", p, "direction", SCROLL_DIRECTIONS, "down");
    const scrollType = readEnumParam("Scroll", p, "scrollType", SCROLL_TYPES, "singleAction");
    const w = this.#window;
    const point: Point = target?.center ?? this.#pointer ?? [w.innerWidth / 2, w.innerHeight / 2];
    const horizontal = scrollType === "singleAction"
      ? direction === "left" || direction === "right"
      : scrollType === "scrollToLeft" || scrollType === "scrollToRight";
    const area = this.#scrollableAt(point, horizontal);
    this.#pointer = point;
    if (scrollType === "scrollToTop") area.scrollTop = 0;
    else if (scrollType === "scrollToBottom") area.scrollTop = area.scrollHeight;
    else if (scrollType === "scrollToLeft") area.scrollLeft = 0;
    else if (scrollType === "scrollToRight") area.scrollLeft = area.scrollWidth;
    else {
      const distance = readPositiveNumberParam("Scroll", p, "distance") ??
        Math.round((horizontal ? w.innerWidth : w.innerHeight) * 0.7);
      const sign = direction === "up" || direction === "left" ? -1 : 1;
      if (horizontal) area.scrollLeft += sign * distance;
      else area.scrollTop += sign * distance;
    }
  }

  /** The innermost element under `point` that scrolls on the axis, else the document. */
  #scrollableAt(point: Point, horizontal: boolean): DomElement {
    const doc = this.#doc;
    let element: DomElement | null = doc.elementFromPoint(point[0], point[1]);
    while (element && element !== doc.body && element !== doc.scrollingElement) {
      const style = this.#window.getComputedStyle(element);
      const overflow = horizontal ? style.overflowX : style.overflowY;
      const room = horizontal
        ? element.scrollWidth > element.clientWidth
        : element.scrollHeight > element.clientHeight;
      if (room && /^(auto|scroll|overlay)$/.test(overflow)) return element;
      element = element.parentElement;
    }
    const root = doc.scrollingElement ?? doc.body;
    if (!root) {
      throw new ToolError("Cannot run Scroll: the document has no scrolling element", {
        tool: "page",
      });
    }
    return root;
  }

  #keyboardPress(p: ActionParams): void {
    const target = readLocateParam("KeyboardPress", p, false);
    const combo = readKeyComboParam(p);
    if (target) this.#tap(target.center);
    const element = this.#doc.activeElement ?? this.#doc.body;
    if (!element) {
      throw new ToolError("Cannot run KeyboardPress: the document has no body", { tool: "page" });
    }
    const keys = combo.split("+").map((k) => (k === "" ? "+" : k));
    const key = keys[keys.length - 1];
    const held = new Set(keys.slice(0, -1));
    const init = (k: string) => ({
      key: k,
      code: codeOf(k),
      bubbles: true,
      cancelable: true,
      composed: true,
      ctrlKey: held.has("Control"),
      shiftKey: held.has("Shift"),
      altKey: held.has("Alt"),
      metaKey: held.has("Meta"),
    });
    const { KeyboardEvent } = this.#events;
    for (const m of held) element.dispatchEvent(new KeyboardEvent("keydown", init(m)));
    const down = new KeyboardEvent("keydown", init(key));
    element.dispatchEvent(down);
    element.dispatchEvent(new KeyboardEvent("keyup", init(key)));
    for (const m of [...held].reverse()) {
      element.dispatchEvent(new KeyboardEvent("keyup", init(m)));
    }
    // The one default action emulated: Enter in a single-line field submits its form.
    if (
      key === "Enter" && held.size === 0 && !down.defaultPrevented &&
      element.tagName.toLowerCase() === "input"
    ) element.form?.requestSubmit?.();
  }
}

/** Sets a field's value through its prototype's setter, which frameworks such as React watch. */
function setNativeValue(field: DomElement, value: string): void {
  let proto = Object.getPrototypeOf(field);
  while (proto) {
    const setter = Object.getOwnPropertyDescriptor(proto, "value")?.set;
    if (setter) return setter.call(field, value);
    proto = Object.getPrototypeOf(proto);
  }
  field.value = value;
}

/** `KeyboardEvent.code` for a key name: letters and digits get theirs, others their name. */
function codeOf(key: string): string {
  if (/^[a-z]$/i.test(key)) return `Key${key.toUpperCase()}`;
  if (/^[0-9]$/.test(key)) return `Digit${key}`;
  if (key === " ") return "Space";
  if (key === "Control" || key === "Shift" || key === "Alt" || key === "Meta") return `${key}Left`;
  return key;
}
