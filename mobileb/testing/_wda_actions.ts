/**
 * Gestures of the WDA front (private to `@sdk/mobileb/testing`): W3C actions (`POST /actions`) and
 * WDA's coordinate gestures compiled into one plan of ticks in **points**, played on the virtual
 * phone with {@link VirtualPhone.multiTouch}, several fingers at once.
 *
 * iOS's system gestures have no WDA route, so the plan is checked first: a single finger that
 * goes down within the bottom {@link EDGE_POINTS} points, moves up at least a quarter of the
 * screen height and is lifted {@link APP_SWITCHER_MS} ms or more after it went down (planned
 * durations, not wall time) shows the app switcher; a faster one goes home. Such a gesture does
 * not reach the app.
 *
 * @module
 */

import { KEYCODE, RECENTS_ACTIVITY, type VirtualPhone } from "@sdk/web/testing";
import { WdaError } from "./_wda_protocol.ts";
import { typeKeys } from "./_wda_keys.ts";

/** Height of the bottom edge where the home and app-switcher gesture starts, points. */
export const EDGE_POINTS = 20;
/** Down-to-up time from which an edge swipe shows the app switcher instead of going home, ms. */
export const APP_SWITCHER_MS = 500;
/** How long the drag of `dragfromtoforduration` moves, after its hold, ms. */
const DRAG_MOVE_MS = 100;
// One finger position per frame while a finger moves.
const FRAME_MS = 16;

type Point = { x: number; y: number };

/** One thing that happens at the start of a tick; moves last the tick. */
export type GestureOp =
  | { type: "down"; finger: number; at: Point }
  | { type: "up"; finger: number; at: Point }
  | { type: "move"; finger: number; from: Point; to: Point; down: boolean }
  | { type: "keys"; text: string };

/** A gesture: ticks played one after the other, each `ms` long. Points of the screen. */
export interface GesturePlan {
  ticks: { ms: number; ops: GestureOp[] }[];
}

/** The screen in points, for the system gestures. */
export interface ScreenPoints {
  width: number;
  height: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function invalid(message: string): WdaError {
  return new WdaError("invalid argument", message);
}

function nonNegative(value: unknown, what: string): number {
  if (value === undefined || value === null) return 0;
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0) {
    throw invalid(`${what} must be a non-negative number of milliseconds, got ${value}`);
  }
  return value;
}

function coordinate(value: unknown, what: string): number {
  if (typeof value !== "number" || !Number.isFinite(value)) {
    throw invalid(`${what} must be a finite number of points, got ${JSON.stringify(value)}`);
  }
  return value;
}

/**
 * Compiles the `actions` of a W3C `POST /session/:id/actions` body: `pointer` sources of type
 * `touch` (`pointerMove` with origin `viewport` or `pointer`, `pointerDown`, `pointerUp`,
 * `pause`), `key` sources (`keyDown` types its value) and `none` sources (`pause`).
 *
 * @throws {WdaError} `invalid argument` naming the source and action that is not understood.
 */
export function compileW3cActions(actions: unknown): GesturePlan {
  if (!Array.isArray(actions)) {
    throw invalid(`'actions' must be an array of input sources, got ${JSON.stringify(actions)}`);
  }
  type Source = { id: string; kind: string; items: Record<string, unknown>[] };
  const sources: Source[] = actions.map((source, index) => {
    if (typeof source !== "object" || source === null) {
      throw invalid(`input source #${index} must be an object`);
    }
    const s = source as Record<string, unknown>;
    const id = typeof s.id === "string" ? s.id : `#${index}`;
    const kind = String(s.type);
    if (!["pointer", "key", "none"].includes(kind)) {
      throw invalid(`input source '${id}' has type '${kind}'; pointer, key and none are known`);
    }
    const pointerType = (s.parameters as { pointerType?: unknown } | undefined)?.pointerType ??
      "mouse";
    if (kind === "pointer" && pointerType !== "touch") {
      throw invalid(
        `only pointer type 'touch' is supported, got '${pointerType}' for input source '${id}'`,
      );
    }
    if (!Array.isArray(s.actions)) throw invalid(`input source '${id}' has no 'actions' array`);
    return { id, kind, items: s.actions as Record<string, unknown>[] };
  });
  const ticks: GesturePlan["ticks"] = [];
  const fingers = sources.map(() => ({ x: 0, y: 0, down: false }));
  const length = Math.max(0, ...sources.map((s) => s.items.length));
  for (let t = 0; t < length; t++) {
    const ops: GestureOp[] = [];
    let ms = 0;
    sources.forEach((source, finger) => {
      const action = source.items[t];
      if (action === undefined) return;
      const where = `action #${t} of input source '${source.id}'`;
      const type = action?.type;
      if (type === "pause") {
        ms = Math.max(ms, nonNegative(action.duration, `the duration of ${where}`));
        return;
      }
      if (source.kind === "key") {
        if (type === "keyDown") ops.push({ type: "keys", text: String(action.value ?? "") });
        else if (type !== "keyUp") throw invalid(`${where} has type '${type}'`);
        return;
      }
      if (source.kind === "none") throw invalid(`${where} has type '${type}'; only pause is known`);
      const state = fingers[finger];
      if (type === "pointerMove") {
        const duration = nonNegative(action.duration, `the duration of ${where}`);
        const origin = action.origin ?? "viewport";
        const x = coordinate(action.x ?? 0, `x of ${where}`);
        const y = coordinate(action.y ?? 0, `y of ${where}`);
        if (origin !== "viewport" && origin !== "pointer") {
          throw invalid(
            `${where} has origin ${JSON.stringify(origin)}; the simulator takes 'viewport' ` +
              `or 'pointer' (it has no element references)`,
          );
        }
        const from = { x: state.x, y: state.y };
        const to = origin === "pointer" ? { x: state.x + x, y: state.y + y } : { x, y };
        ops.push({ type: "move", finger, from, to, down: state.down });
        Object.assign(state, to);
        ms = Math.max(ms, duration);
      } else if (type === "pointerDown" || type === "pointerUp") {
        const down = type === "pointerDown";
        if (state.down !== down) {
          ops.push({ type: down ? "down" : "up", finger, at: { x: state.x, y: state.y } });
        }
        state.down = down;
      } else if (type !== "pointerCancel") {
        throw invalid(`${where} has type '${type}'`);
      }
    });
    ticks.push({ ms, ops });
  }
  // Fingers still down at the end are lifted, as WDA's synthesizer does.
  const lifts = fingers.flatMap((f, finger) =>
    f.down ? [{ type: "up" as const, finger, at: { x: f.x, y: f.y } }] : []
  );
  if (lifts.length) ticks.push({ ms: 0, ops: lifts });
  return { ticks };
}

/** `dragfromtoforduration`: a hold of `holdSeconds` at `from`, then a {@link DRAG_MOVE_MS} drag. */
export function dragPlan(from: Point, to: Point, holdSeconds: number): GesturePlan {
  return {
    ticks: [
      { ms: holdSeconds * 1000, ops: [{ type: "down", finger: 0, at: from }] },
      { ms: DRAG_MOVE_MS, ops: [{ type: "move", finger: 0, from, to, down: true }] },
      { ms: 0, ops: [{ type: "up", finger: 0, at: to }] },
    ],
  };
}

/** `touchAndHold`: one finger held at a point for `seconds`. */
export function holdPlan(at: Point, seconds: number): GesturePlan {
  return {
    ticks: [
      { ms: seconds * 1000, ops: [{ type: "down", finger: 0, at }] },
      { ms: 0, ops: [{ type: "up", finger: 0, at }] },
    ],
  };
}

/**
 * The system gesture a plan makes, if any: `appSwitcher` or `home` for a single finger's swipe
 * up from the bottom edge (see the module's rule), undefined for anything else.
 */
export function systemGesture(
  plan: GesturePlan,
  screen: ScreenPoints,
): "appSwitcher" | "home" | undefined {
  const downs = plan.ticks.flatMap((tick, index) =>
    tick.ops.flatMap((op) => op.type === "down" ? [{ op, index }] : [])
  );
  if (downs.length !== 1) return undefined;
  const { op: down, index: downTick } = downs[0];
  if (down.type !== "down") return undefined;
  const upTick = plan.ticks.findIndex((tick, index) =>
    index > downTick && tick.ops.some((op) => op.type === "up" && op.finger === down.finger)
  );
  if (upTick < 0) return undefined;
  const up = plan.ticks[upTick].ops.find((op) => op.type === "up")!;
  if (up.type !== "up") return undefined;
  const fromEdge = down.at.y >= screen.height - EDGE_POINTS;
  const upward = down.at.y - up.at.y >= screen.height / 4;
  if (!fromEdge || !upward) return undefined;
  const ms = plan.ticks.slice(downTick, upTick).reduce((sum, tick) => sum + tick.ms, 0);
  return ms >= APP_SWITCHER_MS ? "appSwitcher" : "home";
}

/** The plan's length, ms. */
export function planMs(plan: GesturePlan): number {
  return plan.ticks.reduce((sum, tick) => sum + tick.ms, 0);
}

/**
 * Plays a plan on the phone: its system gesture when it makes one, otherwise every finger
 * through {@link VirtualPhone.multiTouch} (points times `scale` = physical pixels), moving fingers
 * once per frame.
 */
export async function playGesture(
  phone: VirtualPhone,
  scale: number,
  plan: GesturePlan,
): Promise<void> {
  const system = systemGesture(plan, { width: phone.width / scale, height: phone.height / scale });
  if (system) {
    await sleep(planMs(plan));
    if (system === "home") return await phone.keyEvent(KEYCODE.HOME);
    if (phone.foregroundApp().activity !== RECENTS_ACTIVITY) {
      await phone.keyEvent(KEYCODE.APP_SWITCH);
    }
    return;
  }
  const down = new Map<number, Point>();
  const touch = () =>
    phone.multiTouch(
      [...down].map(([finger, { x, y }]) => ({ id: finger + 1, x: x * scale, y: y * scale })),
    );
  for (const tick of plan.ticks) {
    const started = performance.now();
    const moves: Extract<GestureOp, { type: "move" }>[] = [];
    for (const op of tick.ops) {
      if (op.type === "keys") await typeKeys(phone, op.text);
      else if (op.type === "move") moves.push(op);
      else {
        if (op.type === "down") down.set(op.finger, op.at);
        else down.delete(op.finger);
        await touch();
      }
    }
    const moving = moves.filter((move) => move.down && down.has(move.finger));
    const frames = moving.length ? Math.max(1, Math.ceil(tick.ms / FRAME_MS)) : 0;
    for (let frame = 1; frame <= frames; frame++) {
      const wait = started + (tick.ms * frame) / frames - performance.now();
      if (wait > 0) await sleep(wait);
      for (const { finger, from, to } of moving) {
        const f = frame / frames;
        down.set(finger, { x: from.x + (to.x - from.x) * f, y: from.y + (to.y - from.y) * f });
      }
      await touch();
    }
    const rest = started + tick.ms - performance.now();
    if (rest > 0) await sleep(rest);
  }
}
