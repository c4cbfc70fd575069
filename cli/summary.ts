/**
 * The outcome of a `sdk run`: one record per file, the table printed at the end, and the JSON
 * written by `--summary`.
 *
 * @module
 */

/** How one script file ended. `skipped`: not started, because an earlier file failed. */
export type FileStatus = "passed" | "failed" | "skipped";

/** One task (YAML) or scenario (Gherkin) of a file. */
export interface ItemResult {
  /** Task name, or scenario name (an outline row's name includes its example values). */
  name: string;
  /** Whether it passed. */
  status: "passed" | "failed";
  /** The error message, when it failed. */
  error?: string;
}

/** One script file's result. */
export interface FileResult {
  /** The file as the user named it on the command line (see `ScriptFileArg.shown`). */
  file: string;
  /** How it ended. */
  status: FileStatus;
  /** Wall time, ms (0 when skipped). */
  durationMs: number;
  /** The first error, when it failed. */
  error?: string;
  /** The agent's report file, when one was written. */
  report?: string;
  /** The JSON file of the results (the target section's `output`), when written. */
  output?: string;
  /** The exported script of the run (`--record`), when written. */
  record?: string;
  /**
   * Its tasks or scenarios, in order; for a file that stopped at a failing task, the tasks
   * before it and the failing one (the tasks after it did not run).
   */
  items: ItemResult[];
  /** How many times it ran (`--retry`), when more than once; the result is the last run's. */
  attempts?: number;
  /** Warnings about the script (a deprecated form such as `target:`), when there are any. */
  warnings?: string[];
  /**
   * The file's entry in the merged report as its `agent` section names it (`testId`,
   * `groupName` as `testTitle`, `groupDescription` as `testDescription`), when it does.
   */
  reportAttributes?: { testId?: string; testTitle?: string; testDescription?: string };
}

/** The JSON of `--summary`. */
export interface RunSummary {
  /** ISO time the run started. */
  startedAt: string;
  /** Wall time of the whole run, ms. */
  durationMs: number;
  /** Files run at once. */
  concurrent: number;
  /** Counts of files by status. */
  passed: number;
  failed: number;
  skipped: number;
  /** The merged report of the run, or null when no file wrote a report. */
  mergedReport: string | null;
  /** Every file, in the order run. */
  files: FileResult[];
}

/** Human duration: `850 ms`, `12.4 s`, `2 min 5 s`. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const s = ms / 1000;
  if (s < 60) return `${s.toFixed(1)} s`;
  const m = Math.floor(s / 60);
  return `${m} min ${Math.round(s - m * 60)} s`;
}

/**
 * The table printed at the end of a run (status, file, duration, items passed), then each failed
 * file's whole error (the live progress shows only its start), then the totals and the report.
 */
export function formatSummaryTable(summary: RunSummary): string {
  const rows = summary.files.map((f) => [
    f.status.toUpperCase(),
    f.file,
    f.status === "skipped" ? "-" : formatDuration(f.durationMs),
    f.items.length
      ? `${f.items.filter((i) => i.status === "passed").length}/${f.items.length}`
      : "-",
  ]);
  const head = ["status", "file", "time", "passed"];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i])).join("  ").trimEnd();
  const total = `${summary.passed} passed, ${summary.failed} failed, ${summary.skipped} skipped ` +
    `in ${formatDuration(summary.durationMs)}`;
  const failures = summary.files.filter((f) => f.status === "failed" && f.error);
  const warned = summary.files.filter((f) => f.warnings?.length);
  return [
    line(head),
    line(widths.map((w) => "-".repeat(w))),
    ...rows.map(line),
    ...(failures.length
      ? [
        "",
        "Failures:",
        ...failures.map((f) => `  ${f.file}\n    ${f.error!.replace(/\n/g, "\n    ")}`),
      ]
      : []),
    ...(warned.length
      ? [
        "",
        "Warnings:",
        ...warned.map((f) => `  ${f.file}\n    ${f.warnings!.join("\n    ")}`),
      ]
      : []),
    "",
    total,
    summary.mergedReport ? `report: ${summary.mergedReport}` : "report: none written",
  ].join("\n");
}
