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

import { after, afterEach, before } from "node:test";
import { test } from "../helpers/test.ts";
import assert from "node:assert/strict";
import * as fs from "node:fs/promises";
import * as os from "node:os";
import * as path from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import type { AgentOverBrowserBridge } from "@sdk/web";
import type { PlanCall, TestModel } from "@sdk/core/testing";
import {
  launchWithBridgeExtension,
  openFixture,
  startBridgeAgent,
} from "../helpers/bridge_extension.ts";
import { freePort } from "../helpers/free_port.ts";
import { FIXTURE_APP_DIR, serveStatic, type StaticServer } from "../helpers/static_server.ts";
import {
  hits,
  performedKeys,
  readTodosView,
  trapModel,
  TRAPS,
  wrongTargets,
} from "../helpers/plan_traps.ts";

const TOKEN = "test-pairing-token-traps-01234567";

let tmp: string;
let context: BrowserContext;
let app: StaticServer;
let port: number;
const models: TestModel[] = [];
const agents: AgentOverBrowserBridge[] = [];
const pages: Page[] = [];

before(async () => {
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), "sdk-bridge-traps-"));
  app = await serveStatic(FIXTURE_APP_DIR);
  port = await freePort();
  ({ context } = await launchWithBridgeExtension(tmp, { port, token: TOKEN }));
});

afterEach(async () => {
  await Promise.allSettled(agents.splice(0).map((a) => a.destroy()));
  await Promise.allSettled(pages.splice(0).map((p) => p.close()));
});

after(async () => {
  await Promise.allSettled(models.map((m) => m.close()));
  await context?.close();
  await app?.close();
  if (tmp) await fs.rm(tmp, { recursive: true, force: true });
});

for (const trap of TRAPS) {
  test(
    `bridge: ${trap.name}: the action whose target changed is dropped, and the task ends right`,
    {
      timeout: 90_000,
    },
    async () => {
      const page = await openFixture(context, app.url, trap.path);
      pages.push(page);
      // The drivers' e2e viewport: the window's own is shorter, and the filter links a new row
      // pushes down would leave it.
      await page.setViewportSize({ width: 1280, height: 800 });
      const scripted = trapModel(page, trap);
      const agent = await startBridgeAgent(
        { port, token: TOKEN, models, agents },
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
