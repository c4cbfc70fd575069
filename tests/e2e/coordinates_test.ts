/// <reference lib="dom" />

/**
 * Coordinates end to end: for each model family the SDK speaks, each device pixel ratio and each
 * screenshot shrink factor, the model's box (in that family's convention, on the image the model
 * was sent) must land on the element the browser measured, all across the viewport.
 *
 * The coordinate tests are split so that no file takes minutes on a loaded machine, and the files
 * run in parallel (shared pieces: _coordinates.ts):
 * - here: the physical pixels of `aiLocate`, point answers, and the checks that the parts of the
 *   matrix and of the answer shapes hold every family;
 * - coordinates_matrix_<n>_test.ts: the matrix (every action across the viewport at every dpr
 *   and shrink), part n of `MATRIX_PARTS`, one family a file;
 * - coordinates_wrapped_test.ts: tolerant parsing of fenced and prose-wrapped answers;
 * - coordinates_shapes_test.ts and coordinates_shapes_more_test.ts: each family's answer shapes
 *   (loose strings, nested lists, points), half the families each;
 * - coordinates_malformed_test.ts: malformed boxes that must fail before anything is clicked.
 */

import { after, test } from "../helpers/test.ts";
import assert from "node:assert/strict";
import { readdir, readFile } from "node:fs/promises";
import type { TargetBox, TestModelFamily } from "@sdk/core/testing";
import { TEST_MODEL_FAMILIES } from "../../core/testing/_bbox.ts";
import { DIALECT_FAMILIES } from "../../core/testing/_dialects.ts";
import { appState, startE2e } from "./_setup.ts";
import { SHAPE_PARTS, SHAPES } from "./_coordinate_shapes.ts";
import {
  agentFor,
  assertLandedOn,
  boxOf,
  events,
  familyLabel,
  FULL_MATRIX_FAMILIES,
  HEIGHT,
  MATRIX_PARTS,
  ORIGINAL_FAMILIES,
  pageTest,
  POINT_FAMILIES,
  TARGETS,
  WIDTH,
} from "./_coordinates.ts";

const env = await startE2e();
after(() => env.close());

// ---- the matrix's parts: every family once, each part in a file of its own ----------------------

test("the answer-shape tests' parts hold every family that has shapes once", () => {
  assert.deepEqual(SHAPE_PARTS.flat().sort(), Object.keys(SHAPES).sort());
});

test("the coordinate matrix's parts hold every family the test model answers in once, each part run by its own file", async () => {
  const inParts = MATRIX_PARTS.flat();
  assert.deepEqual(
    [...inParts].sort(),
    [...TEST_MODEL_FAMILIES, ...DIALECT_FAMILIES].sort(),
    "each family in exactly one part",
  );
  const dir = new URL("./", import.meta.url);
  const files = (await readdir(dir)).filter((f) => /^coordinates_matrix_\d+_test\.ts$/.test(f));
  assert.deepEqual(
    files.map((f) => Number(/\d+/.exec(f)![0])).sort((a, b) => a - b),
    MATRIX_PARTS.map((_, i) => i + 1),
    "one coordinates_matrix_<n>_test.ts per part",
  );
  for (const file of files) {
    const n = Number(/\d+/.exec(file)![0]);
    assert.match(
      await readFile(new URL(file, dir), "utf8"),
      new RegExp(`^await defineMatrixPart\\(${n}\\);$`, "m"),
      `${file} runs part ${n}`,
    );
  }
});

// ---- aiLocate: physical pixels ----------------------------------------------------------------------

for (const family of FULL_MATRIX_FAMILIES) {
  pageTest(
    `aiLocate gives rect and center in physical screenshot pixels and the page's dpr with family ${
      familyLabel(family)
    } at dpr 2 and shrink 2`,
    env,
    2,
    async (page) => {
      const dpr = 2, shrink = 2;
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
  pageTest(
    `aiTap clicks a point answer ([x, y], gemini [y, x]) from family ${
      familyLabel(family)
    } at dpr 2 and shrink 2`,
    env,
    2,
    async (page) => {
      const dpr = 2, shrink = 2;
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
    },
  );
}
