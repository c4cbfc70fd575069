/// <reference lib="dom" />

/**
 * Coordinates end to end: for each model family the SDK speaks, each device pixel ratio and each
 * screenshot shrink factor, the model's box (in that family's convention, on the image the model
 * was sent) must land on the element the browser measured, all across the viewport. Also the
 * physical pixels of `aiLocate`, tolerant parsing of wrapped answers, each family's answer shapes
 * (loose strings, nested lists, points), and malformed boxes that must fail before anything is
 * clicked.
 *
 * Runtime: the matrix and aiLocate run every (dpr, shrink) combination for the families whose
 * mapping differs (the four original ones, gpt-5: pixels unpadded, kimi: points), and only dpr 2
 * with shrink 2 (the hardest) for the families that map like one of them (qwen3, qwen3.5, qwen3.6,
 * doubao-vision, doubao-seed, glm-v, xiaomi-mimo, kimi3); every new family's answer-shape test runs
 * at dpr 2 without shrink.
 */

import { after, test } from "node:test";
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { ModelResponseError } from "@sdk/core";
import type {
  AnswerWrap,
  PlanReply,
  TargetBox,
  TestModelCall,
  TestModelFamily,
  TestModelOptions,
} from "@sdk/core/testing";
import { appState, startE2e } from "./_setup.ts";

const env = await startE2e();
after(() => env.close());

const WIDTH = 1280;
const HEIGHT = 800;

/** Families run by the aiLocate test. */
const FULL_MATRIX_FAMILIES = [
  "default",
  "qwen3-vl",
  "qwen2.5-vl",
  "gemini",
  "gpt-5",
  "kimi",
] as const satisfies readonly TestModelFamily[];
/** Families that map like one above; the matrix runs every family at every scale. */
const HARDEST_SCALE_FAMILIES = [
  "doubao-vision",
  "kimi3",
  "qwen3",
  "qwen3.5",
  "qwen3.6",
  "doubao-seed",
  "glm-v",
  "xiaomi-mimo",
] as const satisfies readonly TestModelFamily[];
const FAMILIES = [...FULL_MATRIX_FAMILIES, ...HARDEST_SCALE_FAMILIES];
type Family = (typeof FAMILIES)[number];
/** The families the SDK started with; the others get an answer-shape test of their own. */
const ORIGINAL_FAMILIES: readonly Family[] = ["default", "qwen3-vl", "qwen2.5-vl", "gemini"];
/** Families whose answers are points, not boxes: a small box around the point is located. */
const POINT_FAMILIES: readonly Family[] = ["kimi", "kimi3"];
/** Wrapped answers checked per family (the wrap is family-independent otherwise). */
const WRAPS: readonly [Family, "fence" | "prose"][] = [
  ...ORIGINAL_FAMILIES.flatMap((f) =>
    [[f, "fence"], [f, "prose"]] as [Family, "fence" | "prose"][]
  ),
  ["doubao-vision", "fence"],
  ["kimi", "prose"],
];
const SCALES: readonly { dpr: number; shrink: number }[] = [
  { dpr: 1, shrink: 1 },
  { dpr: 2, shrink: 1 },
  { dpr: 1, shrink: 2 },
  { dpr: 2, shrink: 2 },
];

/** The planning-dialect families: their locate answers use their own box conventions too. */
const DIALECT_MATRIX_FAMILIES = [
  "vlm-ui-tars",
  "vlm-ui-tars-doubao",
  "vlm-ui-tars-doubao-1.5",
  "auto-glm",
  "auto-glm-multilingual",
] as const;

/** Target descriptions the tests use, and the element each one names. */
const TARGETS: Readonly<Record<string, string>> = {
  "the Click me button": "#click-button",
  "the Double-click me button": "#dblclick-button",
  "the Right-click me area": "#right-target",
  "the Hover over me card": "#hover-card",
  "the Type here field": "#key-input",
  "the scrollable list": "#scroll-box",
  "the corner button": "#corner-button",
};

/** Every family the test model answers in, the planning-dialect ones included. */
type AnyFamily = NonNullable<TestModelOptions["family"]>;

function familyLabel(family: AnyFamily): string {
  return family === "default" ? "default (unset)" : family;
}

function scaleLabel(dpr: number, shrink: number): string {
  return `dpr ${dpr}` + (shrink === 1 ? "" : ` and shrink ${shrink}`);
}

function pad28(n: number): number {
  return Math.ceil(n / 28) * 28;
}

/** The size of the image the model must be sent. */
function expectedImage(family: AnyFamily, dpr: number, shrink: number) {
  const width = Math.round(WIDTH * dpr / shrink);
  const height = Math.round(HEIGHT * dpr / shrink);
  return family === "qwen2.5-vl"
    ? { width: pad28(width), height: pad28(height) }
    : { width, height };
}

interface PointerEvent {
  type: string;
  x: number;
  y: number;
  target: string;
}

/**
 * Opens actions.html, adds a small button fixed in the bottom-right corner of the viewport (the
 * point farthest from the origin, where a scale error is largest), and logs every pointer event's
 * position so the tests can check where each action landed.
 */
async function openActions(dpr: number): Promise<Page> {
  const page = await env.open("actions.html", { width: WIDTH, height: HEIGHT, dpr });
  await page.evaluate(() => {
    const state = (globalThis as unknown as { appState: Record<string, unknown> }).appState;
    state.cornerClicks = 0;
    const button = document.createElement("button");
    button.id = "corner-button";
    button.type = "button";
    button.textContent = "Corner";
    button.style.cssText =
      "position:fixed;right:6px;bottom:6px;width:64px;height:28px;z-index:10;padding:0;font:12px sans-serif";
    button.addEventListener("click", () => {
      state.cornerClicks = (state.cornerClicks as number) + 1;
    });
    document.body.append(button);
    const log: PointerEvent[] = [];
    (globalThis as unknown as { __events: PointerEvent[] }).__events = log;
    for (const type of ["click", "dblclick", "contextmenu", "mousedown", "mousemove", "wheel"]) {
      document.addEventListener(type, (e) => {
        const m = e as MouseEvent;
        const el = m.target as Element | null;
        log.push({ type, x: m.clientX, y: m.clientY, target: el?.id || el?.tagName || "" });
      }, true);
    }
  });
  return page;
}

/** Pointer events of `type` the page saw. */
function events(page: Page, type?: string): Promise<PointerEvent[]> {
  return page.evaluate(
    (t) =>
      (globalThis as unknown as { __events: PointerEvent[] }).__events.filter((e) =>
        !t || e.type === t
      ),
    type,
  );
}

async function boxOf(page: Page, selector: string): Promise<TargetBox> {
  const box = await page.locator(selector).boundingBox();
  assert.ok(box, `${selector} is not on the page`);
  return { left: box.x, top: box.y, width: box.width, height: box.height };
}

/** A locate handler answering the box of a {@link TARGETS} element, measured in the browser. */
function locateIn(page: Page) {
  return async (call: { target: string }): Promise<TargetBox | null> => {
    const selector = TARGETS[call.target.trim()];
    return selector ? await boxOf(page, selector) : null;
  };
}

/**
 * Asserts that the last `type` event landed at the center of `selector` (within `tolerance` CSS
 * pixels: the 0-1000 grid is coarser than a pixel once an image is shrunk) and on that element.
 */
async function assertLandedOn(
  page: Page,
  type: string,
  selector: string,
  tolerance: number,
): Promise<void> {
  const last = (await events(page, type)).at(-1);
  assert.ok(last, `no ${type} event reached the page`);
  const box = await boxOf(page, selector);
  const cx = box.left + box.width / 2, cy = box.top + box.height / 2;
  assert.ok(
    Math.abs(last.x - cx) <= tolerance && Math.abs(last.y - cy) <= tolerance,
    `${type} landed at (${last.x}, ${last.y}); the center of ${selector} is (${cx.toFixed(1)}, ${
      cy.toFixed(1)
    }), tolerance ${tolerance}`,
  );
  const id = selector.slice(1);
  const inside = await page.evaluate(
    ([x, y, id]) => {
      const el = document.elementFromPoint(x as number, y as number);
      return !!el && !!el.closest(`#${id}`);
    },
    [last.x, last.y, id] as const,
  );
  assert.ok(inside, `${type} at (${last.x}, ${last.y}) is not on ${selector}`);
}

async function agentFor(
  page: Page,
  family: AnyFamily,
  dpr: number,
  shrink: number,
  model: {
    wrap?: AnswerWrap;
    answerOverride?: (call: TestModelCall) => string | undefined | Promise<string | undefined>;
  } = {},
) {
  return await env.agent(page, { locate: locateIn(page) }, {
    screenshotShrinkFactor: shrink,
    waitAfterAction: 0,
    generateReport: false,
    model: {
      family,
      // qwen2.5-vl images are padded to multiples of 28 px, so the test model cannot read the
      // scale from the image width.
      ...(family === "qwen2.5-vl" ? { imagePixelsPerCssPixel: dpr / shrink } : {}),
      ...model,
    },
  });
}

// ---- the matrix: every family at its scales, targets across the whole viewport -------------------

for (const family of [...FAMILIES, ...DIALECT_MATRIX_FAMILIES]) {
  for (const { dpr, shrink } of SCALES) {
    test(
      `aiTap, aiDoubleClick, aiRightClick, aiHover, aiInput and aiScroll land on their targets with family ${
        familyLabel(family)
      } at ${scaleLabel(dpr, shrink)}`,
      async () => {
        const page = await openActions(dpr);
        try {
          const { agent, model } = await agentFor(page, family, dpr, shrink);
          // The 0-1000 grid is about 1.3 CSS px at any scale, and one image pixel is shrink / dpr
          // CSS px: rounding both (and the click point) stays within 1.5 + shrink / dpr.
          const tolerance = 1.5 + shrink / dpr;

          await agent.aiTap("the Click me button"); // top left
          assert.equal(await appState(page, "clicks"), 1);
          await assertLandedOn(page, "click", "#click-button", tolerance);

          await agent.aiDoubleClick("the Double-click me button"); // top middle
          assert.equal(await appState(page, "doubleClicks"), 1);
          await assertLandedOn(page, "dblclick", "#dblclick-button", tolerance);

          await agent.aiRightClick("the Right-click me area"); // top right
          assert.equal(await appState(page, "rightClicks"), 1);
          await assertLandedOn(page, "contextmenu", "#right-target", tolerance);

          await agent.aiHover("the Hover over me card"); // bottom left
          assert.equal(await appState(page, "hoverCount"), 1);
          await assertLandedOn(page, "mousemove", "#hover-card", tolerance);

          await agent.aiInput("the Type here field", { value: "far field" }); // bottom middle
          assert.equal(await appState(page, "inputValue"), "far field");

          await agent.aiScroll("the scrollable list", { direction: "down", distance: 120 }); // bottom right
          assert.ok(
            (await appState<number>(page, "innerScrollTop")) > 0,
            "the wheel did not scroll the list under the located point",
          );
          await assertLandedOn(page, "wheel", "#scroll-box", tolerance);

          await agent.aiTap("the corner button"); // the bottom-right corner of the viewport
          assert.equal(await appState(page, "cornerClicks"), 1);
          await assertLandedOn(page, "click", "#corner-button", tolerance);

          // Nothing else was clicked on the way.
          assert.equal(await appState(page, "clicks"), 1);
          assert.equal(await appState(page, "doubleClicks"), 1);
          assert.equal(await appState(page, "rightClicks"), 1);

          // The model saw the shrunk (and for qwen2.5-vl padded) physical screenshot, as JPEG.
          const images = model.calls.map((c) => c.call?.image);
          assert.equal(images.length, 7);
          for (const image of images) {
            assert.deepEqual(
              image && { width: image.width, height: image.height, format: image.format },
              { ...expectedImage(family, dpr, shrink), format: "jpeg" },
            );
          }
        } finally {
          await page.context().close();
        }
      },
    );
  }
}

// ---- aiLocate: physical pixels ----------------------------------------------------------------------

for (const family of FULL_MATRIX_FAMILIES) {
  test(
    `aiLocate gives rect and center in physical screenshot pixels and the page's dpr with family ${
      familyLabel(family)
    } at dpr 2 and shrink 2`,
    async () => {
      const dpr = 2, shrink = 2;
      const page = await openActions(dpr);
      try {
        const { agent } = await agentFor(page, family, dpr, shrink);
        const pageDpr = await page.evaluate(() => devicePixelRatio);
        assert.equal(pageDpr, 2);
        for (
          const [target, selector] of [
            ["the Click me button", "#click-button"],
            ["the Right-click me area", "#right-target"],
            ["the scrollable list", "#scroll-box"],
            ["the corner button", "#corner-button"],
          ]
        ) {
          const css = await boxOf(page, selector);
          const result = await agent.aiLocate(target);
          assert.equal(result.dpr, pageDpr, `${target}: dpr`);
          const want = {
            left: css.left * dpr,
            top: css.top * dpr,
            width: css.width * dpr,
            height: css.height * dpr,
          };
          const near = (a: number, b: number) => Math.abs(a - b) <= 2;
          const [cx, cy] = result.center;
          if (POINT_FAMILIES.includes(family)) {
            // A point answer locates a small box around the point: only its center is the element's.
            // The point is on the 0-1 grid (kimi) or rounded to an image pixel (kimi3), then its box
            // is rounded to image pixels: up to ~1.2 image px, 2.4 physical px at shrink 2.
            const nearPoint = (a: number, b: number) => Math.abs(a - b) <= 3;
            assert.ok(
              nearPoint(cx, want.left + want.width / 2) &&
                nearPoint(cy, want.top + want.height / 2),
              `${target}: center ${JSON.stringify(result.center)} of rect ${
                JSON.stringify(result.rect)
              }, want (${want.left + want.width / 2}, ${want.top + want.height / 2})`,
            );
            assert.ok(
              result.rect.left <= cx && cx <= result.rect.left + result.rect.width &&
                result.rect.top <= cy && cy <= result.rect.top + result.rect.height,
              `${target}: center ${JSON.stringify(result.center)} is outside its rect ${
                JSON.stringify(result.rect)
              }`,
            );
            continue;
          }
          assert.ok(
            near(result.rect.left, want.left) && near(result.rect.top, want.top) &&
              near(result.rect.left + result.rect.width, want.left + want.width) &&
              near(result.rect.top + result.rect.height, want.top + want.height),
            `${target}: rect ${JSON.stringify(result.rect)}, want ${JSON.stringify(want)}`,
          );
          assert.ok(
            near(cx, want.left + want.width / 2) && near(cy, want.top + want.height / 2),
            `${target}: center ${JSON.stringify(result.center)}, want (${
              want.left + want.width / 2
            }, ${want.top + want.height / 2})`,
          );
        }
        // Locating acts on nothing.
        assert.equal((await events(page, "mousedown")).length, 0);
      } finally {
        await page.context().close();
      }
    },
  );
}

/** A plan handler that double-clicks the fixture's button once, then finishes. */
function planDoubleClickOnce(page: Page): () => Promise<PlanReply> {
  let planned = false;
  return async () => {
    if (planned) return { log: "done", finished: true, output: "double-clicked" };
    planned = true;
    return {
      log: "Double-click the button",
      action: {
        type: "DoubleClick",
        param: {
          locate: {
            prompt: "the Double-click me button",
            box: await boxOf(page, "#dblclick-button"),
          },
        },
      },
    };
  };
}

// ---- tolerant parsing: fenced and prose-wrapped answers ---------------------------------------------

for (const [family, wrap] of WRAPS) {
  test(
    `aiTap, aiAct and aiBoolean read ${wrap}-wrapped answers from family ${
      familyLabel(family)
    } at dpr 2`,
    async () => {
      const dpr = 2, shrink = 1;
      const page = await openActions(dpr);
      try {
        const { agent, model } = await env.agent(page, {
          locate: locateIn(page),
          plan: planDoubleClickOnce(page),
          extract: () => true,
        }, {
          waitAfterAction: 0,
          generateReport: false,
          model: {
            family,
            wrap,
            ...(family === "qwen2.5-vl" ? { imagePixelsPerCssPixel: dpr / shrink } : {}),
          },
        });
        const tolerance = 2;

        await agent.aiTap("the corner button");
        assert.equal(await appState(page, "cornerClicks"), 1);
        await assertLandedOn(page, "click", "#corner-button", tolerance);

        assert.equal(await agent.aiAct("double-click the button"), "double-clicked");
        assert.equal(await appState(page, "doubleClicks"), 1);
        await assertLandedOn(page, "dblclick", "#dblclick-button", tolerance);

        assert.equal(await agent.aiBoolean("is the corner button visible?"), true);

        // The answers really were wrapped.
        const answers = model.calls.map((c) => c.answer ?? "");
        assert.equal(answers.length, 4);
        for (const answer of answers) {
          if (wrap === "fence") assert.match(answer, /^```json\n[\s\S]*\n```$/);
          else assert.match(answer, /^I looked at the screenshot[\s\S]*\nLet me know/);
        }
      } finally {
        await page.context().close();
      }
    },
  );
}

// ---- point answers: a two-number bbox is a point, the click goes to it -----------------------------

/** The center of a CSS box as a two-number `bbox` in `family`'s convention. */
function pointAnswer(
  family: TestModelFamily,
  box: TargetBox,
  scale: number,
  image: { width: number; height: number },
): number[] {
  const x = (box.left + box.width / 2) * scale, y = (box.top + box.height / 2) * scale;
  if (family === "qwen2.5-vl") return [Math.round(x), Math.round(y)];
  const nx = Math.round(x * 1000 / (image.width - 1));
  const ny = Math.round(y * 1000 / (image.height - 1));
  return family === "gemini" ? [ny, nx] : [nx, ny];
}

for (const family of ORIGINAL_FAMILIES) {
  test(
    `aiTap clicks a point answer ([x, y], gemini [y, x]) from family ${
      familyLabel(family)
    } at dpr 2 and shrink 2`,
    async () => {
      const dpr = 2, shrink = 2;
      const page = await openActions(dpr);
      try {
        const { agent } = await agentFor(page, family, dpr, shrink, {
          answerOverride: async (call) => {
            if (call.kind !== "locate") return undefined;
            const box = await boxOf(page, TARGETS[call.target]);
            // dpr 2 / shrink 2: a 1280 x 800 image, unpadded for the normalized families.
            const bbox = pointAnswer(family, box, dpr / shrink, { width: WIDTH, height: HEIGHT });
            return JSON.stringify({ thought: "It is there.", bbox });
          },
        });
        await agent.aiTap("the corner button");
        assert.equal(await appState(page, "cornerClicks"), 1);
        await assertLandedOn(page, "click", "#corner-button", 2.5);
        await agent.aiRightClick("the Right-click me area");
        assert.equal(await appState(page, "rightClicks"), 1);
        await assertLandedOn(page, "contextmenu", "#right-target", 2.5);
      } finally {
        await page.context().close();
      }
    },
  );
}

// ---- answer shapes: each family's own ways of writing a box or a point ---------------------------

/** A CSS box in pixels of the image the model saw, clamped to it, with its center and fractions. */
function inImage(box: TargetBox, scale: number, image: { width: number; height: number }) {
  const clamp = (v: number, max: number) => Math.min(max, Math.max(0, v));
  const x1 = clamp(box.left * scale, image.width - 1);
  const y1 = clamp(box.top * scale, image.height - 1);
  const x2 = clamp((box.left + box.width) * scale, image.width - 1);
  const y2 = clamp((box.top + box.height) * scale, image.height - 1);
  const cx = (x1 + x2) / 2, cy = (y1 + y2) / 2;
  // 0-1000: the inverse of round(v * (size - 1) / 1000).
  const nx = (v: number) => Math.round(v * 1000 / (image.width - 1));
  const ny = (v: number) => Math.round(v * 1000 / (image.height - 1));
  return {
    px: [x1, y1, x2, y2],
    center: [cx, cy],
    n: [nx(x1), ny(y1), nx(x2), ny(y2)],
    nCenter: [nx(cx), ny(cy)],
    fraction: [cx / (image.width - 1), cy / (image.height - 1)],
  };
}

type Shapes = Readonly<Record<string, (b: ReturnType<typeof inImage>) => unknown>>;
const round = (v: number, digits = 0) => Math.round(v * 10 ** digits) / 10 ** digits;

/** `[x1, y1, x2, y2]` normalized to 0-1000, as Qwen 3, GLM-V and MiMo models write it. */
const XY_1000_SHAPES: Shapes = {
  "[x1, y1, x2, y2]": (b) => b.n,
  "[[x1, y1, x2, y2]]": (b) => [b.n],
  '"[x1, y1, x2, y2]"': (b) => `[${b.n.join(", ")}]`,
  "point [x, y]": (b) => b.nCenter,
};

/** Each family's shapes (MODEL_FAMILIES.md, "Locations"). */
const SHAPES: Readonly<Partial<Record<Family, Shapes>>> = {
  "qwen3": XY_1000_SHAPES,
  "qwen3.5": XY_1000_SHAPES,
  "qwen3.6": XY_1000_SHAPES,
  "xiaomi-mimo": XY_1000_SHAPES,
  "glm-v": {
    ...XY_1000_SHAPES,
    '"<|begin_of_box|>[[x1,y1,x2,y2]]<|end_of_box|>"': (b) =>
      `<|begin_of_box|>[[${b.n.join(",")}]]<|end_of_box|>`,
  },
  // Doubao: 0-1000, loosely formatted.
  ...Object.fromEntries(["doubao-vision", "doubao-seed"].map((f) => [
    f,
    {
      '"x1 y1 x2 y2"': (b) => b.n.join(" "),
      '"<bbox>x1 y1 x2 y2</bbox>"': (b) => `<bbox>${b.n.join(" ")}</bbox>`,
      '"<point>x y</point>"': (b) => `<point>${b.nCenter.join(" ")}</point>`,
      "[[x1, y1], [x2, y2]]": (b) => [b.n.slice(0, 2), b.n.slice(2)],
      '["x1", "y1", "x2", "y2"]': (b) => b.n.map(String),
      "point [x, y]": (b) => b.nCenter,
    } satisfies Shapes,
  ])),
  // GPT-5: absolute pixels.
  "gpt-5": {
    "[x1, y1, x2, y2]": (b) => b.px.map((v) => round(v)),
    "[x1, y1, x2, y2] with decimals": (b) => b.px.map((v) => round(v, 1)),
    '"x1,y1,x2,y2"': (b) => b.px.map((v) => round(v)).join(","),
    "point [x, y]": (b) => b.center.map((v) => round(v)),
  },
  // Kimi: a point, fractions 0-1 when both are <= 1, else absolute pixels.
  ...Object.fromEntries(["kimi", "kimi3"].map((f) => [
    f,
    {
      "fractions [x, y]": (b) => b.fraction.map((v) => round(v, 4)),
      "fractions [x, y], 3 decimals": (b) => b.fraction.map((v) => round(v, 3)),
      "pixels [x, y]": (b) => b.center.map((v) => round(v)),
      "pixels [x, y] with decimals": (b) => b.center.map((v) => round(v, 1)),
      '"(x, y)" in pixels': (b) => `(${b.center.map((v) => round(v)).join(", ")})`,
    } satisfies Shapes,
  ])),
};

for (const family of FAMILIES) {
  const shapes = SHAPES[family];
  if (!shapes) continue;
  test(
    `aiTap clicks each answer shape of family ${family} (${
      Object.keys(shapes).join("; ")
    }) and aiAct its planned box, at dpr 2`,
    async () => {
      const dpr = 2, shrink = 1;
      const page = await openActions(dpr);
      try {
        let shape = "";
        const { agent, model } = await env.agent(page, {
          locate: locateIn(page),
          plan: planDoubleClickOnce(page),
        }, {
          waitAfterAction: 0,
          generateReport: false,
          model: {
            family,
            answerOverride: async (call) => {
              if (call.kind !== "locate") return undefined;
              const box = await boxOf(page, TARGETS[call.target]);
              const bbox = shapes[shape](inImage(box, dpr / shrink, call.image!));
              return JSON.stringify({ thought: "It is there.", bbox });
            },
          },
        });
        const tolerance = 1.5 + shrink / dpr;
        let corner = 0, clicks = 0;
        for (const [i, name] of Object.keys(shapes).entries()) {
          shape = name;
          // Alternately the bottom-right corner and the top-left of the page.
          const [target, selector] = i % 2 === 0
            ? ["the corner button", "#corner-button"]
            : ["the Click me button", "#click-button"];
          await agent.aiTap(target);
          if (i % 2 === 0) corner++;
          else clicks++;
          assert.equal(await appState(page, "cornerClicks"), corner, `shape ${name}`);
          assert.equal(await appState(page, "clicks"), clicks, `shape ${name}`);
          await assertLandedOn(page, "click", selector, tolerance);
        }

        // The test model's own answer format, in a planned action.
        assert.equal(await agent.aiAct("double-click the button"), "double-clicked");
        assert.equal(await appState(page, "doubleClicks"), 1);
        await assertLandedOn(page, "dblclick", "#dblclick-button", tolerance);

        // Every locate answer carried the shape's own text.
        const answers = model.calls.filter((c) => c.kind === "locate").map((c) => c.answer);
        assert.equal(answers.length, Object.keys(shapes).length);
      } finally {
        await page.context().close();
      }
    },
  );
}

// ---- malformed boxes: an error naming the family, the value and the image, and no click ----------

/**
 * A reversed, an out-of-range and a number-less bbox in each family's own convention (dpr 1: a
 * 1280 x 800 image; 1288 x 812 for qwen2.5-vl, padded).
 */
const BAD_BOXES: Record<Family, { reversed: unknown; outOfRange: unknown; noNumbers: unknown }> = {
  // [x1, y1, x2, y2], 0-1000: x2 < x1; x2 > 1000.
  "default": { reversed: [700, 400, 300, 600], outOfRange: [100, 200, 1300, 400], noNumbers: [] },
  "qwen3-vl": {
    reversed: [700, 400, 300, 600],
    outOfRange: [100, 200, 1300, 400],
    noNumbers: "none",
  },
  "qwen3": { reversed: [700, 400, 300, 600], outOfRange: [-5, 200, 300, 400], noNumbers: "" },
  "qwen3.5": {
    reversed: [700, 400, 300, 600],
    outOfRange: [100, 200, 1300, 400],
    noNumbers: [100, 200, 300],
  },
  "qwen3.6": {
    reversed: [700, 600, 800, 400],
    outOfRange: [100, 200, 300, 1001],
    noNumbers: "bbox",
  },
  "xiaomi-mimo": {
    reversed: [700, 400, 300, 600],
    outOfRange: [100, 200, 1300, 400],
    noNumbers: ["x1", "y1", "x2", "y2"],
  },
  "glm-v": {
    reversed: [[700, 400, 300, 600]],
    outOfRange: [[100, 200, 1300, 400]],
    noNumbers: [[]],
  },
  // The same, loosely formatted.
  "doubao-vision": {
    reversed: "700 400 300 600",
    outOfRange: "100 200 1300 400",
    noNumbers: "n/a",
  },
  "doubao-seed": {
    reversed: "<bbox>700 400 300 600</bbox>",
    outOfRange: "<point>1200 500</point>",
    noNumbers: "<bbox></bbox>",
  },
  // [x1, y1, x2, y2] in pixels of the 1288 x 812 padded image: x2 < x1; x2 far past the width.
  "qwen2.5-vl": {
    reversed: [900, 300, 400, 500],
    outOfRange: [100, 200, 5000, 400],
    noNumbers: "none",
  },
  // [x1, y1, x2, y2] in pixels of the 1280 x 800 image.
  "gpt-5": { reversed: [900, 300, 400, 500], outOfRange: [100, 200, 1300, 900], noNumbers: [640] },
  // [ymin, xmin, ymax, xmax], 0-1000: ymax < ymin; xmax > 1000.
  "gemini": { reversed: [600, 300, 400, 700], outOfRange: [200, 100, 400, 1300], noNumbers: [] },
  // Points: fractions below 0; pixels past the image. A four-number answer is a box, reversed.
  "kimi": { reversed: [0.7, 0.4, 0.3, 0.6], outOfRange: [-0.2, 0.5], noNumbers: "center" },
  "kimi3": { reversed: [900, 300, 400, 500], outOfRange: [1500, 300], noNumbers: [] },
};

async function assertPageUntouched(page: Page): Promise<void> {
  assert.equal(await appState(page, "clicks"), 0);
  assert.equal(await appState(page, "doubleClicks"), 0);
  assert.equal(await appState(page, "rightClicks"), 0);
  assert.equal(await appState(page, "cornerClicks"), 0);
  const pressed = (await events(page)).filter((e) =>
    ["mousedown", "click", "dblclick", "contextmenu", "wheel"].includes(e.type)
  );
  assert.deepEqual(pressed, [], "a malformed box must not reach the page");
}

function namesFamilyValueAndImage(family: Family, bbox: unknown) {
  const image = expectedImage(family, 1, 1);
  return (e: unknown) => {
    assert.ok(e instanceof ModelResponseError, `expected a ModelResponseError, got ${e}`);
    assert.ok(
      e.message.includes(`'${family}'`),
      `the error does not name the family ${family}: ${e.message}`,
    );
    assert.ok(
      e.message.includes(JSON.stringify(bbox)),
      `the error does not quote the raw bbox ${JSON.stringify(bbox)}: ${e.message}`,
    );
    assert.ok(
      e.message.includes(`${image.width}x${image.height}`),
      `the error does not name the image size ${image.width}x${image.height}: ${e.message}`,
    );
    return true;
  };
}

for (const family of FAMILIES) {
  test(
    `aiTap rejects a reversed, an out-of-range and a number-less bbox and aiAct a reversed planned one from family ${
      familyLabel(family)
    }, naming the family, the value and the image size, and clicks nothing`,
    async () => {
      const page = await openActions(1);
      try {
        let bbox: unknown;
        const { agent } = await agentFor(page, family, 1, 1, {
          answerOverride: (call) =>
            call.kind === "locate"
              ? JSON.stringify({ thought: "Here it is.", bbox })
              : call.kind === "plan"
              ? JSON.stringify({
                thought: "The button is there.",
                log: "Tap the Click me button",
                action: { type: "Tap", param: { locate: { prompt: "the Click me button", bbox } } },
                finished: false,
              })
              : undefined,
        });
        for (const kind of ["reversed", "outOfRange", "noNumbers"] as const) {
          bbox = BAD_BOXES[family][kind];
          await assert.rejects(
            agent.aiTap("the Click me button"),
            namesFamilyValueAndImage(family, bbox),
          );
          await assertPageUntouched(page);
        }
        bbox = BAD_BOXES[family].reversed;
        await assert.rejects(
          agent.aiAct("click the button"),
          namesFamilyValueAndImage(family, bbox),
        );
        await assertPageUntouched(page);
      } finally {
        await page.context().close();
      }
    },
  );
}
