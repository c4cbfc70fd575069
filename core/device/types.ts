/**
 * The device seam: what a platform (web page, phone, desktop) gives the agent.
 *
 * The planner and executor never branch on the platform; a platform contributes a
 * screenshot source, its logical size and an action space (spec 4.1, DESIGN "Seams").
 *
 * Coordinates: every point and rectangle handed to a device action is in the device's
 * **logical** pixels (CSS pixels on the web). Screenshots are in **physical** pixels
 * (logical x `dpr`).
 *
 * @module
 */

import type { ScreenshotEncoding } from "../image/encoding.ts";

/** A point in logical pixels: `[x, y]`. */
export type Point = [number, number];

/** A rectangle; the unit (logical or physical pixels) is stated where it is used. */
export interface Rect {
  /** Distance from the left edge. */
  left: number;
  /** Distance from the top edge. */
  top: number;
  /** Width. */
  width: number;
  /** Height. */
  height: number;
}

/** Logical size of the target and its device pixel ratio. */
export interface Size {
  /** Logical width (CSS pixels on the web). */
  width: number;
  /** Logical height (CSS pixels on the web). */
  height: number;
  /** Physical screenshot pixels per logical pixel (web: `devicePixelRatio`). */
  dpr: number;
}

/** An element found on screen, in logical pixels, as handed to a device action. */
export interface LocatedElement {
  /** The description the element was located by. */
  description: string;
  /** Click target in logical pixels. */
  center: Point;
  /** Bounding rectangle in logical pixels. */
  rect: Rect;
}

/**
 * What a platform's own element tree places at one point of the screen: the identity of an
 * action's target, read when the action is planned and again before it runs
 * (docs/model-protocol.md, "Target checks"). Two identities match when kind, id, name and context
 * are equal and the box moved less than half its size; see `targetDifference` in
 * `core/device/target_identity.ts`.
 */
export interface TargetIdentity {
  /**
   * The element's kind: a web tag with its role and explicit role, or an input with its type (`a`, `div dialog`, `input checkbox`), an Android class
   * (`android.widget.Button`), an iOS element type (`XCUIElementTypeButton`), a HarmonyOS type.
   */
  kind: string;
  /** A stable id where the platform has one: a DOM id, a resource-id, an accessibility identifier. */
  id?: string;
  /**
   * The accessible name or the element's own trimmed text (at most 80 characters); never a
   * field's typed value, which an action may change.
   */
  name?: string;
  /**
   * The trimmed text of the nearest enclosing element whose text is more than the element's own
   * (a list row around its Delete button), at most 120 characters: tells apart elements that
   * share a name.
   */
  context?: string;
  /** The element's bounds in logical pixels (CSS pixels on the web). */
  box: Rect;
  /**
   * Whether the element takes a secret (a password field: Android's `password="true"`, iOS's
   * `XCUIElementTypeSecureTextField`): what is typed into it is written as `***`.
   */
  secret?: boolean;
}

/**
 * Describes one parameter of a device action, for the planning prompt and for validation.
 * `locate` parameters are filled by the SDK with a {@link LocatedElement}.
 *
 * `files` parameters are file paths the planner asks to upload (a string or an array of strings).
 * The SDK checks them against the call's `fileChooserAllowedDir` (spec 4.2 `aiAct` rule 5) and
 * hands the action an array of real absolute paths; without that option it rejects the action.
 * An action that declares a `files` parameter also receives the user's `fileChooserAccept`
 * through {@link ActionContext.fileChooserAccept}.
 */
export interface ActionParamSpec {
  /** Parameter name as it appears in the action's `param` object. */
  name: string;
  /** Value kind. */
  type: "string" | "number" | "boolean" | "locate" | "enum" | "files";
  /** Allowed values when `type` is `"enum"`. */
  values?: readonly string[];
  /** Whether the planner must give it. */
  required: boolean;
  /** One line for the model: what the parameter means and its unit. */
  description: string;
}

/**
 * How an `Input` action enters text (spec 4.2, rules for `aiInput` 3): `'legacy'` the platform's
 * earlier typing, `'sequential'` one Unicode code point at a time, `'bulk'` the whole text in one
 * input operation.
 */
export type InputStrategy = "legacy" | "sequential" | "bulk";

/**
 * Per-action text-entry settings (`aiInput` options). Each one given overrides the device's own
 * default (spec 4.2, rules for `aiInput` 5); the device checks the combined result before it
 * touches the target.
 */
export interface InputActionOptions {
  /** Delay between keystrokes in ms (finite, >= 0); `0` overrides a positive device default. */
  keyboardTypeDelay?: number;
  /** Text-entry strategy; `'bulk'` needs the effective delay to be 0 or unset. */
  inputStrategy?: InputStrategy;
}

/** Context handed to a device action call. */
export interface ActionContext {
  /** Aborts the action when the caller's signal fires. */
  signal?: AbortSignal;
  /**
   * The user's `fileChooserAccept` of this call (spec 4.2): absolute paths of existing files to
   * give a file chooser the action opens. Only actions with a `files` parameter use it; a `files`
   * value the planner gave wins over it.
   */
  fileChooserAccept?: readonly string[];
  /** Text-entry overrides of the call, for text-entry actions; other actions ignore it. */
  inputOptions?: InputActionOptions;
  /**
   * Whether the text typed is a secret (docs/security.md, "Secrets typed on screen"): `true` when
   * the caller knows it (`secret: true`, a secret variable); a text-entry action whose target
   * takes a secret (a password field) sets it. The SDK then writes the value as `***` in the
   * report, the run log, the cache and the model's history.
   */
  secret?: { value: boolean };
}

/**
 * One action of a device's action space (the spec's `DeviceAction`).
 *
 * @typeParam P shape of the `param` object the action receives; `locate` parameters arrive as
 * {@link LocatedElement} (or `undefined` when optional and not given).
 */
export interface DeviceAction<P = Record<string, unknown>> {
  /** Action name as the planner writes it, e.g. `"Tap"`. */
  name: string;
  /** One line for the model: what the action does. */
  description: string;
  /** Parameters, in prompt order. */
  params: readonly ActionParamSpec[];
  /**
   * The system function the action performs, for planners that name functions rather than the
   * device's actions (the UI-TARS and AutoGLM dialects' back, home, ...): `"back"` (the previous
   * screen or page), `"home"` (the home screen), `"recentApps"` (the app switcher), `"launch"`
   * (open an app or a URL; its first string parameter takes the target). Optional: without it
   * the role is read from the name by the convention of `core/device/roles.ts` (`Back`, `GoBack`
   * or a name ending in `BackButton` is back; `Home` or `...HomeButton` home; `RecentApps`,
   * `...RecentAppsButton` or `...AppSwitcher` recent apps; `Launch` launch).
   */
  role?: "back" | "home" | "recentApps" | "launch";
  /**
   * Set on an action that reaches past the screen (a device shell, a raw request to the device's
   * driver): the device option that removes it, e.g. `"exposeRunBridgeShellAction"`. A script
   * run as untrusted refuses an agent that offers such an action (docs/security.md).
   */
  beyondScreen?: string;
  /** Performs the action. Coordinates in `param` are logical pixels. */
  call(param: P, context: ActionContext): Promise<void>;
}

/** Options of {@link AbstractInterface.getElementsDescription}. */
export interface ElementsDescriptionOptions {
  /**
   * `true`: only elements that are rendered and intersect the screen (`domIncluded:
   * 'visible-only'`). `false`: hidden and off-screen elements too (`domIncluded: true`).
   */
  visibleOnly: boolean;
}

/** One frame of a continuous screen source (spec 4.4 rule 3). */
export interface StreamFrame {
  /** The image as a base64 body (no `data:` prefix). */
  data: string;
  /** Its format. */
  format: "jpeg" | "png";
  /** When the frame was produced, ms since the epoch (the `Date.now()` clock). */
  timestamp: number;
}

/** Options of {@link AbstractInterface.startFrameStream}. */
export interface FrameStreamOptions {
  /**
   * Called for each frame, in order. Sources may send frames only when the screen changes (a
   * DevTools screencast does), so a quiet screen may send none for a long time.
   */
  onFrame(frame: StreamFrame): void;
  /** JPEG quality the source should encode at, 1-100, where it can choose. */
  quality?: number;
  /**
   * The least time between two frames the consumer needs, ms: a source that can pace itself
   * sends no more often (the observer asks for half its sampling interval). Default: as often as
   * the source produces frames.
   */
  minIntervalMs?: number;
}

/** A running frame stream. */
export interface FrameStream {
  /** Stops the stream; no `onFrame` call follows once it resolves. Safe to call twice. */
  stop(): Promise<void>;
}

/**
 * Something that happened on the device by itself, which the agent records in its report: a web
 * page's native dialog the device answered, for one. A device reports it once it is over.
 */
export interface DeviceEvent {
  /** The step's title, e.g. `"Dialog: confirm, dismissed"`. */
  title: string;
  /** The step's text, e.g. the dialog's message. */
  text?: string;
  /** Details shown as the step's parameters. */
  param?: Record<string, unknown>;
  /** When it began, ms since the epoch. Default: when it was reported. */
  startedAt?: number;
  /** What went wrong while the device handled it; the step is then marked failed with it. */
  error?: string;
}

/**
 * The device seam every platform implements (DESIGN "Seams"; the spec's interface of 4.1).
 *
 * Optional members are capabilities: the agent checks for them instead of asking for a platform name.
 */
export interface AbstractInterface {
  /** Short name of the interface kind, for reports (e.g. `"web-page"`). */
  readonly interfaceType: string;
  /**
   * Screenshot of the whole screen as a `data:image/png;base64,...` or
   * `data:image/jpeg;base64,...` URI, in physical pixels.
   *
   * @param encoding the format the agent will send and store. A device that can encode at the
   *   source (web pages: Chromium's own JPEG encoder) returns that format and saves a decode and
   *   an encode; a device that cannot may return PNG, and the agent encodes it once. The agent
   *   asks for PNG when it must shrink or pad the image first, so lossy encoding happens once.
   */
  screenshotBase64(encoding?: ScreenshotEncoding): Promise<string>;
  /** Logical size and device pixel ratio. */
  size(): Promise<Size>;
  /** The actions this device can perform. */
  actionSpace(): DeviceAction[];
  /**
   * Called by the agent after every action: a device waits here for the UI to settle when the
   * action started work (web: a navigation or network requests). Must return at once otherwise.
   */
  afterAction?(): Promise<void>;
  /** Called by the agent before every action, e.g. to start tracking navigations. */
  beforeAction?(): Promise<void>;
  /**
   * Finds the first visible element an XPath expression selects (spec 4.2 `xpath`), scrolled into
   * view when it was off-screen; `undefined` when none is visible. Rect and center in logical
   * pixels. Without this capability the agent locates by the description with the model.
   *
   * @throws {TypeError} naming the expression when it is not a valid XPath selecting nodes.
   */
  locateByXpath?(xpath: string): Promise<LocatedElement | undefined>;
  /**
   * XPaths that select the element at `point` (logical pixels), best first, for the locate cache
   * (spec 2.2): after the model locates an element, the agent stores them and later tries them
   * with {@link AbstractInterface.locateByXpath} before asking the model. `[]` when the element
   * cannot be identified by an xpath. A device needs both capabilities for its locations to be
   * cached.
   */
  xpathsAt?(point: Point): Promise<string[]>;
  /**
   * The identity of the element at each point (logical pixels), in one read of the platform's
   * element tree (the DOM through open shadow roots and same-origin frames, `uiautomator dump`,
   * WebDriverAgent's `/source`, `uitest dumpLayout`); `undefined` for a point where the tree
   * names nothing. Between the actions of one plan the agent reads each further action's target
   * when the plan arrives and again before the action, and drops the rest of the plan when it
   * changed (docs/model-protocol.md, "Target checks"). Optional: without it the agent compares
   * the pixels of the target's box on the two screenshots instead.
   */
  targetsAt?(points: readonly Point[]): Promise<(TargetIdentity | undefined)[]>;
  /** Local time on the device (`useDeviceTime`). */
  getDeviceLocalTimeString?(): Promise<string>;
  /**
   * A short text that changes when the screen's context changes beyond what an action on one
   * element does: a web page's address, the foreground app of a phone. Between the actions of
   * one plan the agent compares it, and drops the rest of the plan when it changed
   * (docs/model-protocol.md, "Several actions per plan"). Optional: without it the guard
   * compares screenshots only.
   */
  screenContext?(): Promise<string>;
  /** Page or device URL or title shown in the report, when the device has one. */
  describe?(): Promise<string>;
  /**
   * A simplified element tree for extraction with `domIncluded` (spec 4.3), sent to the model in
   * a `<page-dom>` block (docs/model-protocol.md). Plain text, one line per element, indented two
   * spaces per nesting level: `tag#id name="value" ... text="..." box=(left,top,width,height)`,
   * boxes in logical pixels relative to the screen, with the flag `hidden` (not rendered) or
   * `off-screen` (outside the screen) on elements that are not visible. Keep it bounded (the web
   * device cuts it at 60,000 characters). Devices without an element tree leave it out, and
   * `domIncluded` then fails naming the option.
   */
  getElementsDescription?(options: ElementsDescriptionOptions): Promise<string>;
  /**
   * Starts a continuous screen source for observation (spec 4.4 rule 3: the DevTools screencast
   * on web, the mirror stream on MobileA, MJPEG on MobileB). Without it the observer takes a
   * screenshot per tick. Frames are in physical pixels or smaller (a source may scale them down).
   */
  startFrameStream?(options: FrameStreamOptions): Promise<FrameStream>;
  /**
   * Subscribes to the device's {@link DeviceEvent}s; returns the unsubscription. The agent
   * subscribes when it is created and records each event as a `Log` step: of the call running when
   * it was reported, or, between calls, of a call of its own (`apiName` `"deviceEvent"`).
   * Optional: a device without events leaves it out.
   */
  onDeviceEvent?(listener: (event: DeviceEvent) => void): () => void;
  /** Releases the device's own resources (not the page or the physical device). */
  destroy?(): Promise<void>;
}
