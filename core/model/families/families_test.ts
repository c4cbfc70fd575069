import { test } from "../../../tests/helpers/test.ts";
import assert from "node:assert/strict";
import { getModelFamily, MODEL_FAMILY_NAMES } from "./mod.ts";
import { ModelConfigError, ModelResponseError } from "../../errors.ts";

const img = (w: number, h: number, cw = w, ch = h) => ({
  width: w,
  height: h,
  contentWidth: cw,
  contentHeight: ch,
});

test("default family maps 0-1000 boxes with round(v * (size - 1) / 1000)", () => {
  const r = getModelFamily(undefined).toPixelRect([100, 200, 300, 400], img(1001, 501));
  assert.deepEqual(r, { left: 100, top: 100, width: 200, height: 100 });
});

test("qwen3-vl reads loosely formatted boxes and points", () => {
  const f = getModelFamily("qwen3-vl");
  assert.deepEqual(
    f.toPixelRect("100 200 300 400", img(1001, 501)),
    f.toPixelRect([[100, 200, 300, 400]], img(1001, 501)),
  );
  // A point becomes a +-1% box around it; its center stays on the point.
  const p = f.toPixelRect([500, 500], img(1001, 1001));
  assert.equal(p.left + p.width / 2, 500);
  assert.equal(p.top + p.height / 2, 500);
  assert.equal(p.width, 20);
});

test("gemini boxes are y first", () => {
  const g = getModelFamily("gemini").toPixelRect([200, 100, 400, 300], img(1001, 501));
  assert.deepEqual(g, { left: 100, top: 100, width: 200, height: 100 });
});

test("qwen2.5-vl boxes are absolute pixels clamped back from the padding", () => {
  const f = getModelFamily("qwen2.5-vl");
  assert.equal(f.padToMultipleOf, 28);
  const r = f.toPixelRect([10, 20, 110, 70], img(1288, 812, 1280, 800));
  assert.deepEqual(r, { left: 10, top: 20, width: 100, height: 50 });
  const clamped = f.toPixelRect([1200, 700, 1285, 810], img(1288, 812, 1280, 800));
  assert.deepEqual(clamped, { left: 1200, top: 700, width: 79, height: 99 });
});

test("reversed or out-of-range boxes are errors naming family, value and image size", () => {
  const f = getModelFamily("qwen3-vl");
  assert.throws(() => f.toPixelRect([300, 200, 100, 400], img(1000, 500)), (e: unknown) => {
    assert.ok(e instanceof ModelResponseError);
    assert.match(e.message, /qwen3-vl.*\[300,200,100,400\].*reversed.*1000x500/);
    return true;
  });
  assert.throws(() => f.toPixelRect([0, 0, 1200, 10], img(1000, 500)), /outside the 0-1000 range/);
  assert.throws(
    () => getModelFamily("qwen2.5-vl").toPixelRect([0, 0, 2000, 10], img(1288, 812, 1280, 800)),
    /outside the image.*1288x812/,
  );
  assert.throws(() => f.toPixelRect("no numbers", img(1000, 500)), /neither a point nor a box/);
});

// ---- the families of MODEL_FAMILIES.md that speak the SDK's JSON protocol -------------------------

const JSON_FAMILIES = [
  "qwen2.5-vl",
  "qwen3-vl",
  "qwen3",
  "qwen3.5",
  "qwen3.6",
  "doubao-vision",
  "doubao-seed",
  "gemini",
  "glm-v",
  "xiaomi-mimo",
  "gpt-5",
  "kimi",
  "kimi3",
];

/** Asserts that `run` throws a ModelResponseError naming the family, the raw value and the image. */
function assertBad(family: string, raw: unknown, size: [number, number], why: RegExp) {
  assert.throws(() => getModelFamily(family).toPixelRect(raw, img(...size)), (e: unknown) => {
    assert.ok(e instanceof ModelResponseError, `${family} ${JSON.stringify(raw)}: ${e}`);
    assert.ok(e.message.includes(`'${family}'`), `no family in: ${e.message}`);
    assert.ok(e.message.includes(JSON.stringify(raw)), `no raw value in: ${e.message}`);
    assert.ok(e.message.includes(`${size[0]}x${size[1]}`), `no image size in: ${e.message}`);
    assert.match(e.message, why);
    return true;
  });
}

test("every JSON-protocol family is accepted; an unknown value lists them all", () => {
  for (const name of JSON_FAMILIES) {
    assert.ok(MODEL_FAMILY_NAMES.includes(name), `${name} is not accepted`);
    assert.equal(getModelFamily(name).name, name);
    assert.equal(getModelFamily(` ${name.toUpperCase()} `).name, name);
    assert.equal(getModelFamily(name).replanningCycleLimit, 20);
  }
  assert.throws(() => getModelFamily("qwen4", "SDK_PLANNING_MODEL_FAMILY"), (e: unknown) => {
    assert.ok(e instanceof ModelConfigError);
    assert.match(e.message, /"qwen4" in SDK_PLANNING_MODEL_FAMILY/);
    for (const name of MODEL_FAMILY_NAMES) assert.ok(e.message.includes(name), name);
    return true;
  });
});

// On a 1001 x 501 image, 0-1000 maps x to v and y to v / 2 (round(v * 1000 / 1000), round(v * 500 / 1000)).
const BOX_100_200_300_400 = { left: 100, top: 100, width: 200, height: 100 };

test("qwen3, qwen3.5, qwen3.6, glm-v and xiaomi-mimo read 0-1000 x-first boxes", () => {
  for (const name of ["qwen3", "qwen3.5", "qwen3.6", "glm-v", "xiaomi-mimo"]) {
    const f = getModelFamily(name);
    for (
      const raw of [
        [100, 200, 300, 400],
        [[100, 200, 300, 400]],
        "[[100,200,300,400]]",
        "<bbox_2d>100 200 300 400</bbox_2d>",
        "x1=100, y1=200, x2=300, y2=400",
      ]
    ) {
      assert.deepEqual(
        f.toPixelRect(raw, img(1001, 501)),
        BOX_100_200_300_400,
        JSON.stringify(raw),
      );
    }
    // A point: +-10 on the 0-1000 grid, x 490-510 -> 490-510, y 590-610 -> 295-305.
    assert.deepEqual(f.toPixelRect([500, 600], img(1001, 501)), {
      left: 490,
      top: 295,
      width: 20,
      height: 10,
    });
    assertBad(name, [300, 200, 100, 400], [1000, 500], /reversed/);
    assertBad(name, [0, 0, 1001, 10], [1000, 500], /outside the 0-1000 range/);
    assertBad(name, [-1, 0, 100, 10], [1000, 500], /outside the 0-1000 range/);
    assertBad(name, "no numbers", [1000, 500], /neither a point nor a box/);
  }
});

test("doubao-vision and doubao-seed read loosely formatted 0-1000 boxes and points", () => {
  // "336 163 717 200" on 1001 x 501: x 336-717; y round(81.5) = 82 to 100.
  const box = { left: 336, top: 82, width: 381, height: 18 };
  // <point>500 600</point>: x 490-510, y 590-610 -> 295-305.
  const point = { left: 490, top: 295, width: 20, height: 10 };
  for (const name of ["doubao-vision", "doubao-seed"]) {
    const f = getModelFamily(name);
    for (
      const raw of [
        "336 163 717 200",
        "[336, 163, 717, 200]",
        "(336,163),(717,200)",
        "<bbox>336 163 717 200</bbox>",
        "The button is at <bbox>336 163 717 200</bbox>, 1 of 2 buttons.",
        [[336, 163], [717, 200]],
        [["336", "163", "717", "200"]],
        [336, 163, 717, 200],
      ]
    ) {
      assert.deepEqual(f.toPixelRect(raw, img(1001, 501)), box, `${name} ${JSON.stringify(raw)}`);
    }
    for (
      const raw of ["<point>500 600</point>", "500 600", [500, 600], [[500, 600]], "(500,600)"]
    ) {
      assert.deepEqual(f.toPixelRect(raw, img(1001, 501)), point, `${name} ${JSON.stringify(raw)}`);
    }
    assertBad(name, "717 163 336 200", [1280, 800], /reversed/);
    assertBad(name, "<bbox>336 163 1717 200</bbox>", [1280, 800], /outside the 0-1000 range/);
    assertBad(name, "<bbox></bbox>", [1280, 800], /neither a point nor a box/);
    assertBad(name, "336 163 717", [1280, 800], /neither a point nor a box/);
    assertBad(name, [], [1280, 800], /neither a point nor a box/);
  }
});

test("gpt-5 boxes are absolute pixels, only clamped, and the image is not padded", () => {
  const f = getModelFamily("gpt-5");
  assert.equal(f.padToMultipleOf, undefined);
  assert.deepEqual(f.toPixelRect([10, 20, 110, 70], img(1280, 800)), {
    left: 10,
    top: 20,
    width: 100,
    height: 50,
  });
  // Fractions round; the far edge itself (1280, 800) is clamped to the last pixel (1279, 799).
  assert.deepEqual(f.toPixelRect([1200.4, 700.6, 1280, 800], img(1280, 800)), {
    left: 1200,
    top: 701,
    width: 79,
    height: 98,
  });
  // A point: +-10 px.
  assert.deepEqual(f.toPixelRect([640, 400], img(1280, 800)), {
    left: 630,
    top: 390,
    width: 20,
    height: 20,
  });
  assert.deepEqual(
    f.toPixelRect("640 400", img(1280, 800)),
    f.toPixelRect([640, 400], img(1280, 800)),
  );
  assertBad("gpt-5", [0, 0, 1400, 10], [1280, 800], /outside the image/);
  assertBad("gpt-5", [100, 50, 20, 60], [1280, 800], /reversed/);
  assertBad("gpt-5", [-5, 10], [1280, 800], /outside the image/);
  assertBad("gpt-5", [640, 900], [1280, 800], /outside the image/);
  assertBad("gpt-5", { x: 1, y: 2 }, [1280, 800], /neither a point nor a box/);
});

test("kimi and kimi3 read points as fractions when both are <= 1, else as pixels", () => {
  for (const name of ["kimi", "kimi3"]) {
    const f = getModelFamily(name);
    // [0.5, 0.5] on 1001 x 501: +-1% -> 0-1000 box 490-510 -> x 490-510, y 245-255.
    assert.deepEqual(f.toPixelRect([0.5, 0.5], img(1001, 501)), {
      left: 490,
      top: 245,
      width: 20,
      height: 10,
    });
    // [0.25, 0.75]: 240-260 -> x 240-260; 740-760 -> y 370-380.
    assert.deepEqual(f.toPixelRect("(0.25, 0.75)", img(1001, 501)), {
      left: 240,
      top: 370,
      width: 20,
      height: 10,
    });
    // [1, 1] is the bottom-right corner, not a pixel: 990-1000 -> x 990-1000, y 495-500.
    assert.deepEqual(f.toPixelRect([1, 1], img(1001, 501)), {
      left: 990,
      top: 495,
      width: 10,
      height: 5,
    });
    // Absolute pixels: +-10 px around the point.
    assert.deepEqual(f.toPixelRect([640, 400], img(1280, 800)), {
      left: 630,
      top: 390,
      width: 20,
      height: 20,
    });
    // Not both <= 1: pixels. x 0.5 -> 0 to round(10.5) = 11, y 290-310.
    assert.deepEqual(f.toPixelRect([0.5, 300], img(1280, 800)), {
      left: 0,
      top: 290,
      width: 11,
      height: 20,
    });
    // Four fractions are a box: 100-300 -> x 100-300, 200-400 -> y 100-200.
    assert.deepEqual(f.toPixelRect([0.1, 0.2, 0.3, 0.4], img(1001, 501)), BOX_100_200_300_400);
    // The click target, the box's center, is the point.
    const r = f.toPixelRect([0.5, 0.5], img(1001, 1001));
    assert.deepEqual([r.left + r.width / 2, r.top + r.height / 2], [500, 500]);
    assertBad(name, [-0.2, 0.5], [1280, 800], /outside the 0-1 range/);
    assertBad(name, [5000, 300], [1280, 800], /outside the image/);
    assertBad(name, [0.7, 0.4, 0.3, 0.6], [1280, 800], /reversed/);
    assertBad(name, "nowhere", [1280, 800], /neither a point nor a box/);
    assertBad(name, [1, 2, 3], [1280, 800], /neither a point nor a box/);
  }
});

test("gemini and qwen2.5-vl errors for no numbers name the image size too", () => {
  assertBad("gemini", null, [1000, 500], /neither a point nor a box/);
  assertBad("qwen2.5-vl", "none", [1288, 812], /neither a point nor a box/);
});

test("reasoningParams give each family's own reasoning control", () => {
  for (const name of ["qwen3-vl", "qwen3", "qwen3.5", "qwen3.6"]) {
    const f = getModelFamily(name);
    assert.deepEqual(f.reasoningParams?.(true), { enable_thinking: true }, name);
    assert.deepEqual(f.reasoningParams?.(false), { enable_thinking: false }, name);
  }
  for (const name of ["doubao-vision", "doubao-seed", "glm-v"]) {
    const f = getModelFamily(name);
    assert.deepEqual(f.reasoningParams?.(true), { thinking: { type: "enabled" } }, name);
    assert.deepEqual(f.reasoningParams?.(false), { thinking: { type: "disabled" } }, name);
  }
  // Gemini's OpenAI-compatible endpoint reads its own config from an `extra_body` field of the
  // request body (budget -1: dynamic thinking; 0: none).
  const gemini = getModelFamily("gemini");
  assert.deepEqual(gemini.reasoningParams?.(true), {
    extra_body: {
      google: { thinking_config: { thinking_budget: -1, include_thoughts: true } },
    },
  });
  assert.deepEqual(gemini.reasoningParams?.(false), {
    extra_body: {
      google: { thinking_config: { thinking_budget: 0, include_thoughts: false } },
    },
  });
  const gpt5 = getModelFamily("gpt-5");
  assert.deepEqual(gpt5.reasoningParams?.(true), { reasoning_effort: "medium" });
  assert.deepEqual(gpt5.reasoningParams?.(false), { reasoning_effort: "minimal" });
  // No control named: left out.
  for (const name of [undefined, "qwen2.5-vl", "xiaomi-mimo", "kimi", "kimi3"]) {
    assert.equal(getModelFamily(name).reasoningParams, undefined, String(name));
  }
});

// ---- box values read strictly (the shapes the vendors' and the peer SDK's parsers are tested on) --

// On 1001 x 1001 the 0-1000 grid maps to the same pixels: [x1, y1, x2, y2] -> left x1, top y1.
const SQUARE = img(1001, 1001);
const rectOf = ([x1, y1, x2, y2]: number[]) => ({
  left: x1,
  top: y1,
  width: x2 - x1,
  height: y2 - y1,
});

test(
  "Doubao box values: the bbox_x1_y1_x2_y2 token, 8-number quadrilaterals as bounds, labels and split strings",
  {
    timeout: 5000,
  },
  () => {
    // web-infra-dev/midscene packages/core/tests/unit-test (doubao model adapter test:
    // parseDoubaoRawLocateValue cases; adapt_bbox.test.ts "adaptDoubaoBbox with 8 points").
    const cases: [unknown, number[]][] = [
      ["bbox_859_773_923_808", [859, 773, 923, 808]],
      [["bbox_859_773_923_808"], [859, 773, 923, 808]],
      ["error: 500, 503; bbox_100_200_300_400", [100, 200, 300, 400]],
      [[100, 200, 300, 200, 300, 400, 100, 400], [100, 200, 300, 400]],
      ["100 200 300 200 300 400 100 400", [100, 200, 300, 400]],
      [[[100, 200], [300, 200], [300, 400], [100, 400]], [100, 200, 300, 400]],
      [["bbox", [782, 541, 815, 559]], [782, 541, 815, 559]],
      [["bbox", "782, 541, 815, 559"], [782, 541, 815, 559]],
      [["bbox_2d", [650, 700, 710, 730]], [650, 700, 710, 730]],
      [[653, "277; 664 291;"], [653, 277, 664, 291]],
      [[653, "277, 664, 291,"], [653, 277, 664, 291]],
      [["100", "200", "300", "400"], [100, 200, 300, 400]],
      ["100 200 300 400 ", [100, 200, 300, 400]],
      ["336,163,717,200", [336, 163, 717, 200]],
      [["123 100", "789 222"], [123, 100, 789, 222]],
      [["123,100", "789, 222"], [123, 100, 789, 222]],
      [[[100, 200, 300, 400], [500, 600, 700, 800]], [100, 200, 300, 400]],
    ];
    for (const name of ["doubao-vision", "doubao-seed"]) {
      const f = getModelFamily(name);
      for (const [raw, box] of cases) {
        assert.deepEqual(f.toPixelRect(raw, SQUARE), rectOf(box), `${name} ${JSON.stringify(raw)}`);
      }
      // "[123 456]" (preprocessDoubaoBboxJson's case) is a point.
      const p = f.toPixelRect("[123 456]", SQUARE);
      assert.deepEqual([p.left + p.width / 2, p.top + p.height / 2], [123, 456]);
    }
  },
);

test(
  "numbers outside the box never count: words with numbers, 3, 5 or 6 numbers, two sequences are unusable",
  {
    timeout: 5000,
  },
  () => {
    for (const name of ["doubao-vision", "qwen3-vl", "default", "gpt-5", "gemini", "kimi"]) {
      for (
        const raw of [
          "error: 500, 503",
          "The Sign in button, error 500, 503",
          "first: 100 200 300 400; second: 500 600 700 800",
          "100",
          "100 200 300",
          [100, 200, 300, 400, 999],
          [100, 200, 300, 400, 100, 200],
          "[100, 200] (the button)",
          ["bbox", "at 500, 503"],
        ]
      ) {
        const f = getModelFamily(name === "default" ? undefined : name);
        assert.throws(
          () => f.toPixelRect(raw, img(1280, 800)),
          (e: unknown) =>
            e instanceof ModelResponseError && /neither a point nor a box/.test(e.message),
          `${name} ${JSON.stringify(raw)}`,
        );
      }
    }
  },
);

test("UI-TARS and AutoGLM box strings: two points make a box, <bbox> points, [x,y]", {
  timeout: 5000,
}, () => {
  // bytedance/UI-TARS-desktop packages/ui-tars/action-parser/test/actionParser.test.ts.
  const tars = getModelFamily("vlm-ui-tars");
  assert.deepEqual(tars.toPixelRect("(290,718)(350,747)", SQUARE), rectOf([290, 718, 350, 747]));
  assert.deepEqual(
    tars.toPixelRect("<bbox>637 964 637 964</bbox>", SQUARE),
    rectOf([637, 964, 637, 964]),
  );
  const p = tars.toPixelRect("[130,226]", SQUARE);
  assert.deepEqual([p.left + p.width / 2, p.top + p.height / 2], [130, 226]);
  // Out of the 0-1000 range (absolute pixels): unusable, not guessed.
  assert.throws(() => tars.toPixelRect("(1290,718)(1350,747)", SQUARE), /outside the 0-1000 range/);
  const glm = getModelFamily("auto-glm");
  const g = glm.toPixelRect("[500,750]", SQUARE);
  assert.deepEqual([g.left + g.width / 2, g.top + g.height / 2], [500, 750]);
});
