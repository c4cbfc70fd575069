/// <reference lib="dom" />

/**
 * What the coordinate tests share (coordinates_*_test.ts): the families and scales, the page with
 * pointer events logged, where an action landed, and the matrix of actions across the viewport per
 * family and scale, in parts of one family (one file each: coordinates_matrix_<n>_test.ts), so no
 * file takes minutes on a loaded machine and the parts run in parallel.
 *
 * @module
 */

import { after, test } from "../helpers/test.ts";
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import type {
  AnswerWrap,
  PlanReply,
  TargetBox,
  TestModelCall,
  TestModelFamily,
  TestModelOptions,
} from "@sdk/core/testing";
import { appState, type E2eEnv, startE2e, StillPendingError, within } from "./_setup.ts";

export const WIDTH = 1280;
export const HEIGHT = 800;

/** Families whose mapping differs; the aiLocate test runs them. */
export const FULL_MATRIX_FAMILIES = [
  "default",
  "qwen3-vl",
  "qwen2.5-vl",
  "gemini",
  "gpt-5",
  "kimi",
] as const satisfies readonly TestModelFamily[];
/** Families that map like one above. */
export const HARDEST_SCALE_FAMILIES = [
  "doubao-vision",
  "kimi3",
  "qwen3",
  "qwen3.5",
  "qwen3.6",
  "doubao-seed",
  "glm-v",
  "xiaomi-mimo",
] as const satisfies readonly TestModelFamily[];
export const FAMILIES = [...FULL_MATRIX_FAMILIES, ...HARDEST_SCALE_FAMILIES];
export type Family = (typeof FAMILIES)[number];
/** The families the SDK started with; the others get an answer-shape test of their own. */
export const ORIGINAL_FAMILIES: readonly Family[] = ["default", "qwen3-vl", "qwen2.5-vl", "gemini"];
/** Families whose answers are points, not boxes: a small box around the point is located. */
export const POINT_FAMILIES: readonly Family[] = ["kimi", "kimi3"];
/** Wrapped answers checked per family (the wrap is family-independent otherwise). */
export const WRAPS: readonly [Family, "fence" | "prose"][] = [
  ...ORIGINAL_FAMILIES.flatMap((f) =>
    [[f, "fence"], [f, "prose"]] as [Family, "fence" | "prose"][]
  ),
  ["doubao-vision", "fence"],
  ["kimi", "prose"],
];
export const SCALES: readonly { dpr: number; shrink: number }[] = [
  { dpr: 1, shrink: 1 },
  { dpr: 2, shrink: 1 },
  { dpr: 1, shrink: 2 },
  { dpr: 2, shrink: 2 },
];

/**
 * The matrix in parts, each run by its own file (`coordinates_matrix_<n>_test.ts` runs part n,
 * from 1): every family the test model answers in, planning dialects included (their locate
 * answers use their own box conventions too), in exactly one part (coordinates_test.ts checks
 * both).
 */
export const MATRIX_PARTS: readonly (readonly AnyFamily[])[] = [
  ["default"],
  ["qwen3-vl"],
  ["qwen2.5-vl"],
  ["gpt-5"],
  ["gemini"],
  ["kimi"],
  ["doubao-vision"],
  ["doubao-seed"],
  ["qwen3"],
  ["qwen3.5"],
  ["qwen3.6"],
  ["kimi3"],
  ["glm-v"],
  ["xiaomi-mimo"],
  ["vlm-ui-tars"],
  ["vlm-ui-tars-doubao"],
  ["vlm-ui-tars-doubao-1.5"],
  ["auto-glm"],
  ["auto-glm-multilingual"],
];

/**
 * How long one coordinate test's body may run, ms: a test takes about a second alone and some
 * ten on a machine at load 15. One that hangs fails after this, and the file goes on.
 */
export const COORDINATE_TEST_BODY_MS = 90_000;

/** How long closing a test's page may take before the test gives up on it, ms. */
const PAGE_CLOSE_TIMEOUT_MS = 20_000;

/**
 * Declares a coordinate test: `fn` runs on a fresh actions page at `dpr` ({@link openActions})
 * for at most {@link COORDINATE_TEST_BODY_MS}, then the page's browser context is closed (at most
 * 20 s). The test fails with `fn`'s error when it has one: a close that fails after it (a browser
 * that went away fails the close too) does not hide it. When `fn` hung or the close failed, the
 * browser is reset, so the next test gets a working one instead of hanging on the same.
 */
export function pageTest(
  name: string,
  env: E2eEnv,
  dpr: number,
  fn: (page: Page) => Promise<void>,
): void {
  // node:test's limit comes after the body's and the close's own, which leave time to clean up.
  const timeout = COORDINATE_TEST_BODY_MS + PAGE_CLOSE_TIMEOUT_MS + 30_000;
  test(name, { timeout }, async () => {
    const page = await openActions(env, dpr);
    const failure = await within(fn(page), COORDINATE_TEST_BODY_MS, "the test").then(
      () => undefined,
      (e: unknown) => e ?? new Error("the test failed"),
    );
    const closeFailure = await within(
      page.context().close(),
      PAGE_CLOSE_TIMEOUT_MS,
      "closing the page",
    ).then(() => undefined, (e: unknown) => e ?? new Error("closing the page failed"));
    if (failure instanceof StillPendingError || closeFailure) await env.resetBrowser();
    if (failure) {
      if (closeFailure) console.warn(`${name}: after the failure, ${closeFailure}`);
      throw failure;
    }
    if (closeFailure) throw closeFailure;
  });
}

/**
 * Defines the matrix tests of part `n` (from 1) of {@link MATRIX_PARTS}, with a browser and app of
 * their own: what a `coordinates_matrix_<n>_test.ts` file does.
 */
export async function defineMatrixPart(n: number): Promise<void> {
  const families = MATRIX_PARTS[n - 1];
  if (!families) throw new RangeError(`no matrix part ${n}: there are ${MATRIX_PARTS.length}`);
  const env = await startE2e();
  after(() => env.close());
  defineMatrixTests(env, families);
}

/** Target descriptions the tests use, and the element each one names. */
export const TARGETS: Readonly<Record<string, string>> = {
  "the Click me button": "#click-button",
  "the Double-click me button": "#dblclick-button",
  "the Right-click me area": "#right-target",
  "the Hover over me card": "#hover-card",
  "the Type here field": "#key-input",
  "the scrollable list": "#scroll-box",
  "the corner button": "#corner-button",
};

/** Every family the test model answers in, the planning-dialect ones included. */
export type AnyFamily = NonNullable<TestModelOptions["family"]>;

export function familyLabel(family: AnyFamily): string {
  return family === "default" ? "default (unset)" : family;
}

export function scaleLabel(dpr: number, shrink: number): string {
  return `dpr ${dpr}` + (shrink === 1 ? "" : ` and shrink ${shrink}`);
}

export function pad28(n: number): number {
  return Math.ceil(n / 28) * 28;
}

/** The size of the image the model must be sent. */
export function expectedImage(family: AnyFamily, dpr: number, shrink: number) {
  const width = Math.round(WIDTH * dpr / shrink);
  const height = Math.round(HEIGHT * dpr / shrink);
  return family === "qwen2.5-vl"
    ? { width: pad28(width), height: pad28(height) }
    : { width, height };
}

export interface PointerEvent {
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
export async function openActions(env: E2eEnv, dpr: number): Promise<Page> {
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
export function events(page: Page, type?: string): Promise<PointerEvent[]> {
  return page.evaluate(
    (t) =>
      (globalThis as unknown as { __events: PointerEvent[] }).__events.filter((e) =>
        !t || e.type === t
      ),
    type,
  );
}

export async function boxOf(page: Page, selector: string): Promise<TargetBox> {
  const box = await page.locator(selector).boundingBox();
  assert.ok(box, `${selector} is not on the page`);
  return { left: box.x, top: box.y, width: box.width, height: box.height };
}

/** A locate handler answering the box of a {@link TARGETS} element, measured in the browser. */
export function locateIn(page: Page) {
  return async (call: { target: string }): Promise<TargetBox | null> => {
    const selector = TARGETS[call.target.trim()];
    return selector ? await boxOf(page, selector) : null;
  };
}

/** A plan handler that double-clicks the fixture's button once, then finishes. */
export function planDoubleClickOnce(page: Page): () => Promise<PlanReply> {
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

/**
 * Asserts that the last `type` event landed at the center of `selector` (within `tolerance` CSS
 * pixels: the 0-1000 grid is coarser than a pixel once an image is shrunk) and on that element.
 */
export async function assertLandedOn(
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

export async function agentFor(
  env: E2eEnv,
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

/**
 * The matrix for `families`: at every (dpr, shrink) of {@link SCALES}, aiTap, aiDoubleClick,
 * aiRightClick, aiHover, aiInput and aiScroll land on targets across the whole viewport. Test
 * files split the families between them, so the matrix runs in parallel.
 */
export function defineMatrixTests(env: E2eEnv, families: readonly AnyFamily[]): void {
  for (const family of families) {
    for (const { dpr, shrink } of SCALES) {
      pageTest(
        `aiTap, aiDoubleClick, aiRightClick, aiHover, aiInput and aiScroll land on their targets with family ${
          familyLabel(family)
        } at ${scaleLabel(dpr, shrink)}`,
        env,
        dpr,
        async (page) => {
          const { agent, model } = await agentFor(env, page, family, dpr, shrink);
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
        },
      );
    }
  }
}
