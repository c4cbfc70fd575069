import { test } from "../../tests/helpers/test.ts";
import assert from "node:assert/strict";
import { Agent } from "./agent.ts";
import { DEVICE_EVENT_API } from "./device_events.ts";
import type { AbstractInterface, DeviceEvent } from "../device/types.ts";

/** A device with events: `emit` reports one to the subscribed listeners. */
function eventfulDevice(): AbstractInterface & {
  emit(event: DeviceEvent): void;
  listeners: Set<(event: DeviceEvent) => void>;
} {
  const listeners = new Set<(event: DeviceEvent) => void>();
  return {
    interfaceType: "eventful",
    listeners,
    emit: (event) => listeners.forEach((listener) => listener(event)),
    screenshotBase64: () => Promise.reject(new Error("no screenshot expected")),
    size: () => Promise.resolve({ width: 400, height: 800, dpr: 1 }),
    actionSpace: () => [],
    onDeviceEvent(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** An agent that runs a body as a recorded call (what a platform agent's own methods do). */
class CallingAgent extends Agent {
  run(body: () => Promise<void>): Promise<void> {
    return this.recordedCall("launch", "Launch the app", "Launch", {}, body);
  }
}

test("a device event is a Log step of the running call, or between calls a call of its own; destroy unsubscribes", async () => {
  const device = eventfulDevice();
  const agent = new CallingAgent(device, { generateReport: false });
  assert.equal(device.listeners.size, 1);

  await agent.run(() => {
    device.emit({
      title: "Dialog: alert, dismissed",
      text: "Saved",
      param: { type: "alert" },
      startedAt: Date.now() - 5,
    });
    return Promise.resolve();
  });
  let [call] = agent._unstableLogContent().executions;
  assert.deepEqual(
    call.steps.map((s) => [s.kind, s.title, s.thought, s.param, s.status]),
    [
      ["Action", "Launch", undefined, {}, "passed"],
      ["Log", "Dialog: alert, dismissed", "Saved", { type: "alert" }, "passed"],
    ],
  );
  assert.ok(call.steps[1].startedAt <= call.steps[1].endedAt!);

  device.emit({ title: "Dialog: confirm, dismissed", text: "", error: "the handler threw" });
  // Recorded as a call of its own; destroy waits for it.
  await agent.destroy();
  assert.equal(device.listeners.size, 0);
  const executions = agent._unstableLogContent().executions;
  assert.equal(executions.length, 2);
  call = executions[1];
  assert.deepEqual([call.apiName, call.prompt, call.status], [
    DEVICE_EVENT_API,
    "Dialog: confirm, dismissed",
    "passed",
  ]);
  assert.deepEqual(
    call.steps.map((s) => [s.kind, s.title, "thought" in s, s.status, s.error]),
    [["Log", "Dialog: confirm, dismissed", false, "failed", "the handler threw"]],
  );
});
