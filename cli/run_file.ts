/**
 * Runs one script file of a `sdk run` with its own agent and report: a YAML script's tasks on its
 * `web` page (in its own browser context, with a DriverB page agent; with `bridgeMode`, in your
 * own Chrome through the extension bridge), a device platform's script
 * (`mobilea`, ...) through its platform package, or a Gherkin feature's scenarios on the page of
 * their `@url:` tag.
 *
 * @module
 */

import { dirname, resolve } from "node:path";
import process from "node:process";
import type { Browser, BrowserContext } from "playwright-core";
import { runGherkinFeature } from "@sdk/core/gherkin";
import {
  readScriptAgentSection,
  runScriptTasks,
  type ScriptAgentOptions,
  scriptAgentOptions,
  type ScriptPlatformAgent,
  scriptTargetOf,
  type ScriptTrustOptions,
  type ScriptWebTarget,
  YamlTaskError,
  type YamlTaskOutcome,
} from "@sdk/core/script";
import {
  type AgentOverBrowserBridge,
  DriverBBrowserAgent,
  DriverBPageAgent,
  stripAnsi,
  type WebPageAgent,
  type WebPageAgentOptions,
} from "@sdk/web";
import { type BridgeTarget, connectBridgeTarget } from "./bridge_target.ts";
import { InternalError, type PoolDevice, SdkTypeError, writeFileAtomic } from "@sdk/core";
import type { Preparation } from "./prepare.ts";
import { scriptPlatform } from "./platforms.ts";
import type { Progress } from "./progress.ts";
import type { FileResult, ItemResult } from "./summary.ts";
import {
  locatedNavigationError,
  type OpenedTarget,
  openTarget,
  readFeatureTags,
  urlPosition,
} from "./web_target.ts";
import {
  needsOwnBrowser,
  openOwnBrowser,
  type OwnBrowser,
  writeLogContent,
} from "./web_browser.ts";

/** What every file of a run shares, and how the file was named. */
export interface RunFileContext {
  /** The file as the user typed it (progress, the summary and errors name it so). */
  shown?: string;
  /** The browser, for a web script or a feature (each file gets its own context). */
  browser?: Browser;
  /**
   * The browser context every web file shares (`--share-browser-context`): the file opens a page
   * in it instead of a context of its own, and leaves the context open.
   */
  sharedContext?: BrowserContext;
  /** The working directory: files are shown relative to it unless `shown` is given. */
  cwd: string;
  /** Agent options from the command line's flags; they win over the file's. */
  flags: Partial<WebPageAgentOptions>;
  /** Live progress. */
  progress: Progress;
  /** Whether a file goes on after a failing task or scenario (`--continue-on-error`). */
  continueOnError: boolean;
  /** Stops the run (Ctrl+C). */
  signal?: AbortSignal;
  /** Prints a warning about a script (standard error); it is kept in the file's result too. */
  warn?: (message: string) => void;
  /** Whether the files are the user's own (`--untrusted`, `--env`); default trusted. */
  trust?: ScriptTrustOptions;
  /** Where to write the file's run as an exported script (`--record`), absolute. */
  record?: string;
  /** Whether browsers a file launches for itself have a window (`--headed`). */
  headed?: boolean;
  /** The extension bridge's port for `bridgeMode` scripts (`--bridge-port`); default 3766. */
  bridgePort?: number;
  /** The device a pool hands a device file (`--devices`); its section fields outrank the file's. */
  device?: PoolDevice;
}

/** The page options of a `web` section, which are agent options (spec 4.7). */
const PAGE_OPTION_KEYS = [
  "forceSameTabNavigation",
  "waitForNavigationTimeout",
  "waitForNetworkIdleTimeout",
  "enableTouchEventsInActionSpace",
  "forceChromeSelectRendering",
  "keyboardTypeDelay",
  "inputStrategy",
  "nativeDialogs",
] as const;

/**
 * The agent options of a file: its `web` page options, then its `agent` section (a `cache`
 * without an id takes the file's name), then the command line's flags.
 */
export function agentOptionsOf(
  file: string,
  web: Partial<ScriptWebTarget>,
  agent: ScriptAgentOptions,
  flags: Partial<WebPageAgentOptions>,
): WebPageAgentOptions {
  const options: WebPageAgentOptions = {};
  for (const key of PAGE_OPTION_KEYS) {
    if (web[key] !== undefined) (options as Record<string, unknown>)[key] = web[key];
  }
  return { ...options, ...scriptAgentOptions(file, agent), ...flags };
}

/**
 * Runs one file, prepared by `prepareScriptFile`, and says how it ended; never throws for the
 * file's own failures (a bad script, a failing task, a page that does not open): they become a
 * `failed` result. A file whose preparation failed ends at once with that error.
 */
export async function runScriptFile(
  file: string,
  preparation: Preparation,
  ctx: RunFileContext,
): Promise<FileResult> {
  const shown = ctx.shown ?? file;
  const started = performance.now();
  const result: FileResult = { file: shown, status: "passed", durationMs: 0, items: [] };
  ctx.progress.start(shown);
  for (const warning of preparation.warnings) warn(ctx, result, warning);
  let target: OpenedTarget | undefined;
  let own: OwnBrowser | undefined;
  let agent: WebPageAgent | undefined;
  let logContent: true | string | undefined;
  const makeAgent = (web: Partial<ScriptWebTarget>, section: ScriptAgentOptions) => {
    const options: WebPageAgentOptions = {
      ...agentOptionsOf(file, web, section, ctx.flags),
      autoPrintReportMsg: false,
      onTaskStartTip: (tip) => ctx.progress.step(shown, tip),
    };
    const page = target!.page;
    // autoFollowNewPage: a browser-wide agent over the file's context, acting on each new tab.
    agent = web.autoFollowNewPage
      ? new DriverBBrowserAgent(page.context(), page, {
        ...options,
        autoFollowNewPage: true,
        forceSameTabNavigation: false,
      })
      : new DriverBPageAgent(page, options);
    return agent;
  };
  let recorded: ScriptPlatformAgent | undefined;
  let bridge: BridgeTarget | undefined;
  try {
    if (!preparation.ok) throw preparation.error;
    const prepared = preparation.prepared;
    if (prepared.kind === "feature") {
      if (ctx.record) {
        warn(
          ctx,
          result,
          `${shown}: --record writes YAML scripts' runs; a feature file's is not recorded`,
        );
      }
      target = await openTarget(browserOf(ctx), {}, file, ctx.sharedContext);
      result.items = await runFeature(makeAgent({}, {}), prepared.text, shown, target, ctx);
    } else if (prepared.kind === "platform") {
      await runPlatformScript(file, prepared.text, ctx, result, (a) => recorded = a);
    } else {
      const script = prepared.script;
      result.reportAttributes = reportAttributesOf(script.agent);
      logContent = script.web.unstableLogContent || undefined;
      let yamlAgent: WebPageAgent | AgentOverBrowserBridge;
      const at = urlPosition(prepared.text);
      const located = (e: unknown) =>
        locatedNavigationError(e, at ? `${shown}:${at.line}:${at.column}` : shown);
      if (script.web.bridgeMode) {
        bridge = await connectBridgeTarget(script.web, file, {
          ...agentOptionsOf(file, script.web, script.agent, ctx.flags),
          autoPrintReportMsg: false,
          onTaskStartTip: (tip) => ctx.progress.step(shown, tip),
        }, ctx.bridgePort).catch((e) => {
          throw located(e);
        });
        yamlAgent = bridge.agent;
      } else {
        if (needsOwnBrowser(script.web)) {
          own = await openOwnBrowser(script.web, ctx.headed === true);
        }
        target = await openTarget(
          own?.browser ?? browserOf(ctx),
          script.web,
          file,
          ctx.sharedContext,
        );
        yamlAgent = makeAgent(script.web, script.agent);
        await target.open(script.web).catch((e) => {
          throw located(e);
        });
      }
      recorded = yamlAgent;
      const run = await runScriptTasks(yamlAgent, script, { signal: ctx.signal })
        .catch((e) => failedItems(e, result));
      result.items = itemsOf(run.tasks);
      if (script.web.output) {
        result.output = resolve(dirname(file), script.web.output);
        await writeFileAtomic(result.output, JSON.stringify(run.result, null, 2) + "\n");
      }
    }
    const failed = result.items.find((i) => i.status === "failed");
    if (failed) {
      result.status = "failed";
      result.error = `${failed.name}: ${failed.error ?? "failed"}`;
    }
  } catch (e) {
    result.status = "failed";
    result.error = stripAnsi(e instanceof Error ? e.message : String(e));
  } finally {
    const logged = agent ?? bridge?.agent;
    if (logged && logContent) {
      await writeLogContent(logContent, file, logged._unstableLogContent()).catch((e) =>
        warn(ctx, result, `${shown}: unstableLogContent could not be written: ${e.message}`)
      );
    }
    if (agent) {
      await agent.destroy().catch(() => {});
      result.report = agent.reportFile ?? undefined;
    }
    if (bridge) {
      await bridge.close().catch(() => {});
      result.report = bridge.agent.reportFile ?? undefined;
    }
    if (ctx.record && recorded?.exportScript) await record(recorded, file, ctx.record, ctx, result);
    await target?.close().catch(() => {});
    await own?.close().catch(() => {});
    result.durationMs = performance.now() - started;
    ctx.progress.end(result);
  }
  return result;
}

/** What the `agent` section says of the file's entry in the merged report, when anything. */
function reportAttributesOf(agent: ScriptAgentOptions): FileResult["reportAttributes"] {
  const { testId, groupName, groupDescription } = agent;
  if (testId === undefined && groupName === undefined && groupDescription === undefined) return;
  return {
    ...(testId !== undefined && { testId }),
    ...(groupName !== undefined && { testTitle: groupName }),
    ...(groupDescription !== undefined && { testDescription: groupDescription }),
  };
}

/** The run's browser, which a web script or a feature needs. */
function browserOf(ctx: RunFileContext): Browser {
  if (!ctx.browser) throw new InternalError("sdk run: a web file ran without a browser");
  return ctx.browser;
}

/** Keeps a warning about the file in its result and prints it. */
function warn(ctx: RunFileContext, result: FileResult, message: string): void {
  (result.warnings ??= []).push(message);
  ctx.warn?.(message);
}

/**
 * Writes the file's run as an exported script (`--record`), its relative paths rewritten for the
 * record's folder; a failure to write is a warning, not the file's failure.
 */
async function record(
  agent: ScriptPlatformAgent,
  file: string,
  path: string,
  ctx: RunFileContext,
  result: FileResult,
): Promise<void> {
  try {
    const exported = await agent.exportScript!(path, { scriptDir: dirname(file) });
    result.record = exported.file;
    if (exported.unlocated.length) {
      warn(
        ctx,
        result,
        `${result.file}: recorded to ${exported.file}; the model locates ${exported.unlocated.length} of its steps on every run (no locator): ${
          exported.unlocated.join("; ")
        }`,
      );
    }
  } catch (e) {
    warn(ctx, result, `${result.file}: --record could not write ${path}: ${(e as Error).message}`);
  }
}

/**
 * Keeps a failing task's file's items before rethrowing its error: the tasks before it and the
 * failing one (a `YamlTaskError` knows both).
 */
function failedItems(e: unknown, result: FileResult): never {
  if (e instanceof YamlTaskError) {
    result.items = [
      ...itemsOf(e.tasks),
      { name: e.taskName, status: "failed", error: stripAnsi(e.message) },
    ];
  }
  throw e;
}

/** A YAML run's tasks as the summary's items. */
function itemsOf(tasks: readonly YamlTaskOutcome[]): ItemResult[] {
  return tasks.map((t) => ({
    name: t.name,
    status: t.status,
    ...(t.error ? { error: stripAnsi(t.error.message) } : {}),
  }));
}

/**
 * Runs a device platform's script (the file's text, already read) through its package's runner,
 * filling `result`'s items and report; the command line's flags that are agent options (not page
 * options) outrank the file's sections.
 */
async function runPlatformScript(
  file: string,
  text: string,
  ctx: RunFileContext,
  result: FileResult,
  onAgent: (agent: ScriptPlatformAgent) => void,
): Promise<void> {
  const platform = await scriptPlatform((await scriptTargetOf(text, result.file))!);
  // The platform's run reads the file in full; an error in the section is said by it.
  const section = await readScriptAgentSection(text, result.file, ctx.trust).catch(() => ({}));
  result.reportAttributes = reportAttributesOf(section);
  const flags: Record<string, unknown> = { ...ctx.flags };
  for (const key of PAGE_OPTION_KEYS) delete flags[key];
  let agent: ScriptPlatformAgent | undefined;
  try {
    // Errors name the file as typed; the typed name finds the file from this process's folder.
    const fileName = resolve(process.cwd(), result.file) === file ? result.file : file;
    const { tasks, output } = await platform.run(text, {
      ...ctx.trust,
      fileName,
      agentOptions: {
        ...flags,
        autoPrintReportMsg: false,
        onTaskStartTip: (tip) => ctx.progress.step(result.file, tip),
      },
      onAgent: (a) => {
        agent = a;
        onAgent(a);
      },
      ...(ctx.signal && { signal: ctx.signal }),
      ...(ctx.device && { section: ctx.device.section }),
    }).catch((e) => failedItems(e, result));
    result.items = itemsOf(tasks);
    if (output) result.output = output;
  } finally {
    result.report = agent?.reportFile ?? undefined;
  }
}

/** Runs every scenario of a feature file, each from the page of its `@url:` tag. */
async function runFeature(
  agent: WebPageAgent,
  text: string,
  shown: string,
  target: OpenedTarget,
  ctx: RunFileContext,
): Promise<ItemResult[]> {
  const results = await runGherkinFeature(agent, text, {
    fileName: shown,
    untrusted: ctx.trust?.untrusted === true,
    failFast: !ctx.continueOnError,
    abortSignal: ctx.signal,
    beforeScenario: async (info) => {
      const tags = readFeatureTags(info.tags);
      if (!tags.url) {
        throw new SdkTypeError(
          `${shown}:${info.line}: tag the Feature or Scenario with @url:<address> (and ` +
            `@serve:<folder> for a local folder) so that sdk run knows which page to open`,
        );
      }
      if (tags.viewport) await target.page.setViewportSize(tags.viewport);
      ctx.progress.step(shown, `Scenario: ${info.name}`);
      await target.open({ url: tags.url, serve: tags.serve }).catch((e) => {
        throw locatedNavigationError(e, `${shown}:${info.line}`);
      });
    },
  });
  return results.map((r) => ({
    name: r.name,
    status: r.status === "passed" ? "passed" : "failed",
    ...(r.error
      ? { error: stripAnsi(r.error.message) }
      : r.status === "skipped"
      ? { error: "skipped" }
      : {}),
  }));
}
