import { test } from "../../tests/helpers/test.ts";
import assert from "node:assert/strict";
import { renderDialectPlan } from "./_dialects.ts";

const pointOf = () => Promise.resolve([500, 250] as [number, number]);
const reply = (type: string, param: Record<string, unknown> = {}) => ({
  log: type,
  thought: "t",
  action: { type, param },
});

test(
  "the test model writes a platform's back and home buttons and Launch in each dialect's own words",
  {
    timeout: 5000,
  },
  async () => {
    const tars = (type: string, param?: Record<string, unknown>) =>
      renderDialectPlan("ui-tars", reply(type, param), pointOf);
    const glm = (type: string, param?: Record<string, unknown>) =>
      renderDialectPlan("auto-glm", reply(type, param), pointOf);
    for (const back of ["MobileABackButton", "MobileCBackButton", "GoBack"]) {
      assert.equal(await tars(back), "Thought: t\nAction: press_back()");
      assert.equal(await glm(back), '<think>t</think>\n<answer>do(action="Back")</answer>');
    }
    for (const home of ["MobileAHomeButton", "MobileBHomeButton", "MobileCHomeButton"]) {
      assert.equal(await tars(home), "Thought: t\nAction: press_home()");
      assert.equal(await glm(home), '<think>t</think>\n<answer>do(action="Home")</answer>');
    }
    assert.equal(
      await tars("Launch", { uri: "It's Notes" }),
      "Thought: t\nAction: open_app(app_name='It\\'s Notes')",
    );
    assert.equal(
      await glm("Launch", { uri: "Notes" }),
      '<think>t</think>\n<answer>do(action="Launch", app="Notes")</answer>',
    );
    // Dialect names pass through as written.
    assert.equal(await tars("press_back"), "Thought: t\nAction: press_back()");
    assert.equal(await glm("Back"), '<think>t</think>\n<answer>do(action="Back")</answer>');
  },
);
