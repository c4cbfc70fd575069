/**
 * What the browser layer of `@sdk/web` (the page device, the drivers, the bridge, the testing
 * kit) takes from `@sdk/core`: the device seam's types and what platforms share. The agents
 * (`agent/`) and the playground stand on core's agent and import `@sdk/core` by name themselves.
 * Every import is by the bare package name, which the npm build and `deno publish` need.
 *
 * @module
 */

export type {
  AbstractInterface,
  ActionContext,
  ActionParams,
  ActionParamSpec,
  DeviceAction,
  DeviceEvent,
  ElementsDescriptionOptions,
  FrameStream,
  FrameStreamOptions,
  InputActionOptions,
  InputStrategy,
  LocatedElement,
  Point,
  Rect,
  ScreenshotEncoding,
  Size,
  StreamFrame,
  TargetIdentity,
} from "@sdk/core";
export { domTargetsAt, logDeviceActions, readKeyComboParam, withCustomActions } from "@sdk/core";
export {
  checkBooleanOptions,
  checkInputOptions,
  encodeBase64,
  sleep,
  typeCodePoints,
  typeSettings,
} from "@sdk/core";
export type { TypeSettings } from "@sdk/core";
export {
  childEnv,
  ConnectionError,
  holdOpen,
  InvalidStateError,
  LocateError,
  MissingDependencyError,
  NavigationError,
  SdkRangeError,
  SdkTypeError,
  ToolError,
  UnsupportedActionError,
  WaitForTimeoutError,
} from "@sdk/core";
export {
  readEnumParam,
  readLocateParam,
  readPositiveNumberParam,
  readStringParam,
} from "@sdk/core";
export {
  clearInputAction,
  doubleClickAction,
  dragAndDropAction,
  INPUT_MODES,
  inputAction,
  keyboardPressAction,
  longPressAction,
  PINCH_DIRECTIONS,
  pinchAction,
  SCROLL_DIRECTIONS,
  SCROLL_TYPES,
  scrollAction,
  SWIPE_DIRECTIONS,
  swipeAction,
  tapAction,
} from "@sdk/core";
