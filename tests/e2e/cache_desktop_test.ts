/**
 * The cache on the desktop (docs/agent.md, "Cache"), which has no element tree: a located
 * element is cached as its look (a small crop of the screenshot) and found again by template
 * matching. On a private Xvfb with the Tk fixture app: a repeated `aiAct` makes no model call
 * (cache hit), also after the Save button moved; a Save button with another label is located
 * again by the model alone and its record updated (healed); an element with no record is a miss.
 * A UI-TARS plan (coordinates) is cached with each target's look and replayed the same way.
 *
 * @module
 */

import { before } from "node:test";
import assert from "node:assert/strict";
import process from "node:process";
import { parse } from "yaml";
import { randomBytes } from "node:crypto";
import { agentForComputer, ComputerAgent, RDPDevice } from "@sdk/computer";
import type { AgentOptions } from "@sdk/core";
import { startTestModel } from "@sdk/core/testing";
import type { PlanReply, TestModel, TestModelOptions } from "@sdk/core/testing";
import { after, test } from "../helpers/test.ts";
import {
  type DesktopApp,
  type DesktopAppState,
  ensureDesktopTools,
  nutJsDir,
  startDesktopApp,
  startShadowServer,
  startTestDisplay,
  type TestDisplay,
  untilAppState,
  type WidgetBox,
} from "../helpers/desktop.ts";

/** A desktop the tests drive: its app, and how an agent over it is made. */
interface Desk {
  app: DesktopApp;
  agent(options: AgentOptions): Promise<ComputerAgent>;
  /** How long a change of the app takes to reach the screen the device reads, ms. */
  settle: number;
}

let display: TestDisplay;
let local: Desk;
/** The desktop the running test drives: the local one, or the one over RDP. */
let desk: Desk;
const models: TestModel[] = [];
const agents: ComputerAgent[] = [];
const cleanup: (() => Promise<unknown>)[] = [];

before(async () => {
  await ensureDesktopTools();
  display = await startTestDisplay("1280x800x24");
  process.env.DISPLAY = display.display;
  process.env.SDK_NUT_JS_DIR = nutJsDir();
  const app = await startDesktopApp(display.display);
  cleanup.push(() => app.close());
  local = desk = { app, agent: (options) => agentForComputer(options), settle: 200 };
});

after(async () => {
  for (const agent of agents) await agent.destroy();
  for (const model of models) await model.close();
  for (const step of cleanup.reverse()) await step().catch(() => {});
  await display?.close();
});

/**
 * The desktop over RDP: a second Xvfb with the app, shared by FreeRDP's shadow server, and one
 * `RDPDevice` logged in to it that every agent of the test uses.
 */
async function rdpDesk(): Promise<Desk> {
  const remote = await startTestDisplay("1280x800x24");
  cleanup.push(() => remote.close());
  const app = await startDesktopApp(remote.display);
  cleanup.push(() => app.close());
  const password = randomBytes(12).toString("base64url");
  const shadow = await startShadowServer(remote.display, "cache-tester", password);
  cleanup.push(() => shadow.close());
  const device = new RDPDevice({
    host: "127.0.0.1",
    port: shadow.port,
    username: "cache-tester",
    password,
    ignoreCertificate: true,
  });
  await device.connect();
  cleanup.push(() => device.destroy());
  // The RDP client's window shows a change once the server sent it.
  return {
    app,
    agent: (options) => Promise.resolve(new ComputerAgent(device, options)),
    settle: 1000,
  };
}

const TASK = "type Ada into the name field, then press Save";

const box = (w: WidgetBox) => ({ left: w.x, top: w.y, width: w.width, height: w.height });

/** The widget a locate target names, from the app's own geometry. */
function widgetFor(target: string, state: DesktopAppState): WidgetBox | undefined {
  const t = target.toLowerCase();
  if (t.includes("name field")) return state.widgets.name;
  if (t.includes("save")) return state.widgets.save;
  if (t.includes("hover")) return state.widgets.hover;
  return undefined;
}

/** The task's planner: type into the name field (after a tap, for a dialect), press Save. */
function planner(dialect: boolean): () => Promise<PlanReply> {
  let tapped = false;
  return async () => {
    const s = await desk.app.state();
    if (s.name !== "Ada") {
      if (dialect && !tapped) {
        tapped = true;
        return {
          log: "tap the name field",
          action: {
            type: "Tap",
            param: { locate: { prompt: "the name field", box: box(s.widgets.name) } },
          },
        };
      }
      return {
        log: "type Ada",
        action: {
          type: "Input",
          param: dialect
            ? { value: "Ada" }
            : { value: "Ada", locate: { prompt: "the name field", box: box(s.widgets.name) } },
        },
      };
    }
    if (s.clicks === 0) {
      return {
        log: "press Save",
        action: {
          type: "Tap",
          param: { locate: { prompt: "the Save button", box: box(s.widgets.save) } },
        },
      };
    }
    return { log: "done", finished: true, output: "saved" };
  };
}

async function newAgent(
  cacheDir: string,
  id: string,
  family?: TestModelOptions["family"],
): Promise<{ agent: ComputerAgent; model: TestModel }> {
  const model = await startTestModel({
    script: {
      plan: planner(family !== undefined),
      locate: async ({ target }) => {
        const w = widgetFor(target, await desk.app.state());
        return w ? box(w) : null;
      },
    },
    ...(family ? { family } : {}),
  });
  models.push(model);
  const agent = await desk.agent({
    modelConfig: model.modelConfig(),
    generateReport: false,
    waitAfterAction: 100,
    cache: { id, cacheDir },
  });
  agents.push(agent);
  return { agent, model };
}

/** Runs the task with a new agent on the reset app (after `change`, an app command). */
async function run(
  cacheDir: string,
  id: string,
  change?: string,
  family?: TestModelOptions["family"],
) {
  await desk.app.command("reset");
  if (change) await desk.app.command(change);
  await desk.app.focus();
  await new Promise((resolve) => setTimeout(resolve, desk.settle));
  const { agent, model } = await newAgent(cacheDir, id, family);
  assert.equal(await agent.aiAct(TASK), "saved");
  const s = await untilAppState(
    () => desk.app.state(),
    (s) => s.clicks === 1,
    "the Save click",
    10_000,
  );
  assert.equal(s.name, "Ada");
  return { agent, model };
}

function steps(agent: ComputerAgent): { title: string; thought?: string }[] {
  return agent._unstableLogContent().executions.at(-1)!.steps;
}

interface Record {
  type: string;
  prompt: string;
  xpaths?: string[];
  fingerprint?: { image: string; box: unknown };
  actions?: { type: string; targets?: { [name: string]: Record } }[];
}

async function readCache(file: string): Promise<Record[]> {
  return (parse(await Deno.readTextFile(file)) as { caches: Record[] }).caches;
}

test(
  "desktop: a cached aiAct repeats with no model call by the elements' looks, also after Save moved; a relabeled Save is healed by one locate call",
  {
    timeout: 120_000,
  },
  async () => {
    const cacheDir = await Deno.makeTempDir();
    const first = await run(cacheDir, "desk");
    assert.deepEqual(first.model.calls.map((c) => c.kind), ["plan", "plan", "plan"]);
    const save = (await readCache(`${cacheDir}/desk.cache.yaml`))
      .find((r) => r.prompt === "the Save button")!;
    assert.deepEqual(save.xpaths, [], "no element tree: no xpath");
    assert.match(save.fingerprint!.image, /^data:image\/(jpeg|png);base64,/);
    assert.ok(
      save.fingerprint!.image.length < 16_000,
      `${save.fingerprint!.image.length} characters`,
    );
    const repeat = await run(cacheDir, "desk");
    assert.equal(repeat.model.calls.length, 0);
    const hits = steps(repeat.agent).filter((s) => s.title.startsWith("Locate from cache"));
    assert.equal(hits.length, 2);
    for (const hit of hits) {
      assert.match(
        hit.thought ?? "",
        /^Cache hit: located by its cached look \(match 0\.9\d|1\.00/,
      );
    }
    const moved = await run(cacheDir, "desk", "place save 700 560");
    assert.equal(moved.model.calls.length, 0, "Save found where it moved");
    const relabeled = await run(cacheDir, "desk", "text save Store");
    assert.deepEqual(relabeled.model.calls.map((c) => c.kind), ["locate"]);
    const healed = steps(relabeled.agent).find((s) =>
      s.title === "Locate from cache: the Save button"
    );
    assert.match(
      healed?.thought ?? "",
      /^Healed: its cached look is not on the screen \(best match -?\d\.\d\d, below 0\.9\); the model located the element again/,
    );
    const again = await run(cacheDir, "desk", "text save Store");
    assert.equal(again.model.calls.length, 0, "the healed record hits");
  },
);

test("desktop: an element with no record is a miss the model locates, then a hit", async () => {
  const cacheDir = await Deno.makeTempDir();
  await desk.app.command("reset");
  const { agent, model } = await newAgent(cacheDir, "miss");
  await agent.aiHover("the hover label");
  assert.deepEqual(model.calls.map((c) => c.kind), ["locate"]);
  assert.match(
    steps(agent)[0].thought ?? "",
    /^Cache miss: nothing is cached for "the hover label" yet/,
  );
  await agent.aiHover("the hover label");
  assert.equal(model.calls.length, 1);
  assert.match(steps(agent)[0].thought ?? "", /^Cache hit: located by its cached look/);
});

test(
  "desktop: a UI-TARS plan is cached with each target's look; it replays with no model call after Save moved, and heals a relabeled Save with one locate call",
  {
    timeout: 120_000,
  },
  async () => {
    const cacheDir = await Deno.makeTempDir();
    const first = await run(cacheDir, "tars", undefined, "vlm-ui-tars");
    assert.deepEqual(first.model.calls.map((c) => c.kind), ["plan", "plan", "plan", "plan"]);
    const plan = (await readCache(`${cacheDir}/tars.cache.yaml`)).find((r) => r.type === "plan")!;
    assert.deepEqual(plan.actions!.map((a) => a.type), ["Tap", "Input", "Tap"]);
    assert.ok(plan.actions![2].targets!.locate.fingerprint);
    const moved = await run(cacheDir, "tars", "place save 700 560", "vlm-ui-tars");
    assert.equal(
      moved.model.calls.length,
      0,
      JSON.stringify(steps(moved.agent).map((s) => [s.title, s.thought])),
    );
    const relabeled = await run(cacheDir, "tars", "text save Store", "vlm-ui-tars");
    assert.deepEqual(relabeled.model.calls.map((c) => c.kind), ["locate"]);
    const again = await run(cacheDir, "tars", "text save Store", "vlm-ui-tars");
    assert.equal(again.model.calls.length, 0);
  },
);

test(
  "RDP: the same task over RDP repeats by the elements' looks with no model call, also after Save moved; a relabeled Save is healed by one locate call",
  {
    timeout: 180_000,
  },
  async () => {
    desk = await rdpDesk();
    try {
      const cacheDir = await Deno.makeTempDir();
      const first = await run(cacheDir, "rdp");
      assert.deepEqual(first.model.calls.map((c) => c.kind), ["plan", "plan", "plan"]);
      const repeat = await run(cacheDir, "rdp");
      assert.equal(
        repeat.model.calls.length,
        0,
        JSON.stringify(steps(repeat.agent).map((s) => [s.title, s.thought])),
      );
      assert.equal((await run(cacheDir, "rdp", "place save 700 560")).model.calls.length, 0);
      const relabeled = await run(cacheDir, "rdp", "text save Store");
      assert.deepEqual(relabeled.model.calls.map((c) => c.kind), ["locate"]);
      const healed = steps(relabeled.agent).find((s) =>
        s.title === "Locate from cache: the Save button"
      );
      assert.match(healed?.thought ?? "", /^Healed: its cached look is not on the screen/);
    } finally {
      desk = local;
    }
  },
);
