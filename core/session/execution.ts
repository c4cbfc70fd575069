/**
 * Records one public API call and its steps for the report, and keeps the report file current.
 *
 * @module
 */

import type { ReportExecution, ReportStep } from "../report/types.ts";

/** Where executions are written; the agent's report writer. */
export interface ExecutionSink {
  /** Stores the current state of an execution. */
  writeExecution(exec: ReportExecution): Promise<void>;
}

let executionCounter = 0;

/** One API call being recorded. */
export class ExecutionRecorder {
  /** The record as the report shows it. */
  readonly record: ReportExecution;
  #sink: ExecutionSink;
  readonly #mask?: (record: ReportExecution) => void;

  /**
   * Starts recording a call of `apiName` with its prompt text; `mask` is applied to the record
   * before each write (the secrets typed on screen).
   */
  constructor(
    sink: ExecutionSink,
    apiName: string,
    prompt: string,
    startedAt: number,
    mask?: (record: ReportExecution) => void,
  ) {
    this.#sink = sink;
    this.#mask = mask;
    this.record = {
      id: `${startedAt.toString(36)}-${++executionCounter}`,
      apiName,
      prompt,
      status: "running",
      startedAt,
      steps: [],
    };
  }

  /** Starts a step and returns it; finish it with {@link end}. */
  begin(kind: ReportStep["kind"], title: string, fields: Partial<ReportStep> = {}): ReportStep {
    const step: ReportStep = { kind, title, status: "running", startedAt: Date.now(), ...fields };
    this.record.steps.push(step);
    return step;
  }

  /** Marks a step passed, or failed with `error`. */
  end(step: ReportStep, error?: unknown): void {
    step.endedAt = Date.now();
    step.status = error === undefined ? "passed" : "failed";
    if (error !== undefined) step.error = errorMessage(error);
  }

  /** Writes the current state to the report. */
  flush(): Promise<void> {
    this.#mask?.(this.record);
    return this.#sink.writeExecution(this.record);
  }
}

/** The message of any thrown value. */
export function errorMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
