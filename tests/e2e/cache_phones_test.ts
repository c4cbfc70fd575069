/**
 * The cache on the three phones (docs/agent.md, "Cache"), each through its simulator front, on
 * the inbox fixture app: locations are cached as xpaths over the phone's own tree (uiautomator
 * XML, WebDriverAgent's source, HarmonyOS's layout) with the target's identity, so a repeated
 * `aiAct` makes no model call (cache hit), also after an element moved; a renamed element is
 * located again by the model alone and its record updated (healed); an element with no record is
 * a miss; and the `xpath` option locates on the phone's tree. Plans of the dialect families
 * (AutoGLM, UI-TARS) are cached with each target's locator and replayed the same way.
 *
 * @module
 */

import { before } from "node:test";
import assert from "node:assert/strict";
import { parse } from "yaml";
import type { Browser } from "playwright-core";
import type { Agent } from "@sdk/core";
import { startTestModel, type TestModel, type TestModelOptions } from "@sdk/core/testing";
import { after, test } from "../helpers/test.ts";
import { launchChromium } from "../helpers/browser.ts";
import {
  freshInbox,
  INBOX_TASK,
  inboxLocate,
  type InboxPhone,
  type InboxPhones,
  inboxPlanner,
  inboxState,
  moveArchiveButton,
  renameFlight,
  startInboxPhones,
} from "../helpers/inbox_phones.ts";

let browser: Browser;
let rigs: InboxPhones;
const models: TestModel[] = [];

before(async () => {
  browser = await launchChromium();
  rigs = await startInboxPhones(browser);
});

after(async () => {
  await rigs?.close();
  await Promise.allSettled(models.map((m) => m.close()));
  await browser?.close();
});

interface CacheRecord {
  type: string;
  prompt: string;
  xpaths?: string[];
  target?: { kind: string; name?: string; context?: string };
  actions?: { type: string; param: unknown; targets?: Record<string, CacheRecord> }[];
}

async function readCache(file: string): Promise<CacheRecord[]> {
  return (parse(await Deno.readTextFile(file)) as { caches: CacheRecord[] }).caches;
}

/** A test model for `rig`'s phone that plans the inbox task and locates by description. */
async function modelFor(rig: InboxPhone, family?: TestModelOptions["family"]): Promise<TestModel> {
  const model = await startTestModel({
    script: {
      plan: inboxPlanner(rig.phone),
      locate: ({ target }) => inboxLocate(rig.phone, target),
    },
    imagePixelsPerCssPixel: rig.phone.density,
    ...(family ? { family } : {}),
  });
  models.push(model);
  return model;
}

function steps(agent: Agent): { title: string; thought?: string }[] {
  return agent._unstableLogContent().executions.at(-1)!.steps;
}

/** Runs the task with a new agent on a fresh inbox (after `change`), returns the agent and model. */
async function run(
  rig: InboxPhone,
  cacheDir: string,
  id: string,
  change?: (rig: InboxPhone) => Promise<void>,
  family?: TestModelOptions["family"],
): Promise<{ agent: Agent; model: TestModel }> {
  await freshInbox(rig.phone);
  await change?.(rig);
  const model = await modelFor(rig, family);
  const agent = rig.agent(model, { cache: { id, cacheDir } });
  assert.equal(await agent.aiAct(INBOX_TASK), "archived and opened");
  const state = await inboxState(rig.phone);
  assert.deepEqual([state.archived, state.opened], [["Invoice 42"], ["Flight to Oslo"]]);
  return { agent, model };
}

const PHONES = ["MobileA", "MobileB", "MobileC"];
const rig = (name: string) => rigs.phones.find((r) => r.name === name)!;

for (const name of PHONES) {
  test(`${name}: a cached aiAct repeats with no model call (cache hit), also after an element moved; a renamed element is healed by one locate call`, async () => {
    const r = rig(name);
    const cacheDir = await Deno.makeTempDir();
    const file = `${cacheDir}/inbox.cache.yaml`;
    const first = await run(r, cacheDir, "inbox");
    assert.deepEqual(first.model.calls.map((c) => c.kind), ["plan", "plan", "plan"]);
    const records = await readCache(file);
    const archive = records.find((c) => c.prompt === "the Archive button of Invoice 42")!;
    assert.ok(archive.xpaths!.length > 0, "cached as xpaths over the phone's tree");
    assert.equal(archive.target?.name, "Archive");
    assert.equal(archive.target?.context, "Invoice 42 Archive");
    // Cache hit: the same task on a fresh inbox makes no model call.
    const repeat = await run(r, cacheDir, "inbox");
    assert.equal(repeat.model.calls.length, 0);
    const hits = steps(repeat.agent).filter((s) => s.title.startsWith("Locate from cache"));
    assert.equal(hits.length, 2);
    for (const hit of hits) {
      assert.match(hit.thought ?? "", /^Cache hit: located by the cached xpath/);
    }
    // The Archive button moved: still found by its xpath, its identity checked.
    const moved = await run(r, cacheDir, "inbox", (x) => moveArchiveButton(x.phone));
    assert.equal(moved.model.calls.length, 0);
    // "Flight to Oslo" renamed: its cached xpaths find nothing or another name; the model
    // locates that element alone, and the record is updated.
    const renamed = await run(r, cacheDir, "inbox", (x) => renameFlight(x.phone));
    assert.deepEqual(renamed.model.calls.map((c) => c.kind), ["locate"]);
    const healed = steps(renamed.agent).find((s) =>
      s.title === "Locate from cache: Flight to Oslo"
    );
    assert.match(
      healed?.thought ?? "",
      /^Healed: .*; the model located the element again and the cache record is updated\.$/,
    );
    const updated = (await readCache(file)).find((c) => c.prompt === "Flight to Oslo")!;
    assert.equal(updated.target?.name, "Flight to Oslo, moved to Monday");
    const again = await run(r, cacheDir, "inbox", (x) => renameFlight(x.phone));
    assert.equal(again.model.calls.length, 0, "the healed record hits");
  });

  test(`${name}: an element with no record is a miss the model locates; the xpath option locates on the phone's tree`, async () => {
    const r = rig(name);
    await freshInbox(r.phone);
    const cacheDir = await Deno.makeTempDir();
    const model = await modelFor(r);
    const agent = r.agent(model, { cache: { id: "miss", cacheDir } });
    await agent.aiTap("the Refresh button");
    assert.deepEqual(model.calls.map((c) => c.kind), ["locate"]);
    assert.match(
      steps(agent)[0].thought ?? "",
      /^Cache miss: nothing is cached for "the Refresh button" yet; located with the model, and the location is recorded\.$/,
    );
    await agent.aiTap("anything", { xpath: r.refreshXpath });
    assert.equal(model.calls.length, 1, "the xpath option needs no model");
    await agent.aiTap("the Refresh button");
    assert.equal(model.calls.length, 1, "now a hit");
    assert.equal((await inboxState(r.phone)).refreshed, 3);
  });
}

const DIALECTS: Record<string, TestModelOptions["family"]> = {
  MobileA: "auto-glm",
  MobileB: "vlm-ui-tars",
  MobileC: "auto-glm",
};

for (const name of PHONES) {
  test(`${name}: a ${DIALECTS[name]} plan is cached with each target's node; it replays with no model call and heals a renamed target with one locate call`, async () => {
    const r = rig(name);
    const family = DIALECTS[name];
    const cacheDir = await Deno.makeTempDir();
    const first = await run(r, cacheDir, "dialect", undefined, family);
    assert.deepEqual(first.model.calls.map((c) => c.kind), ["plan", "plan", "plan"]);
    const plan = (await readCache(`${cacheDir}/dialect.cache.yaml`)).find((c) =>
      c.type === "plan"
    )!;
    assert.deepEqual(plan.actions!.map((a) => a.type), ["Tap", "Tap"]);
    const archive = plan.actions![0].targets!.locate;
    assert.ok(archive.xpaths!.length > 0);
    assert.equal(archive.target?.context, "Invoice 42 Archive");
    assert.match(archive.prompt, /"Archive" in "Invoice 42 Archive"/);
    const moved = await run(r, cacheDir, "dialect", (x) => moveArchiveButton(x.phone), family);
    assert.equal(moved.model.calls.length, 0);
    const renamed = await run(r, cacheDir, "dialect", (x) => renameFlight(x.phone), family);
    assert.deepEqual(renamed.model.calls.map((c) => c.kind), ["locate"]);
    const again = await run(r, cacheDir, "dialect", (x) => renameFlight(x.phone), family);
    assert.equal(again.model.calls.length, 0, "the healed target is stored in the plan");
  });
}
