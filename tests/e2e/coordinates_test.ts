/// <reference lib="dom" />

/**
 * Coordinates end to end: for each model family the SDK speaks, each device pixel ratio and each
 * screenshot shrink factor, the model's box (in that family's convention, on the image the model
 * was sent) must land on the element the browser measured, all across the viewport. Also the
 * physical pixels of `aiLocate`, tolerant parsing of wrapped answers, each family's answer shapes
 * (loose strings, nested lists, points), and malformed boxes that must fail before anything is
 * clicked.
 *
 * The matrix here runs the families whose mapping differs (the four original ones, gpt-5: pixels
 * unpadded, kimi: points) at every (dpr, shrink); coordinates_matrix_mapped_test.ts runs the
 * families that map like one of them and coordinates_matrix_dialects_test.ts the planning-dialect
 * families, so the three files run in parallel. Shared pieces: _coordinates.ts.
 */

import { after, test } from "../helpers/test.ts";
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { ModelResponseError } from "@sdk/core";
import type { PlanReply, TargetBox, TestModelFamily } from "@sdk/core/testing";
import { appState, startE2e } from "./_setup.ts";
import {
  agentFor,
  assertLandedOn,
  boxOf,
  defineMatrixTests,
  events,
  expectedImage,
  FAMILIES,
  type Family,
  familyLabel,
  FULL_MATRIX_FAMILIES,
  HEIGHT,
  locateIn,
  openActions,
  ORIGINAL_FAMILIES,
  POINT_FAMILIES,
  TARGETS,
  WIDTH,
  WRAPS,
} from "./_coordinates.ts";

const env = await startE2e();
after(() => env.close());

// ---- the matrix of the families whose mapping differs (the others: coordinates_matrix_*_test.ts) --

defineMatrixTests(env, FULL_MATRIX_FAMILIES);

// ---- aiLocate: physical pixels ----------------------------------------------------------------------

for (const family of FULL_MATRIX_FAMILIES) {
  test(
    `aiLocate gives rect and center in physical screenshot pixels and the page's dpr with family ${
      familyLabel(family)
    } at dpr 2 and shrink 2`,
    async () => {
      const dpr = 2, shrink = 2;
      const page = await openActions(env, dpr);
      try {
        const { agent } = await agentFor(env, page, family, dpr, shrink);
        const pageDpr = await page.evaluate(() => devicePixelRatio);
        assert.equal(pageDpr, 2);
        for (
          const [target, selector] of [
            ["the Click me button", "#click-button"],
            ["the Right-click me area", "#right-target"],
            ["the scrollable list", "#scroll-box"],
            ["the corner button", "#corner-button"],
          ]
        ) {
          const css = await boxOf(page, selector);
          const result = await agent.aiLocate(target);
          assert.equal(result.dpr, pageDpr, `${target}: dpr`);
          const want = {
            left: css.left * dpr,
            top: css.top * dpr,
            width: css.width * dpr,
            height: css.height * dpr,
          };
          const near = (a: number, b: number) => Math.abs(a - b) <= 2;
          const [cx, cy] = result.center;
          if (POINT_FAMILIES.includes(family)) {
            // A point answer locates a small box around the point: only its center is the element's.
            // The point is on the 0-1 grid (kimi) or rounded to an image pixel (kimi3), then its box
            // is rounded to image pixels: up to ~1.2 image px, 2.4 physical px at shrink 2.
            const nearPoint = (a: number, b: number) => Math.abs(a - b) <= 3;
            assert.ok(
              nearPoint(cx, want.left + want.width / 2) &&
                nearPoint(cy, want.top + want.height / 2),
              `${target}: center ${JSON.stringify(result.center)} of rect ${
                JSON.stringify(result.rect)
              }, want (${want.left + want.width / 2}, ${want.top + want.height / 2})`,
            );
            assert.ok(
              result.rect.left <= cx && cx <= result.rect.left + result.rect.width &&
                result.rect.top <= cy && cy <= result.rect.top + result.rect.height,
              `${target}: center ${JSON.stringify(result.center)} is outside its rect ${
                JSON.stringify(result.rect)
              }`,
            );
            continue;
          }
          assert.ok(
            near(result.rect.left, want.left) && near(result.rect.top, want.top) &&
              near(result.rect.left + result.rect.width, want.left + want.width) &&
              near(result.rect.top + result.rect.height, want.top + want.height),
            `${target}: rect ${JSON.stringify(result.rect)}, want ${JSON.stringify(want)}`,
          );
          assert.ok(
            near(cx, want.left + want.width / 2) && near(cy, want.top + want.height / 2),
            `${target}: center ${JSON.stringify(result.center)}, want (${
              want.left + want.width / 2
            }, ${want.top + want.height / 2})`,
          );
        }
        // Locating acts on nothing.
        assert.equal((await events(page, "mousedown")).length, 0);
      } finally {
        await page.context().close();
      }
    },
  );
}

/** A plan handler that double-clicks the fixture's button once, then finishes. */
function planDoubleClickOnce(page: Page): () => Promise<PlanReply> {
  let planned = false;
  return async () => {
    if (planned) return { log: "done", finished: true, output: "double-clicked" };
    planned = true;
    return {
      log: "Double-click the button",
      action: {
        type: "DoubleClick",
        param: {
          locate: {
            prompt: "the Double-click me button",
            box: await boxOf(page, "#dblclick-button"),
          },
        },
      },
    };
  };
}

// ---- tolerant parsing: fenced and prose-wrapped answers ---------------------------------------------

for (const [family, wrap] of WRAPS) {
  test(
    `aiTap, aiAct and aiBoolean read ${wrap}-wrapped answers from family ${
      familyLabel(family)
    } at dpr 2`,
    async () => {
      const dpr = 2, shrink = 1;
      const page = await openActions(env, dpr);
      try {
        const { agent, model } = await env.agent(page, {
          locate: locateIn(page),
          plan: planDoubleClickOnce(page),
          extract: () => true,
        }, {
          waitAfterAction: 0,
          generateReport: false,
          model: {
            family,
            wrap,
            ...(family === "qwen2.5-vl" ? { imagePixelsPerCssPixel: dpr / shrink } : {}),
          },
        });
        const tolerance = 2;

        await agent.aiTap("the corner button");
        assert.equal(await appState(page, "cornerClicks"), 1);
        await assertLandedOn(page, "click", "#corner-button", tolerance);

        assert.equal(await agent.aiAct("double-click the button"), "double-clicked");
        assert.equal(await appState(page, "doubleClicks"), 1);
        await assertLandedOn(page, "dblclick", "#dblclick-button", tolerance);

        assert.equal(await agent.aiBoolean("is the corner button visible?"), true);

        // The answers really were wrapped.
        const answers = model.calls.map((c) => c.answer ?? "");
        assert.equal(answers.length, 4);
        for (const answer of answers) {
          if (wrap === "fence") assert.match(answer, /^```json\n[\s\S]*\n```$/);
          else assert.match(answer, /^I looked at the screenshot[\s\S]*\nLet me know/);
        }
      } finally {
        await page.context().close();
      }
    },
  );
}

// ---- point answers: a two-number bbox is a point, the click goes to it -----------------------------

/** The center of a CSS box as a two-number `bbox` in `family`'s convention. */
function pointAnswer(
  family: TestModelFamily,
  box: TargetBox,
  scale: number,
  image: { width: number; height: number },
): number[] {
  const x = (box.left + box.width / 2) * scale, y = (box.top + box.height / 2) * scale;
  if (family === "qwen2.5-vl") return [Math.round(x), Math.round(y)];
  const nx = Math.round(x * 1000 / (image.width - 1));
  const ny = Math.round(y * 1000 / (image.height - 1));
  return family === "gemini" ? [ny, nx] : [nx, ny];
}

for (const family of ORIGINAL_FAMILIES) {
  test(
    `aiTap clicks a point answer ([x, y], gemini [y, x]) from family ${
      familyLabel(family)
    } at dpr 2 and shrink 2`,
    async () => {
      const dpr = 2, shrink = 2;
      const page = await openActions(env, dpr);
      try {
        const { agent } = await agentFor(env, page, family, dpr, shrink, {
          answerOverride: async (call) => {
            if (call.kind !== "locate") return undefined;
            const box = await boxOf(page, TARGETS[call.target]);
            // dpr 2 / shrink 2: a 1280 x 800 image, unpadded for the normalized families.
            const bbox = pointAnswer(family, box, dpr / shrink, { width: WIDTH, height: HEIGHT });
            return JSON.stringify({ thought: "It is there.", bbox });
          },
        });
        await agent.aiTap("the corner button");
        assert.equal(await appState(page, "cornerClicks"), 1);
        await assertLandedOn(page, "click", "#corner-button", 2.5);
        await agent.aiRightClick("the Right-click me area");
        assert.equal(await appState(page, "rightClicks"), 1);
        await assertLandedOn(page, "contextmenu", "#right-target", 2.5);
      } finally {
        await page.context().close();
      }
    },
  );
}

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

type Shapes = Readonly<Record<string, (b: ReturnType<typeof inImage>) => unknown>>;
const round = (v: number, digits = 0) => Math.round(v * 10 ** digits) / 10 ** digits;

/** `[x1, y1, x2, y2]` normalized to 0-1000, as Qwen 3, GLM-V and MiMo models write it. */
const XY_1000_SHAPES: Shapes = {
  "[x1, y1, x2, y2]": (b) => b.n,
  "[[x1, y1, x2, y2]]": (b) => [b.n],
  '"[x1, y1, x2, y2]"': (b) => `[${b.n.join(", ")}]`,
  "point [x, y]": (b) => b.nCenter,
};

/** Each family's shapes (MODEL_FAMILIES.md, "Locations"). */
const SHAPES: Readonly<Partial<Record<Family, Shapes>>> = {
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

for (const family of FAMILIES) {
  const shapes = SHAPES[family];
  if (!shapes) continue;
  test(
    `aiTap clicks each answer shape of family ${family} (${
      Object.keys(shapes).join("; ")
    }) and aiAct its planned box, at dpr 2`,
    async () => {
      const dpr = 2, shrink = 1;
      const page = await openActions(env, dpr);
      try {
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
      } finally {
        await page.context().close();
      }
    },
  );
}

// ---- malformed boxes: an error naming the family, the value and the image, and no click ----------

/**
 * A reversed, an out-of-range and a number-less bbox in each family's own convention (dpr 1: a
 * 1280 x 800 image; 1288 x 812 for qwen2.5-vl, padded).
 */
const BAD_BOXES: Record<Family, { reversed: unknown; outOfRange: unknown; noNumbers: unknown }> = {
  // [x1, y1, x2, y2], 0-1000: x2 < x1; x2 > 1000.
  "default": { reversed: [700, 400, 300, 600], outOfRange: [100, 200, 1300, 400], noNumbers: [] },
  "qwen3-vl": {
    reversed: [700, 400, 300, 600],
    outOfRange: [100, 200, 1300, 400],
    noNumbers: "none",
  },
  "qwen3": { reversed: [700, 400, 300, 600], outOfRange: [-5, 200, 300, 400], noNumbers: "" },
  "qwen3.5": {
    reversed: [700, 400, 300, 600],
    outOfRange: [100, 200, 1300, 400],
    noNumbers: [100, 200, 300],
  },
  "qwen3.6": {
    reversed: [700, 600, 800, 400],
    outOfRange: [100, 200, 300, 1001],
    noNumbers: "bbox",
  },
  "xiaomi-mimo": {
    reversed: [700, 400, 300, 600],
    outOfRange: [100, 200, 1300, 400],
    noNumbers: ["x1", "y1", "x2", "y2"],
  },
  "glm-v": {
    reversed: [[700, 400, 300, 600]],
    outOfRange: [[100, 200, 1300, 400]],
    noNumbers: [[]],
  },
  // The same, loosely formatted.
  "doubao-vision": {
    reversed: "700 400 300 600",
    outOfRange: "100 200 1300 400",
    noNumbers: "n/a",
  },
  "doubao-seed": {
    reversed: "<bbox>700 400 300 600</bbox>",
    outOfRange: "<point>1200 500</point>",
    noNumbers: "<bbox></bbox>",
  },
  // [x1, y1, x2, y2] in pixels of the 1288 x 812 padded image: x2 < x1; x2 far past the width.
  "qwen2.5-vl": {
    reversed: [900, 300, 400, 500],
    outOfRange: [100, 200, 5000, 400],
    noNumbers: "none",
  },
  // [x1, y1, x2, y2] in pixels of the 1280 x 800 image.
  "gpt-5": { reversed: [900, 300, 400, 500], outOfRange: [100, 200, 1300, 900], noNumbers: [640] },
  // [ymin, xmin, ymax, xmax], 0-1000: ymax < ymin; xmax > 1000.
  "gemini": { reversed: [600, 300, 400, 700], outOfRange: [200, 100, 400, 1300], noNumbers: [] },
  // Points: fractions below 0; pixels past the image. A four-number answer is a box, reversed.
  "kimi": { reversed: [0.7, 0.4, 0.3, 0.6], outOfRange: [-0.2, 0.5], noNumbers: "center" },
  "kimi3": { reversed: [900, 300, 400, 500], outOfRange: [1500, 300], noNumbers: [] },
};

async function assertPageUntouched(page: Page): Promise<void> {
  assert.equal(await appState(page, "clicks"), 0);
  assert.equal(await appState(page, "doubleClicks"), 0);
  assert.equal(await appState(page, "rightClicks"), 0);
  assert.equal(await appState(page, "cornerClicks"), 0);
  const pressed = (await events(page)).filter((e) =>
    ["mousedown", "click", "dblclick", "contextmenu", "wheel"].includes(e.type)
  );
  assert.deepEqual(pressed, [], "a malformed box must not reach the page");
}

function namesFamilyValueAndImage(family: Family, bbox: unknown) {
  const image = expectedImage(family, 1, 1);
  return (e: unknown) => {
    assert.ok(e instanceof ModelResponseError, `expected a ModelResponseError, got ${e}`);
    assert.ok(
      e.message.includes(`'${family}'`),
      `the error does not name the family ${family}: ${e.message}`,
    );
    assert.ok(
      e.message.includes(JSON.stringify(bbox)),
      `the error does not quote the raw bbox ${JSON.stringify(bbox)}: ${e.message}`,
    );
    assert.ok(
      e.message.includes(`${image.width}x${image.height}`),
      `the error does not name the image size ${image.width}x${image.height}: ${e.message}`,
    );
    return true;
  };
}

for (const family of FAMILIES) {
  test(
    `aiTap rejects a reversed, an out-of-range and a number-less bbox and aiAct a reversed planned one from family ${
      familyLabel(family)
    }, naming the family, the value and the image size, and clicks nothing`,
    async () => {
      const page = await openActions(env, 1);
      try {
        let bbox: unknown;
        const { agent } = await agentFor(env, page, family, 1, 1, {
          answerOverride: (call) =>
            call.kind === "locate"
              ? JSON.stringify({ thought: "Here it is.", bbox })
              : call.kind === "plan"
              ? JSON.stringify({
                thought: "The button is there.",
                log: "Tap the Click me button",
                action: { type: "Tap", param: { locate: { prompt: "the Click me button", bbox } } },
                finished: false,
              })
              : undefined,
        });
        for (const kind of ["reversed", "outOfRange", "noNumbers"] as const) {
          bbox = BAD_BOXES[family][kind];
          await assert.rejects(
            agent.aiTap("the Click me button"),
            namesFamilyValueAndImage(family, bbox),
          );
          await assertPageUntouched(page);
        }
        bbox = BAD_BOXES[family].reversed;
        await assert.rejects(
          agent.aiAct("click the button"),
          namesFamilyValueAndImage(family, bbox),
        );
        await assertPageUntouched(page);
      } finally {
        await page.context().close();
      }
    },
  );
}
