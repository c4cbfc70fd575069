import { test } from "../../tests/helpers/test.ts";
import assert from "node:assert/strict";
import { toLocatedElement, toPhysicalRect } from "./screen.ts";
import type { Screen } from "./screen.ts";

function screen(
  logical: [number, number, number],
  physical: [number, number],
  content: [number, number],
  sent = content,
): Screen {
  return {
    image: {
      dataUri: "",
      width: sent[0],
      height: sent[1],
      contentWidth: content[0],
      contentHeight: content[1],
    },
    screenshotId: "x",
    logical: { width: logical[0], height: logical[1], dpr: logical[2] },
    physical: { width: physical[0], height: physical[1] },
    modelImage: {
      width: sent[0],
      height: sent[1],
      contentWidth: content[0],
      contentHeight: content[1],
    },
  };
}

const rect = { left: 200, top: 100, width: 40, height: 20 };

test("dpr 2, no shrink: image pixels halve into CSS pixels", () => {
  const el = toLocatedElement(screen([1280, 800, 2], [2560, 1600], [2560, 1600]), rect, "x");
  assert.deepEqual(el.rect, { left: 100, top: 50, width: 20, height: 10 });
  assert.deepEqual(el.center, [110, 55]);
});

test("dpr 2 with shrinkFactor 2: the model's image is CSS-sized", () => {
  const s = screen([1280, 800, 2], [2560, 1600], [1280, 800]);
  assert.deepEqual(toLocatedElement(s, rect, "x").center, [220, 110]);
  // aiLocate reports physical screenshot pixels.
  assert.deepEqual(toPhysicalRect(s, rect), { left: 400, top: 200, width: 80, height: 40 });
});

test("dpr 1 with shrinkFactor 2: image pixels double into CSS pixels", () => {
  const el = toLocatedElement(screen([1280, 800, 1], [1280, 800], [640, 400]), rect, "x");
  assert.deepEqual(el.center, [440, 220]);
});

test("padding (qwen2.5-vl) does not change the scale: content size is used", () => {
  const el = toLocatedElement(
    screen([1280, 800, 1], [1280, 800], [1280, 800], [1288, 812]),
    rect,
    "x",
  );
  assert.deepEqual(el.center, [220, 110]);
});
