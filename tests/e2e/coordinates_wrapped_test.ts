/**
 * Tolerant parsing, end to end (the coordinate tests: see coordinates_test.ts): aiTap, aiAct and
 * aiBoolean read answers the model wrapped in a json code fence or in prose, for the original
 * families and a few others, at dpr 2, and the actions still land on their targets.
 *
 * @module
 */

import { after } from "../helpers/test.ts";
import assert from "node:assert/strict";
import { appState, startE2e } from "./_setup.ts";
import {
  assertLandedOn,
  familyLabel,
  locateIn,
  pageTest,
  planDoubleClickOnce,
  WRAPS,
} from "./_coordinates.ts";

const env = await startE2e();
after(() => env.close());

// ---- tolerant parsing: fenced and prose-wrapped answers ---------------------------------------------

for (const [family, wrap] of WRAPS) {
  pageTest(
    `aiTap, aiAct and aiBoolean read ${wrap}-wrapped answers from family ${
      familyLabel(family)
    } at dpr 2`,
    env,
    2,
    async (page) => {
      const dpr = 2, shrink = 1;
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
    },
  );
}
