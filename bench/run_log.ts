/**
 * Run-log benchmark: what the log entries of one agent step cost (docs/logs.md, "Cost").
 *
 * One step of `aiTap` writes seven entries: `sdk:agent start`, `sdk:model request` (a 12 KB
 * system prompt and a 1280 x 800 screenshot of 130 KB, logged by size only), `sdk:model answer`,
 * `sdk:device Tap`, `sdk:agent action`, `sdk:report written`, `sdk:agent end`, then the flush the
 * agent does after each call. This writes that step 2000 times through a real {@link RunLog} into
 * a temporary directory (with the default 5 MB parts and a 50 MB directory cap, so rotation and
 * pruning run too), and as many steps without a file, in alternating rounds, and prints the
 * median time per step of each and the bytes per step.
 *
 *     deno run --allow-all bench/run_log.ts
 *
 * @module
 */

import { mkdtemp, readdir, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { RunLog } from "../core/log/run_log.ts";
import { requestForLog } from "../core/log/model_entries.ts";
import { createTestPng } from "../core/testing/png.ts";

const STEPS = 2000;
const ROUNDS = 10;

/** A screenshot data URI of 1280 x 800 whose body is as long as a real JPEG's (130 KB). */
async function screenshot(): Promise<string> {
  const png = await createTestPng(1280, 800);
  return png + "A".repeat(Math.max(0, 130 * 1024 - png.length));
}

/** Writes one step's entries, as an aiTap does. */
function step(log: RunLog, i: number, system: string, image: string): void {
  log.write("sdk:agent", "start", { api: "aiTap", prompt: "the 'Click me' button", images: 0 });
  log.write("sdk:model", "request", {
    intent: "default",
    host: "127.0.0.1:40000",
    body: requestForLog({
      model: "some-model",
      temperature: 0,
      messages: [
        { role: "system", content: system },
        {
          role: "user",
          content: [{ type: "image_url", image_url: { url: image } }, {
            type: "text",
            text: "Locate: the 'Click me' button",
          }],
        },
      ],
    }),
  });
  log.write("sdk:model", "answer", {
    intent: "default",
    ms: 812,
    attempts: 1,
    usage: { promptTokens: 1986, completionTokens: 51, totalTokens: 2037, requestId: `r-${i}` },
    content: '{"bbox":[66,441,226,535],"errors":[]}',
  });
  const locate = {
    description: "the 'Click me' button",
    rect: { left: 53, top: 264, width: 128, height: 56 },
    center: [117, 292],
  };
  log.write("sdk:device", "Tap", { param: { locate }, ms: 41 });
  log.write("sdk:agent", "action", { name: "Tap", param: { locate }, ms: 343 });
  log.write("sdk:report", "written", { file: "/x/sdk_run/report/r.html", execution: `${i}` });
  log.write("sdk:agent", "end", { api: "aiTap", ms: 1210 });
  log.flush();
}

/** Microseconds per step over `steps` steps. */
function measure(log: RunLog, steps: number, system: string, image: string): number {
  const start = performance.now();
  for (let i = 0; i < steps; i++) step(log, i, system, image);
  return (performance.now() - start) * 1000 / steps;
}

/** The median of the numbers. */
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1];

const system = "You are a UI automation assistant. ".repeat(350); // ~12 KB, like a locate prompt
const image = await screenshot();
const dir = await mkdtemp(join(tmpdir(), "sdk-bench-log-"));
try {
  const withFile = new RunLog({ dir, print: () => {} });
  const noFile = new RunLog({ dir: false, print: () => {} });
  await withFile.ready;
  measure(withFile, 100, system, image); // warm-up
  measure(noFile, 100, system, image);
  // Alternating rounds, so that a busy moment of the machine hits both alike.
  const [fileRounds, noFileRounds]: number[][] = [[], []];
  for (let round = 0; round < ROUNDS; round++) {
    fileRounds.push(measure(withFile, STEPS / ROUNDS, system, image));
    noFileRounds.push(measure(noFile, STEPS / ROUNDS, system, image));
  }
  const [fileUs, noFileUs] = [median(fileRounds), median(noFileRounds)];
  const files = await readdir(dir);
  const bytes = (await Promise.all(files.map((f) => stat(join(dir, f))))).reduce(
    (sum, s) => sum + s.size,
    0,
  );
  const steps = STEPS + 100;
  console.table({
    "per step, log file on (us, median of rounds)": fileUs.toFixed(0),
    "per step, no file (us, median of rounds)": noFileUs.toFixed(0),
    "bytes per step": Math.round(bytes / steps),
    "files / total MB after 2100 steps": `${files.length} / ${(bytes / 2 ** 20).toFixed(1)}`,
  });
} finally {
  await rm(dir, { recursive: true });
}
