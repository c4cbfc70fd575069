/**
 * The device's own events in the report (`AbstractInterface.onDeviceEvent`: a web page's native
 * dialog, for one): each is a `Log` step of the call running when the device reports it, or,
 * between calls, of a call of its own named {@link DEVICE_EVENT_API}.
 *
 * @module
 */

import type { DeviceEvent } from "../device/types.ts";
import { errorMessage, type ExecutionRecorder } from "../session/execution.ts";
import type { AgentState } from "./lifecycle.ts";
import { execCall } from "./run_call.ts";

/** The `apiName` of the call that records a device event reported between calls. */
export const DEVICE_EVENT_API = "deviceEvent";

/** Subscribes the agent to its device's events, when the device has them. */
export function subscribeDeviceEvents(state: AgentState): void {
  state.stopDeviceEvents = state.device.onDeviceEvent?.((event) => recordDeviceEvent(state, event));
}

function recordDeviceEvent(state: AgentState, event: DeviceEvent): void {
  if (state.destroyed) return;
  // The call started last: a call that awaits another call (a script's task) holds the inner one.
  const running = state.running.at(-1);
  if (running) return addEventStep(running, event);
  const recorded: Promise<void> = execCall(
    state,
    DEVICE_EVENT_API,
    event.title,
    [],
    (s) => Promise.resolve(addEventStep(s.recorder, event)),
  ).catch((e) => console.warn(`Could not record the device's event: ${errorMessage(e)}`))
    .finally(() => state.deviceEvents.delete(recorded));
  state.deviceEvents.add(recorded);
}

function addEventStep(recorder: ExecutionRecorder, event: DeviceEvent): void {
  const step = recorder.begin("Log", event.title, {
    ...(event.text ? { thought: event.text } : {}),
    ...(event.param ? { param: event.param } : {}),
  });
  if (event.startedAt !== undefined) step.startedAt = Math.min(event.startedAt, step.startedAt);
  recorder.end(step, event.error);
}
