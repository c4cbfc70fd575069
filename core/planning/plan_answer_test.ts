import { test } from "../../tests/helpers/test.ts";
import assert from "node:assert/strict";
import { fitPlannedAction, readPlannedAction } from "./plan_answer.ts";
import { getModelFamily } from "../model/families/mod.ts";
import { ModelResponseError } from "../errors.ts";
import {
  inputAction,
  keyboardPressAction,
  scrollAction,
  swipeAction,
  tapAction,
} from "../device/actions.ts";
import type { DeviceAction } from "../device/types.ts";

const run = () => Promise.resolve();
/** The shared actions, as every platform builds them (core/device/actions.ts). */
const ACTIONS: DeviceAction[] = [
  tapAction(run),
  inputAction(run),
  keyboardPressAction(run),
  scrollAction(run, { unit: "pixels" }),
  swipeAction(run, { unit: "pixels", defaultDurationMs: 300 }),
];
const IMAGE = { width: 1001, height: 1001, contentWidth: 1001, contentHeight: 1001 };
const options = { family: getModelFamily(undefined), image: IMAGE, useBoxes: true };

function fit(json: Record<string, unknown>) {
  const planned = readPlannedAction(json, JSON.stringify(json))!;
  return fitPlannedAction(ACTIONS, planned, options, JSON.stringify(json));
}

test(
  "blanks around keys, the action type and enum values are trimmed; an Input value is kept as written",
  {
    timeout: 5000,
  },
  () => {
    const tap = fit({
      action: {
        " type ": " Tap",
        "param ": { " locate": { "prompt ": "OK", " bbox": [10, 20, 30, 40] } },
      },
    });
    assert.equal(tap.action.name, "Tap");
    assert.deepEqual(tap.rects.locate, { left: 10, top: 20, width: 20, height: 20 });
    assert.deepEqual(tap.param.locate, { prompt: "OK", bbox: [10, 20, 30, 40] });
    const input = fit({
      action: { type: "Input", param: { value: "  two  spaces ", mode: " typeOnly " } },
    });
    assert.deepEqual(input.param, { value: "  two  spaces ", mode: "typeOnly" });
    const scroll = fit({
      action: { type: "Scroll", param: { direction: "down\n", distance: "300" } },
    });
    assert.deepEqual(scroll.param, { direction: "down", distance: 300 });
    assert.deepEqual(fit({ action: { type: "Input", param: { value: 42 } } }).param, {
      value: "42",
    });
  },
);

test(
  "an action the device lacks, a missing or ill-typed parameter, a box that is not a box: ModelResponseError",
  {
    timeout: 5000,
  },
  () => {
    const bad: [Record<string, unknown>, RegExp][] = [
      [{ action: { type: "Launch", param: { uri: "x" } } }, /no action named "Launch".*Tap, Input/],
      [{ action: { type: "tap", param: {} } }, /no action named "tap"/],
      [{ action: { type: "Tap", param: {} } }, /Tap needs the parameter "locate"/],
      [
        { action: { type: "Tap", param: { locate: {} } } },
        /Tap\.locate has neither a prompt nor a bbox/,
      ],
      [{ action: { type: "Tap", param: { locate: 5 } } }, /Tap\.locate must be/],
      [
        { action: { type: "Scroll", param: { direction: "sideways" } } },
        /Scroll\.direction must be one of down, up, left, right/,
      ],
      [
        { action: { type: "Scroll", param: { distance: "far" } } },
        /Scroll\.distance must be a number/,
      ],
      [{ action: { type: "Input", param: { value: ["a"] } } }, /Input\.value must be a string/],
      [
        { action: { type: "Tap", param: { locate: { prompt: "x", bbox: "error: 500, 503" } } } },
        /neither a point nor a box/,
      ],
      [{ action: { type: " ", param: {} } }, /"action" must be/],
      [{ action: "Tap" }, /"action" must be/],
    ];
    for (const [json, why] of bad) {
      assert.throws(() => fit(json), (e: unknown) => {
        assert.ok(e instanceof ModelResponseError, `${JSON.stringify(json)}: ${e}`);
        assert.match(e.message, why);
        return true;
      });
    }
    // deepThink plans give prompts only: a box alone is not enough, a prompt is.
    const planned = readPlannedAction({
      action: { type: "Tap", param: { locate: { bbox: [1, 2, 3, 4] } } },
    }, "")!;
    assert.throws(
      () => fitPlannedAction(ACTIONS, planned, { ...options, useBoxes: false }, ""),
      /Tap\.locate has no prompt/,
    );
    const prompted = readPlannedAction({
      action: { type: "Tap", param: { locate: " the OK button " } },
    }, "")!;
    const f = fitPlannedAction(ACTIONS, prompted, { ...options, useBoxes: false }, "");
    assert.deepEqual([f.param.locate, f.rects], [{ prompt: "the OK button" }, {}]);
  },
);

test(
  "a planned locate may give the family's own box key (Qwen bbox_2d, Gemini box_2d); bbox wins",
  {
    timeout: 5000,
  },
  () => {
    const planned = (locate: Record<string, unknown>) =>
      readPlannedAction({ action: { type: "Tap", param: { locate } } }, "")!;
    const qwen = { ...options, family: getModelFamily("qwen3-vl") };
    const f = fitPlannedAction(
      ACTIONS,
      planned({ prompt: "OK", bbox_2d: [10, 20, 30, 40] }),
      qwen,
      "",
    );
    assert.deepEqual(f.rects.locate, { left: 10, top: 20, width: 20, height: 20 });
    const both = fitPlannedAction(
      ACTIONS,
      planned({ prompt: "OK", bbox: [50, 60, 70, 80], bbox_2d: [10, 20, 30, 40] }),
      qwen,
      "",
    );
    assert.deepEqual(both.rects.locate, { left: 50, top: 60, width: 20, height: 20 });
    const gemini = { ...options, family: getModelFamily("gemini") };
    const g = fitPlannedAction(
      ACTIONS,
      planned({ prompt: "OK", box_2d: [20, 10, 40, 30] }),
      gemini,
      "",
    );
    assert.deepEqual(g.rects.locate, { left: 10, top: 20, width: 20, height: 20 });
    // The default family has no other key: a prompt alone is located by a separate call.
    const d = fitPlannedAction(
      ACTIONS,
      planned({ prompt: "OK", bbox_2d: [10, 20, 30, 40] }),
      options,
      "",
    );
    assert.deepEqual(d.rects, {});
  },
);
