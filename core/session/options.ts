/**
 * Agent options shared by every platform (spec 2.1) and the per-call option shapes (spec 4.2-4.4).
 *
 * @module
 */

import type { CreateModelClient } from "../model/caller.ts";
import type { AIUsageInfo } from "../report/types.ts";
import type { CacheConfig } from "./cache_options.ts";
import type { ElementLocator } from "./cache_file.ts";
import type { AIContexts } from "./context.ts";

/** How many actions one planning answer may carry unless `maxActionsPerPlan` says otherwise. */
export const DEFAULT_MAX_ACTIONS_PER_PLAN = 5;

/** A prompt with images (spec 2.5). */
export interface PromptWithImages {
  /** Text; images are referred to by name. */
  prompt: string;
  /** Images named in the prompt: `url` is a local path, base64 data or an http link. */
  images?: { name: string; url: string }[];
  /** Convert http image links to base64 before sending. */
  convertHttpImage2Base64?: boolean;
}

/** A locate or ask parameter: text, or text with images. */
export type TUserPrompt = string | PromptWithImages;

/** Options shared by all agents (spec 2.1). */
export interface AgentOptions {
  /** Write a report file. Default `true`. */
  generateReport?: boolean;
  /** Also write a JSON dump per execution (requires `generateReport`). Default `false`. */
  persistExecutionDump?: boolean;
  /**
   * Report file name (`single-html`) without or with `.html`; with `html-and-external-assets`,
   * the report's folder name. Default: generated. A name whose agent is still running (another
   * agent of this process or another) is never replaced: the agent takes `<name>-2` (then `-3`,
   * ...), and the console names both files. A report whose agent finished (destroyed, or its
   * process gone: an earlier run) is replaced by the next agent of that name, atomically.
   * `reportFile` is the path taken.
   */
  reportFileName?: string;
  /** Print where the report is. Default `true`. */
  autoPrintReportMsg?: boolean;
  /**
   * The cache (spec 2.2): `{ id, strategy?, cacheDir?, store? }` keeps model locations (as
   * xpaths) and `aiAct` plans in `<cacheDir>/<id>.cache.yaml` (or in `store`), so repeated runs
   * skip model calls; `false` turns it off. Default: off (unless `cacheId` is given). Checked at construction (see the
   * agent's constructor). Off in a browser runtime, with a warning.
   */
  cache?: false | CacheConfig;
  /** @deprecated Same as `cache: { id: cacheId }` when `cache` is unset; use `cache.id`. */
  cacheId?: string;
  /** Agent-level AI guidance (spec 2.4). */
  aiContexts?: AIContexts;
  /** Deprecated: acts as `aiContexts.aiAct`. */
  aiActContext?: string;
  /** Older deprecated alias of `aiContexts.aiAct`. */
  aiActionContext?: string;
  /** Model settings in code; when given, model environment variables are ignored (spec 2.3). */
  modelConfig?: Record<string, string | number>;
  /** Maximum planning cycles of `aiAct`. Default: the planning family's (20 standard). */
  replanningCycleLimit?: number;
  /**
   * How many actions one planning answer of `aiAct` may carry, performed in order with a check
   * for surprises before each further one (docs/model-protocol.md, "Several actions per plan").
   * A positive integer; default {@link DEFAULT_MAX_ACTIONS_PER_PLAN} (5); `1` plans one action
   * per model call. The UI-TARS and AutoGLM dialects always plan one.
   */
  maxActionsPerPlan?: number;
  /** Wait after each action so the UI settles, ms. Default 300. */
  waitAfterAction?: number;
  /** Task timestamps from the device's clock. Default `false`. */
  useDeviceTime?: boolean;
  /** Called before each task with a human-readable summary. */
  onTaskStartTip?: (tip: string) => void | Promise<void>;
  /** Wraps the model client (spec 4.1.3). */
  createModelClient?: CreateModelClient;
  /** Called once per model call with its usage. */
  onLLMUsage?: (usage: AIUsageInfo) => void;
  /**
   * Report format. Default `'single-html'` (one file, screenshots embedded);
   * `'html-and-external-assets'` writes `<reportFileName>/index.html` plus image files (serve it
   * over HTTP to view).
   */
  outputFormat?: "single-html" | "html-and-external-assets";
  /** Divides screenshot width and height before sending to the model. Default 1. */
  screenshotShrinkFactor?: number;
  /**
   * The format of every screenshot sent to the model and stored in the report (the same bytes go
   * to both): `'jpeg'` (default; compact) or `'png'` (lossless, for pixel-exact reports; about 3 to
   * 5 times larger on image-rich pages). Devices that can encode at the source do so (web pages:
   * Chromium's own encoder); others return PNG and the SDK encodes once. Prompt images are sent
   * as given. Not part of the spec's option list: an extension of this SDK.
   *
   * @throws {TypeError} from the agent's constructor for any other value.
   */
  screenshotFormat?: "jpeg" | "png";
  /**
   * JPEG quality of screenshots, an integer from 1 to 100. Default 60 (chosen by measurement,
   * see docs/model-protocol.md "The image"). Ignored with `screenshotFormat: 'png'`.
   *
   * @throws {RangeError} from the agent's constructor for any other value.
   */
  screenshotQuality?: number;
}

/** Options of every locating action (spec 4.2). */
export interface LocateOptions {
  /** Enhanced two-call location. Default `false`. */
  deepLocate?: boolean;
  /** Deprecated name of `deepLocate` on single-step actions. */
  deepThink?: boolean;
  /** Per-call context; outranks agent contexts. */
  context?: string;
  /**
   * XPath of the target, tried before the model (spec 4.2; devices with `locateByXpath`, i.e.
   * web pages, main frame only): the first visible element it selects is used, scrolled into view
   * when off-screen, with no model call. When nothing visible matches (or the device cannot
   * locate by xpath), the description is located by the model. An invalid expression rejects the
   * call with a `TypeError` naming it. Default undefined.
   */
  xpath?: string;
  /**
   * A known location of the target, as an exported script writes it (`agent.exportScript()`,
   * docs/yaml-and-cli.md "Exported scripts"): a location record's `xpaths` and `target`. Tried
   * after `xpath` and before the agent's cache and the model, like a cached location: used only
   * while the element it selects is still that target. Default undefined.
   */
  locator?: ElementLocator;
  /**
   * Whether this call may use the agent's cache (spec 2.2): `false` neither reads nor writes it.
   * Default `true`.
   */
  cacheable?: boolean;
}

/** Options of `aiAct` (spec 4.2). */
export interface AiActOptions {
  /**
   * Whether this call may replay a cached plan and record its plan and locations (spec 2.2):
   * `false` neither reads nor writes the cache. Default `true`.
   */
  cacheable?: boolean;
  /** `true` separates planning from locating; `'unset'` behaves as `false`. */
  deepThink?: "unset" | boolean;
  /** Enhanced location for located actions. */
  deepLocate?: boolean;
  /** Per-call context. */
  context?: string;
  /**
   * Files for every file chooser a tap of this call opens (spec 4.2 rule 4; web pages): paths of
   * existing files, relative ones from the working directory; not limited by
   * `fileChooserAllowedDir`. Several files need an input with `multiple` (else the call rejects).
   * Files the model plans for a tap win over these. Default: choosers are ignored.
   */
  fileChooserAccept?: string | string[];
  /**
   * The directory model-planned uploads may read from (spec 4.2 rule 5; web pages). Without it a
   * planned upload rejects the call. Relative planned paths resolve against it, absolute ones
   * must lie in it; symlinks must stay inside it (real paths are checked). Relative to the
   * working directory. Default undefined.
   */
  fileChooserAllowedDir?: string;
  /** Stops the planning loop. */
  abortSignal?: AbortSignal;
  /**
   * Values of the instruction that are secrets (a password to type): the model gets the
   * instruction as written, but the report, the run log, the cache and the model's history write
   * them as `***` from the start of the call (docs/security.md, "Secrets typed on screen"). A YAML
   * `aiAct` sets it for the values it read from `${VAR}`s named like secrets.
   */
  secrets?: readonly string[];
}

/** Options of `aiTap`. */
export interface AiTapOptions extends LocateOptions {
  /**
   * Files for a file chooser the tap opens (spec 4.2; web pages): paths of existing files,
   * relative ones from the working directory. Several files need an input with `multiple`.
   * Default: a chooser that opens is ignored.
   */
  fileChooserAccept?: string | string[];
}

/** Text-entry mode of `aiInput`. `append` is a deprecated alias of `typeOnly`. */
export type InputMode = "replace" | "clear" | "typeOnly" | "append";

/** Options of `aiInput` (locate-first signature). */
export interface AiInputOptions extends LocateOptions {
  /** Text to enter (required unless `mode` is `'clear'`). */
  value?: string | number;
  /** Default `'replace'`. */
  mode?: InputMode;
  /** Hide the keyboard after input (mobile). Default `true`. */
  autoDismissKeyboard?: boolean;
  /** Delay between keystrokes, ms (finite, >= 0). */
  keyboardTypeDelay?: number;
  /** Input strategy. Default `'legacy'`. */
  inputStrategy?: "legacy" | "sequential" | "bulk";
  /**
   * The value is a secret (a password, a token): typed as given, written as `***` in the report,
   * the run log, the cache and the model's history. A value typed into a password field is a
   * secret without it. Default `false`.
   */
  secret?: boolean;
}

/** Options of `aiKeyboardPress` (locate-first signature). */
export interface AiKeyboardPressOptions extends LocateOptions {
  /** Key or combination, e.g. `Enter`, `Control+A`. */
  keyName: string;
}

/** Scroll description (spec 4.2). */
export interface ScrollParam {
  /** Default `'singleAction'`. */
  scrollType?: "singleAction" | "scrollToBottom" | "scrollToTop" | "scrollToRight" | "scrollToLeft";
  /** Which off-screen content to reveal. Default `'down'`. */
  direction?: "down" | "up" | "left" | "right";
  /** Distance in CSS pixels; `null` lets the SDK choose. */
  distance?: number | null;
}

/** Options of `aiScroll` (locate-first signature). */
export type AiScrollOptions = ScrollParam & LocateOptions;

/** Options of `aiLongPress` (spec 4.2). */
export interface AiLongPressOptions extends LocateOptions {
  /**
   * How long to hold, in ms (finite, > 0). Default: the device's (web 500 ms, spec 8).
   */
  duration?: number;
}

/** Options of `aiPinch` (spec 4.2, rules for `aiPinch`). */
export interface AiPinchOptions extends LocateOptions {
  /** `'in'` brings the two fingers together (zoom out); `'out'` spreads them (zoom in). */
  direction: "in" | "out";
  /**
   * How much the distance between the two fingers changes, in logical (CSS) pixels (finite,
   * > 0). Default: a quarter of the shorter side of the screen.
   */
  distance?: number;
  /** How long the fingers move, in ms (finite, > 0). Default 500 (spec 8). */
  duration?: number;
}

/** Options of extraction calls (spec 4.3). */
export interface ExtractOptions {
  /**
   * Send the device's simplified element tree with the request, in a `<page-dom>` block (spec
   * 4.3): `true` lists hidden and off-screen elements too (e.g. the targets of image links),
   * `'visible-only'` only elements that are rendered and on screen. Default `false`. Works with
   * `screenshotIncluded: false`. A device without `getElementsDescription` (web pages have it)
   * rejects the call with a `TypeError` naming the option; any other value is a `RangeError`.
   */
  domIncluded?: boolean | "visible-only";
  /** Send the screenshot. Default `true`. */
  screenshotIncluded?: boolean;
  /** Per-call context. */
  context?: string;
}

/** Options of `aiLocate`. */
export type AiLocateOptions = LocateOptions;

/** Result of `aiLocate` (spec 2.6): physical screenshot pixels. */
export interface LocateResultValue {
  /** Element box in physical screenshot pixels. */
  rect: { left: number; top: number; width: number; height: number };
  /** Click target in physical screenshot pixels. */
  center: [number, number];
  /** Physical pixels per logical (CSS) pixel. */
  dpr: number;
}

/** Options of `aiWaitFor` (spec 4.4). */
export interface AiWaitForOptions {
  /** Window in which a new check may start, ms. Default 15000. */
  timeoutMs?: number;
  /** Minimum spacing between the starts of checks, ms. Default 3000. */
  checkIntervalMs?: number;
  /** Per-call context. */
  context?: string;
}

/** Options of `recordToReport` (spec 2.8). */
export interface RecordToReportOptions {
  /** Description of the screenshot(s). */
  content?: string;
  /**
   * Screenshots to record instead of capturing one: `base64` is a PNG or JPEG data URI, or a raw
   * base64 body treated as PNG.
   */
  screenshots?: { base64: string; description?: string }[];
  /** Deprecated single-screenshot form; give only one of this and `screenshots`. */
  screenshotBase64?: string;
}
