/**
 * `@sdk/cli`: the `sdk` command line, above the platform packages. `sdk run <file|dir|glob>...` runs YAML scripts and Gherkin features in
 * the system Chromium (headless unless `--headed`), `--concurrent N` at a time, each file in its
 * own browser context with its own agent and report, then writes one merged report of the run,
 * prints a summary table and exits 0 when every file passed, 1 when any failed, 2 for a usage
 * error. docs/yaml-and-cli.md describes it. `sdk playground <url>` serves the playground on a
 * page until Ctrl+C (docs/playground.md).
 *
 * @example Run it with Deno, or through the npm package's `sdk` bin
 * ```sh
 * deno task sdk run flows/ --concurrent 2 --summary out/summary.json   # in this workspace
 * npx sdk run flows/ --concurrent 2                                      # the npm package
 * ```
 *
 * @module
 */

import process from "node:process";
import { basename, join, resolve } from "node:path";
import { isSdkError, runLog, SDK_VERSION, writeFileAtomic } from "@sdk/core";
import { isSdkSecretVariable } from "@sdk/core/script";
import { ReportMergingTool } from "@sdk/core/report";
import {
  CliUsageError,
  helpText,
  parseCliArgs,
  type PlaygroundCommand,
  type RunCommand,
} from "./args.ts";
import { mcpCommand } from "./mcp/command.ts";
import { startPlayground } from "@sdk/web";
import { launchChromium } from "@sdk/web/chromium";
import type { ScriptFileArg } from "./discover.ts";
import { runFiles } from "./batch_file.ts";
import { newScriptContext } from "./web_target.ts";
import type { BrowserContext } from "playwright-core";
import { loadDotenv } from "./dotenv.ts";
import { runPool } from "./pool.ts";
import { createProgress, progressOnDevice } from "./progress.ts";
import { runScriptFile } from "./run_file.ts";
import { prepareScriptFile } from "./prepare.ts";
import type { DriverBBrowser as Browser } from "@sdk/web";
import { deviceMatrix, type FileResult, formatSummaryTable, type RunSummary } from "./summary.ts";
import { needsOwnBrowser } from "./web_browser.ts";
import type { DevicePool, PoolDevice } from "@sdk/core";
import { devicesCommand, openDevicePool } from "./device_discovery.ts";
import { runOnDevices } from "./device_run.ts";

/** Where the command line reads and writes; the process's own by default. */
export interface CliIo {
  /** Standard output. */
  stdout: { write(text: string): unknown; isTTY?: boolean };
  /** Standard error. */
  stderr: { write(text: string): unknown };
  /** The working directory. */
  cwd: string;
  /**
   * A Chromium for `sdk run` to run its web files in (each in a context of its own) instead of
   * launching one; it is left open. For tools that embed the command line, like the demo's
   * offline YAML run.
   */
  browser?: Browser;
}

const processIo = (): CliIo => ({
  stdout: process.stdout,
  stderr: process.stderr,
  cwd: process.cwd(),
});

/**
 * Runs the command line with `argv` (the arguments after the program name).
 *
 * @returns the exit code: 0 all passed (or help/version), 1 a file failed, 2 a usage error.
 */
export async function main(argv: readonly string[], io: CliIo = processIo()): Promise<number> {
  try {
    const command = parseCliArgs(argv);
    if (command.command === "help") {
      io.stdout.write(`${helpText(command.topic)}\n`);
      return 0;
    }
    if (command.command === "version") {
      io.stdout.write(`sdk ${SDK_VERSION}\n`);
      return 0;
    }
    if (command.command === "playground") return await playgroundCommand(command, io);
    if (command.command === "mcp") {
      await loadDotenv(
        resolve(io.cwd, command.dotenv ?? ".env"),
        command.dotenv !== undefined,
        processEnv,
      );
      return await mcpCommand(command, (text) => io.stderr.write(text));
    }
    if (command.command === "devices") return await devicesCommand(command, io);
    return await runCommand(command, io);
  } catch (e) {
    if (e instanceof CliUsageError) {
      io.stderr.write(`sdk: ${e.message}\n`);
      return 2;
    }
    // The SDK's own errors say what to do: one line with the class and code, no stack.
    if (isSdkError(e)) {
      io.stderr.write(`sdk: ${e.name} (${e.code}): ${e.message}\n`);
      return 1;
    }
    io.stderr.write(`sdk: ${e instanceof Error ? e.stack ?? e.message : String(e)}\n`);
    return 1;
  }
}

const processEnv = {
  get: (name: string) => process.env[name],
  set: (name: string, value: string) => void (process.env[name] = value),
};

/** Serves the playground until Ctrl+C (SIGINT) or SIGTERM. */
async function playgroundCommand(command: PlaygroundCommand, io: CliIo): Promise<number> {
  const dotenv = resolve(io.cwd, command.dotenv ?? ".env");
  await loadDotenv(dotenv, command.dotenv !== undefined, processEnv);
  // Listening from the start: a Ctrl+C while the browser starts still closes it.
  let stop!: () => void;
  const stopped = new Promise<void>((done) => stop = done);
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  try {
    const playground = await startPlayground({
      url: command.url,
      port: command.port,
      host: command.host,
      headless: !command.headed,
      agentOptions: command.agentOptions,
      onWarning: (message) => io.stderr.write(`${message}\n`),
    });
    try {
      io.stdout.write(
        `Playground on ${command.url}\nOpen ${playground.url}\n` +
          "(the token in this URL is what lets a browser drive the page: keep it to yourself)\n" +
          "Press Ctrl+C to stop.\n",
      );
      if (playground.modelError) {
        io.stderr.write(`Warning: every call will fail: ${playground.modelError}\n`);
      }
      await stopped;
      return 0;
    } finally {
      await playground.close();
    }
  } finally {
    process.off("SIGINT", stop);
    process.off("SIGTERM", stop);
  }
}

async function runCommand(run: RunCommand, command: CliIo): Promise<number> {
  await loadDotenv(
    resolve(command.cwd, run.dotenv ?? ".env"),
    run.dotenv !== undefined,
    processEnv,
  );
  // What the run prints and writes is redacted as the run log is: the keys never show.
  const redact = secretRedactor(run);
  const io: CliIo = {
    ...command,
    stdout: {
      write: (text: string) => command.stdout.write(redact(text)),
      isTTY: command.stdout.isTTY,
    },
    stderr: { write: (text: string) => command.stderr.write(redact(text)) },
  };
  const trust = { untrusted: run.untrusted, allowEnv: run.env, workDir: io.cwd };
  const { files, sections } = await runFiles(run, io.cwd, trust);
  const records = recordPaths(run, files, io.cwd);
  const startedAt = new Date();
  const started = performance.now();
  // The report name flag names the merged report: each file keeps its own generated name.
  const { reportFileName, ...flags } = run.agentOptions;
  // Every file is read and checked, its model settings too, before a browser starts: a typo
  // fails at once.
  const preparations = await Promise.all(
    files.map((file) => prepareScriptFile(file.path, file.shown, flags, trust, sections)),
  );
  // Chromium starts when the first file that needs it is about to run (never, when none does).
  // Ctrl+C aborts the files still running, then the merged report is written and the browser
  // closed below; Playwright's own handler would end the process before that.
  let launched: Promise<Browser> | undefined;
  const browser = () =>
    launched ??= io.browser
      ? Promise.resolve(io.browser)
      : launchChromium({ headless: !run.headed, handleSignals: false });
  const abort = new AbortController();
  // The standard reason of an abort, as AbortSignal.abort() gives.
  const onInterrupt = () => abort.abort(new DOMException("interrupted (Ctrl+C)", "AbortError"));
  process.once("SIGINT", onInterrupt);
  const progress = createProgress({
    isTTY: io.stdout.isTTY === true,
    write: (t) => io.stdout.write(t),
  });
  let anyFailed = false;
  let results: FileResult[];
  let bridgeQueue: Promise<void> = Promise.resolve();
  /** Waits for the bridge's port to be free; the function it gives frees it. */
  const bridgeTurn = async (): Promise<() => void> => {
    let release!: () => void;
    const previous = bridgeQueue;
    bridgeQueue = new Promise((done) => release = done);
    await previous;
    return release;
  };
  // With --share-browser-context, web files open their pages in one context, made from the
  // batch's web section (its viewport and user agent), as the peer SDK does.
  let shared: Promise<BrowserContext> | undefined;
  const sharedContext = run.shareBrowserContext
    ? () => shared ??= browser().then((b) => newScriptContext(b, sections.web ?? {}))
    : undefined;
  const runOne = async (index: number, device?: PoolDevice) => {
    const file = files[index];
    const preparation = preparations[index];
    const prepared = preparation.ok ? preparation.prepared : undefined;
    // A bridge script runs in your own Chrome; one at a time, as the bridge has one port.
    const bridged = prepared?.kind === "web" && !!prepared.script.web.bridgeMode;
    // A file with a browser of its own (cdpEndpoint, chromeArgs, headless) opens it itself.
    const needsBrowser = prepared !== undefined && prepared.kind !== "platform" && !bridged &&
      !(prepared.kind === "web" && needsOwnBrowser(prepared.script.web));
    let result!: FileResult;
    const release = bridged ? await bridgeTurn() : () => {};
    try {
      for (let attempt = 1;; attempt++) {
        result = await runScriptFile(file.path, preparation, {
          shown: file.shown,
          browser: needsBrowser ? await browser() : undefined,
          sharedContext: needsBrowser ? await sharedContext?.() : undefined,
          cwd: io.cwd,
          flags,
          progress: device
            ? progressOnDevice(progress, `${device.platform}:${device.id}`)
            : progress,
          continueOnError: run.continueOnError,
          trust,
          signal: abort.signal,
          warn: (message) => io.stderr.write(`warning: ${message}\n`),
          record: records.get(file.path),
          bridgePort: run.bridgePort,
          headed: run.headed,
          device,
        });
        if (attempt > 1) result.attempts = attempt;
        // A file that could not be read fails the same way again.
        if (result.status !== "failed" || attempt > run.retry || !preparation.ok) break;
        if (abort.signal.aborted) break;
      }
    } finally {
      release();
    }
    if (result.status === "failed") anyFailed = true;
    return result;
  };
  const shouldStart = () => !abort.signal.aborted && (run.continueOnError || !anyFailed);
  let pool: DevicePool | undefined;
  let deviceNames: string[] = [];
  // Without --concurrent, every device of the pool works at once.
  let devicesAtOnce = run.concurrent;
  try {
    if (run.devices !== undefined) {
      pool = await openDevicePool(
        { ...run, devices: run.devices },
        io.cwd,
        (message) => io.stderr.write(`sdk run: ${message}\n`),
      );
      deviceNames = pool.devices.map((d) => `${d.platform}:${d.id}`);
      if (!run.given.has("concurrent")) devicesAtOnce = Math.max(1, deviceNames.length);
      results = await runOnDevices({
        shown: files.map((f) => f.shown),
        preparations,
        pool,
        perDevice: run.perDevice,
        concurrent: devicesAtOnce,
        shouldStart,
        signal: abort.signal,
        run: runOne,
      });
    } else {
      results = (await runPool(files, run.concurrent, (_, i) => runOne(i), shouldStart)).map(
        (r, i) => r ?? { file: files[i].shown, status: "skipped", durationMs: 0, items: [] },
      );
    }
    progress.close();
    const summary = summarize(results, startedAt, performance.now() - started, run);
    if (pool) {
      summary.matrix = deviceMatrix(deviceNames, results);
      summary.concurrent = devicesAtOnce;
    }
    summary.mergedReport = await mergeReports(summary.files, reportFileName);
    summary.durationMs = performance.now() - started;
    if (run.summary) {
      const path = resolve(io.cwd, run.summary);
      await writeFileAtomic(path, redact(JSON.stringify(summary, null, 2)) + "\n");
    }
    io.stdout.write(`\n${formatSummaryTable(summary)}\n`);
    if (run.headed && run.keepWindow && launched) {
      io.stdout.write("The browser stays open: press Ctrl+C to quit.\n");
      if (!abort.signal.aborted) {
        await new Promise((done) => abort.signal.addEventListener("abort", done, { once: true }));
      }
    }
    return summary.failed > 0 ? 1 : 0;
  } finally {
    progress.close();
    await pool?.close();
    process.off("SIGINT", onInterrupt);
    await (await shared?.catch(() => undefined))?.close().catch(() => {});
    // A browser given by the caller stays theirs.
    if (launched && !io.browser) await (await launched.catch(() => undefined))?.close();
  }
}

/**
 * Redacts text as the run log does, with the SDK's secrets this run knows: those of the
 * environment (after the dotenv file) and of `--model-config`.
 */
function secretRedactor(run: RunCommand): (text: string) => string {
  const log = runLog();
  for (const [name, value] of Object.entries(process.env)) {
    if (value && isSdkSecretVariable(name)) log.addSecret(value);
  }
  for (const [name, value] of Object.entries(run.agentOptions.modelConfig ?? {})) {
    if (isSdkSecretVariable(name)) log.addSecret(String(value));
  }
  return (text) => log.redact(text);
}

/**
 * Where `--record` writes each file's run: the path itself for one file named `.yaml`/`.yml`,
 * else `<folder>/<the file's name>.yaml` (`-2`, `-3`... when two files share a name).
 *
 * @throws {CliUsageError} for a `.yaml` path when several files run.
 */
function recordPaths(run: RunCommand, files: ScriptFileArg[], cwd: string): Map<string, string> {
  const paths = new Map<string, string>();
  if (run.record === undefined) return paths;
  const target = resolve(cwd, run.record);
  if (/\.ya?ml$/i.test(run.record)) {
    if (files.length !== 1) {
      throw new CliUsageError(
        `--record ${run.record} names one file, and ${files.length} scripts run: give a folder`,
      );
    }
    paths.set(files[0].path, target);
    return paths;
  }
  const taken = new Set<string>();
  for (const file of files) {
    const base = basename(file.path).replace(/\.(ya?ml|feature)$/i, "");
    let name = `${base}.yaml`;
    for (let n = 2; taken.has(name); n++) name = `${base}-${n}.yaml`;
    taken.add(name);
    paths.set(file.path, join(target, name));
  }
  return paths;
}

function summarize(
  all: FileResult[],
  startedAt: Date,
  durationMs: number,
  run: RunCommand,
): RunSummary {
  const count = (s: string) => all.filter((f) => f.status === s).length;
  return {
    startedAt: startedAt.toISOString(),
    durationMs,
    concurrent: run.concurrent,
    passed: count("passed"),
    failed: count("failed"),
    skipped: count("skipped"),
    mergedReport: null,
    files: all,
  };
}

/** One report for the run: every file's report, with its status, duration and title. */
async function mergeReports(files: FileResult[], name?: string): Promise<string | null> {
  const tool = new ReportMergingTool();
  for (const f of files) {
    if (!f.report && f.status !== "skipped") continue;
    tool.append({
      reportFilePath: f.report,
      reportAttributes: {
        testId: f.device ? `${f.file} @ ${f.device}` : f.file,
        testTitle: f.file,
        ...(f.device && { testDevice: f.device }),
        testDescription: f.error ?? `${f.items.length} ${f.items.length === 1 ? "item" : "items"}`,
        ...f.reportAttributes,
        testDuration: Math.round(f.durationMs),
        testStatus: f.status,
      },
    });
  }
  return await tool.mergeReports(name ?? "AUTO");
}
