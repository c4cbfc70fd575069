import { test } from "../../tests/helpers/test.ts";
import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse } from "yaml";
import { Agent } from "../agent/agent.ts";
import {
  deviceAction,
  inputAction,
  keyboardPressAction,
  scrollAction,
  tapAction,
} from "../device/actions.ts";
import { buttonAction } from "../device/phone_actions.ts";
import type { AbstractInterface, LocatedElement, TargetIdentity } from "../device/types.ts";
import { createTestPng, startTestModel } from "../testing/mod.ts";
import type { PlanReply, TestModel, TestModelScript } from "../testing/mod.ts";
import { hider } from "./export_items.ts";

Deno.env.set("SDK_RUN_DIR", mkdtempSync(join(tmpdir(), "sdk-export-")));
const png = createTestPng(400, 800);

interface Node {
  id: string;
  kind: string;
  name: string;
  box: { left: number; top: number; width: number; height: number };
}

const NOTES: Node[] = [
  { id: "note-2", kind: "android.widget.TextView", name: "Note 2", box: box(20, 100) },
  { id: "text", kind: "android.widget.EditText", name: "Text", box: box(20, 300) },
];

function box(left: number, top: number) {
  return { left, top, width: 200, height: 60 };
}

/**
 * A phone-like device: its tree's nodes, and, with `xpaths`, the tree's xpaths of them
 * (`//*[@resource-id="..."]`), as the phones' `xpathsAt` and `locateByXpath` give them.
 */
function treeDevice(nodes: Node[], xpaths: boolean) {
  const done: string[] = [];
  const note = (what: string) => {
    done.push(what);
    return Promise.resolve();
  };
  const at = (x: number, y: number) =>
    nodes.find((n) =>
      x >= n.box.left && x <= n.box.left + n.box.width && y >= n.box.top &&
      y <= n.box.top + n.box.height
    );
  const element = (n: Node): LocatedElement => ({
    description: n.name,
    rect: n.box,
    center: [n.box.left + n.box.width / 2, n.box.top + n.box.height / 2],
  });
  const name = (param: Record<string, unknown>) => {
    const [x, y] = (param.locate as LocatedElement).center;
    return at(x, y)?.id ?? "nothing";
  };
  const device: AbstractInterface = {
    interfaceType: "phone",
    screenshotBase64: () => png,
    size: () => Promise.resolve({ width: 400, height: 800, dpr: 1 }),
    actionSpace: () => [
      tapAction((param) => note(`tap ${name(param)}`)),
      inputAction((param) => note(`type ${param.value} into ${name(param)}`)),
      buttonAction("MobileABackButton", "Back", () => note("back")),
      keyboardPressAction((param) =>
        note(`press ${param.keyName}${param.locate ? ` on ${name(param)}` : ""}`)
      ),
      scrollAction((param) => note(`scroll ${param.direction} ${param.distance ?? ""}`.trim()), {
        unit: "pixels",
      }),
      deviceAction("Swipe", "Swipe", [], () => note("swipe")),
    ],
    targetsAt: (points) =>
      Promise.resolve(points.map(([x, y]): TargetIdentity | undefined => {
        const n = at(x, y);
        return n && { kind: n.kind, id: n.id, name: n.name, box: n.box };
      })),
    ...xpaths && {
      xpathsAt: ([x, y]) => {
        const n = at(x, y);
        return Promise.resolve(n ? [`//*[@resource-id="${n.id}"]`] : []);
      },
      locateByXpath: (xpath) => {
        const n = nodes.find((n) => xpath === `//*[@resource-id="${n.id}"]`);
        return Promise.resolve(n && element(n));
      },
    },
  };
  return { device, done };
}

/** The model's locate on `nodes`: Note 2 is the first node, the Text field the second. */
const locate = (nodes: Node[]): TestModelScript["locate"] => ({ target }) =>
  target === "Note 2" ? nodes[0].box : target === "the Text field" ? nodes[1].box : null;

/** Plans: tap Note 2, type the text, press Back (and Swipe with `swipe`), then done. */
function planner(nodes: Node[], text: string, swipe = false): TestModelScript["plan"] {
  return ({ history }) => {
    const steps: PlanReply[] = [
      {
        log: "open Note 2",
        action: { type: "Tap", param: { locate: { prompt: "Note 2", box: nodes[0].box } } },
      },
      {
        log: "type",
        action: {
          type: "Input",
          param: { locate: { prompt: "the Text field", box: nodes[1].box }, value: text },
        },
      },
      { log: "back", action: { type: "MobileABackButton", param: {} } },
      ...swipe ? [{ log: "swipe", action: { type: "Swipe", param: {} } }] : [],
    ];
    return steps[history.length] ?? { log: "done", finished: true };
  };
}

/** An agent with a phone's `back()`, which presses the device's Back button. */
class PhoneAgent extends Agent {
  async back(): Promise<void> {
    const press = this.interface.actionSpace().find((a) => a.name === "MobileABackButton")!;
    await this.recordedCall("back", "Back", press.name, {}, () => press.call({}, {}));
  }
}

async function withAgent(
  device: AbstractInterface,
  script: TestModelScript,
  run: (agent: PhoneAgent, model: TestModel) => Promise<void>,
): Promise<void> {
  const model = await startTestModel({ script, viewport: { width: 400, height: 800 } });
  const agent = new PhoneAgent(device, {
    modelConfig: model.modelConfig(),
    waitAfterAction: 0,
    generateReport: false,
  });
  try {
    await run(agent, model);
  } finally {
    await agent.destroy();
    await model.close();
  }
}

async function exported(agent: Agent, options = {}) {
  const file = join(mkdtempSync(join(tmpdir(), "sdk-export-file-")), "run.yaml");
  const result = await agent.exportScript(file, options);
  return { ...result, doc: parse(result.text) as { tasks: { name: string; flow: unknown[] }[] } };
}

test("a device whose own tree gives xpaths (as the phones' does): the export finds every element again without the model", async () => {
  const first = treeDevice(NOTES, true);
  let text = "";
  await withAgent(first.device, { plan: planner(NOTES, "buy milk") }, async (agent) => {
    await agent.aiAct("write buy milk into Note 2");
    const out = await exported(agent);
    text = out.text;
    assert.equal(out.located, 2);
    assert.deepEqual(out.unlocated, []);
    assert.deepEqual(out.doc.tasks[0].flow, [
      {
        aiTap: "Note 2",
        locator: {
          xpaths: ['//*[@resource-id="note-2"]'],
          target: {
            kind: "android.widget.TextView",
            id: "note-2",
            name: "Note 2",
            box: box(20, 100),
          },
        },
      },
      {
        aiInput: "the Text field",
        value: "buy milk",
        locator: {
          xpaths: ['//*[@resource-id="text"]'],
          target: { kind: "android.widget.EditText", id: "text", name: "Text", box: box(20, 300) },
        },
      },
      { back: null },
    ]);
    assert.equal(out.doc.tasks[0].name, "recorded run");
  });
  assert.deepEqual(first.done, ["tap note-2", "type buy milk into text", "back"]);

  const again = treeDevice(NOTES, true);
  await withAgent(again.device, { locate: locate(NOTES) }, async (agent, model) => {
    await agent.runYaml(text);
    assert.equal(model.calls.length, 0);
    // The run of an exported script exports as the same script.
    assert.equal((await exported(agent)).text, text);
  });
  assert.deepEqual(again.done, first.done);

  // The field of the xpath is named otherwise now: the identity check fails, the model locates.
  const moved = [NOTES[0], { ...NOTES[1], name: "Body", box: box(20, 500) }];
  const changed = treeDevice(moved, true);
  await withAgent(changed.device, { locate: locate(moved) }, async (agent, model) => {
    await agent.runYaml(text.replace(/value: buy milk/, "value: buy bread"));
    assert.deepEqual(model.calls.map((c) => c.kind), ["locate"]);
  });
  assert.deepEqual(changed.done, ["tap note-2", "type buy bread into text", "back"]);
});

test("a device without locators: each step keeps its prompt, says so, and the model locates it on every run", async () => {
  const first = treeDevice(NOTES, false);
  let text = "";
  await withAgent(first.device, { plan: planner(NOTES, "tea") }, async (agent) => {
    await agent.aiAct("write tea into Note 2");
    const out = await exported(agent);
    text = out.text;
    assert.equal(out.located, 0);
    assert.deepEqual(out.unlocated, ["Note 2", "the Text field"]);
  });
  assert.match(
    text,
    /# no locator \(this phone device gives no locator\): the model locates this element on every run\n\s+- aiTap: Note 2\n/,
  );
  const again = treeDevice(NOTES, false);
  await withAgent(again.device, { locate: locate(NOTES) }, async (agent, model) => {
    await agent.runYaml(text);
    assert.deepEqual(model.calls.map((c) => c.kind), ["locate", "locate"]);
  });
  assert.deepEqual(again.done, first.done);
});

test("a plan with an action no flow item performs is kept as its aiAct, saying why", async () => {
  const { device } = treeDevice(NOTES, true);
  await withAgent(device, { plan: planner(NOTES, "x", true) }, async (agent) => {
    await agent.aiAct("write x into Note 2 and swipe");
    const out = await exported(agent);
    assert.deepEqual(out.doc.tasks[0].flow, [{ aiAct: "write x into Note 2 and swipe" }]);
    assert.match(out.text, /# kept as aiAct: no flow item performs Swipe\n/);
  });
});

test("calls made from code: each instant action as its item, the values named in variables as ${NAME}, checks as comments; the file repeats them", async () => {
  const first = treeDevice(NOTES, true);
  let text = "";
  await withAgent(
    first.device,
    { locate: locate(NOTES), assert: () => ({ pass: true }) },
    async (agent) => {
      await agent.aiInput("the Text field", { value: "pw-secret-1", mode: "typeOnly" });
      await agent.aiKeyboardPress("the Text field", { keyName: "Tab" });
      await agent.aiKeyboardPress(undefined, { keyName: "Enter" });
      await agent.aiScroll(undefined, { direction: "up", distance: 300 });
      await agent.aiAssert("the note is saved");
      await agent.back();
      const out = await exported(agent, { variables: { PASS: "pw-secret-1" }, taskName: "notes" });
      text = out.text;
      assert.ok(!text.includes("pw-secret-1"));
      const flow = out.doc.tasks[0].flow as Record<string, unknown>[];
      assert.equal(out.doc.tasks[0].name, "notes");
      assert.deepEqual(flow.map(({ locator, ...rest }) => ({ ...rest, located: !!locator })), [
        { aiInput: "the Text field", value: "${PASS}", mode: "typeOnly", located: true },
        { aiKeyboardPress: "the Text field", keyName: "Tab", located: true },
        { aiKeyboardPress: "Enter", located: false },
        { aiScroll: null, direction: "up", distance: 300, located: false },
        { back: null, located: false },
      ]);
      assert.match(text, /#\s+aiAssert: the note is saved\n/);
      const kept = await exported(agent, {
        keepChecks: true,
        sections: { mobilea: { launch: "notes" } },
      });
      assert.deepEqual((kept.doc as unknown as { mobilea: unknown }).mobilea, { launch: "notes" });
      assert.deepEqual(kept.doc.tasks[0].flow[4], { aiAssert: "the note is saved" });
    },
  );
  Deno.env.set("PASS", "pw-secret-1");
  const again = treeDevice(NOTES, true);
  await withAgent(again.device, {}, async (agent, model) => {
    await agent.runYaml(text);
    assert.equal(model.calls.length, 0);
  });
  assert.deepEqual(again.done, first.done);
  assert.deepEqual(first.done, [
    "type pw-secret-1 into text",
    "press Tab on text",
    "press Enter",
    "scroll up 300",
    "back",
  ]);
});

test("values are written as ${NAME}: whole or inside a text, longest first; short ones only whole; literals escaped", () => {
  const hide = hider(new Map([["USER", "alice"], ["PASS", "alice-secret"], ["N", "1"]]));
  assert.equal(hide("alice-secret"), "${PASS}");
  assert.equal(hide("sign in as alice with alice-secret"), "sign in as ${USER} with ${PASS}");
  assert.equal(hide("1"), "${N}");
  assert.equal(hide("/html/body[1]/div[1]"), "/html/body[1]/div[1]");
  assert.equal(hide("costs ${PRICE}"), "costs $${PRICE}");
  assert.deepEqual(hide({ a: ["alice", 1], b: { c: "alice" } }), {
    a: ["${USER}", 1],
    b: { c: "${USER}" },
  });
  assert.equal(hider(new Map([["USER", "alice"]]), false)("${X} alice"), "${X} ${USER}");
});
