/**
 * Live progress of a `sdk run`: on a terminal, a block redrawn in place with one line per running
 * file (a spinner and its current step) under the finished files; elsewhere (CI, a pipe), one
 * plain line per event.
 *
 * @module
 */

import { type FileResult, formatDuration } from "./summary.ts";

/** Where progress goes. */
export interface ProgressOutput {
  /** Writes text as is. */
  write(text: string): void;
  /** Whether it is a terminal: then the block is redrawn in place. */
  isTTY: boolean;
}

/** The events of a run. */
export interface Progress {
  /** A file started. */
  start(file: string): void;
  /** A file began a step (the agent's `onTaskStartTip`). */
  step(file: string, text: string): void;
  /** A file ended. */
  end(result: FileResult): void;
  /** Stops redrawing; the last state stays on screen. */
  close(): void;
}

const FRAMES = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏";
const MAX_STEP = 90;
const short = (text: string) =>
  text.length > MAX_STEP ? `${text.slice(0, MAX_STEP - 1)}…` : text.replace(/\s+/g, " ");
const endLine = (r: FileResult) =>
  `${r.status === "passed" ? "✔" : r.status === "failed" ? "✘" : "-"} ${r.file} ` +
  `${r.status}${r.status === "skipped" ? "" : ` in ${formatDuration(r.durationMs)}`}` +
  (r.error ? `\n    ${short(r.error)}` : "");

/** Creates the progress display for `out`. */
export function createProgress(out: ProgressOutput): Progress {
  return out.isTTY ? ttyProgress(out) : plainProgress(out);
}

function plainProgress(out: ProgressOutput): Progress {
  return {
    start: (file) => out.write(`[start] ${file}\n`),
    step: (file, text) => out.write(`[step]  ${file}: ${short(text)}\n`),
    end: (r) =>
      out.write(`[${r.status === "passed" ? "pass" : r.status}]  ${endLine(r).slice(2)}\n`),
    close: () => {},
  };
}

function ttyProgress(out: ProgressOutput): Progress {
  const running = new Map<string, string>();
  let drawn = 0;
  let frame = 0;
  const draw = (finished = "") => {
    let text = drawn ? `\x1b[${drawn}A\x1b[J` : "";
    text += finished;
    const lines = [...running].map(([file, step]) =>
      `${FRAMES[frame % FRAMES.length]} ${file}${step ? `  ${short(step)}` : ""}`
    );
    text += lines.map((l) => `${l}\n`).join("");
    drawn = lines.length;
    out.write(text);
  };
  const timer = setInterval(() => {
    frame++;
    if (running.size) draw();
  }, 100);
  return {
    start(file) {
      running.set(file, "");
      draw();
    },
    step(file, text) {
      running.set(file, text);
      draw();
    },
    end(r) {
      running.delete(r.file);
      draw(`${endLine(r)}\n`);
    },
    close() {
      clearInterval(timer);
      draw();
    },
  };
}

/**
 * The progress of runs on a device (`sdk run --devices`): each file shown as `<file> @ <device>`,
 * so that one file running on several devices at once keeps a line per device.
 */
export function progressOnDevice(progress: Progress, device: string): Progress {
  const label = (file: string) => `${file} @ ${device}`;
  return {
    start: (file) => progress.start(label(file)),
    step: (file, text) => progress.step(label(file), text),
    end: (r) => progress.end({ ...r, file: label(r.file) }),
    close: () => {},
  };
}
