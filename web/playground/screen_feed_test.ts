import { test } from "../../tests/helpers/test.ts";
import assert from "node:assert/strict";
import type { AbstractInterface, FrameStreamOptions, StreamFrame } from "@sdk/core";
import { ScreenFeed } from "./screen_feed.ts";

const device = (extra: Partial<AbstractInterface> = {}): AbstractInterface => ({
  interfaceType: "fake",
  screenshotBase64: () => Promise.resolve("data:image/jpeg;base64,QUJD"),
  size: () => Promise.resolve({ width: 10, height: 10, dpr: 1 }),
  actionSpace: () => [],
  ...extra,
});

test("one device stream for all viewers, the latest frame at once, stopped after the last", async () => {
  let started = 0, stopped = 0;
  let send: FrameStreamOptions["onFrame"] = () => {};
  const feed = new ScreenFeed(device({
    startFrameStream(options) {
      started++;
      send = options.onFrame;
      assert.equal(options.minIntervalMs, 100);
      return Promise.resolve({ stop: () => Promise.resolve(void stopped++) });
    },
  }));
  const a: StreamFrame[] = [], b: StreamFrame[] = [];
  const offA = await feed.subscribe((f) => a.push(f));
  send({ data: "1", format: "jpeg", timestamp: 1 });
  const offB = await feed.subscribe((f) => b.push(f));
  send({ data: "2", format: "jpeg", timestamp: 2 });
  assert.deepEqual([a.map((f) => f.data), b.map((f) => f.data)], [["1", "2"], ["1", "2"]]);
  assert.equal(started, 1);
  await offA();
  assert.equal(stopped, 0);
  await offB();
  assert.equal(stopped, 1);
  await feed.close();
  await assert.rejects(feed.subscribe(() => {}), /closed/);
});

test("a device without a frame stream is polled with screenshots", async () => {
  const feed = new ScreenFeed(device(), { pollIntervalMs: 10 });
  const frames: StreamFrame[] = [];
  const off = await feed.subscribe((f) => frames.push(f));
  while (frames.length < 3) await new Promise((r) => setTimeout(r, 5));
  await off();
  const count = frames.length;
  await new Promise((r) => setTimeout(r, 40));
  assert.equal(frames.length, count, "no frame after the last viewer left");
  assert.deepEqual([frames[0].data, frames[0].format], ["QUJD", "jpeg"]);
  await feed.close();
});
