/**
 * The WDA front's gesture plans: W3C actions compiled into ticks, and the edge-swipe rule that
 * tells the app switcher from home (no browser needed).
 *
 * @module
 */

import { test } from "../../tests/helpers/test.ts";
import assert from "node:assert/strict";
import {
  APP_SWITCHER_MS,
  compileW3cActions,
  dragPlan,
  EDGE_POINTS,
  type GesturePlan,
  holdPlan,
  planMs,
  systemGesture,
} from "./_wda_actions.ts";
import { WdaError } from "./_wda_protocol.ts";

const SCREEN = { width: 390, height: 844 };

const touch = (id: string, actions: unknown[]) => ({
  type: "pointer",
  id,
  parameters: { pointerType: "touch" },
  actions,
});

/** A single-finger swipe from (195, fromY) to (195, toY) whose move lasts `ms`. */
const swipe = (fromY: number, toY: number, ms: number): GesturePlan =>
  compileW3cActions([touch("f", [
    { type: "pointerMove", duration: 0, x: 195, y: fromY },
    { type: "pointerDown", button: 0 },
    { type: "pointerMove", duration: ms, x: 195, y: toY },
    { type: "pointerUp", button: 0 },
  ])]);

test("W3C actions compile into ticks as long as their longest action, origins resolved", () => {
  const plan = compileW3cActions([
    touch("a", [
      { type: "pointerMove", duration: 0, x: 100, y: 200 },
      { type: "pointerDown", button: 0 },
      { type: "pointerMove", duration: 300, x: -40, y: 10, origin: "pointer" },
    ]),
    touch("b", [
      { type: "pointerMove", duration: 0, x: 300, y: 200, origin: "viewport" },
      { type: "pointerDown", button: 0 },
      { type: "pause", duration: 450 },
      { type: "pointerUp", button: 0 },
    ]),
    { type: "none", id: "n", actions: [{ type: "pause", duration: 20 }] },
  ]);
  assert.deepEqual(plan.ticks.map((t) => t.ms), [20, 0, 450, 0, 0]);
  assert.deepEqual(plan.ticks[2].ops[0], {
    type: "move",
    finger: 0,
    from: { x: 100, y: 200 },
    to: { x: 60, y: 210 },
    down: true,
  });
  // Finger a was never lifted: the plan lifts it at the end, where it is.
  assert.deepEqual(plan.ticks.at(-1)!.ops, [{ type: "up", finger: 0, at: { x: 60, y: 210 } }]);
  assert.equal(planMs(plan), 470);
});

test("W3C actions that the simulator cannot play are refused with what is wrong", () => {
  const refused = (actions: unknown, message: RegExp) =>
    assert.throws(
      () => compileW3cActions(actions),
      (error: unknown) =>
        error instanceof WdaError && error.error === "invalid argument" &&
        message.test(error.message),
    );
  refused({}, /'actions' must be an array/);
  refused([{ type: "pointer", id: "m", actions: [] }], /only pointer type 'touch'.*'mouse'/);
  refused([{ type: "wheel", id: "w", actions: [] }], /type 'wheel'/);
  refused([touch("e", [{ type: "pointerMove", x: 1, y: 1, origin: { ELEMENT: "x" } }])], /origin/);
  refused([touch("d", [{ type: "pause", duration: -5 }])], /non-negative/);
  refused([touch("x", [{ type: "pointerMove", x: "1", y: 1 }])], /x of action #0/);
});

test("a slow swipe up from the bottom edge is the app switcher, a faster one home", () => {
  const bottom = SCREEN.height - 5;
  assert.equal(systemGesture(swipe(bottom, 400, 600), SCREEN), "appSwitcher");
  assert.equal(systemGesture(swipe(bottom, 400, APP_SWITCHER_MS), SCREEN), "appSwitcher");
  assert.equal(systemGesture(swipe(bottom, 400, APP_SWITCHER_MS - 1), SCREEN), "home");
  // The edge is the bottom 20 points; the travel at least a quarter of the height.
  const edge = SCREEN.height - EDGE_POINTS;
  assert.equal(systemGesture(swipe(edge, 100, 100), SCREEN), "home");
  assert.equal(systemGesture(swipe(edge - 1, 100, 100), SCREEN), undefined);
  assert.equal(systemGesture(swipe(bottom, bottom - SCREEN.height / 4, 100), SCREEN), "home");
  assert.equal(
    systemGesture(swipe(bottom, bottom - SCREEN.height / 4 + 1, 100), SCREEN),
    undefined,
  );
  // Downward, or with two fingers, it is the app's.
  assert.equal(systemGesture(swipe(bottom, SCREEN.height, 600), SCREEN), undefined);
  const two = compileW3cActions([
    touch("a", [{ type: "pointerMove", x: 100, y: bottom }, { type: "pointerDown" }, {
      type: "pointerMove",
      duration: 600,
      x: 100,
      y: 300,
    }, { type: "pointerUp" }]),
    touch("b", [{ type: "pointerMove", x: 200, y: bottom }, { type: "pointerDown" }, {
      type: "pointerMove",
      duration: 600,
      x: 200,
      y: 300,
    }, { type: "pointerUp" }]),
  ]);
  assert.equal(systemGesture(two, SCREEN), undefined);
});

test("dragfromtoforduration counts its hold and its 100 ms drag; a hold is not a swipe", () => {
  const from = { x: 195, y: 840 };
  const to = { x: 195, y: 300 };
  assert.equal(systemGesture(dragPlan(from, to, 0.4), SCREEN), "appSwitcher");
  assert.equal(systemGesture(dragPlan(from, to, 0.3), SCREEN), "home");
  assert.equal(systemGesture(dragPlan(from, to, 0), SCREEN), "home");
  assert.equal(systemGesture(holdPlan(from, 1), SCREEN), undefined);
  assert.equal(planMs(holdPlan(from, 1.5)), 1500);
});
