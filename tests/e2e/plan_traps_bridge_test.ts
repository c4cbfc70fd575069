/**
 * The traps of a plan of several actions over the extension bridge (docs/model-protocol.md,
 * "Target checks"): the bridge's page device reads target identities through the extension's
 * DevTools connection as the drivers do, so an action whose target an earlier action of the plan
 * moved is dropped, not performed on what took its place, and the task still ends right. The traps
 * and the scripted model are `tests/helpers/plan_traps.ts`; `plan_traps_test.ts` runs them on
 * DriverA and DriverB.
 *
 * @module
 */

import { test } from "../helpers/test.ts";
import assert from "node:assert/strict";
import type { PlanCall } from "@sdk/core/testing";
import { openFixture, startBridgeAgent, useBridgeFixture } from "../helpers/bridge_extension.ts";
import {
  hits,
  performedKeys,
  readTodosView,
  trapModel,
  TRAPS,
  wrongTargets,
} from "../helpers/plan_traps.ts";

const bridge = useBridgeFixture("sdk-bridge-traps-", "test-pairing-token-traps-01234567");

for (const trap of TRAPS) {
  test(
    `bridge: ${trap.name}: the action whose target changed is dropped, and the task ends right`,
    {
      timeout: 90_000,
    },
    async () => {
      const page = await openFixture(bridge.context, bridge.app.url, trap.path);
      bridge.pages.push(page);
      // The drivers' e2e viewport: the window's own is shorter, and the filter links a new row
      // pushes down would leave it.
      await page.setViewportSize({ width: 1280, height: 800 });
      const scripted = trapModel(page, trap);
      const agent = await startBridgeAgent(
        bridge,
        () => page,
        { plan: (call: PlanCall) => scripted.plan(call) },
      );
      await agent.connectCurrentTab();
      await agent.aiAct(trap.instruction);
      const view = await page.evaluate(readTodosView, undefined);
      const steps = agent._unstableLogContent().executions.at(-1)!.steps;
      const summary = JSON.stringify({
        answers: scripted.answers.map((a) => a.steps.map((s) => s.log)),
        events: view.events,
      });
      assert.ok(
        scripted.answers.some((a) => a.steps.slice(1).some((s) => s.log === trap.dropped)),
        `no plan batched "${trap.dropped}" after another action: ${summary}`,
      );
      assert.ok(
        !hits(view.events).includes(trap.intruder),
        `performed on ${trap.intruder}: ${summary}`,
      );
      assert.deepEqual(
        wrongTargets(performedKeys(scripted, steps), hits(view.events)),
        [],
        summary,
      );
      assert.ok(trap.ended(view), `the page did not end as asked: ${summary}`);
      assert.ok(
        steps.some((s) =>
          s.kind === "Log" && s.title === `Not performed: ${trap.dropped}` &&
          /its target changed/.test(s.thought ?? "")
        ),
        `no 'Not performed' step saying its target changed: ${summary}`,
      );
    },
  );
}
