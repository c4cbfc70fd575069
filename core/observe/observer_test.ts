import { test } from "../../tests/helpers/test.ts";
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Agent } from "../agent/agent.ts";
import type { AbstractInterface, FrameStreamOptions } from "../device/types.ts";
import { AssertionError } from "../errors.ts";
import { imageSizeFromDataUri } from "../image/mod.ts";
import { createTestPng, startTestModel } from "../testing/mod.ts";
import type { AssertCall, ExtractCall, TestModel, TestModelScript } from "../testing/mod.ts";
import { createFrameStore } from "./frame_store.ts";
import type { UIObserver } from "./observer.ts";

Deno.env.set("SDK_RUN_DIR", mkdtempSync(join(tmpdir(), "sdk-observe-")));

const pngs = new Map<string, Promise<string>>();
/** A PNG whose width encodes a number (10 + n), so a frame's origin can be read back. */
function png(n: number, height = 20): Promise<string> {
  const key = `${n}x${height}`;
  if (!pngs.has(key)) pngs.set(key, createTestPng(10 + n, height));
  return pngs.get(key)!;
}
const widthOf = (uri: string) => imageSizeFromDataUri(uri).width - 10;

/** A device without a frame stream: each screenshot is `png(state.n)`. */
function shotDevice(state = { n: 0, captures: 0 }): AbstractInterface & { state: typeof state } {
  return {
    state,
    interfaceType: "test",
    screenshotBase64: async () => {
      state.captures++;
      return await png(state.n);
    },
    size: () => Promise.resolve({ width: 100, height: 20, dpr: 1 }),
    actionSpace: () => [],
  };
}

/** A device with a frame stream that emits `png(state.n)` (base64 body) on `emit()`. */
function streamDevice() {
  const state = { n: 0, running: false, stops: 0 };
  let sink: FrameStreamOptions | undefined;
  const device: AbstractInterface = {
    interfaceType: "test",
    screenshotBase64: async () => await png(state.n, 30),
    size: () => Promise.resolve({ width: 100, height: 30, dpr: 1 }),
    actionSpace: () => [],
    startFrameStream: (options) => {
      sink = options;
      state.running = true;
      return Promise.resolve({
        stop: () => {
          state.running = false;
          state.stops++;
          return Promise.resolve();
        },
      });
    },
  };
  const emit = async (n: number) => {
    state.n = n;
    const uri = await png(n);
    if (state.running) {
      sink!.onFrame({
        data: uri.slice(uri.indexOf(",") + 1),
        format: "png",
        timestamp: Date.now(),
      });
    }
  };
  return { device, state, emit };
}

async function withModel(
  script: TestModelScript,
  run: (model: TestModel) => Promise<void>,
): Promise<void> {
  const model = await startTestModel({ script });
  try {
    await run(model);
  } finally {
    await model.close();
  }
}

function agentOn(device: AbstractInterface, model?: TestModel): Agent {
  return new Agent(device, {
    modelConfig: model?.modelConfig(),
    generateReport: false,
    autoPrintReportMsg: false,
    screenshotFormat: "png",
  });
}

// Intervals this long never fire in a test: ticks are driven with _tick().
const MANUAL = { intervalMs: 60_000, watchdogMs: 0 };

test("startObserving rejects bad options naming them, and a second observer naming stop()", async () => {
  const agent = agentOn(shotDevice());
  const bad: [unknown, RegExp][] = [
    [{ intervalMs: 199 }, /'intervalMs' must be a finite number >= 200.*199/],
    [{ intervalMs: NaN }, /'intervalMs'/],
    [{ maxFrames: 1 }, /'maxFrames' must be an integer >= 2.*1/],
    [{ maxFrames: 2.5 }, /'maxFrames'/],
    [{ watchdogMs: -1 }, /'watchdogMs'.*-1/],
    [{ watchdogMs: 2 ** 32 }, /'watchdogMs'/],
  ];
  for (const [options, message] of bad) {
    await assert.rejects(agent.startObserving(options as never), (e: unknown) => {
      assert.ok(e instanceof RangeError, String(e));
      assert.match((e as Error).message, message);
      return true;
    });
  }
  const observer = await agent.startObserving(MANUAL);
  await assert.rejects(agent.startObserving(MANUAL), /already observing; call stop\(\)/);
  await observer.stop();
  const again = await agent.startObserving(MANUAL);
  await agent.destroy();
  assert.equal(again.stopped, true);
  await assert.rejects(agent.startObserving(), /destroyed/);
});

test("without a frame stream each tick takes a screenshot into a file under the run dir", async () => {
  const device = shotDevice();
  const agent = agentOn(device);
  const observer = await agent.startObserving(MANUAL);
  await observer._tick(); // tick 0 is taken at start; this is tick 1
  device.state.n = 2;
  await observer._tick();
  assert.equal(observer.bufferedFrameCount, 3);
  assert.equal(observer.frameCount, 3);
  const observation = await observer.stop();
  const dir = observation.framesDir!;
  assert.match(dir, /observe[\\/][^\\/]+$/);
  assert.deepEqual(readdirSync(dir).sort(), ["frame-1.png", "frame-2.png", "frame-3.png"]);
  assert.equal(observation.frameCount, 3);
  assert.deepEqual(observation.frames.map((f) => f.index), [1, 2, 3]);
  assert.ok(Object.isFrozen(observation.frames) && Object.isFrozen(observation.frames[0]));
  assert.ok(observation.startedAt <= observation.frames[0].timestamp);
  assert.ok(observation.endedAt >= observation.frames[2].timestamp);
  assert.match(observation.frames[0].name, /^frame 1 at \+\d+\.\d\d s$/);
  // The final screenshot is captured at stop(): 3 frames + 1.
  assert.equal(device.state.captures, 4);
  await observation.dispose();
  assert.equal(existsSync(dir), false);
  await observation.dispose();
  await agent.destroy();
});

test("a tick is skipped while the previous capture still runs", async () => {
  let release!: () => void;
  const device = shotDevice();
  const base = device.screenshotBase64;
  let calls = 0;
  device.screenshotBase64 = async (e) => {
    if (++calls === 2) await new Promise<void>((r) => release = r);
    return await base(e);
  };
  const agent = agentOn(device);
  const observer = await agent.startObserving(MANUAL);
  const slow = observer._tick(); // the second capture hangs
  await new Promise((r) => setTimeout(r, 5));
  const skipped = observer._tick();
  release();
  await Promise.all([slow, skipped]);
  assert.equal(observer.bufferedFrameCount, 2);
  await agent.destroy();
});

test("thinning keeps the first and the newest frame, at most maxFrames, evenly spaced", async () => {
  let ticks: number[] = [];
  await withModel({
    extract: (call: ExtractCall) => {
      ticks = call.promptImages.map((i) => widthOf(i.dataUri!));
      return true;
    },
  }, async (model) => {
    for (const maxFrames of [6, 2]) {
      const device = shotDevice();
      const agent = agentOn(device, model);
      const observer = await agent.startObserving({ ...MANUAL, maxFrames });
      let lastSampled = 0;
      for (let tick = 1; tick <= 57; tick++) {
        device.state.n = tick;
        const before = device.state.captures;
        await observer._tick();
        if (device.state.captures > before) lastSampled = tick;
        assert.ok(observer.bufferedFrameCount <= maxFrames, `${maxFrames}: ${tick}`);
      }
      const observation = await observer.stop();
      assert.equal(readdirSync(observation.framesDir!).length, observation.frameCount);
      assert.equal(await observation.aiBoolean("was anything shown?"), true);
      assert.equal(ticks[0], 0, `${maxFrames}: first kept: ${ticks}`);
      assert.equal(ticks.at(-1), lastSampled, `${maxFrames}: newest kept: ${ticks}`);
      assert.ok(ticks.length >= maxFrames / 2, `${maxFrames}: ${ticks}`);
      const gaps = new Set(ticks.slice(1).map((t, i) => t - ticks[i]));
      assert.equal(gaps.size, 1, `${maxFrames}: even spacing: ${ticks}`);
      await agent.destroy();
    }
  });
});

test("a frame stream: the first frame is kept at once, a tick without a new frame adds nothing", async () => {
  const { device, state, emit } = streamDevice();
  const agent = agentOn(device);
  const observer = await agent.startObserving(MANUAL);
  assert.equal(state.running, true);
  await emit(1);
  await observer._tick(); // stores the first frame (kept on arrival)
  assert.equal(observer.bufferedFrameCount, 1);
  await observer._tick(); // nothing new
  assert.equal(observer.bufferedFrameCount, 1);
  // Frames from a timer: only the latest one at a tick is kept.
  const timer = setInterval(() => void emit(state.n + 1), 2);
  await new Promise((r) => setTimeout(r, 30));
  clearInterval(timer);
  await new Promise((r) => setTimeout(r, 5));
  await observer._tick();
  assert.equal(observer.bufferedFrameCount, 2);
  const observation = await observer.stop();
  assert.equal(state.running, false);
  assert.equal(state.stops, 1);
  assert.deepEqual(readdirSync(observation.framesDir!).sort(), ["frame-1.png", "frame-2.png"]);
  await emit(99); // after stop: ignored
  assert.equal(observation.frameCount, 2);
  await agent.destroy();
});

test("the watchdog stops recording by itself; stop() then returns the same observation", async () => {
  const agent = agentOn(shotDevice());
  const observer = await agent.startObserving({ intervalMs: 60_000, watchdogMs: 20 });
  for (let i = 0; i < 100 && !observer.stopped; i++) await new Promise((r) => setTimeout(r, 10));
  assert.equal(observer.stopped, true);
  const a = await observer.stop();
  assert.equal(await observer.stop(), a);
  const exec = agent._unstableLogContent().executions.find((e) => e.apiName === "startObserving");
  assert.match(exec!.prompt, /stopped by the watchdog/);
  await agent.destroy();
});

test("queries before stop() throw naming stop(); domIncluded throws a TypeError naming it", async () => {
  const agent = agentOn(shotDevice());
  const observer: UIObserver = await agent.startObserving(MANUAL);
  await assert.rejects(observer.aiAssert("x"), /still recording; call stop\(\) first/);
  await assert.rejects(observer.aiBoolean("x"), /aiBoolean: .*call stop\(\)/);
  const observation = await observer.stop();
  for (
    const call of [
      () => observation.aiQuery("x", { domIncluded: true } as never),
      () => observation.aiAssert("x", undefined, { domIncluded: "visible-only" } as never),
      () => observation.aiAsk("x", { domIncluded: true } as never),
    ]
  ) {
    await assert.rejects(call(), (e: unknown) => {
      assert.ok(e instanceof TypeError);
      assert.match((e as Error).message, /'domIncluded' is not supported/);
      return true;
    });
  }
  await agent.destroy();
});

test("a query sends the frames in time order as named images, then the final screenshot", async () => {
  const seen: (ExtractCall | AssertCall)[] = [];
  await withModel({
    extract: (call) => {
      seen.push(call);
      return call.returnType === "number" ? 3 : "toast";
    },
    assert: (call) => {
      seen.push(call);
      return { pass: false, thought: "no toast in any frame" };
    },
  }, async (model) => {
    const device = shotDevice();
    const agent = agentOn(device, model);
    const observer = await agent.startObserving(MANUAL);
    device.state.n = 1;
    await observer._tick();
    device.state.n = 2;
    await observer._tick();
    device.state.n = 7; // the final screen
    const observation = await observer.stop();
    assert.equal(await observation.aiNumber("how many frames?"), 3);
    const call = seen[0];
    assert.deepEqual(call.promptImages.map((i) => i.name), observation.frames.map((f) => f.name));
    assert.match(call.promptImages[0].name, /^frame 1 at \+0\.\d\d s$/);
    assert.deepEqual(call.promptImages.map((i) => widthOf(i.dataUri!)), [0, 1, 2]);
    assert.equal(call.image?.width, 17); // the final screenshot is the call's screenshot
    assert.match(
      call.userText,
      /<observation>\nThe 3 images named "frame 1 at .*show the screen over time/,
    );
    assert.match(call.userText, /The screenshot is the final state/);
    await assert.rejects(observation.aiAssert("a toast appeared", "no toast"), (e: unknown) => {
      assert.ok(e instanceof AssertionError);
      assert.match((e as Error).message, /no toast\nAssertion failed: a toast appeared/);
      return true;
    });
    assert.equal(seen[1].kind, "assert");
    assert.equal(seen[1].promptImages.length, 3);
    // The observer's own methods delegate once stopped.
    await assert.rejects(observer.aiAssert("a toast appeared"), AssertionError);
    const apis = agent._unstableLogContent().executions.map((e) => e.apiName);
    assert.deepEqual(apis, ["startObserving", "aiNumber", "aiAssert", "aiAssert"]);
    await observation.dispose();
    await assert.rejects(observation.aiAsk("x"), /disposed/);
    await agent.destroy();
  });
});

test("the report has a startObserving execution with one Observed step per frame", async () => {
  const device = shotDevice();
  const agent = agentOn(device);
  const observer = await agent.startObserving(MANUAL);
  await observer._tick();
  const observation = await observer.stop();
  const exec = agent._unstableLogContent().executions[0];
  assert.equal(exec.apiName, "startObserving");
  assert.equal(exec.status, "passed");
  assert.equal(exec.startedAt, observation.startedAt);
  assert.deepEqual(exec.steps.map((s) => s.kind), ["Observed", "Observed"]);
  for (const [i, step] of exec.steps.entries()) {
    assert.match(step.title, /^Observed \+\d+\.\d\d s$/);
    assert.ok(step.screenshot);
    assert.equal(step.startedAt, observation.frames[i].timestamp);
  }
  await agent.destroy();
});

test("agent.destroy() stops a recording observer and removes every observation's frames", async () => {
  const agent = agentOn(shotDevice());
  const first = await (await agent.startObserving(MANUAL)).stop();
  const observer = await agent.startObserving(MANUAL);
  await observer._tick();
  const dir = first.framesDir!;
  assert.equal(existsSync(dir), true);
  await agent.destroy();
  assert.equal(observer.stopped, true);
  assert.equal(existsSync(dir), false);
  const second = await observer.stop();
  assert.equal(second.framesDir, undefined);
  assert.deepEqual(
    agent._unstableLogContent().executions.map((e) => e.apiName),
    ["startObserving", "startObserving"],
  );
});

test("without a file system frames are kept in memory", async () => {
  const store = await createFrameStore("x", true);
  assert.equal(store.dir, undefined);
  await store.put(1, "png", "aGVsbG8=");
  assert.equal(await store.read(1), "data:image/png;base64,aGVsbG8=");
  await store.remove(1);
  await assert.rejects(store.read(1), /removed/);
});
