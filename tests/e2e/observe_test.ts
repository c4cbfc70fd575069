/// <reference lib="dom" />
/**
 * Observation on both drivers (spec 3.3, 4.4) over tests/fixtures/app/observe.html: a toast shown
 * for 800 ms, a spinner that comes and goes, a counter going 1, 2, 3. The test model answers from
 * the pixels it is sent: a capturing proxy in front of it keeps each request's images (the named
 * frames, then the final screenshot), and the handlers decode them and look for the fixture's
 * unique colours.
 *
 * @module
 */

import { after } from "../helpers/test.ts";
import assert from "node:assert/strict";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { startTestModel } from "@sdk/core/testing";
import type { AssertCall, ExtractCall, TestModel, TestModelScript } from "@sdk/core/testing";
import type { WebPageAgent } from "@sdk/web";
import { driverTest, type E2e, type E2ePage } from "./_drivers.ts";
import { loadJsCodecs } from "../../core/image/backend.ts";
import { decodeBase64 } from "../../core/image/base64.ts";

// ---- the model side: a proxy that keeps the images, and pixel checks -----------------------

/** One image of a model request: its prompt-image name (unset for the screenshot) and data URI. */
interface SentImage {
  name?: string;
  uri: string;
}

interface CapturingModel {
  model: TestModel;
  modelConfig: Record<string, string>;
  /** Images of the request being answered (or the last one). */
  last(): SentImage[];
  close(): Promise<void>;
}

const closers: Array<() => Promise<void>> = [];
after(async () => {
  await Promise.allSettled(closers.map((close) => close()));
});

function imagesOf(body: unknown): SentImage[] {
  const out: SentImage[] = [];
  const messages = (body as { messages?: unknown[] }).messages ?? [];
  for (const message of messages) {
    const content = (message as { content?: unknown }).content;
    if (!Array.isArray(content)) continue;
    let name: string | undefined;
    for (const part of content as Array<Record<string, unknown>>) {
      if (part.type === "text" && typeof part.text === "string") {
        const match = /Image "([^"]+)":\s*$/.exec(part.text);
        name = match ? match[1] : undefined;
      } else if (part.type === "image_url") {
        const url = (part.image_url as { url?: string } | undefined)?.url ?? "";
        out.push({ name, uri: url });
        name = undefined;
      }
    }
  }
  return out;
}

async function capturingModel(script: TestModelScript, page: E2ePage): Promise<CapturingModel> {
  const model = await startTestModel({ script, viewport: () => page.viewport() });
  const config = model.modelConfig();
  const target = new URL(config.SDK_MODEL_BASE_URL);
  let images: SentImage[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Uint8Array[] = [];
    req.on("data", (c: Uint8Array) => chunks.push(c));
    req.on("end", async () => {
      const raw = new TextDecoder().decode(concat(chunks));
      try {
        images = imagesOf(JSON.parse(raw));
      } catch {
        images = [];
      }
      try {
        const answer = await fetch(new URL(req.url ?? "/", target.origin), {
          method: req.method,
          headers: {
            "content-type": "application/json",
            authorization: req.headers.authorization ?? "",
          },
          body: raw,
        });
        res.writeHead(answer.status, { "content-type": answer.headers.get("content-type") ?? "" });
        res.end(new Uint8Array(await answer.arrayBuffer()));
      } catch (e) {
        res.writeHead(502);
        res.end(String(e));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const modelConfig = {
    ...config,
    SDK_MODEL_BASE_URL: `http://127.0.0.1:${port}${target.pathname}`,
  };
  const close = async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await model.close();
  };
  closers.push(close);
  return { model, modelConfig, last: () => images, close };
}

function concat(chunks: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

type Rgb = readonly [number, number, number];
const TOAST: Rgb = [0xff, 0x00, 0xff];
const SPINNER: Rgb = [0x00, 0xc0, 0xc0];
const COUNTER: readonly Rgb[] = [[0x80, 0x80, 0x80], [0xff, 0x80, 0x00], [0x00, 0x60, 0xff], [
  0x00,
  0xa0,
  0x00,
]];
// The smallest box is 60x60 CSS px; frames may be at CSS size, so a few hundred pixels is a box.
const MIN_PIXELS = 400;

/** How many pixels of each colour an image has (within a JPEG tolerance). */
async function colourCounts(uri: string, colours: readonly Rgb[]): Promise<number[]> {
  const { decode } = await loadJsCodecs();
  const comma = uri.indexOf(",");
  const mime = uri.startsWith("data:image/png") ? "image/png" : "image/jpeg";
  const image = decode(decodeBase64(uri.slice(comma + 1)), mime);
  const counts = colours.map(() => 0);
  const d = image.data;
  for (let i = 0; i < d.length; i += 4) {
    for (let c = 0; c < colours.length; c++) {
      const [r, g, b] = colours[c];
      if (Math.abs(d[i] - r) < 40 && Math.abs(d[i + 1] - g) < 40 && Math.abs(d[i + 2] - b) < 40) {
        counts[c]++;
      }
    }
  }
  return counts;
}

async function shows(uri: string, colour: Rgb): Promise<boolean> {
  return (await colourCounts(uri, [colour]))[0] >= MIN_PIXELS;
}

/** The counter value shown: the counter colour with the most pixels, or -1 with none. */
async function counterValue(uri: string): Promise<number> {
  const counts = await colourCounts(uri, COUNTER);
  const best = counts.indexOf(Math.max(...counts));
  return counts[best] >= MIN_PIXELS ? best : -1;
}

/** The frames of the request (named `frame N at +S s`), then the final screenshot. */
function split(images: SentImage[]): { frames: SentImage[]; final: SentImage | undefined } {
  return {
    frames: images.filter((i) => i.name?.startsWith("frame ")),
    final: images.find((i) => i.name === undefined),
  };
}

/**
 * The fixture's "model": answers from the pixels of what it was sent. Assertions mentioning the
 * toast pass iff some image shows its colour; the spinner one iff some frame shows it and the
 * final screen does not; extracts return the counter sequence read from the frames.
 */
function pixelScript(images: () => SentImage[]): TestModelScript {
  return {
    async assert(call: AssertCall) {
      const { frames, final } = split(images());
      const all = [...frames, ...(final ? [final] : [])];
      if (/toast|Saved/i.test(call.assertion)) {
        const seen = [];
        for (const image of all) {
          if (await shows(image.uri, TOAST)) seen.push(image.name ?? "final");
        }
        return {
          pass: seen.length > 0,
          thought: seen.length ? `The toast is in ${seen.join(", ")}` : "No image shows the toast",
        };
      }
      if (/spinner/i.test(call.assertion)) {
        const seen = [];
        for (const frame of frames) if (await shows(frame.uri, SPINNER)) seen.push(frame.name);
        const atEnd = final ? await shows(final.uri, SPINNER) : true;
        return {
          pass: seen.length > 0 && !atEnd,
          thought: `spinner in ${seen.join(", ") || "no frame"}; at the end: ${atEnd}`,
        };
      }
      return { pass: false, thought: `unknown assertion: ${call.assertion}` };
    },
    async extract(_call: ExtractCall) {
      const { frames, final } = split(images());
      const values: number[] = [];
      for (const image of [...frames, ...(final ? [final] : [])]) {
        const value = await counterValue(image.uri);
        if (value >= 0 && values.at(-1) !== value) values.push(value);
      }
      return values;
    },
  };
}

/** An agent over `observe.html` whose model answers from pixels. */
async function observeAgent(env: E2e, query = "", options: Record<string, unknown> = {}) {
  const page = await env.open(`observe.html${query}`, { width: 800, height: 600 });
  // The script reads the images of the request it answers, which the proxy keeps.
  const sent: { images: () => SentImage[] } = { images: () => [] };
  const proxy = await capturingModel(pixelScript(() => sent.images()), page);
  sent.images = proxy.last;
  const agent = env.pageAgent(page, {
    modelConfig: proxy.modelConfig,
    waitAfterAction: 50,
    autoPrintReportMsg: false,
    ...options,
  });
  return { page, agent, model: proxy.model, images: proxy.last };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until(done: () => Promise<boolean>, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!(await done()) && Date.now() < end) await sleep(50);
}

// ---- tests ---------------------------------------------------------------------------------

driverTest(
  "observation catches an 800 ms toast that aiAssert on the final screen misses",
  async (env) => {
    const { page, agent, images } = await observeAgent(env);
    const observer = await agent.startObserving({ intervalMs: 200 });
    await page.evaluate(() => (window as unknown as { startEvents(): void }).startEvents());
    await until(() => page.state<boolean>("done"), 5000);
    await sleep(300);
    const observation = await observer.stop();
    assert.ok(observation.frameCount >= 3, `frames: ${observation.frameCount}`);
    assert.notEqual(await page.state("toastHiddenAt"), null, "the toast is gone by now");

    await observation.aiAssert("a 'Saved!' toast appeared at some point");
    const { frames, final } = split(images());
    assert.equal(frames.length, observation.frameCount, "every kept frame is sent");
    assert.match(frames[0].name!, /^frame 1 at \+\d+\.\d\d s$/);
    assert.ok(final, "the final screenshot is sent after the frames");
    assert.equal(await shows(final.uri, TOAST), false, "the final screen has no toast");

    // The same question on the live screen: the toast is gone, so the assertion fails.
    await assert.rejects(agent.aiAssert("a 'Saved!' toast appeared at some point"), /toast/i);
    const plain = images();
    assert.equal(plain.filter((i) => i.name?.startsWith("frame ")).length, 0);
    await observation.dispose();
  },
);

driverTest(
  "observation sees the spinner appear then vanish, and the counter go 1, 2, 3 in order",
  async (env) => {
    const { page, agent } = await observeAgent(env);
    const observer = await agent.startObserving({ intervalMs: 200 });
    await page.evaluate(() => (window as unknown as { startEvents(): void }).startEvents());
    await until(() => page.state<boolean>("done"), 5000);
    await sleep(300);
    const observation = await observer.stop();
    assert.deepEqual(await page.state("counterValues"), [0, 1, 2, 3]);

    await observation.aiAssert("a loading spinner appeared and then disappeared");
    const sequence = await observation.aiQuery<number[]>(
      "the counter values shown over time, in order, as an array of numbers",
    );
    // Seen in order: the start (0) may fall before the first frame, the rest must all be there.
    assert.deepEqual(sequence.filter((v) => v > 0), [1, 2, 3], `sequence ${sequence}`);
    for (let i = 1; i < sequence.length; i++) assert.ok(sequence[i] > sequence[i - 1]);
    // The final screen alone shows only the end state.
    await assert.rejects(agent.aiAssert("a loading spinner appeared and then disappeared"));
    await observation.dispose();
  },
);

driverTest("thinning keeps at most maxFrames over a 20 s recording", async (env) => {
  const { agent } = await observeAgent(env, "?animate");
  const maxFrames = 8;
  const observer = await agent.startObserving({ intervalMs: 200, maxFrames });
  const startedAt = Date.now();
  let most = 0;
  while (Date.now() - startedAt < 20_000) {
    most = Math.max(most, observer.bufferedFrameCount);
    await sleep(100);
  }
  const observation = await observer.stop();
  assert.equal(most, maxFrames, `the buffer filled up to maxFrames and never beyond: ${most}`);
  // Thinning doubles the grid step and drops the frames off it (docs/agent.md, "Thinning"), so
  // the buffer ends anywhere between just over half full and full, never above.
  const count = observation.frameCount;
  assert.ok(count > maxFrames / 2 && count <= maxFrames, `frameCount ${count}`);
  const frames = observation.frames;
  assert.ok(frames[0].offsetMs < 500, `first frame near the start: +${frames[0].offsetMs} ms`);
  assert.ok(
    frames.at(-1)!.offsetMs > 15_000,
    `last frame near the end: +${frames.at(-1)!.offsetMs}`,
  );
  // Evenly spread over the whole recording: no gap much wider than the mean.
  const span = frames.at(-1)!.offsetMs - frames[0].offsetMs;
  for (let i = 1; i < frames.length; i++) {
    const gap = frames[i].timestamp - frames[i - 1].timestamp;
    assert.ok(gap >= 0, "in time order");
    assert.ok(
      gap <= 2.2 * span / (frames.length - 1),
      `gap ${gap} ms of ${span} ms, ${count} frames`,
    );
  }
  assert.ok(observation.endedAt - observation.startedAt >= 20_000);
  await observation.dispose();
});

/**
 * How long a recording of `agent`'s page takes to hold its first frame on this machine now, ms: the
 * screencast's first frame comes in tens of ms on an idle machine, near a second at load 25.
 */
async function firstFrameDelay(agent: WebPageAgent): Promise<number> {
  const started = Date.now();
  const observer = await agent.startObserving({ intervalMs: 200, watchdogMs: 0 });
  await until(() => Promise.resolve(observer.bufferedFrameCount >= 1), 30_000);
  const delay = Date.now() - started;
  assert.ok(observer.bufferedFrameCount >= 1, `no frame after ${delay} ms`);
  await (await observer.stop()).dispose();
  return delay;
}

driverTest("the watchdog stops a recording nobody stops", async (env) => {
  const { agent } = await observeAgent(env, "?animate");
  // The watchdog fires well after the first frame can come on this machine as loaded as it is now
  // (a fixed 700 ms let a loaded machine's first frame come after it: a recording of no frame).
  const watchdogMs = Math.max(1000, 4 * await firstFrameDelay(agent));
  const observer = await agent.startObserving({ intervalMs: 200, watchdogMs });
  // Nobody calls stop(): wait for the watchdog, however late a loaded machine runs its timer.
  await until(() => Promise.resolve(observer.stopped), watchdogMs + 30_000);
  assert.equal(observer.stopped, true, `stopped by the watchdog (${watchdogMs} ms)`);
  // The watchdog's stop, still finishing (a frame being written is kept); stop() hands it over.
  const observation = await observer.stop();
  const count = observer.bufferedFrameCount;
  assert.equal(observation.frameCount, count);
  await sleep(500);
  assert.equal(observer.bufferedFrameCount, count, "no frame after the auto-stop");
  const ranMs = observation.endedAt - observation.startedAt;
  // Not before the watchdog's time, and not long after it (the stop itself takes a moment).
  assert.ok(ranMs >= watchdogMs, `the recording ran ${ranMs} ms, the watchdog is ${watchdogMs} ms`);
  assert.ok(
    ranMs < 2 * watchdogMs,
    `the recording ran ${ranMs} ms, the watchdog is ${watchdogMs} ms`,
  );
  assert.ok(observation.frameCount >= 1, `${observation.frameCount} frames`);
  await observation.dispose();
});

driverTest("destroy() during recording stops the observer", async (env) => {
  const { agent } = await observeAgent(env, "?animate");
  const observer = await agent.startObserving({ intervalMs: 200 });
  await sleep(600);
  await agent.destroy();
  assert.equal(observer.stopped, true);
  const count = observer.bufferedFrameCount;
  await sleep(500);
  assert.equal(observer.bufferedFrameCount, count, "no frame after destroy()");
});

driverTest("queries before stop() and domIncluded are errors", async (env) => {
  const { agent, model } = await observeAgent(env);
  const observer = await agent.startObserving({ intervalMs: 200 });
  await assert.rejects(
    (observer as unknown as { aiAssert(a: string): Promise<void> }).aiAssert("anything"),
    /stop\(\)/,
  );
  const observation = await observer.stop();
  await assert.rejects(
    observation.aiQuery("the counter", { domIncluded: true } as unknown as { domIncluded: false }),
    (e: Error) => e instanceof TypeError && /domIncluded/.test(e.message),
  );
  assert.equal(model.calls.length, 0, "neither error reached the model");
  await observation.dispose();
});
