/**
 * The port between the web page device and a browser driver library.
 *
 * {@link PageDriver} is everything the web page device (`WebPageDevice`) needs from a driver:
 * input, a viewport screenshot, script evaluation, history, and a few events to tell whether an
 * action started a navigation or network requests. Each driver (DriverA in `driver_a/`, DriverB in `driver_b/`, later the extension
 * bridge) implements it over its own page object; nothing here names a driver or uses its types.
 *
 * Units: every coordinate and size is in CSS pixels unless the member says otherwise; only the
 * screenshot is in physical pixels (CSS pixels x `devicePixelRatio`).
 *
 * @module
 */

import type { ScreenshotEncoding } from "../_core.ts";

/** A mouse button. */
export type MouseButton = "left" | "right" | "middle";

/** The page's viewport: CSS size and device pixel ratio. */
export interface ViewportInfo {
  /** Viewport width in CSS pixels. */
  width: number;
  /** Viewport height in CSS pixels. */
  height: number;
  /** Physical pixels per CSS pixel (`window.devicePixelRatio`). */
  dpr: number;
}

/**
 * A network request seen by the driver.
 *
 * The driver passes an object with the same `id` to {@link PageDriver.onRequestStart} and to
 * {@link PageDriver.onRequestEnd} of one request; ids are unique within one driver instance.
 */
export interface DriverRequest {
  /** Identifies the request between its start and end events. */
  readonly id: string;
  /** Requested URL. */
  readonly url: string;
  /**
   * True when this request loads a new document into the top-level frame (a cross-document
   * navigation of the page; each redirect hop is its own request).
   */
  readonly isMainFrameNavigation: boolean;
}

/** Removes the listener it was returned for. Calling it more than once is harmless. */
export type Unsubscribe = () => void;

/** Options of {@link PageDriverMouse.click}. */
export interface ClickOptions {
  /** Button to press. Default `"left"`. */
  button?: MouseButton;
  /**
   * Number of clicks, dispatched like a user would (`2` fires two `click` events and one
   * `dblclick`). Default `1`.
   */
  clickCount?: number;
}

/** Options of {@link PageDriverMouse.down} and {@link PageDriverMouse.up}. */
export interface ButtonOptions {
  /** Button to press or release. Default `"left"`. */
  button?: MouseButton;
}

/** Mouse input; coordinates in CSS pixels relative to the viewport's top-left corner. */
export interface PageDriverMouse {
  /** Moves the pointer to `(x, y)`. */
  move(x: number, y: number): Promise<void>;
  /** Moves the pointer to `(x, y)` and clicks there. */
  click(x: number, y: number, options?: ClickOptions): Promise<void>;
  /** Presses a button at the current pointer position. */
  down(options?: ButtonOptions): Promise<void>;
  /** Releases a button at the current pointer position. */
  up(options?: ButtonOptions): Promise<void>;
  /**
   * Dispatches a wheel event at the current pointer position (the last position given to
   * `move` or `click`; `(0, 0)` before any). Positive `deltaY` scrolls down, positive `deltaX`
   * scrolls right; deltas in CSS pixels. Resolves once the event is dispatched, which may be
   * before the page has finished scrolling.
   */
  wheel(deltaX: number, deltaY: number): Promise<void>;
}

/** Options of {@link PageDriverKeyboard.type}. */
export interface TypeOptions {
  /** Delay between key presses in ms. Default: the driver's own (normally 0). */
  delayMs?: number;
}

/** Keyboard input into the focused element. */
export interface PageDriverKeyboard {
  /** Types `text` one character at a time, with key events for each character. */
  type(text: string, options?: TypeOptions): Promise<void>;
  /**
   * Presses and releases a key or a combination: `Mod+...+Key`, modifiers among `Control`,
   * `Shift`, `Alt`, `Meta`, then one key named like `KeyboardEvent.key` (`"Enter"`, `"Tab"`,
   * `"ArrowDown"`, `"a"`, `"+"`). Examples: `"Enter"`, `"Control+A"`, `"Shift+Tab"`,
   * `"Control++"`. Modifiers are pressed in order and released in reverse order.
   *
   * @throws {SdkTypeError} when a part before the key is not a modifier; the driver's error when
   * it does not know the key name.
   */
  press(combo: string): Promise<void>;
  /** Inserts `text` as one input operation, without key events. */
  insertText(text: string): Promise<void>;
}

/** One finger on the screen, in CSS pixels of the viewport. */
export interface TouchPoint {
  /** Distance from the viewport's left edge. */
  x: number;
  /** Distance from the viewport's top edge. */
  y: number;
  /** Identifies the finger from its `touchStart` to the `touchEnd`. */
  id: number;
}

/** Kind of a touch event sent by {@link PageDriverTouch.dispatch}. */
export type TouchEventType = "touchStart" | "touchMove" | "touchEnd";

/**
 * Touch input (an optional capability: Chromium-based browsers, over the DevTools protocol).
 * Events reach the page as real `touchstart`/`touchmove`/`touchend` and `pointerType: "touch"`
 * pointer events.
 */
export interface PageDriverTouch {
  /**
   * Makes the page see a touch screen: `navigator.maxTouchPoints` and the `(pointer: coarse)`
   * media query at once, `ontouchstart` in documents loaded afterwards. Mouse input keeps
   * working. Idempotent; lasts as long as the driver.
   *
   * @throws {UnsupportedActionError} saying touch needs a Chromium-based browser when the
   * browser has no DevTools protocol.
   */
  enable(): Promise<void>;
  /**
   * Sends one touch event. `touchStart` and `touchMove`: `points` are all fingers on the screen
   * after the event (a new `id` puts a finger down; a known one moves). `touchEnd`: every finger
   * is lifted and `points` must be empty.
   *
   * @throws {UnsupportedActionError} as {@link PageDriverTouch.enable} does.
   */
  dispatch(type: TouchEventType, points: readonly TouchPoint[]): Promise<void>;
}

/** A file chooser the page opened (a file input's picker), caught instead of shown. */
export interface PageFileChooser {
  /** Whether the input accepts several files (its `multiple` attribute). */
  readonly multiple: boolean;
  /**
   * Sets the input's files, as if the user had picked them; the page gets `input` and `change`
   * events. Paths are absolute.
   *
   * @throws {Error} when a file cannot be read, or the input is gone.
   */
  setFiles(paths: readonly string[]): Promise<void>;
}

/** A watch for file choosers, from {@link PageDriver.watchFileChooser}. */
export interface FileChooserWatch {
  /**
   * Resolves with the first chooser the page opens while the watch is on, or with `undefined`
   * once the watch is stopped first. Never rejects.
   */
  readonly opened: Promise<PageFileChooser | undefined>;
  /** Stops watching; later choosers are no longer caught by this watch. Idempotent. */
  stop(): void;
}

/**
 * What opened a native dialog: the page's `alert()`, `confirm()` or `prompt()`, or leaving a page
 * whose `beforeunload` handler asks to stay.
 */
export type NativeDialogType = "alert" | "confirm" | "prompt" | "beforeunload";

/**
 * A native dialog the page opened, from {@link PageDriver.onDialog}. The page's script waits
 * (and the page with it) until the dialog is accepted or dismissed.
 */
export interface PageDialog {
  /** What opened it. */
  readonly type: NativeDialogType;
  /** Its text (Chromium shows none for `beforeunload`: `""`). */
  readonly message: string;
  /** A prompt's default answer; `""` for the other types. */
  readonly defaultValue: string;
  /**
   * Presses OK: `confirm()` returns true, `prompt()` returns `promptText`, a `beforeunload` dialog
   * lets the page go.
   *
   * @throws {Error} when the dialog was already answered, or the page is gone.
   */
  accept(promptText?: string): Promise<void>;
  /**
   * Presses Cancel: `confirm()` returns false, `prompt()` null, and a `beforeunload` dialog keeps
   * the page (the navigation is cancelled).
   *
   * @throws {Error} as {@link PageDialog.accept} does.
   */
  dismiss(): Promise<void>;
}

/** Options of {@link PageDriver.startScreencast}. */
export interface ScreencastOptions {
  /** JPEG quality, 1-100. */
  quality: number;
  /**
   * Least time between two frames, ms: the screencast holds back its ack of a frame (and so the
   * browser's next frame) until this long after it arrived. Default 0: every frame.
   */
  minIntervalMs?: number;
  /**
   * Called with each frame, in order: `data` is a base64 JPEG (no `data:` prefix), `timestamp`
   * when the browser produced it, in ms since the epoch (never earlier than the previous frame's).
   */
  onFrame(data: string, timestamp: number): void;
}

/** A running screencast, from {@link PageDriver.startScreencast}. */
export interface PageDriverScreencast {
  /**
   * Stops the screencast; no `onFrame` call follows once it resolves. Safe to call twice and
   * after the page closed.
   */
  stop(): Promise<void>;
}

/**
 * What the web page device needs from a browser driver.
 *
 * A driver wraps one page object the user owns: nothing here closes it.
 */
export interface PageDriver {
  /** Mouse input. */
  readonly mouse: PageDriverMouse;
  /** Keyboard input. */
  readonly keyboard: PageDriverKeyboard;
  /**
   * Touch input, when the driver can send it (Chromium-based browsers); undefined otherwise.
   * The device uses it only with `enableTouchEventsInActionSpace`.
   */
  readonly touch?: PageDriverTouch;
  /**
   * Screenshot of the viewport only (not the full page), in physical pixels: its size is
   * {@link ViewportInfo} width and height x `dpr`. Encoded by the browser as `encoding` asks:
   * PNG, or JPEG at `encoding.quality`. Default: PNG.
   */
  screenshot(encoding?: ScreenshotEncoding): Promise<Uint8Array>;
  /** The viewport's CSS size and device pixel ratio. */
  viewport(): Promise<ViewportInfo>;
  /**
   * Runs a script in the page's main frame and resolves with its (JSON-serialisable) result.
   * A function must be self-contained: it is serialised and loses its closure.
   *
   * @throws {Error} when the script throws, or the page navigates while it runs.
   */
  evaluate<R>(script: string | (() => R | Promise<R>)): Promise<R>;
  /** Runs `fn(arg)` in the page's main frame; `arg` must be JSON-serialisable. */
  evaluate<R, A>(fn: (arg: A) => R | Promise<R>, arg: A): Promise<R>;
  /**
   * Adds a script that runs in every document the page loads from now on (each frame, before
   * the document's own scripts). It does not run in the current document. The function must be
   * self-contained, like {@link PageDriver.evaluate}'s.
   *
   * @returns a function that removes the script from later documents (harmless once the page
   * is closed).
   */
  addInitScript(script: () => void): Promise<() => Promise<void>>;
  /** The main frame's current URL. */
  url(): Promise<string>;
  /**
   * Navigates the page to `url` and resolves once the new document is usable: committed and
   * parsed (`DOMContentLoaded`), not necessarily loaded (the device waits for `load` itself,
   * within its own timeout).
   *
   * @throws {Error} when the navigation fails (bad URL, unreachable host, driver timeout).
   */
  goto(url: string): Promise<void>;
  /** Reloads the page; resolves like {@link PageDriver.goto}. */
  reload(): Promise<void>;
  /** Goes back one history entry; resolves like {@link PageDriver.goto}, at once without one. */
  goBack(): Promise<void>;
  /** Calls `listener` when the page (any of its frames) sends a request. */
  onRequestStart(listener: (request: DriverRequest) => void): Unsubscribe;
  /**
   * Calls `listener` when a request ends: its response body arrived (`failed` false; a
   * redirect response ends its hop), or it failed or was cancelled (`failed` true).
   */
  onRequestEnd(listener: (request: DriverRequest, failed: boolean) => void): Unsubscribe;
  /** Calls `listener` when the top-level document fires its `load` event. */
  onMainFrameLoad(listener: () => void): Unsubscribe;
  /**
   * Starts catching the file choosers the page opens: a caught chooser shows no dialog; it waits
   * for {@link PageFileChooser.setFiles}. The interception may reach the page only after a later
   * round trip (an {@link evaluate}); the device makes one before it acts. Optional: a driver
   * without it cannot choose files.
   */
  watchFileChooser?(): FileChooserWatch;
  /**
   * Calls `listener` with each native dialog the page opens (`alert`, `confirm`, `prompt`,
   * `beforeunload`). While a listener is on, the driver leaves every dialog to it: the page stays
   * blocked until the dialog is answered, so the listener must answer each one. Optional: a
   * driver without it leaves dialogs to its library.
   */
  onDialog?(listener: (dialog: PageDialog) => void): Unsubscribe;
  /**
   * Starts the browser's screencast of the viewport (the DevTools protocol's `Page.startScreencast`;
   * Chromium-based browsers). Optional: the device falls back to screenshots without it.
   *
   * What Chromium sends (checked by the contract tests): one frame of the current picture right
   * after the start, even on a page that does not change, then a frame each time the page
   * repaints, none while it is still. Frames are JPEG at the viewport's CSS size, not its
   * physical size: at `dpr` 2 a 640x480 viewport gives 640x480 frames (asking for a larger
   * `maxWidth`/`maxHeight` does not change that), so they are at most as sharp as
   * {@link PageDriver.screenshot}.
   *
   * @throws {UnsupportedActionError} saying the screencast needs a Chromium-based browser when
   * the browser has no DevTools protocol.
   */
  startScreencast?(options: ScreencastOptions): Promise<PageDriverScreencast>;
}
