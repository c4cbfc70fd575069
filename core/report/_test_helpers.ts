/**
 * Helpers shared by the report tests (not part of the package's API).
 *
 * @module
 */

import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import type { ReportExecution, ReportStep } from "./types.ts";

/** Runs `fn` with `SDK_RUN_DIR` pointing at a fresh temporary directory, then restores it. */
export async function withRunDir<T>(fn: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), "sdk-report-"));
  const before = process.env.SDK_RUN_DIR;
  process.env.SDK_RUN_DIR = dir;
  try {
    return await fn(dir);
  } finally {
    if (before === undefined) delete process.env.SDK_RUN_DIR;
    else process.env.SDK_RUN_DIR = before;
    await rm(dir, { recursive: true, force: true });
  }
}

/** A distinct fake PNG data URI of about `bytes` base64 characters (content is not decoded). */
export function fakePng(seed: number, bytes = 4000): string {
  const body = btoa(String(seed).padEnd(16, "#")).replace(/=/g, "A");
  return `data:image/png;base64,${body.repeat(Math.ceil(bytes / body.length)).slice(0, bytes)}`;
}

/** A step with defaults. */
export function step(partial: Partial<ReportStep> = {}): ReportStep {
  return {
    kind: "Action",
    title: "Tap",
    status: "passed",
    startedAt: 1_700_000_000_000,
    endedAt: 1_700_000_000_250,
    ...partial,
  };
}

/** An execution with defaults. */
export function execution(partial: Partial<ReportExecution> = {}): ReportExecution {
  return {
    id: "e1",
    apiName: "aiTap",
    prompt: "the login button",
    status: "passed",
    startedAt: 1_700_000_000_000,
    endedAt: 1_700_000_001_000,
    steps: [],
    ...partial,
  };
}
