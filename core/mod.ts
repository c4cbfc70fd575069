/**
 * `@sdk/core`: the natural-language UI automation agent engine. It takes screenshots through a
 * device, asks a vision-language model behind any OpenAI-compatible endpoint what to do, performs
 * the actions, and writes an HTML report. Runtime-agnostic: Deno, Node and a browser page.
 *
 * Platform packages (`@sdk/web`, ...) provide devices and agent classes; this package holds the
 * {@link Agent}, the device seam, model configuration and errors.
 *
 * @example A custom device
 * ```ts ignore
 * import { Agent, type AbstractInterface } from "@sdk/core";
 * const agent = new Agent(myDevice, { modelConfig: { SDK_MODEL_NAME: "...", SDK_MODEL_BASE_URL: "...", SDK_MODEL_API_KEY: "..." } });
 * await agent.aiTap("the Sign in button");
 * ```
 *
 * @module
 */

export { Agent } from "./agent/agent.ts";
export { AppAgent } from "./agent/app_agent.ts";
export type { AppAgentOptions, AppDevice } from "./agent/app_agent.ts";
export type {
  AgentOptions,
  AiActOptions,
  AiInputOptions,
  AiKeyboardPressOptions,
  AiLocateOptions,
  AiLongPressOptions,
  AiPinchOptions,
  AiScrollOptions,
  AiTapOptions,
  AiWaitForOptions,
  ExtractOptions,
  InputMode,
  LocateOptions,
  LocateResultValue,
  PromptWithImages,
  RecordToReportOptions,
  ScrollParam,
  TUserPrompt,
} from "./session/options.ts";
export { DEFAULT_MAX_ACTIONS_PER_PLAN } from "./session/options.ts";
export { UIObserver } from "./observe/observer.ts";
export { type ObservedFrame, UIObservation } from "./observe/observation.ts";
export type { ObservationQueryOptions, StartObservingOptions } from "./observe/options.ts";
export { GherkinParseError, GherkinStepError } from "./gherkin/errors.ts";
export { YamlScriptError, YamlTaskError } from "./script/script_errors.ts";
export type { RunYamlOptions, RunYamlResult, YamlTaskOutcome } from "./script/run_yaml.ts";
export type { ExportedScript, ExportScriptOptions } from "./script/script_export.ts";
export type { ElementLocator } from "./session/cache_file.ts";
export type { GherkinScenarioOptions } from "./gherkin/run_scenario.ts";
export type { AIContextApiName, AIContexts } from "./session/context.ts";
export type { CacheConfig, CacheStrategy } from "./session/cache_options.ts";
export { FileCacheStore } from "./session/cache_file.ts";
export type {
  CachedTarget,
  CacheRecord,
  CacheStore,
  LocateCacheRecord,
  PlanCacheAction,
  PlanCacheRecord,
  VisualFingerprint,
} from "./session/cache_file.ts";
export type { AgentMetrics, UsageBucket } from "./agent/metrics.ts";
export type {
  AbstractInterface,
  ActionContext,
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
  Size,
  StreamFrame,
  TargetIdentity,
} from "./device/types.ts";
export type { ScreenshotEncoding, ScreenshotFormat } from "./image/encoding.ts";
export { DEFAULT_SCREENSHOT_QUALITY } from "./image/encoding.ts";
export {
  AssertionError,
  ConnectionError,
  type ConnectionErrorKind,
  DeviceNotFoundError,
  ExtractionError,
  FileError,
  type FileErrorReason,
  InternalError,
  InvalidStateError,
  isSdkError,
  LocateError,
  MissingDependencyError,
  ModelCallError,
  type ModelCallErrorKind,
  ModelConfigError,
  ModelResponseError,
  ModelTimeoutError,
  NavigationError,
  PlanningError,
  PromptImageError,
  QUOTE_EXCERPT_CHARS,
  quoteExcerpt,
  SdkError,
  type SdkErrorCode,
  type SdkErrorFields,
  SdkRangeError,
  SdkTypeError,
  ToolError,
  UnsupportedActionError,
  UnsupportedRuntimeError,
  WaitForTimeoutError,
} from "./errors.ts";
export type { ChatContentPart, ChatMessage, ModelImageSize } from "./model/chat.ts";
export type { CreateModelClient, ModelClient, ModelRequestOptions } from "./model/caller.ts";
export type {
  DialectDeviceAction,
  DialectImage,
  DialectLocate,
  DialectParseContext,
  DialectStep,
  DialectStepBase,
  DialectTurn,
  DialectTurnInput,
  PlannerDialect,
} from "./model/dialect.ts";
export type { ResolvedPromptImage } from "./model/prompt_images.ts";
export { checkModelConfigKeys, MODEL_CONFIG_KEYS, resolveIntentConfig } from "./model/config.ts";
export type { IntentModelConfig, ModelIntent } from "./model/config.ts";
export { getModelFamily, MODEL_FAMILY_NAMES } from "./model/families/mod.ts";
export type { ModelFamily } from "./model/families/mod.ts";
export type { AIUsageInfo } from "./report/types.ts";
export { normalizeKeyCombo, readKeyComboParam } from "./device/keys.ts";
export { checkAppNameResolver } from "./device/app_names.ts";
export { withCustomActions } from "./device/custom_actions.ts";
export {
  clearInputAction,
  deviceAction,
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
} from "./device/actions.ts";
export {
  readEnumParam,
  readLocateCenter,
  readLocateParam,
  readPositiveNumberParam,
  readStringParam,
} from "./device/params.ts";
export type { ActionParams } from "./device/params.ts";
export {
  checkBooleanOptions,
  checkInputOptions,
  checkOneOfOption,
  checkTypeDelayOption,
  typeSettings,
} from "./device/options.ts";
export type { TypeSettings } from "./device/options.ts";
export { scrollStrokes, swipeEnds } from "./device/gestures.ts";
export { shellQuote } from "./device/shell.ts";
export { typeCodePoints } from "./device/typing.ts";
export { buttonAction, phoneActions } from "./device/phone_actions.ts";
export type {
  PhoneActionHost,
  PhoneActions,
  PhoneActionText,
  PhoneParamText,
} from "./device/phone_actions.ts";
export {
  DEFAULT_DRAG_MS,
  desktopActions,
  DRAG_AND_DROP_MS,
  SCROLL_TO_END_CLICKS,
  WHEEL_CLICK_PX,
} from "./device/desktop_actions.ts";
export type { DesktopActionHost, DesktopPointer } from "./device/desktop_actions.ts";
export { runClearInput, runInput, runKeyboardPress } from "./device/text_entry.ts";
export type { TextEntryHost } from "./device/text_entry.ts";
export { toPhysicalPixel } from "./device/pixels.ts";
export {
  decodeXmlText,
  readBoundsText,
  readXmlTree,
  type XmlElement,
} from "./device/element_tree.ts";
export {
  describeTarget,
  TARGET_CONTEXT_MAX,
  TARGET_NAME_MAX,
  targetDifference,
  targetInTree,
  type TargetTreeNode,
  trimTargetText,
} from "./device/target_identity.ts";
export { locateInTree, xpathsInTree } from "./device/tree_xpath.ts";
export { domTargetsAt } from "./device/dom_targets.ts";
export type { Stroke } from "./device/gestures.ts";
export type {
  ActionImplementation,
  SharedActionText,
  SharedLengthActionText,
  SharedTimedActionText,
} from "./device/actions.ts";
export { logDeviceActions } from "./log/device_actions.ts";
export {
  DEFAULT_LOG_MAX_FILE_MB,
  DEFAULT_LOG_MAX_TOTAL_MB,
  logger,
  RunLog,
  runLog,
} from "./log/run_log.ts";
export type { LogFn, RunLogOptions } from "./log/run_log.ts";
export { getEnv, runDir, sleep, writeFileAtomic } from "./runtime/runtime.ts";
export {
  type AdoptableChild,
  adoptChild,
  type AdoptChildOptions,
  adoptedChildPids,
  BASE_CHILD_ENV,
  childEnv,
  holdOpen,
  onProcessEnd,
} from "./runtime/children.ts";
export { type PrivateTempDir, privateTempDir } from "./runtime/private_dir.ts";
export { encodeBase64 } from "./image/base64.ts";
export { SDK_VERSION } from "./version.ts";
export {
  type AcquireOptions,
  deviceLost,
  DevicePool,
  type DevicePoolOptions,
  type ReleaseResult,
} from "./pool/device_pool.ts";
export {
  describeEach,
  type DeviceLister,
  type DeviceListing,
  listDevices,
  type PoolDevice,
  selectDevices,
} from "./pool/devices.ts";
