import { test } from "../tests/helpers/test.ts";
import assert from "node:assert/strict";
import {
  appSwitcherActions,
  PINCH_MIN_GAP,
  pinchActions,
  pinchPath,
  type PointerActionItem,
  tapActions,
} from "./gestures.ts";

const SCREEN = { width: 390, height: 844 };

function moves(items: PointerActionItem[]) {
  return items.filter((i) => i.type === "pointerMove") as Extract<
    PointerActionItem,
    { type: "pointerMove" }
  >[];
}

function span(items: PointerActionItem[], from: string, to: string): number {
  const a = items.findIndex((i) => i.type === from);
  const b = items.findIndex((i) => i.type === to);
  return items.slice(a + 1, b).reduce(
    (ms, i) => ms + ("duration" in i ? i.duration : 0),
    0,
  );
}

test("tapActions: one touch finger, down and up at the point; two taps for a double tap", () => {
  const { actions } = tapActions([10.5, 20], 2);
  assert.equal(actions.length, 1);
  assert.deepEqual(actions[0].parameters, { pointerType: "touch" });
  assert.deepEqual(moves(actions[0].actions).map((m) => [m.x, m.y]), [[10.5, 20]]);
  assert.equal(actions[0].actions.filter((i) => i.type === "pointerDown").length, 2);
  assert.equal(actions[0].actions.filter((i) => i.type === "pointerUp").length, 2);
});

test("appSwitcherActions: starts in the bottom 20 points, a quarter up or more, 500 ms or more", () => {
  const [finger] = appSwitcherActions(SCREEN).actions;
  const [start, end] = moves(finger.actions);
  assert.ok(start.y >= SCREEN.height - 20 && start.y < SCREEN.height, `starts at ${start.y}`);
  assert.ok(start.y - end.y >= SCREEN.height / 4, `moves ${start.y - end.y}`);
  assert.equal(start.x, end.x);
  assert.ok(span(finger.actions, "pointerDown", "pointerUp") >= 500);
  // It rests before lifting: the last item before the lift is a pause.
  assert.equal(finger.actions.at(-2)?.type, "pause");
});

test("pinchPath: the gap changes by the scale, stays on screen and apart", () => {
  const out = pinchPath([195, 400], 80, 3, SCREEN);
  const gap = (p: [[number, number], [number, number]]) =>
    Math.hypot(p[1][0] - p[0][0], p[1][1] - p[0][1]);
  assert.equal(gap(out.from), 80);
  assert.equal(gap(out.to), 240);
  const clipped = pinchPath([20, 400], 80, 3, SCREEN);
  for (const [x, y] of [...clipped.to, ...clipped.from]) {
    assert.ok(x >= 0 && x < SCREEN.width && y >= 0 && y < SCREEN.height);
  }
  assert.ok(gap(pinchPath([195, 400], 30, 0.1, SCREEN).to) >= PINCH_MIN_GAP);
  const { actions } = pinchActions(out, 500);
  assert.deepEqual(actions.map((a) => a.id), ["finger1", "finger2"]);
});
