/**
 * What the answer-shape tests share (coordinates_shapes_test.ts, coordinates_shapes_more_test.ts;
 * see coordinates_test.ts): each family's own ways of writing a box or a point, and the test that
 * aiTap clicks every shape a family's models write (MODEL_FAMILIES.md, "Locations"), and aiAct its
 * planned box, at dpr 2.
 *
 * @module
 */

import { after } from "../helpers/test.ts";
import assert from "node:assert/strict";
import type { TargetBox } from "@sdk/core/testing";
import { appState, type E2eEnv, startE2e } from "./_setup.ts";
import {
  assertLandedOn,
  boxOf,
  type Family,
  locateIn,
  pageTest,
  planDoubleClickOnce,
  TARGETS,
} from "./_coordinates.ts";

// ---- answer shapes: each family's own ways of writing a box or a point ---------------------------

/** A CSS box in pixels of the image the model saw, clamped to it, with its center and fractions. */
function inImage(box: TargetBox, scale: number, image: { width: number; height: number }) {
  const clamp = (v: number, max: number) => Math.min(max, Math.max(0, v));
  const x1 = clamp(box.left * scale, image.width - 1);
  const y1 = clamp(box.top * scale, image.height - 1);
  const x2 = clamp((box.left + box.width) * scale, image.width - 1);
  const y2 = clamp((box.top + box.height) * scale, image.height - 1);
  const cx = (x1 + x2) / 2, cy = (y1 + y2) / 2;
  // 0-1000: the inverse of round(v * (size - 1) / 1000).
  const nx = (v: number) => Math.round(v * 1000 / (image.width - 1));
  const ny = (v: number) => Math.round(v * 1000 / (image.height - 1));
  return {
    px: [x1, y1, x2, y2],
    center: [cx, cy],
    n: [nx(x1), ny(y1), nx(x2), ny(y2)],
    nCenter: [nx(cx), ny(cy)],
    fraction: [cx / (image.width - 1), cy / (image.height - 1)],
  };
}

export type Shapes = Readonly<Record<string, (b: ReturnType<typeof inImage>) => unknown>>;
const round = (v: number, digits = 0) => Math.round(v * 10 ** digits) / 10 ** digits;

/** `[x1, y1, x2, y2]` normalized to 0-1000, as Qwen 3, GLM-V and MiMo models write it. */
const XY_1000_SHAPES: Shapes = {
  "[x1, y1, x2, y2]": (b) => b.n,
  "[[x1, y1, x2, y2]]": (b) => [b.n],
  '"[x1, y1, x2, y2]"': (b) => `[${b.n.join(", ")}]`,
  "point [x, y]": (b) => b.nCenter,
};

/** Each family's shapes (MODEL_FAMILIES.md, "Locations"). */
export const SHAPES: Readonly<Partial<Record<Family, Shapes>>> = {
  "qwen3": XY_1000_SHAPES,
  "qwen3.5": XY_1000_SHAPES,
  "qwen3.6": XY_1000_SHAPES,
  "xiaomi-mimo": XY_1000_SHAPES,
  "glm-v": {
    ...XY_1000_SHAPES,
    '"<|begin_of_box|>[[x1,y1,x2,y2]]<|end_of_box|>"': (b) =>
      `<|begin_of_box|>[[${b.n.join(",")}]]<|end_of_box|>`,
  },
  // Doubao: 0-1000, loosely formatted.
  ...Object.fromEntries(["doubao-vision", "doubao-seed"].map((f) => [
    f,
    {
      '"x1 y1 x2 y2"': (b) => b.n.join(" "),
      '"<bbox>x1 y1 x2 y2</bbox>"': (b) => `<bbox>${b.n.join(" ")}</bbox>`,
      '"<point>x y</point>"': (b) => `<point>${b.nCenter.join(" ")}</point>`,
      "[[x1, y1], [x2, y2]]": (b) => [b.n.slice(0, 2), b.n.slice(2)],
      '["x1", "y1", "x2", "y2"]': (b) => b.n.map(String),
      "point [x, y]": (b) => b.nCenter,
    } satisfies Shapes,
  ])),
  // GPT-5: absolute pixels.
  "gpt-5": {
    "[x1, y1, x2, y2]": (b) => b.px.map((v) => round(v)),
    "[x1, y1, x2, y2] with decimals": (b) => b.px.map((v) => round(v, 1)),
    '"x1,y1,x2,y2"': (b) => b.px.map((v) => round(v)).join(","),
    "point [x, y]": (b) => b.center.map((v) => round(v)),
  },
  // Kimi: a point, fractions 0-1 when both are <= 1, else absolute pixels.
  ...Object.fromEntries(["kimi", "kimi3"].map((f) => [
    f,
    {
      "fractions [x, y]": (b) => b.fraction.map((v) => round(v, 4)),
      "fractions [x, y], 3 decimals": (b) => b.fraction.map((v) => round(v, 3)),
      "pixels [x, y]": (b) => b.center.map((v) => round(v)),
      "pixels [x, y] with decimals": (b) => b.center.map((v) => round(v, 1)),
      '"(x, y)" in pixels': (b) => `(${b.center.map((v) => round(v)).join(", ")})`,
    } satisfies Shapes,
  ])),
};

/**
 * The families of {@link SHAPES} in two parts, one file each (coordinates_shapes_test.ts: part 1,
 * coordinates_shapes_more_test.ts: part 2), so neither takes minutes on a loaded machine;
 * coordinates_test.ts checks that they hold every family of {@link SHAPES} once.
 */
export const SHAPE_PARTS: readonly (readonly Family[])[] = [
  ["gpt-5", "kimi", "kimi3", "doubao-vision", "doubao-seed"],
  ["qwen3", "qwen3.5", "qwen3.6", "glm-v", "xiaomi-mimo"],
];

/** Defines the answer-shape tests of part `n` (from 1) of {@link SHAPE_PARTS}, with their own env. */
export async function defineShapePart(n: number): Promise<void> {
  const families = SHAPE_PARTS[n - 1];
  if (!families) throw new RangeError(`no shape part ${n}: there are ${SHAPE_PARTS.length}`);
  const env = await startE2e();
  after(() => env.close());
  defineShapeTests(env, families);
}

function defineShapeTests(env: E2eEnv, families: readonly Family[]): void {
  for (const family of families) {
    const shapes = SHAPES[family];
    if (!shapes) throw new RangeError(`family ${family} has no answer shapes in SHAPES`);
    pageTest(
      `aiTap clicks each answer shape of family ${family} (${
        Object.keys(shapes).join("; ")
      }) and aiAct its planned box, at dpr 2`,
      env,
      2,
      async (page) => {
        const dpr = 2, shrink = 1;
        let shape = "";
        const { agent, model } = await env.agent(page, {
          locate: locateIn(page),
          plan: planDoubleClickOnce(page),
        }, {
          waitAfterAction: 0,
          generateReport: false,
          model: {
            family,
            answerOverride: async (call) => {
              if (call.kind !== "locate") return undefined;
              const box = await boxOf(page, TARGETS[call.target]);
              const bbox = shapes[shape](inImage(box, dpr / shrink, call.image!));
              return JSON.stringify({ thought: "It is there.", bbox });
            },
          },
        });
        const tolerance = 1.5 + shrink / dpr;
        let corner = 0, clicks = 0;
        for (const [i, name] of Object.keys(shapes).entries()) {
          shape = name;
          // Alternately the bottom-right corner and the top-left of the page.
          const [target, selector] = i % 2 === 0
            ? ["the corner button", "#corner-button"]
            : ["the Click me button", "#click-button"];
          await agent.aiTap(target);
          if (i % 2 === 0) corner++;
          else clicks++;
          assert.equal(await appState(page, "cornerClicks"), corner, `shape ${name}`);
          assert.equal(await appState(page, "clicks"), clicks, `shape ${name}`);
          await assertLandedOn(page, "click", selector, tolerance);
        }

        // The test model's own answer format, in a planned action.
        assert.equal(await agent.aiAct("double-click the button"), "double-clicked");
        assert.equal(await appState(page, "doubleClicks"), 1);
        await assertLandedOn(page, "dblclick", "#dblclick-button", tolerance);

        // Every locate answer carried the shape's own text.
        const answers = model.calls.filter((c) => c.kind === "locate").map((c) => c.answer);
        assert.equal(answers.length, Object.keys(shapes).length);
      },
    );
  }
}
