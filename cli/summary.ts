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
  /** The device it ran on (`<platform>:<id>`), in a `--devices` run. */
  device?: string;
  /** The error's stable code, when the pool knows it (`CONNECTION_LOST`: the device went away). */
  errorCode?: string;
}

/** One cell of the device x script matrix: a file's run on a device. */
export interface MatrixCell {
  /** The device, `<platform>:<id>`. */
  device: string;
  /** The file, as named on the command line. */
  script: string;
  /** How it ended. */
  status: FileStatus;
  /** Wall time, ms (0 when skipped). */
  durationMs: number;
  /** The run's report, when one was written. */
  report?: string;
}

/** The device x script matrix of a `--devices` run. */
export interface DeviceMatrix {
  /** The devices, in the pool's order (a column each). */
  devices: string[];
  /** The files, in the order given (a row each). */
  scripts: string[];
  /** The runs; a device and script with no cell did not run together (`--spread`). */
  cells: MatrixCell[];
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
  /** Every file, in the order run; in a `--per-device` run, every file on every device. */
  files: FileResult[];
  /** The device x script matrix, in a `--devices` run. */
  matrix?: DeviceMatrix;
}

/** The matrix of a `--devices` run's results (those with a `device`). */
export function deviceMatrix(
  devices: readonly string[],
  files: readonly FileResult[],
): DeviceMatrix {
  const cells = files.filter((f) => f.device !== undefined).map((f) => ({
    device: f.device!,
    script: f.file,
    status: f.status,
    durationMs: f.durationMs,
    ...(f.report ? { report: f.report } : {}),
  }));
  return { devices: [...devices], scripts: [...new Set(cells.map((c) => c.script))], cells };
}

/** The matrix as text: a row per script, a column per device, each cell its status. */
function formatMatrix(matrix: DeviceMatrix): string {
  const cell = (script: string, device: string) => {
    const c = matrix.cells.find((x) => x.script === script && x.device === device);
    return c ? c.status.toUpperCase() : "-";
  };
  const rows = matrix.scripts.map((s) => [s, ...matrix.devices.map((d) => cell(s, d))]);
  return ["Device matrix:", ...formatColumns(["script", ...matrix.devices], rows)].join("\n");
}

/** Rows of text cells as aligned lines, the head first (then a line of dashes with `rule`). */
export function formatColumns(
  head: readonly string[],
  rows: readonly string[][],
  rule = false,
): string[] {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: readonly string[]) =>
    cells.map((c, i) => c.padEnd(widths[i])).join("  ").trimEnd();
  return [line(head), ...(rule ? [line(widths.map((w) => "-".repeat(w)))] : []), ...rows.map(line)];
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
  const onDevices = summary.files.some((f) => f.device !== undefined);
  const rows = summary.files.map((f) => [
    f.status.toUpperCase(),
    onDevices ? `${f.file} @ ${f.device ?? "-"}` : f.file,
    f.status === "skipped" ? "-" : formatDuration(f.durationMs),
    f.items.length
      ? `${f.items.filter((i) => i.status === "passed").length}/${f.items.length}`
      : "-",
  ]);
  const head = ["status", onDevices ? "file @ device" : "file", "time", "passed"];
  const total = `${summary.passed} passed, ${summary.failed} failed, ${summary.skipped} skipped ` +
    `in ${formatDuration(summary.durationMs)}`;
  const failures = summary.files.filter((f) => f.status === "failed" && f.error);
  const warned = summary.files.filter((f) => f.warnings?.length);
  return [
    ...formatColumns(head, rows, true),
    ...(failures.length
      ? [
        "",
        "Failures:",
        ...failures.map((f) =>
          `  ${f.file}${f.device ? ` @ ${f.device}` : ""}\n    ${f.error!.replace(/\n/g, "\n    ")}`
        ),
      ]
      : []),
    ...(warned.length
      ? [
        "",
        "Warnings:",
        ...warned.map((f) => `  ${f.file}\n    ${f.warnings!.join("\n    ")}`),
      ]
      : []),
    ...(summary.matrix ? ["", formatMatrix(summary.matrix)] : []),
    "",
    total,
    summary.mergedReport ? `report: ${summary.mergedReport}` : "report: none written",
  ].join("\n");
}
