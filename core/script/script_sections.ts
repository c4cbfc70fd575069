/**
 * The sections of a YAML script besides `tasks`: the `web` target section, the `agent` section
 * (the agent options that are plain data), and how a device platform's own section is described
 * and read ({@link ScriptSectionSchema}). Every error names the file, the line and column and the
 * key.
 *
 * @module
 */

import type { CacheStrategy } from "../session/cache_options.ts";
import type { AgentOptions } from "../session/options.ts";
import type { AIContextApiName } from "../session/context.ts";
import {
  bool,
  childAt,
  collect,
  describeNode,
  either,
  failAt,
  list,
  mapping,
  num,
  oneOf,
  type ReadContext,
  type Reader,
  readMapping,
  record,
  text,
} from "./value_readers.ts";
import type { SourcePosition, YamlMapNode, YamlNode } from "./yaml_parse.ts";
import type { FlowItemSpec } from "./flow_items.ts";

/**
 * The `web` target section: the page a tool such as the command line opens before the tasks.
 * Read and checked here; acting on it is the tool's job.
 */
export interface ScriptWebTarget {
  /** The page to open: an absolute URL, or a path under `serve`. Required. */
  url: string;
  /** A local folder to serve over HTTP; `url` is then a path in it. */
  serve?: string;
  /** Viewport width in CSS pixels. */
  viewportWidth?: number;
  /** Viewport height in CSS pixels. */
  viewportHeight?: number;
  /** Physical pixels per CSS pixel. */
  deviceScaleFactor?: number;
  /** The browser's user agent string. */
  userAgent?: string;
  /** Path of a JSON file of cookies to set before opening `url`. */
  cookie?: string;
  /** Wait for the network to go idle after opening `url`: `true`, or the timeout and whether a timeout fails. */
  waitForNetworkIdle?: boolean | { timeout?: number; continueOnNetworkIdleError?: boolean };
  /** Path of a JSON file to write the tasks' results to. */
  output?: string;
  /** Page agent option (spec 4.7). */
  forceSameTabNavigation?: boolean;
  /** Page agent option (spec 4.7), ms. */
  waitForNavigationTimeout?: number;
  /** Page agent option (spec 4.7), ms. */
  waitForNetworkIdleTimeout?: number;
  /** Page agent option (spec 4.7). */
  enableTouchEventsInActionSpace?: boolean;
  /** Page agent option (spec 4.7). */
  forceChromeSelectRendering?: boolean;
  /** Page agent option (spec 4.7), ms. */
  keyboardTypeDelay?: number;
  /** Page agent option (spec 4.7). */
  inputStrategy?: "legacy" | "sequential" | "bulk";
  /** Page agent option (docs/web.md, "Native dialogs"); a script cannot give a function. */
  nativeDialogs?: "dismiss" | "accept";
  /**
   * Attach to a running browser over CDP (`ws://...` or `http://host:port`) instead of launching
   * one; the file's page is a new context of it, closed at the end, and the browser stays open.
   */
  cdpEndpoint?: string;
  /** Extra command-line arguments of the browser the file launches (its own browser). */
  chromeArgs?: string[];
  /** HTTP headers sent with every request of the file's page. */
  extraHTTPHeaders?: Record<string, string>;
  /** Accept HTTPS certificates the browser cannot verify (self-signed). Default `false`. */
  acceptInsecureCerts?: boolean;
  /** A folder the page's downloads are saved to, under their suggested names. */
  downloadPath?: string;
  /** Run the file's own browser without (`true`) or with (`false`) a window. */
  headless?: boolean;
  /** Make each page the file's page opens (a link with `target=_blank`) the one items act on. */
  autoFollowNewPage?: boolean;
  /**
   * Write the agent's log (`agent._unstableLogContent()`) to a JSON file after the tasks: `true`
   * writes `<run dir>/output/unstableLogContent.json`, a path writes there.
   */
  unstableLogContent?: boolean | string;
  /**
   * Run in your own Chrome through the extension bridge (spec 3.4, docs/bridge.md) instead of a
   * browser of the tool's: `newTabWithUrl` opens `url` in a new tab, `currentTab` drives the
   * active tab where it is (`url` is not opened). `false` (default): the tool's browser.
   */
  bridgeMode?: false | "newTabWithUrl" | "currentTab";
  /** With `bridgeMode`: close the tab the bridge opened when the script ends. Default `false`. */
  closeNewTabsAfterDisconnect?: boolean;
}

/** Keys of the `web` section that set up a browser of the tool's, not your own Chrome's. */
const NOT_WITH_BRIDGE = [
  "viewportWidth",
  "viewportHeight",
  "deviceScaleFactor",
  "userAgent",
  "cookie",
  "cdpEndpoint",
  "chromeArgs",
  "extraHTTPHeaders",
  "acceptInsecureCerts",
  "downloadPath",
  "headless",
  "autoFollowNewPage",
];

/**
 * The `agent` section: the agent options (spec 2.1) that are plain data, as `AgentOptions` types
 * them. `cache: true` asks the tool to pick the cache id (the command line uses the script's file
 * name); a `cache` mapping may leave `id` out for the same reason.
 */
export type ScriptAgentOptions =
  & Pick<
    AgentOptions,
    | "generateReport"
    | "persistExecutionDump"
    | "reportFileName"
    | "autoPrintReportMsg"
    | "cacheId"
    | "aiContexts"
    | "aiActContext"
    | "aiActionContext"
    | "modelConfig"
    | "replanningCycleLimit"
    | "maxActionsPerPlan"
    | "waitAfterAction"
    | "useDeviceTime"
    | "outputFormat"
    | "screenshotShrinkFactor"
    | "screenshotFormat"
    | "screenshotQuality"
  >
  & {
    /** Spec 2.1, 2.2; see above for `true` and a missing `id`. */
    cache?: boolean | { id?: string; strategy?: CacheStrategy; cacheDir?: string };
  }
  & ScriptReportAttributes;

/**
 * What the `agent` section says of the run's report, not an agent option: the attributes a
 * merged report shows for the file (spec 2.8 `reportAttributes`). The command line uses them.
 */
export interface ScriptReportAttributes {
  /** `reportAttributes.testId`. Default: the file as named. */
  testId?: string;
  /** `reportAttributes.testTitle`. Default: the file as named. */
  groupName?: string;
  /** `reportAttributes.testDescription`. Default: how the file ended. */
  groupDescription?: string;
}

/**
 * How a device platform's script section is read (spec 4.5): each platform package (MobileA,
 * MobileB, ...) supplies its own, so a platform plugs into scripts without core naming it.
 */
export interface ScriptSectionSchema<S extends Record<string, unknown>> {
  /** The section's key, e.g. `"mobilea"`. */
  readonly key: string;
  /** The platform's name in messages, e.g. `"MobileA"`. */
  readonly label: string;
  /** One reader per key of the section (readers: `@sdk/core/script`'s `text`, `num`, ...). */
  readonly fields: { readonly [K in keyof S]-?: Reader<S[K]> };
  /** What the section holds, for the message when it is not a mapping: `"deviceId, launch, ..."`. */
  readonly describe: string;
  /**
   * The flow items the platform's agents add to the shared ones (`platformFlowItems("launch",
   * "back", ...)`): the keys an unknown flow key's message offers besides the shared ones. None
   * when left out.
   */
  readonly items?: Readonly<Record<string, FlowItemSpec>>;
  /**
   * What an untrusted script may not set in the section (docs/security.md, "Running scripts you
   * did not write").
   */
  readonly untrusted?: {
    /**
     * Switches that add actions reaching past the screen (`exposeRunBridgeShellAction`): `true`
     * in the script is refused, and an untrusted run turns them off unless the caller's own
     * options turn them on.
     */
    readonly switches?: readonly string[];
    /**
     * Keys refused outright, each with why (`bridgePath`: "names a program to run"); a key of a
     * nested mapping is written `mirrorConfig.ffmpegPath`.
     */
    readonly refused?: Readonly<Record<string, string>>;
  };
}

const webFields: { [K in keyof ScriptWebTarget]-?: Reader<ScriptWebTarget[K]> } = {
  url: text,
  serve: text,
  viewportWidth: num({ integer: true, above: 0, unit: "CSS px" }),
  viewportHeight: num({ integer: true, above: 0, unit: "CSS px" }),
  deviceScaleFactor: num({ above: 0 }),
  userAgent: text,
  cookie: text,
  waitForNetworkIdle: either(
    bool,
    mapping<{ timeout?: number; continueOnNetworkIdleError?: boolean }>("waitForNetworkIdle", {
      timeout: num({ min: 0, unit: "ms" }),
      continueOnNetworkIdleError: bool,
    }),
  ),
  output: text,
  forceSameTabNavigation: bool,
  waitForNavigationTimeout: num({ min: 0, unit: "ms" }),
  waitForNetworkIdleTimeout: num({ min: 0, unit: "ms" }),
  enableTouchEventsInActionSpace: bool,
  forceChromeSelectRendering: bool,
  keyboardTypeDelay: num({ min: 0, unit: "ms" }),
  inputStrategy: oneOf("legacy", "sequential", "bulk"),
  nativeDialogs: oneOf("dismiss", "accept"),
  cdpEndpoint: text,
  chromeArgs: list(text),
  extraHTTPHeaders: record(text),
  acceptInsecureCerts: bool,
  downloadPath: text,
  headless: bool,
  autoFollowNewPage: bool,
  unstableLogContent: either(bool, text),
  bridgeMode: either(bool, oneOf("newTabWithUrl", "currentTab")) as Reader<
    false | "newTabWithUrl" | "currentTab"
  >,
  closeNewTabsAfterDisconnect: bool,
};

const contextFields: { [K in "default" | AIContextApiName]-?: Reader<string> } = {
  default: text,
  aiAct: text,
  aiTap: text,
  aiRightClick: text,
  aiDoubleClick: text,
  aiHover: text,
  aiInput: text,
  aiKeyboardPress: text,
  aiScroll: text,
  aiPinch: text,
  aiLongPress: text,
  aiClearInput: text,
  aiLocate: text,
  aiQuery: text,
  aiBoolean: text,
  aiNumber: text,
  aiString: text,
  aiAsk: text,
  aiAssert: text,
  aiWaitFor: text,
};

const agentFields: { [K in keyof ScriptAgentOptions]-?: Reader<ScriptAgentOptions[K]> } = {
  generateReport: bool,
  persistExecutionDump: bool,
  reportFileName: text,
  autoPrintReportMsg: bool,
  cache: either(
    bool,
    mapping<{ id?: string; strategy?: CacheStrategy; cacheDir?: string }>("the cache mapping", {
      id: text,
      strategy: oneOf("read-only", "read-write", "write-only"),
      cacheDir: text,
    }),
  ),
  cacheId: text,
  aiContexts: mapping("aiContexts", contextFields),
  aiActContext: text,
  aiActionContext: text,
  modelConfig: record(either(num(), text)),
  replanningCycleLimit: num({ integer: true, above: 0 }),
  maxActionsPerPlan: num({ integer: true, above: 0 }),
  waitAfterAction: num({ min: 0, unit: "ms" }),
  useDeviceTime: bool,
  outputFormat: oneOf("single-html", "html-and-external-assets"),
  screenshotShrinkFactor: num({ min: 1 }),
  screenshotFormat: oneOf("jpeg", "png"),
  screenshotQuality: num({ integer: true, min: 1 }),
  testId: text,
  groupName: text,
  groupDescription: text,
};

/**
 * Other names of the `web` section, still read (with a warning): `target`, its former name, and
 * `page` and `browser`, the peer SDK's names; each with how the warning calls it.
 */
export const FORMER_WEB_KEYS: Readonly<Record<string, string>> = {
  target: "the former name",
  page: "the peer SDK's name",
  browser: "the peer SDK's name",
};

/** The keys of the `web` section. */
export const WEB_SECTION_KEYS: readonly string[] = Object.keys(webFields);

/** The keys of the `agent` section. */
export const AGENT_SECTION_KEYS: readonly string[] = Object.keys(agentFields);

/** The key of the web section, the target section core reads itself ({@link readWebSection}). */
export const WEB_SECTION_KEY = "web";

/**
 * Reads and checks the `web` section: a mapping with `url`, an absolute URL unless `serve` is
 * given. `scriptPos` is where the script starts, named when the section is missing.
 */
export function readWebSection(
  webNode: YamlNode | undefined,
  at: ReadContext,
  scriptPos: SourcePosition,
): ScriptWebTarget {
  if (webNode === undefined) {
    failAt(
      childAt(at, WEB_SECTION_KEY, "the script"),
      scriptPos,
      "the script needs a target section: 'web' with the 'url' of the page to open",
    );
  }
  const webAt = childAt(at, WEB_SECTION_KEY, "the script");
  if (webNode.kind !== "map") {
    failAt(webAt, webNode.pos, `'web' must be a mapping with 'url': got ${describeNode(webNode)}`);
  }
  const web = readMapping(webNode, webAt, "the web section", webFields, [
    "url",
  ]) as unknown as ScriptWebTarget;
  checkBridgeMode(web, webNode, webAt);
  // A 'url' that could not be read is reported already.
  if (web.url !== undefined && web.serve === undefined && !URL.canParse(web.url)) {
    const urlEntry = webNode.entries.find((e) => e.key === "url")!;
    failAt(
      childAt(webAt, "url", "the web section"),
      urlEntry.value.pos,
      `'url' of the web section must be an absolute URL (https://...), or a path with 'serve': got ${
        JSON.stringify(web.url)
      }`,
    );
  }
  checkWebCombinations(web, webNode, webAt);
  return web;
}

/** Keys of the `web` section that cannot go together, each pair with why. */
const EXCLUSIVE_WEB_KEYS: readonly [keyof ScriptWebTarget, keyof ScriptWebTarget, string][] = [
  ["cdpEndpoint", "chromeArgs", "an attached browser was launched by someone else"],
  ["cdpEndpoint", "headless", "an attached browser was launched by someone else"],
];

/**
 * Errors for keys of the `web` section that contradict each other: browser launch options with
 * `cdpEndpoint`, and `forceSameTabNavigation: true` with `autoFollowNewPage: true`.
 */
function checkWebCombinations(web: ScriptWebTarget, node: YamlMapNode, at: ReadContext): void {
  const fail = (key: string, message: string) => {
    const entry = node.entries.find((e) => e.key === key)!;
    collect(at, () => failAt(childAt(at, key, "the web section"), entry.keyPos, message));
  };
  for (const [a, b, why] of EXCLUSIVE_WEB_KEYS) {
    if (web[a] !== undefined && web[b] !== undefined) {
      fail(b, `'${b}' and '${a}' of the web section do not go together (${why}): keep one`);
    }
  }
  if (web.autoFollowNewPage && web.forceSameTabNavigation) {
    fail(
      "forceSameTabNavigation",
      "'forceSameTabNavigation: true' keeps links in the current tab and 'autoFollowNewPage: " +
        "true' follows the tabs they open: keep one",
    );
  }
}

/**
 * `bridgeMode` is `false` or a mode (`true` says neither which), and it drives your own Chrome:
 * the keys that set up a browser of the tool's do not apply.
 */
function checkBridgeMode(
  web: ScriptWebTarget,
  webNode: YamlNode & { kind: "map" },
  at: ReadContext,
) {
  const entry = (key: string) => webNode.entries.find((e) => e.key === key)!;
  if ((web.bridgeMode as unknown) === true) {
    collect(at, () =>
      failAt(
        childAt(at, "bridgeMode", "the web section"),
        entry("bridgeMode").value.pos,
        "'bridgeMode' is newTabWithUrl (open 'url' in a new tab of your Chrome), currentTab " +
          "(drive its active tab) or false: got true",
      ));
  }
  if (typeof web.bridgeMode !== "string") return;
  for (const key of NOT_WITH_BRIDGE) {
    if (web[key as keyof ScriptWebTarget] === undefined) continue;
    collect(at, () =>
      failAt(
        childAt(at, key, "the web section"),
        entry(key).keyPos,
        `'${key}' sets up a browser of sdk run's, and 'bridgeMode' runs in your own Chrome: ` +
          `remove one of them`,
      ));
  }
}

/** Reads and checks the `agent` section; `{}` when the script has none. */
export function readAgentSection(
  agentNode: YamlNode | undefined,
  at: ReadContext,
): ScriptAgentOptions {
  if (agentNode === undefined) return {};
  const agentAt = childAt(at, "agent", "the script");
  if (agentNode.kind !== "map") {
    failAt(agentAt, agentNode.pos, `'agent' must be a mapping: got ${describeNode(agentNode)}`);
  }
  return readMapping(agentNode, agentAt, "the agent section", agentFields) as ScriptAgentOptions;
}

/**
 * The key every device platform's section takes besides its own: `output`, the JSON file its
 * script's results are written to, as the `web` section's.
 */
const PLATFORM_OUTPUT_KEY = "output";

/**
 * Reads and checks a device platform's section with its schema: a mapping, or empty (`{}`).
 * Besides the schema's keys, every section takes `output` (a path), returned apart from the
 * section. `scriptPos` is where the script starts, named when the section is missing.
 */
export function readPlatformSection<S extends Record<string, unknown>>(
  schema: ScriptSectionSchema<S>,
  sectionNode: YamlNode | undefined,
  at: ReadContext,
  scriptPos: SourcePosition,
): { section: S; output?: string } {
  const sectionAt = childAt(at, schema.key, "the script");
  if (sectionNode === undefined) {
    failAt(
      sectionAt,
      scriptPos,
      `a ${schema.label} script needs a '${schema.key}' section (it may be empty)`,
    );
  }
  let value = {} as S;
  let output: string | undefined;
  if (sectionNode.kind === "map") {
    const read = readMapping(
      sectionNode,
      sectionAt,
      `the ${schema.key} section`,
      { ...schema.fields, [PLATFORM_OUTPUT_KEY]: text } as Record<string, Reader<unknown>>,
    );
    const { [PLATFORM_OUTPUT_KEY]: out, ...rest } = read;
    value = rest as S;
    output = out as string | undefined;
  } else if (!(sectionNode.kind === "scalar" && sectionNode.value === null)) {
    failAt(
      sectionAt,
      sectionNode.pos,
      `'${schema.key}' must be a mapping (${schema.describe}, output): got ${
        describeNode(sectionNode)
      }`,
    );
  }
  return { section: value, ...(output !== undefined && { output }) };
}
