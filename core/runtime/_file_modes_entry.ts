/**
 * Test support of file_modes_test.ts, bundled for Node there: writes what the SDK writes and
 * reads back the modes. Not published.
 *
 * @module
 */

import { stat } from "node:fs/promises";
import { join } from "node:path";
import process from "node:process";
import { RotatingLogFile } from "./log_file.ts";
import { TaskCache } from "../session/cache_store.ts";
import { createFrameStore } from "../observe/frame_store.ts";
import { writeFileAtomic } from "./runtime.ts";

/** The mode of `p`, octal. */
export const mode = async (p: string): Promise<string> =>
  ((await stat(p)).mode & 0o777).toString(8);

/** Writes a log line, a cache file, a frame and a report file under `dir`; returns their modes. */
export async function writeAll(dir: string): Promise<Record<string, string>> {
  const log = new RotatingLogFile({
    dir: join(dir, "run", "log"),
    maxFileBytes: 1 << 20,
    maxTotalBytes: 4 << 20,
    stem: "sdk-modes",
  });
  await log.ready;
  log.append("a line\n");
  log.flush();
  const cache = await TaskCache.open({
    id: "modes",
    strategy: "read-write",
    cacheDir: join(dir, "run", "cache"),
  });
  cache.putPlan({ type: "plan", prompt: "p", yamlWorkflow: "x" } as never);
  await cache.flush();
  const saved = process.env.SDK_RUN_DIR;
  process.env.SDK_RUN_DIR = join(dir, "run");
  const frames = await createFrameStore("obs1", false);
  if (saved === undefined) delete process.env.SDK_RUN_DIR;
  else process.env.SDK_RUN_DIR = saved;
  await frames.put(1, "png", "iVBORw0KGgo=");
  const report = join(dir, "run", "report", "r.html");
  await writeFileAtomic(report, "<html></html>");
  return {
    logFile: await mode(log.file!),
    logDir: await mode(join(dir, "run", "log")),
    cacheDir: await mode(join(dir, "run", "cache")),
    framesDir: await mode(frames.dir!),
    report: await mode(report),
    runDir: await mode(join(dir, "run")),
  };
}

/** What {@link writeAll} gives with umask 022. */
export const EXPECTED_MODES: Record<string, string> = {
  logFile: "600",
  logDir: "700",
  cacheDir: "700",
  framesDir: "700",
  report: "644",
  runDir: "755",
};
