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
 * Describes one parameter of a device action, for the planning prompt and for validation.
 * `locate` parameters are filled by the SDK with a {@link LocatedElement}.
 */
export interface ActionParamSpec {
  /** Parameter name as it appears in the action's `param` object. */
  name: string;
  /** Value kind. */
  type: "string" | "number" | "boolean" | "locate" | "enum";
  /** Allowed values when `type` is `"enum"`. */
  values?: readonly string[];
  /** Whether the planner must give it. */
  required: boolean;
  /** One line for the model: what the parameter means and its unit. */
  description: string;
}

/** Context handed to a device action call. */
export interface ActionContext {
  /** Aborts the action when the caller's signal fires. */
  signal?: AbortSignal;
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
  /** Performs the action. Coordinates in `param` are logical pixels. */
  call(param: P, context: ActionContext): Promise<void>;
}

/**
 * The device seam every platform implements (DESIGN "Seams"; the spec's interface of 4.1).
 *
 * Optional members are capabilities: the agent checks for them instead of asking for a platform name.
 */
export interface AbstractInterface {
  /** Short name of the interface kind, for reports (e.g. `"web-page"`). */
  readonly interfaceType: string;
  /** Screenshot of the whole viewport as a `data:image/png;base64,...` or JPEG data URI, physical pixels. */
  screenshotBase64(): Promise<string>;
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
  /** Local time on the device (`useDeviceTime`). */
  getDeviceLocalTimeString?(): Promise<string>;
  /** Page or device URL or title shown in the report, when the device has one. */
  describe?(): Promise<string>;
  /** Releases the device's own resources (not the page or the physical device). */
  destroy?(): Promise<void>;
}
