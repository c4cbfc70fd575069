/**
 * Real answer shapes through the public families and dialects, on every platform's REAL action
 * space (the web page with and without touch, MobileA, MobileB, MobileC: tests/e2e/_action_spaces.ts).
 * Each shape names its source: a vendor's document or a reference parser's test that is built
 * from what the models answer. What each shape does here is in docs/model-protocol.md.
 *
 * The image is 1001 x 1001 pixels, so a 0-1000 (and AutoGLM's 0-999) coordinate is the pixel.
 *
 * @module
 */

import { after, test } from "../helpers/test.ts";
import assert from "node:assert/strict";
import {
  type DialectLocate,
  type DialectStep,
  getModelFamily,
  ModelResponseError,
  PlanningError,
} from "@sdk/core";
import { startE2e } from "./_setup.ts";
import { phoneSpaces, type PlatformSpace, webSpaces } from "./_action_spaces.ts";

const env = await startE2e();
after(() => env.close());

const IMAGE = { width: 1001, height: 1001, contentWidth: 1001, contentHeight: 1001 };
let cached: PlatformSpace[] | undefined;
async function spaces(): Promise<PlatformSpace[]> {
  return cached ??= [...await phoneSpaces(), ...await webSpaces(env)];
}

/** Each platform's own action of a role (none: the platform lacks it). */
const ROLE: Record<string, Record<"back" | "home" | "launch", string | undefined>> = {
  "MobileA": { back: "MobileABackButton", home: "MobileAHomeButton", launch: "Launch" },
  "MobileB": { back: undefined, home: "MobileBHomeButton", launch: "Launch" },
  "MobileC": { back: "MobileCBackButton", home: "MobileCHomeButton", launch: "Launch" },
  "web": { back: "GoBack", home: undefined, launch: undefined },
  "web (touch)": { back: "GoBack", home: undefined, launch: undefined },
};

/** What a shape must become. */
type Expect =
  | {
    /** The device action: its name, or a role resolved through {@link ROLE}. */
    action: string | { role: "back" | "home" | "launch" };
    /** Centers of its locate parameters, by name, in image pixels. */
    at?: Record<string, [number, number]>;
    /** Other parameters it must have (exactly these, besides the locates). */
    param?: Record<string, unknown>;
    /** A second device action (UI-TARS type(...\n) presses Enter). */
    then?: string;
    dropped?: string[];
    thought?: string;
  }
  | { wait: number; dropped?: string[] }
  | { finished: string | undefined; dropped?: string[]; thought?: string }
  | { userNeeded: true }
  | { nothing: true }
  | { unusable: RegExp };

interface Shape {
  source: string;
  raw: string;
  expect: Expect;
}

function center(v: unknown): [number, number] {
  const r = (v as DialectLocate).rect;
  return [r.left + r.width / 2, r.top + r.height / 2];
}

function run(family: string, shape: Shape, s: PlatformSpace): void {
  const dialect = getModelFamily(family).planner!;
  const what = `${family} on ${s.label}: ${JSON.stringify(shape.raw)} (${shape.source})`;
  const parse = () =>
    dialect.parse(shape.raw, { actions: s.actions, image: IMAGE, platform: s.platform });
  const e = shape.expect;
  if ("unusable" in e) {
    assert.throws(parse, (err: unknown) => {
      assert.ok(err instanceof ModelResponseError, `${what}: ${err}`);
      assert.match(err.message, e.unusable, what);
      return true;
    });
    return;
  }
  if ("action" in e) {
    const name = typeof e.action === "string"
      ? (s.actions.some((a) => a.name === e.action) ? e.action : undefined)
      : ROLE[s.label][e.action.role];
    if (!name) {
      assert.throws(parse, (err: unknown) => {
        assert.ok(err instanceof PlanningError, `${what}: ${err}`);
        assert.ok(err.message.includes(`"${s.platform}"`), `${what}: ${err.message}`);
        return true;
      });
      return;
    }
    const step = parse();
    assert.equal(step.type, "actions", what);
    if (step.type !== "actions") return;
    assert.equal(step.actions[0].name, name, what);
    const param = { ...step.actions[0].param };
    for (const [key, point] of Object.entries(e.at ?? {})) {
      assert.deepEqual(center(param[key]), point, `${what}: ${key}`);
      delete param[key];
    }
    if (e.param) assert.deepEqual(param, e.param, what);
    assert.deepEqual(step.actions.slice(1).map((a) => a.name), e.then ? [e.then] : [], what);
    assert.deepEqual(step.dropped, e.dropped, what);
    if (e.thought !== undefined) assert.equal(step.thought, e.thought, what);
    return;
  }
  const step: DialectStep = parse();
  if ("wait" in e) {
    assert.equal(step.type, "wait", what);
    if (step.type === "wait") assert.equal(step.ms, e.wait, what);
  } else if ("finished" in e) {
    assert.equal(step.type, "finished", what);
    if (step.type === "finished") assert.equal(step.output, e.finished, what);
    if (e.thought !== undefined) assert.equal(step.thought, e.thought, what);
  } else if ("userNeeded" in e) {
    assert.equal(step.type, "error", what);
  } else {
    assert.equal(step.type, "actions", what);
    if (step.type === "actions") assert.deepEqual(step.actions, [], what);
  }
  if ("dropped" in e) assert.deepEqual(step.dropped, e.dropped, what);
}

// ---- UI-TARS --------------------------------------------------------------------------------------

/** bytedance/UI-TARS-desktop packages/ui-tars/action-parser/test/actionParser.test.ts */
const DESKTOP_PARSER = "UI-TARS-desktop actionParser.test.ts";
/** The MOBILE_USE_DOUBAO action space of the UI-TARS README (bytedance/UI-TARS). */
const MOBILE_PROMPT = "UI-TARS README, MOBILE_USE_DOUBAO";
/** bytedance/UI-TARS codes/tests/action_parser_test.py */
const PY_PARSER = "UI-TARS action_parser_test.py";

const TARS_SHAPES: Shape[] = [
  {
    source: `${DESKTOP_PARSER}: with Thought`,
    raw: "Thought: I need to click this button\nAction: click(start_box='(100,200)')",
    expect: { action: "Tap", at: { locate: [100, 200] }, thought: "I need to click this button" },
  },
  {
    source: `${DESKTOP_PARSER}: Reflection and Action_Summary`,
    raw:
      "Reflection: This is a reflection\nAction_Summary: This is a summary\nAction: type(text='Hello', start_box='(300,400)')",
    expect: {
      action: "Input",
      at: { locate: [300, 400] },
      param: { value: "Hello", mode: "typeOnly" },
      thought: "This is a summary",
    },
  },
  {
    source: `${DESKTOP_PARSER}: multiple actions (the reference performs both)`,
    raw:
      "Thought: Perform multiple actions\nAction: click(start_box='(100,200)')\n\ntype(text='Hello', start_box='(300,400)')",
    expect: {
      action: "Tap",
      at: { locate: [100, 200] },
      dropped: ["type(text='Hello', start_box='(300,400)')"],
    },
  },
  {
    source: `${DESKTOP_PARSER}: multiple actions with <bbox> points`,
    raw:
      "Thought: Perform multiple actions\nAction: click(start_box='<bbox>100 200</bbox>')\n\ntype(text='Hello', start_box='<bbox>300 400</bbox>')",
    expect: {
      action: "Tap",
      at: { locate: [100, 200] },
      dropped: ["type(text='Hello', start_box='<bbox>300 400</bbox>')"],
    },
  },
  {
    source: `${DESKTOP_PARSER}: <think> block, then click(point='<point>..</point>')`,
    raw:
      `<think>\nOkay, let's see. The search bar has "hi" in it. First, I need to clear that.\n</think>\nThought: To search for news, first clear the existing text "hi" by clicking the 'X' icon.\nAction: click(point='<point>510 150</point>')`,
    expect: {
      action: "Tap",
      at: { locate: [510, 150] },
      thought: `To search for news, first clear the existing text "hi" by clicking the 'X' icon.`,
    },
  },
  {
    source: `${DESKTOP_PARSER}: <bbox> with a point twice`,
    raw:
      "Thought: 我需要点击任务栏上的浏览器图标来启动浏览器。\nAction: click(start_box='<bbox>637 964 637 964</bbox>')",
    expect: { action: "Tap", at: { locate: [637, 964] } },
  },
  {
    source: `${DESKTOP_PARSER}: [x,y] box`,
    raw: "Thought: I need to click on this element\nAction: click(start_box='[130,226]')",
    expect: { action: "Tap", at: { locate: [130, 226] } },
  },
  {
    source: `${DESKTOP_PARSER}: drag with start_box and end_box`,
    raw: "Thought: I need to drag this\nAction: drag(start_box='[130,226]', end_box='[200,226]')",
    expect: { action: "DragAndDrop", at: { from: [130, 226], to: [200, 226] } },
  },
  {
    source: `${DESKTOP_PARSER}: four coordinates`,
    raw:
      "Thought: I need to click on this element\nAction: click(start_box='[348, 333, 928, 365]')",
    expect: { action: "Tap", at: { locate: [638, 349] } },
  },
  {
    source: `${DESKTOP_PARSER}: zero coordinates`,
    raw:
      "Thought: I need to click on the start button\nAction: click(start_box='[0, 964, 10, 984]')",
    expect: { action: "Tap", at: { locate: [5, 974] } },
  },
  {
    source: `${DESKTOP_PARSER}: input without Action keyword`,
    raw: 'click(start_box="(100,200)")',
    expect: { action: "Tap", at: { locate: [100, 200] } },
  },
  {
    source: `${DESKTOP_PARSER}: inline function-like text without Action marker`,
    raw: "I should wait() until the page is stable.",
    expect: { unusable: /has no action/ },
  },
  {
    source:
      `${DESKTOP_PARSER}: additional inline calls after the first action (the reference ignores them)`,
    raw: "Thought: Click then explain\nAction: click(start_box='(100,200)') then wait()",
    expect: { action: "Tap", at: { locate: [100, 200] }, dropped: ["wait()"] },
  },
  {
    source: `${DESKTOP_PARSER}: Action marker inside a quoted argument`,
    raw: "Thought: Type raw text exactly\nAction: type(content='Action: wait()')",
    expect: { action: "Input", param: { value: "Action: wait()", mode: "typeOnly" } },
  },
  {
    source: `${DESKTOP_PARSER}: possessive apostrophe in the thought`,
    raw: "Thought: Open users' settings and continue.\nAction: click(start_box='(100,200)')",
    expect: {
      action: "Tap",
      at: { locate: [100, 200] },
      thought: "Open users' settings and continue.",
    },
  },
  {
    source: `${DESKTOP_PARSER}: unterminated quote in the thought`,
    raw: 'Thought: click "Settings\nAction: wait()',
    expect: { wait: 1000 },
  },
  {
    source: `${DESKTOP_PARSER}: Chinese colon`,
    raw: "Thought: I need to click this button\nAction：click(start_box='(100,200)')",
    expect: { action: "Tap", at: { locate: [100, 200] } },
  },
  {
    source: `${DESKTOP_PARSER}: Chinese colon in the middle of the text`,
    raw: "\n\nAction：click(start_box='<bbox>191 21 191 21</bbox>')",
    expect: { action: "Tap", at: { locate: [191, 21] } },
  },
  {
    source: `${DESKTOP_PARSER}: empty action input`,
    raw: "Thought: Empty action\nAction:",
    expect: { unusable: /has no action/ },
  },
  {
    source: `${DESKTOP_PARSER}: literal parentheses in content`,
    raw: "Thought: Type literal parentheses\nAction: type(content='()()')",
    expect: { action: "Input", param: { value: "()()", mode: "typeOnly" } },
  },
  {
    source: `${DESKTOP_PARSER}: the final explicit Action marker`,
    raw:
      "Thought: Open Start menu first.\nAction: hotkey(key='ctrl esc')Thought: Type Cursor in search.\nAction: type(content='Cursor\\n')Thought: Wait for window.\nAction: wait()Thought: Finish if opened.\nAction: finished()",
    expect: { finished: undefined, thought: "Finish if opened." },
  },
  {
    source: `${DESKTOP_PARSER}: Action keyword inside the thought`,
    raw:
      `Thought: I should avoid writing "Action: wait()" in reasoning.\nAction: click(start_box='[100,200]')`,
    expect: { action: "Tap", at: { locate: [100, 200] } },
  },
  {
    source: `${DESKTOP_PARSER}: box tokens around two points (absolute pixels there)`,
    raw:
      "Thought: Click open\nAction: click(start_box='<|box_start|>(1290,718)<|box_end|>(1350,747)<|box_end|>')",
    expect: { unusable: /outside the 0-1000 range/ },
  },
  {
    source: `${PY_PARSER}: box tokens`,
    raw: "Thought: test\nAction: click(start_box='<|box_start|>(112,224)<|box_end|>')",
    expect: { action: "Tap", at: { locate: [112, 224] } },
  },
  {
    source: `${PY_PARSER}: compact Doubao-Seed action (not this dialect)`,
    raw:
      "<think_never_used_51bce0c785ca2f68081bfa7d91973934>Click the orientation menu.</think_never_used_51bce0c785ca2f68081bfa7d91973934>click>point>point>112 56",
    expect: { unusable: /has no action/ },
  },
  {
    source: `${MOBILE_PROMPT}: long_press`,
    raw: "Thought: Hold the icon.\nAction: long_press(point='<point>500 500</point>')",
    expect: { action: "LongPress", at: { locate: [500, 500] } },
  },
  {
    source: `${MOBILE_PROMPT}: scroll`,
    raw: "Thought: See more.\nAction: scroll(point='<point>500 600</point>', direction='down')",
    expect: { action: "Scroll", at: { locate: [500, 600] }, param: { direction: "down" } },
  },
  {
    source: `${MOBILE_PROMPT}: drag with start_point and end_point`,
    raw:
      "Thought: Move it.\nAction: drag(start_point='<point>458 328</point>', end_point='<point>350 309</point>')",
    expect: { action: "DragAndDrop", at: { from: [458, 328], to: [350, 309] } },
  },
  {
    source: `${MOBILE_PROMPT}: open_app`,
    raw: "Thought: Open Settings.\nAction: open_app(app_name='Settings')",
    expect: { action: { role: "launch" }, param: { uri: "Settings" } },
  },
  {
    source: `${MOBILE_PROMPT}: press_home`,
    raw: "Thought: Home.\nAction: press_home()",
    expect: { action: { role: "home" }, param: {} },
  },
  {
    source: `${MOBILE_PROMPT}: press_back`,
    raw: "Thought: Back.\nAction: press_back()",
    expect: { action: { role: "back" }, param: {} },
  },
  {
    source: `${MOBILE_PROMPT}: type with \\n to submit`,
    raw: "Thought: Search.\nAction: type(content='weather\\n')",
    expect: {
      action: "Input",
      param: { value: "weather", mode: "typeOnly" },
      then: "KeyboardPress",
    },
  },
  {
    source: `${MOBILE_PROMPT}: finished with escaped quotes`,
    raw: "Thought: Done.\nAction: finished(content='It\\'s \"42\"')",
    expect: { finished: `It's "42"` },
  },
  {
    source: "UI-TARS README, COMPUTER_USE: hotkey, right_single, left_double",
    raw: "Thought: Copy.\nAction: hotkey(key='ctrl c')",
    expect: { action: "KeyboardPress", param: { keyName: "Control+C" } },
  },
  {
    source: "UI-TARS README, COMPUTER_USE: right_single",
    raw: "Thought: Menu.\nAction: right_single(point='<point>300 300</point>')",
    expect: { action: "RightClick", at: { locate: [300, 300] } },
  },
  {
    source: "UI-TARS README, COMPUTER_USE: left_double",
    raw: "Thought: Open.\nAction: left_double(point='<point>300 300</point>')",
    expect: { action: "DoubleClick", at: { locate: [300, 300] } },
  },
  {
    source: "UI-TARS README, COMPUTER_USE: call_user",
    raw: "Thought: I need the password.\nAction: call_user()",
    expect: { userNeeded: true },
  },
];

test("UI-TARS answer shapes on every platform's action space", { timeout: 60_000 }, async () => {
  for (const s of await spaces()) {
    for (const shape of TARS_SHAPES) run("vlm-ui-tars", shape, s);
  }
});

// ---- AutoGLM --------------------------------------------------------------------------------------

/** zai-org/Open-AutoGLM phone_agent/actions/handler.py and phone_agent/model/client.py */
const GLM_HANDLER = "Open-AutoGLM handler.py";
/** web-infra-dev/midscene packages/core/tests/unit-test/auto-glm.test.ts */
const GLM_PEER = "midscene auto-glm.test.ts";

const GLM_SHAPES: Shape[] = [
  {
    source: `${GLM_PEER}: think and do without tags`,
    raw: 'I see a button. do(action="Tap", element=[100,200])',
    expect: { action: "Tap", at: { locate: [100, 200] }, thought: "I see a button." },
  },
  {
    source: `${GLM_PEER}: think and finish without tags`,
    raw: 'Task completed. finish(message="Done successfully")',
    expect: { finished: "Done successfully", thought: "Task completed." },
  },
  {
    source: `${GLM_PEER}: answer tags`,
    raw: '<think>Click the button</think>\n<answer>do(action="Tap", element=[50,100])</answer>',
    expect: { action: "Tap", at: { locate: [50, 100] }, thought: "Click the button" },
  },
  {
    source: `${GLM_PEER}: Double Tap`,
    raw: 'do(action="Double Tap", element=[300,400])',
    expect: { action: "DoubleClick", at: { locate: [300, 400] } },
  },
  {
    source: `${GLM_PEER}: Type`,
    raw: 'do(action="Type", text="Hello")',
    expect: { action: "Input", param: { value: "Hello", mode: "replace" } },
  },
  {
    source: `${GLM_HANDLER}: Type_Name`,
    raw: 'do(action="Type_Name", text="Tom Li")',
    expect: { action: "Input", param: { value: "Tom Li", mode: "replace" } },
  },
  {
    source: `${GLM_PEER}: Swipe`,
    raw: 'do(action="Swipe", start=[800,500], end=[200,500])',
    expect: { action: "Swipe", at: { start: [800, 500], end: [200, 500] } },
  },
  {
    source: `${GLM_PEER}: Long Press`,
    raw: 'do(action="Long Press", element=[150,250])',
    expect: { action: "LongPress", at: { locate: [150, 250] } },
  },
  {
    source: `${GLM_PEER}: Launch`,
    raw: 'do(action="Launch", app="Camera")',
    expect: { action: { role: "launch" }, param: { uri: "Camera" } },
  },
  {
    source: `${GLM_PEER}: Back`,
    raw: 'do(action="Back")',
    expect: { action: { role: "back" }, param: {} },
  },
  {
    source: `${GLM_PEER}: Home`,
    raw: 'do(action="Home")',
    expect: { action: { role: "home" }, param: {} },
  },
  {
    source: `${GLM_PEER}: Wait with a bare number of seconds`,
    raw: 'do(action="Wait", duration="3")',
    expect: { wait: 3000 },
  },
  {
    source: `${GLM_HANDLER}: Wait "2 seconds"`,
    raw: '<answer>do(action="Wait", duration="2 seconds")</answer>',
    expect: { wait: 2000 },
  },
  {
    source: `${GLM_PEER}: Finish`,
    raw: 'finish(message="Task completed")',
    expect: { finished: "Task completed" },
  },
  {
    source: `${GLM_PEER}: finish with unescaped quotes in the message`,
    raw: 'finish(message="Finished! Now There is a contact whose name is "Tom" in the list.")',
    expect: { finished: 'Finished! Now There is a contact whose name is "Tom" in the list.' },
  },
  {
    source: `${GLM_PEER}: Interact (the user must choose)`,
    raw: 'do(action="Interact")',
    expect: { userNeeded: true },
  },
  {
    source: `${GLM_PEER}: Take_over`,
    raw: 'do(action="Take_over", message="Please handle this manually")',
    expect: { userNeeded: true },
  },
  {
    source: `${GLM_PEER}: Note (nothing on the screen, as the reference handler)`,
    raw: 'do(action="Note", message="Remember this step")',
    expect: { nothing: true },
  },
  {
    source: `${GLM_PEER}: Call_API (nothing on the screen, as the reference handler)`,
    raw: 'do(action="Call_API", instruction="Get weather data")',
    expect: { nothing: true },
  },
  {
    source: `${GLM_PEER}: unknown action type`,
    raw: 'do(action="UnknownAction")',
    expect: { unusable: /"UnknownAction" is unknown/ },
  },
  {
    source: `${GLM_PEER}: malformed do() call`,
    raw: "do(invalid syntax)",
    expect: { unusable: /is unknown/ },
  },
  {
    source: `${GLM_HANDLER}: two calls (the reference cannot parse them)`,
    raw: '<answer>do(action="Tap", element=[1,2])\ndo(action="Back")</answer>',
    expect: { unusable: /more than one action/ },
  },
];

test("AutoGLM answer shapes on every platform's action space", { timeout: 60_000 }, async () => {
  for (const s of await spaces()) {
    for (const shape of GLM_SHAPES) run("auto-glm", shape, s);
  }
});

// ---- the JSON families' boxes -------------------------------------------------------------------

const rectOf = ([x1, y1, x2, y2]: number[]) => ({
  left: x1,
  top: y1,
  width: x2 - x1,
  height: y2 - y1,
});

interface BoxShape {
  source: string;
  family: string;
  raw: unknown;
  /** [x1, y1, x2, y2] in pixels of the 1001 x 1001 image, or a point's center, or unusable. */
  expect: number[] | { point: [number, number] } | "unusable";
}

const BOX_SHAPES: BoxShape[] = [
  // Gemini API docs, "Object detection": box_2d is [ymin, xmin, ymax, xmax] normalized to 0-1000.
  {
    source: "Gemini docs",
    family: "gemini",
    raw: [200, 100, 400, 300],
    expect: [100, 200, 300, 400],
  },
  // Qwen2.5-VL cookbook, spatial understanding: bbox_2d in absolute pixels.
  {
    source: "Qwen2.5-VL cookbook",
    family: "qwen2.5-vl",
    raw: [100, 200, 300, 400],
    expect: [100, 200, 300, 400],
  },
  // Qwen3-VL cookbook: bbox_2d relative 0-1000.
  {
    source: "Qwen3-VL cookbook",
    family: "qwen3-vl",
    raw: "[100, 200, 300, 400]",
    expect: [100, 200, 300, 400],
  },
  // GLM-V: answers boxed in <|begin_of_box|> ... <|end_of_box|>, 0-1000.
  {
    source: "GLM-V README",
    family: "glm-v",
    raw: "<|begin_of_box|>[100,200,300,400]<|end_of_box|>",
    expect: [100, 200, 300, 400],
  },
  // Doubao vision grounding (Volcengine docs): <bbox>x1 y1 x2 y2</bbox> and <point>x y</point>.
  {
    source: "Doubao grounding docs",
    family: "doubao-vision",
    raw: "<bbox>100 200 300 400</bbox>",
    expect: [100, 200, 300, 400],
  },
  {
    source: "Doubao GUI docs",
    family: "doubao-seed",
    raw: "<point>500 600</point>",
    expect: { point: [500, 600] },
  },
  // midscene Doubao adapter tests: the token form, and numbers outside the box.
  {
    source: "midscene Doubao tests",
    family: "doubao-vision",
    raw: "bbox_859_773_923_808",
    expect: [859, 773, 923, 808],
  },
  {
    source: "midscene Doubao tests",
    family: "doubao-seed",
    raw: "error: 500, 503; bbox_100_200_300_400",
    expect: [100, 200, 300, 400],
  },
  {
    source: "the issue's Doubao answer",
    family: "doubao-vision",
    raw: "error: 500, 503",
    expect: "unusable",
  },
  {
    source: "midscene adapt_bbox.test.ts",
    family: "doubao-vision",
    raw: [100, 200, 300, 200, 300, 400, 100, 400],
    expect: [100, 200, 300, 400],
  },
  // docs/models.md: Kimi answers a point as fractions; GPT-5 boxes in absolute pixels.
  {
    source: "docs/models.md kimi",
    family: "kimi",
    raw: [0.5, 0.25],
    expect: { point: [500, 250] },
  },
  {
    source: "docs/models.md gpt-5",
    family: "gpt-5",
    raw: [100, 200, 300, 400],
    expect: [100, 200, 300, 400],
  },
  {
    source: "docs/models.md gpt-5",
    family: "gpt-5",
    raw: "x1=100, y1=200, x2=300, y2=400",
    expect: [100, 200, 300, 400],
  },
  { source: "three numbers", family: "qwen3-vl", raw: "100 200 300", expect: "unusable" },
];

test(
  "the JSON families' box shapes read as the vendors document them; numbers outside the box are unusable",
  {
    timeout: 10_000,
  },
  () => {
    for (const shape of BOX_SHAPES) {
      const what = `${shape.family} ${JSON.stringify(shape.raw)} (${shape.source})`;
      const read = () => getModelFamily(shape.family).toPixelRect(shape.raw, IMAGE);
      if (shape.expect === "unusable") {
        assert.throws(read, ModelResponseError, what);
      } else if (Array.isArray(shape.expect)) {
        assert.deepEqual(read(), rectOf(shape.expect), what);
      } else {
        const r = read();
        assert.deepEqual([r.left + r.width / 2, r.top + r.height / 2], shape.expect.point, what);
      }
    }
  },
);

// ---- whole answers end to end: the family's own box key, fenced arrays, boxed answers ----------

test(
  "locate answers in the vendors' own shapes tap the element: Gemini box_2d, Qwen bbox_2d arrays, GLM-V boxed JSON",
  {
    timeout: 60_000,
  },
  async () => {
    const page = await env.open("actions.html");
    const b = (await page.locator("#click-button").boundingBox())!;
    const n = (v: number, size: number) => Math.round(v * 1000 / (size - 1));
    const [x1, y1, x2, y2] = [
      n(b.x, 1280),
      n(b.y, 800),
      n(b.x + b.width, 1280),
      n(b.y + b.height, 800),
    ];
    const answers: [string, string][] = [
      // Gemini docs, "Object detection": a JSON list of {box_2d, label}, y first.
      [
        "gemini",
        "```json\n" + JSON.stringify([{ box_2d: [y1, x1, y2, x2], label: "click button" }]) +
        "\n```",
      ],
      // Qwen2.5-VL cookbook: a fenced JSON list of {bbox_2d, label} in pixels of the image.
      [
        "qwen2.5-vl",
        "```json\n" +
        JSON.stringify([{
          bbox_2d: [b.x, b.y, b.x + b.width, b.y + b.height],
          label: "click button",
        }]) +
        "\n```",
      ],
      // Qwen3-VL cookbook: bbox_2d normalized to 0-1000.
      ["qwen3-vl", JSON.stringify({ bbox_2d: [x1, y1, x2, y2], label: "click button" })],
      // GLM-V: the answer boxed in <|begin_of_box|> ... <|end_of_box|>.
      ["glm-v", `<|begin_of_box|>${JSON.stringify({ bbox_2d: [x1, y1, x2, y2] })}<|end_of_box|>`],
      // Doubao: a <bbox> string under bbox, with prose around it.
      [
        "doubao-vision",
        JSON.stringify({ bbox: `The button: <bbox>${x1} ${y1} ${x2} ${y2}</bbox>` }),
      ],
    ];
    let clicks = 0;
    for (const [family, answer] of answers) {
      const { agent, model } = await env.agent(page, {}, {
        generateReport: false,
        model: { family: family as "gemini", answerOverride: () => answer },
      });
      await agent.aiTap("the click button");
      clicks++;
      assert.equal(
        await page.evaluate(() =>
          (globalThis as unknown as { appState: { clicks: number } }).appState.clicks
        ),
        clicks,
        family,
      );
      assert.equal(model.calls.length, 1, `${family}: no retry`);
    }
  },
);
