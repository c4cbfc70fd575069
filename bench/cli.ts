/**
 * Command-line benchmark: what `sdk run` costs around the model.
 *
 * - Cold start: from spawning `deno run -A cli/bin.ts run one.yaml` to the first request the
 *   model receives, median of {@link COLD_RUNS}. The browser launch is part of it; it is also
 *   measured alone (`launchChromium()` in this process, median of the same count) so the rest can
 *   be told apart.
 * - Batch: {@link BATCH_FILES} copies of a three-tap script on the fixture app's `actions.html`
 *   (default agent options, so `waitAfterAction` is 300 ms), run with `--concurrent 1` and then
 *   `--concurrent 2`; the wall times and their ratio.
 *
 * The test model answers every locate at once with a box measured once, so the model costs ~0 ms.
 * Prints a table and writes `bench/output/cli.json`. Exit code 0 even when a number looks bad (a
 * benchmark reports, tests assert); 1 when a run fails.
 *
 *     deno run --allow-all bench/cli.ts
 *
 * @module
 */

import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startTestModel } from "@sdk/core/testing";
import { launchChromium, measure } from "../tests/helpers/browser.ts";
import { FIXTURE_APP_DIR, serveStatic } from "../tests/helpers/static_server.ts";

/** Cold-start runs. */
export const COLD_RUNS = 5;
/** Files of the batch run. */
export const BATCH_FILES = 20;

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const OUTPUT_DIR = new URL("output/", import.meta.url);

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

async function main(): Promise<void> {
  const browser = await launchChromium();
  const app = await serveStatic(FIXTURE_APP_DIR);
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(`${app.url}actions.html`);
  const box = await measure(page, "#click-button");
  await browser.close();
  await app.close();

  let firstRequestAt = 0;
  const model = await startTestModel({
    viewport: { width: 1280, height: 800 },
    script: {
      locate: () => {
        firstRequestAt ||= performance.now();
        return box;
      },
    },
  });
  const work = await mkdtemp(join(tmpdir(), "sdk-cli-bench-"));
  const script = (taps: number) =>
    `web:\n  serve: ${FIXTURE_APP_DIR}\n  url: actions.html\ntasks:\n  - name: taps\n    flow:\n` +
    "      - aiTap: the Click me button\n".repeat(taps);
  const sdk = async (args: string[]) => {
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "--allow-all", join(ROOT, "cli/bin.ts"), "run", ...args],
      cwd: work,
      env: { ...model.modelConfig(), SDK_RUN_DIR: join(work, "sdk_run") },
      stdout: "piped",
      stderr: "piped",
    }).output();
    if (out.code !== 0) {
      throw new Error(
        `sdk run ${args.join(" ")} exited ${out.code}:\n${new TextDecoder().decode(out.stdout)}\n${
          new TextDecoder().decode(out.stderr)
        }`,
      );
    }
  };
  try {
    await writeFile(join(work, "one.yaml"), script(1));
    const cold: number[] = [];
    for (let i = 0; i < COLD_RUNS; i++) {
      firstRequestAt = 0;
      const spawned = performance.now();
      await sdk(["one.yaml"]);
      cold.push(firstRequestAt - spawned);
    }
    const launches: number[] = [];
    for (let i = 0; i < COLD_RUNS; i++) {
      const start = performance.now();
      const b = await launchChromium();
      launches.push(performance.now() - start);
      await b.close();
    }

    const batchDir = join(work, "batch");
    await mkdir(batchDir);
    for (let i = 0; i < BATCH_FILES; i++) {
      await writeFile(join(batchDir, `flow-${String(i).padStart(2, "0")}.yaml`), script(3));
    }
    const wall: Record<string, number> = {};
    for (const concurrent of [1, 2]) {
      const start = performance.now();
      await sdk(["batch", "--concurrent", String(concurrent)]);
      wall[concurrent] = performance.now() - start;
    }

    const result = {
      date: new Date().toISOString(),
      coldStartToFirstModelCallMs: { runs: cold, median: median(cold) },
      browserLaunchMs: { runs: launches, median: median(launches) },
      batch: {
        files: BATCH_FILES,
        tapsPerFile: 3,
        wallMsConcurrent1: wall[1],
        wallMsConcurrent2: wall[2],
        ratio: wall[1] / wall[2],
      },
    };
    const ms = (v: number) => `${v.toFixed(0)} ms`;
    console.log(`sdk run, ${COLD_RUNS} cold starts, ${BATCH_FILES}-file batch\n`);
    console.log(
      `cold start to first model call (median)   ${ms(result.coldStartToFirstModelCallMs.median)}`,
    );
    console.log(`  of which browser launch (median, alone)  ${ms(result.browserLaunchMs.median)}`);
    console.log(
      `  the rest (process, imports, page, agent)  ${
        ms(result.coldStartToFirstModelCallMs.median - result.browserLaunchMs.median)
      }`,
    );
    console.log(`batch --concurrent 1                       ${ms(wall[1])}`);
    console.log(`batch --concurrent 2                       ${ms(wall[2])}`);
    console.log(`ratio (1 / 2)                              ${result.batch.ratio.toFixed(2)}`);
    await Deno.mkdir(OUTPUT_DIR, { recursive: true });
    await Deno.writeTextFile(new URL("cli.json", OUTPUT_DIR), JSON.stringify(result, null, 2));
  } finally {
    await model.close();
    await rm(work, { recursive: true, force: true });
  }
}

if (import.meta.main) await main();
