import { test } from "../../tests/helpers/test.ts";
import assert from "node:assert/strict";
import type { DeviceAction } from "../device/types.ts";
import { ModelResponseError, PlanningError } from "../errors.ts";
import { getModelFamily } from "./families/mod.ts";
import type { DialectLocate, DialectStep } from "./dialect.ts";
import { readCall, toKeyCombo } from "./dialect.ts";

const noop = () => Promise.resolve();
const act = (name: string, params: DeviceAction["params"] = []): DeviceAction => ({
  name,
  description: name,
  params,
  call: noop,
});
const locate = (name = "locate", required = true) => ({
  name,
  type: "locate" as const,
  required,
  description: "",
});
/** The web page's action space, in shape. */
const WEB: DeviceAction[] = [
  act("Tap", [locate()]),
  act("DoubleClick", [locate()]),
  act("RightClick", [locate()]),
  act("Hover", [locate()]),
  act("Input", [locate("locate", false), {
    name: "value",
    type: "string",
    required: true,
    description: "",
  }, {
    name: "mode",
    type: "enum",
    values: ["replace", "typeOnly", "clear"],
    required: false,
    description: "",
  }]),
  act("KeyboardPress", [locate("locate", false), {
    name: "keyName",
    type: "string",
    required: true,
    description: "",
  }]),
  act("Scroll", [locate("locate", false), {
    name: "direction",
    type: "enum",
    values: ["down", "up", "left", "right"],
    required: false,
    description: "",
  }]),
  act("GoBack"),
];
/** A phone's action space, in shape; its system buttons named by the roles' convention. */
const MOBILE: DeviceAction[] = [
  ...WEB.filter((a) => a.name !== "GoBack"),
  act("DragAndDrop", [locate("from"), locate("to")]),
  act("Swipe", [locate("start"), locate("end")]),
  act("LongPress", [locate()]),
  act("Launch", [{ name: "uri", type: "string", required: true, description: "" }]),
  act("PhoneBackButton"),
  act("PhoneHomeButton"),
];
// 1001 x 1001 pixels: normalized 0-1000 values map to the same pixel numbers.
const IMAGE = { width: 1001, height: 1001, contentWidth: 1001, contentHeight: 1001 };

const tars = getModelFamily("vlm-ui-tars");
const glm = getModelFamily("auto-glm");

function parse(family: typeof tars, raw: string, actions = WEB): DialectStep {
  return family.planner!.parse(raw, { actions, image: IMAGE });
}
function center(v: unknown): [number, number] {
  const r = (v as DialectLocate).rect;
  return [r.left + r.width / 2, r.top + r.height / 2];
}
function only(step: DialectStep) {
  assert.equal(step.type, "actions");
  if (step.type !== "actions") throw new Error();
  assert.equal(step.actions.length, 1);
  return step.actions[0];
}

test("families: UI-TARS 40 cycles, AutoGLM 100, both with a planner; standard ones without", () => {
  for (const n of ["vlm-ui-tars", "vlm-ui-tars-doubao", "vlm-ui-tars-doubao-1.5"]) {
    assert.equal(getModelFamily(n).replanningCycleLimit, 40);
    assert.equal(getModelFamily(n).planner?.name, "UI-TARS");
  }
  for (const n of ["auto-glm", "auto-glm-multilingual"]) {
    assert.equal(getModelFamily(n).replanningCycleLimit, 100);
    assert.equal(getModelFamily(n).planner?.name, "AutoGLM");
  }
  assert.equal(getModelFamily(undefined).planner, undefined);
  assert.equal(getModelFamily("qwen3-vl").planner, undefined);
});

test("UI-TARS family locates boxes given as (x,y), [x1,y1,x2,y2], <point> and <bbox>", () => {
  const img = { width: 2001, height: 1001, contentWidth: 2001, contentHeight: 1001 };
  const point = tars.toPixelRect("(500,250)", img);
  assert.deepEqual([point.left + point.width / 2, point.top + point.height / 2], [1000, 250]);
  assert.deepEqual(tars.toPixelRect("<point>500 250</point>", img), point);
  const box = tars.toPixelRect([100, 200, 300, 400], img);
  assert.deepEqual(box, { left: 200, top: 200, width: 400, height: 200 });
  assert.deepEqual(tars.toPixelRect("<bbox>100 200 300 400</bbox>", img), box);
  assert.throws(() => tars.toPixelRect("(1200,250)", img), ModelResponseError);
});

test("UI-TARS: click in its answer shapes (quoted point, box tokens, <point>, 4-number box)", () => {
  const shapes = [
    "Thought: The Sign in button is at the bottom.\nAction: click(start_box='(500,300)')",
    "Thought: click it\nAction: click(start_box='<|box_start|>(500,300)<|box_end|>')",
    "Thought: click it\nAction: click(point='<point>500 300</point>')",
    "Thought: click it\nAction: click(start_box='[490,290,510,310]')",
    '```\nThought: click it\nAction: click(start_box="(500, 300)")\n```',
    "Thought: click it\nAction: left_single(start_box='(500,300)')",
  ];
  for (const raw of shapes) {
    const step = parse(tars, raw);
    const a = only(step);
    assert.equal(a.name, "Tap", raw);
    assert.deepEqual(center(a.param.locate), [500, 300], raw);
  }
  const step = parse(tars, shapes[0]);
  assert.equal(step.thought, "The Sign in button is at the bottom.");
  assert.equal(step.log, "click(start_box='(500,300)')");
  assert.equal(
    step.historyAnswer,
    "Thought: The Sign in button is at the bottom.\nAction: click(start_box='(500,300)')",
  );
});

test("UI-TARS: double, right click, hotkey, type, scroll, wait, finished map onto the device", () => {
  assert.equal(only(parse(tars, "Action: left_double(start_box='(10,20)')")).name, "DoubleClick");
  assert.equal(only(parse(tars, "Action: right_single(start_box='(10,20)')")).name, "RightClick");
  assert.deepEqual(only(parse(tars, "Thought: copy\nAction: hotkey(key='ctrl c')")).param, {
    keyName: "Control+C",
  });
  assert.deepEqual(only(parse(tars, "Action: hotkey(key='enter')")).param, { keyName: "Enter" });
  assert.deepEqual(only(parse(tars, "Action: type(content='it\\'s done')")).param, {
    value: "it's done",
    mode: "typeOnly",
  });
  const submit = parse(tars, "Action: type(content='alice\\n')");
  assert.equal(submit.type, "actions");
  if (submit.type === "actions") {
    assert.deepEqual(submit.actions.map((a) => a.name), ["Input", "KeyboardPress"]);
    assert.deepEqual(submit.actions[0].param, { value: "alice", mode: "typeOnly" });
  }
  const scroll = only(parse(tars, "Action: scroll(start_box='(500,500)', direction='up')"));
  assert.equal(scroll.name, "Scroll");
  assert.equal(scroll.param.direction, "up");
  assert.deepEqual(center(scroll.param.locate), [500, 500]);
  assert.deepEqual(parse(tars, "Thought: loading\nAction: wait()").type, "wait");
  const done = parse(tars, "Thought: all done\nAction: finished(content='Added \"milk\"')");
  assert.equal(done.type, "finished");
  if (done.type === "finished") assert.equal(done.output, 'Added "milk"');
  const bare = parse(tars, "Action: finished()");
  assert.equal(bare.type, "finished");
  assert.equal(parse(tars, "Thought: need a password\nAction: call_user()").type, "error");
});

test("UI-TARS: drag and mobile actions need the device's actions; the error lists them", () => {
  const drag = only(
    parse(tars, "Action: drag(start_box='(100,100)', end_box='(300,400)')", MOBILE),
  );
  assert.equal(drag.name, "DragAndDrop");
  assert.deepEqual(center(drag.param.from), [100, 100]);
  assert.deepEqual(center(drag.param.to), [300, 400]);
  assert.throws(
    () => parse(tars, "Action: drag(start_box='(100,100)', end_box='(300,400)')"),
    (e: unknown) =>
      e instanceof PlanningError && /"drag\(/.test(e.message) && /DragAndDrop/.test(e.message) &&
      /Tap, DoubleClick/.test(e.message),
  );
  assert.equal(only(parse(tars, "Action: press_back()", MOBILE)).name, "PhoneBackButton");
  assert.equal(only(parse(tars, "Action: press_back()")).name, "GoBack");
  assert.deepEqual(only(parse(tars, "Action: open_app(app_name='Mail')", MOBILE)).param, {
    uri: "Mail",
  });
});

test("UI-TARS: malformed answers are ModelResponseErrors that say what is expected", () => {
  for (
    const raw of [
      "I think I should click the button.",
      "Thought: hmm\nAction: teleport(start_box='(1,2)')",
      "Thought: x\nAction: click()",
      "Thought: x\nAction: click(start_box='(1200,300)')",
      "Thought: x\nAction: scroll(start_box='(1,2)', direction='sideways')",
    ]
  ) {
    assert.throws(() => parse(tars, raw), ModelResponseError, raw);
  }
});

test("AutoGLM: Tap, Double Tap, Type, Wait and finish in their answer shapes", () => {
  const shapes = [
    '<think>The Sign in button is below the fields.</think><answer>do(action="Tap", element=[500,300])</answer>',
    '<think>tap</think>\n<answer>do(action="Tap", element=[500, 300])',
    'tap it\n<answer>do(action="Tap",element=[500,300])</answer>',
    'do(action="Tap", element=[500,300])',
  ];
  for (const raw of shapes) {
    const a = only(parse(glm, raw));
    assert.equal(a.name, "Tap", raw);
    assert.deepEqual(center(a.param.locate), [500, 300], raw);
  }
  const first = parse(glm, shapes[0]);
  assert.equal(first.thought, "The Sign in button is below the fields.");
  assert.equal(
    first.historyAnswer,
    '<think>The Sign in button is below the fields.</think><answer>do(action="Tap", element=[500,300])</answer>',
  );
  assert.equal(
    only(parse(glm, '<answer>do(action="Double Tap", element=[1,2])</answer>')).name,
    "DoubleClick",
  );
  assert.deepEqual(only(parse(glm, '<answer>do(action="Type", text="alice")</answer>')).param, {
    value: "alice",
    mode: "replace",
  });
  const wait = parse(glm, '<answer>do(action="Wait", duration="2 seconds")</answer>');
  assert.equal(wait.type, "wait");
  if (wait.type === "wait") assert.equal(wait.ms, 2000);
  const done = parse(glm, '<think>done</think><answer>finish(message="Added the item")</answer>');
  assert.equal(done.type, "finished");
  if (done.type === "finished") assert.equal(done.output, "Added the item");
  assert.equal(
    parse(glm, '<answer>do(action="Take_over", message="captcha")</answer>').type,
    "error",
  );
});

test("AutoGLM: Swipe, Long Press, Launch, Back, Home need the device's actions", () => {
  const swipe = only(parse(glm, 'do(action="Swipe", start=[500,800], end=[500,200])', MOBILE));
  assert.equal(swipe.name, "Swipe");
  assert.deepEqual(center(swipe.param.start), [500, 800]);
  assert.deepEqual(center(swipe.param.end), [500, 200]);
  assert.equal(
    only(parse(glm, 'do(action="Long Press", element=[5,5])', MOBILE)).name,
    "LongPress",
  );
  assert.deepEqual(only(parse(glm, 'do(action="Launch", app="Settings")', MOBILE)).param, {
    uri: "Settings",
  });
  assert.equal(only(parse(glm, 'do(action="Home")', MOBILE)).name, "PhoneHomeButton");
  assert.equal(only(parse(glm, 'do(action="Back")', MOBILE)).name, "PhoneBackButton");
  assert.equal(only(parse(glm, 'do(action="Back")')).name, "GoBack");
  for (const raw of ['do(action="Launch", app="X")', 'do(action="Home")']) {
    assert.throws(
      () => parse(glm, raw),
      (e: unknown) =>
        e instanceof PlanningError && /AutoGLM/.test(e.message) &&
        /Tap, DoubleClick, RightClick/.test(e.message),
      raw,
    );
  }
});

test("AutoGLM: malformed answers are ModelResponseErrors", () => {
  for (
    const raw of [
      "<think>I will tap</think><answer>tap the button</answer>",
      '<answer>do(action="Fly", element=[1,2])</answer>',
      '<answer>do(action="Tap")</answer>',
      '<answer>do(action="Tap", element=[1200,30])</answer>',
    ]
  ) {
    assert.throws(() => parse(glm, raw), ModelResponseError, raw);
  }
});

test("readCall reads quoted, bracketed and bare values; toKeyCombo writes device key names", () => {
  const c = readCall(`x do(action="Tap", element=[1, 2], note='a, b') y`)!;
  assert.equal(c.name, "do");
  assert.deepEqual(c.args, { action: "Tap", element: "[1, 2]", note: "a, b" });
  assert.equal(c.text, `do(action="Tap", element=[1, 2], note='a, b')`);
  assert.deepEqual(readCall("click(start_box=<point>1 2</point>)")!.args, {
    start_box: "<point>1 2</point>",
  });
  assert.equal(toKeyCombo("ctrl c", ""), "Control+C");
  assert.equal(toKeyCombo("Ctrl+Shift+t", ""), "Control+Shift+T");
  assert.equal(toKeyCombo("esc", ""), "Escape");
  assert.equal(toKeyCombo("pagedown", ""), "PageDown");
  assert.throws(() => toKeyCombo(" ", "raw"), ModelResponseError);
});

test("dialect messages: UI-TARS keeps earlier turns as assistant messages with 2 screenshots", () => {
  const image = { dataUri: "data:image/png;base64,AAAA", width: 10, height: 10 };
  const history = [1, 2, 3].map((i) => ({ answer: `Thought: t${i}\nAction: wait()`, image }));
  const m = tars.planner!.messages({ instruction: "do it", actions: WEB, image, history });
  assert.equal(m[0].role, "system");
  assert.match(m[0].content as string, /^You are a UI automation planner\./);
  assert.match(m[0].content as string, /click\(start_box='\(x,y\)'\)/);
  assert.doesNotMatch(m[0].content as string, /drag\(/);
  assert.deepEqual(m.map((x) => x.role), [
    "system",
    "user",
    "user",
    "assistant",
    "user",
    "assistant",
    "user",
    "assistant",
    "user",
  ]);
  const images = m.filter((x) =>
    Array.isArray(x.content) && x.content.some((p) => p.type === "image_url")
  );
  assert.equal(images.length, 3); // 2 earlier + the current one
  assert.equal(m[3].content, "Thought: t1\nAction: wait()");
  const g = glm.planner!.messages({ instruction: "do it", actions: WEB, image, history });
  assert.equal(
    g.filter((x) => Array.isArray(x.content) && x.content.some((p) => p.type === "image_url"))
      .length,
    1,
  );
  assert.match(g[0].content as string, /do\(action="Tap", element=\[x,y\]\)/);
  assert.doesNotMatch(g[0].content as string, /Launch/);
});

test(
  "UI-TARS: of several Action lines the last one with a call is the answer; its Thought goes with it",
  {
    timeout: 5000,
  },
  () => {
    const step = parse(
      tars,
      "Thought: Open the menu first.\nAction: hotkey(key='ctrl esc')Thought: Finish now.\nAction: finished(content='ok')",
    );
    assert.equal(step.type, "finished");
    assert.equal(step.thought, "Finish now.");
    assert.equal(step.dropped, undefined);
    // A later Action line without a call does not count; the last one with a call does.
    const tap = parse(tars, "Action: click(start_box='(10,20)')\nAction: (nothing)");
    assert.equal(only(tap).name, "Tap");
    // Action: inside a quoted argument or a quoted phrase of the thought is not a marker.
    assert.deepEqual(
      only(parse(tars, "Thought: type it\nAction: type(content='Action: wait()')")).param,
      {
        value: "Action: wait()",
        mode: "typeOnly",
      },
    );
    const quoted = parse(
      tars,
      `Thought: never write "Action: wait()" here.\nAction: click(start_box='(5,5)')`,
    );
    assert.equal(only(quoted).name, "Tap");
    // The full-width colon.
    assert.equal(only(parse(tars, "Thought: x\nAction：click(start_box='(5,5)')")).name, "Tap");
  },
);

test("UI-TARS: one Action with several calls performs the first and names the rest as dropped", {
  timeout: 5000,
}, () => {
  const step = parse(
    tars,
    "Thought: Click, then type.\nAction: click(start_box='(100,200)')\n\ntype(content='Hello')",
  );
  assert.equal(only(step).name, "Tap");
  assert.deepEqual(step.dropped, ["type(content='Hello')"]);
  const inline = parse(tars, "Thought: x\nAction: click(start_box='(100,200)') then wait()");
  assert.deepEqual(inline.dropped, ["wait()"]);
  const done = parse(tars, "Action: finished(content='ok')\n\nclick(start_box='(1,2)')");
  assert.equal(done.type, "finished");
  assert.deepEqual(done.dropped, ["click(start_box='(1,2)')"]);
  // Prose that only mentions a call is not an action: the answer is unusable.
  assert.throws(() => parse(tars, "I should wait() until the page is stable."), ModelResponseError);
  assert.throws(
    () => parse(tars, "Thought: hmm\nAction: I will click(start_box='(1,2)')"),
    ModelResponseError,
  );
});

test(
  "AutoGLM: two calls in one answer are unusable; Note and Call_API do nothing; Type_Name types",
  {
    timeout: 5000,
  },
  () => {
    for (
      const raw of [
        '<answer>do(action="Tap", element=[1,2])\ndo(action="Type", text="x")</answer>',
        '<answer>do(action="Tap", element=[1,2]) finish(message="done")</answer>',
      ]
    ) {
      assert.throws(() => parse(glm, raw), (e: unknown) => {
        assert.ok(e instanceof ModelResponseError);
        assert.match(e.message, /more than one action/);
        return true;
      });
    }
    // A call's quoted text may hold what looks like a call.
    const done = parse(glm, '<answer>finish(message="I did do(action=\\"Tap\\")")</answer>');
    assert.equal(done.type, "finished");
    for (
      const raw of [
        'do(action="Note", message="price: 12")',
        'do(action="Call_API", instruction="sum")',
      ]
    ) {
      const step = parse(glm, raw);
      assert.equal(step.type, "actions", raw);
      if (step.type === "actions") assert.deepEqual(step.actions, [], raw);
    }
    assert.deepEqual(only(parse(glm, 'do(action="Type_Name", text="Tom")')).param, {
      value: "Tom",
      mode: "replace",
    });
    assert.equal(parse(glm, 'do(action="Interact")').type, "error");
    const bare = parse(glm, 'I see a button. do(action="Tap", element=[100,200])');
    assert.equal(bare.thought, "I see a button.");
  },
);

test("UI-TARS: a word ending in Action (LastAction:) is no marker", { timeout: 5000 }, () => {
  const step = parse(tars, "Thought: x\nAction: click(start_box='(1,2)')\nLastAction: wait()");
  assert.equal(only(step).name, "Tap");
});
