/**
 * Malformed boxes, end to end (the coordinate tests: see coordinates_test.ts): for each family a
 * reversed, an out-of-range and a number-less bbox (and a reversed planned one) fail with an error
 * naming the family, the value and the image size, before anything is clicked.
 *
 * @module
 */

import { after } from "../helpers/test.ts";
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { ModelResponseError } from "@sdk/core";
import { appState, startE2e } from "./_setup.ts";
import {
  agentFor,
  events,
  expectedImage,
  FAMILIES,
  type Family,
  familyLabel,
  pageTest,
} from "./_coordinates.ts";

const env = await startE2e();
after(() => env.close());

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
  pageTest(
    `aiTap rejects a reversed, an out-of-range and a number-less bbox and aiAct a reversed planned one from family ${
      familyLabel(family)
    }, naming the family, the value and the image size, and clicks nothing`,
    env,
    1,
    async (page) => {
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
    },
  );
}
