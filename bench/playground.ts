/**
 * Playground benchmark: what one `aiTap` through the playground costs beyond the model's own time.
 *
 * `startPlayground` opens the fixture app's `actions.html` (1280 x 800, headless, default agent
 * options, so `waitAfterAction` is 300 ms). The model is the test model in its own process
 * (`_model_process.ts`), answering every locate at once with a box measured once; a
 * `createModelClient` pass-through times each model call as the SDK sees it. Then
 * {@link TAPS} taps each way:
 *
 * - `ui`: a person's round trip in a second headless Chromium showing the playground page:
 *   choose aiTap, type the prompt, click Run, until the result is shown (the button enabled),
 *   as Playwright sees it; `page`: the same taps on the page's own clock, from the click event
 *   to the result's duration being written (without Playwright's click and polling).
 * - `http`: `POST /api/call` from this process, as the page sends it, until the answer is read.
 *
 * For each: the median round trip, the median model time, the round trip beyond the model, and
 * the call's own duration (the agent's `aiTap`, as the playground reports it). Prints a table and
 * writes `bench/output/playground.json`. Exit code 0 even when a number looks bad; 1 when a tap
 * fails or the page counts fewer clicks than taps.
 *
 *     deno run --allow-all bench/playground.ts
 *
 * @module
 */

import { mkdir, writeFile } from "node:fs/promises";
import process from "node:process";
import type { ModelClient } from "@sdk/core";
import { type DriverBPageAgent, startPlayground } from "@sdk/web";
import { launchChromium, measure } from "../tests/helpers/browser.ts";
import { FIXTURE_APP_DIR, serveStatic } from "../tests/helpers/static_server.ts";
import { startModelProcess } from "./_model_child.ts";

/** Taps measured each way. */
export const TAPS = 30;

const VIEWPORT = { width: 1280, height: 800 };
const BENCH_DIR = new URL("./", import.meta.url);
const OUTPUT_DIR = new URL("output/", BENCH_DIR);

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

async function main(): Promise<void> {
  process.env.SDK_RUN_DIR ??= new URL("sdk_run", OUTPUT_DIR).pathname;
  const app = await serveStatic(FIXTURE_APP_DIR);
  const browser = await launchChromium();
  const probe = await browser.newPage({ viewport: VIEWPORT });
  await probe.goto(`${app.url}actions.html`);
  const box = await measure(probe, "#click-button");
  await probe.close();
  const model = await startModelProcess(box, { viewport: VIEWPORT });

  let modelMs = 0;
  const playground = await startPlayground({
    url: `${app.url}actions.html`,
    port: 0,
    agentOptions: {
      modelConfig: model.modelConfig(),
      reportFileName: "bench-playground",
      // Times the model call as the SDK sees it; passes everything through unchanged.
      createModelClient: (client: ModelClient) =>
        Promise.resolve({
          chat: {
            completions: {
              async create(body: Record<string, unknown>, options?: { signal?: AbortSignal }) {
                const start = performance.now();
                try {
                  return await client.chat.completions.create(body, options);
                } finally {
                  modelMs += performance.now() - start;
                }
              },
            },
          },
        }),
    },
  });
  const token = new URL(playground.url).searchParams.get("token")!;
  const ui = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  try {
    await ui.goto(playground.url);
    await ui.waitForFunction(() => Number(document.getElementById("screen")!.dataset.frames) > 0);
    await ui.selectOption("#api", "aiTap");
    await ui.fill("#prompt", "the Click me button");
    // The page's own clock: from the Run click to the result's duration being written, without
    // Playwright's click and polling around it.
    await ui.evaluate(() => {
      const w = window as unknown as { runAt: number; shownAt: number };
      document.getElementById("run")!.addEventListener("click", () => {
        w.runAt = performance.now();
      }, { capture: true });
      new MutationObserver(() => w.shownAt = performance.now()).observe(
        document.getElementById("duration")!,
        { childList: true, characterData: true, subtree: true },
      );
    });

    const runs: Record<"ui" | "page" | "http", {
      roundTrip: number[];
      model: number[];
      call: number[];
    }> = {
      ui: { roundTrip: [], model: [], call: [] },
      page: { roundTrip: [], model: [], call: [] },
      http: { roundTrip: [], model: [], call: [] },
    };
    // One unmeasured tap each way first: the first call opens the report file and warms up.
    for (let i = 0; i <= TAPS; i++) {
      modelMs = 0;
      let start = performance.now();
      await ui.click("#run");
      await ui.waitForFunction(() =>
        !(document.getElementById("run") as HTMLButtonElement).disabled
      );
      let roundTrip = performance.now() - start;
      const status = await ui.locator("#result-status").textContent();
      if (status !== "passed") throw new Error(`tap ${i} from the page: ${status}`);
      const shown = Number((await ui.locator("#duration").textContent())!.split(" ")[0]) * 1000;
      const inPage = await ui.evaluate(() => {
        const w = window as unknown as { runAt: number; shownAt: number };
        return w.shownAt - w.runAt;
      });
      if (i > 0) {
        runs.ui.roundTrip.push(roundTrip);
        runs.ui.model.push(modelMs);
        runs.ui.call.push(shown);
        runs.page.roundTrip.push(inPage);
        runs.page.model.push(modelMs);
        runs.page.call.push(shown);
      }

      modelMs = 0;
      start = performance.now();
      const answer = await (await fetch(new URL("/api/call", playground.url), {
        method: "POST",
        headers: { "x-playground-token": token, "content-type": "application/json" },
        body: JSON.stringify({ api: "aiTap", prompt: "the Click me button" }),
      })).json();
      roundTrip = performance.now() - start;
      if (!answer.ok) throw new Error(`tap ${i} over HTTP: ${answer.error?.message}`);
      if (i > 0) {
        runs.http.roundTrip.push(roundTrip);
        runs.http.model.push(modelMs);
        runs.http.call.push(answer.durationMs);
      }
    }
    const page = (playground.agent as DriverBPageAgent).page;
    const clicks = await page.evaluate(() =>
      (globalThis as unknown as { appState: { clicks: number } }).appState.clicks
    );
    if (clicks !== 2 * (TAPS + 1)) throw new Error(`the page counts ${clicks} clicks`);

    const summary = Object.fromEntries(
      Object.entries(runs).map(([way, r]) => [way, {
        roundTripMs: median(r.roundTrip),
        modelMs: median(r.model),
        beyondModelMs: median(r.roundTrip.map((t, i) => t - r.model[i])),
        callMs: median(r.call),
        playgroundMs: median(r.roundTrip.map((t, i) => t - r.call[i])),
      }]),
    );
    const result = { date: new Date().toISOString(), taps: TAPS, waitAfterActionMs: 300, summary };
    console.log(`Playground: one aiTap on actions.html, ${TAPS} taps each way (medians, ms)\n`);
    console.log("way   round trip   model   beyond model   agent call   playground + page");
    for (const [way, s] of Object.entries(summary)) {
      console.log(
        `${way.padEnd(5)} ${s.roundTripMs.toFixed(1).padStart(10)} ${
          s.modelMs.toFixed(1).padStart(7)
        } ${s.beyondModelMs.toFixed(1).padStart(14)} ${s.callMs.toFixed(1).padStart(12)} ${
          s.playgroundMs.toFixed(1).padStart(19)
        }`,
      );
    }
    console.log(
      "\nbeyond model includes waitAfterAction (300 ms); playground + page = round trip - agent call",
    );
    await mkdir(OUTPUT_DIR, { recursive: true });
    await writeFile(new URL("playground.json", OUTPUT_DIR), JSON.stringify(result, null, 2) + "\n");
  } finally {
    await ui.close();
    await playground.close();
    await browser.close();
    await model.close();
    await app.close();
  }
}

if (import.meta.main) {
  try {
    await main();
  } catch (e) {
    console.error(e);
    process.exitCode = 1;
  }
}
