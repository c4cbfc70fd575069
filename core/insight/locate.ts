/**
 * Locating an element: one model call that answers a `bbox` in the family's convention, mapped to
 * the device's logical pixels.
 *
 * @module
 */

import type { CallSession } from "../session/session.ts";
import { captureFor } from "../session/session.ts";
import { toLocatedElement } from "../session/screen.ts";
import type { Screen } from "../session/screen.ts";
import type { LocatedElement, Rect } from "../device/types.ts";
import { LocateError, ModelResponseError } from "../errors.ts";
import { locateSystemPrompt, locateUserText } from "../model/prompts.ts";
import { modelStep, stringField } from "./ask.ts";
import { cropImage, prepareImage } from "../image/mod.ts";
import { boxField } from "../model/families/box.ts";

/** A located element with the screen it was found on. */
export interface LocateResult {
  /** The element in logical pixels. */
  element: LocatedElement;
  /** Its box in model-image pixels. */
  imageRect: Rect;
  /** The screen it was found on. */
  screen: Screen;
}

/** Marks a rect on a step: the box and its center, in image pixels. */
export function markTarget(rect: Rect): { target: Rect; point: [number, number] } {
  return {
    target: rect,
    point: [Math.round(rect.left + rect.width / 2), Math.round(rect.top + rect.height / 2)],
  };
}

/**
 * Locates the element `description` names.
 *
 * @throws {LocateError} when the model says it is not on the screen (`"bbox": null` or an
 * `error`).
 * @throws {ModelResponseError} when the answer cannot be used (a malformed `bbox`, or neither
 * `bbox` nor `error`), also after the one retry.
 */
export async function locateElement(
  s: CallSession,
  description: string,
  context: string | undefined,
  givenScreen?: Screen,
  title = `Locate: ${description}`,
): Promise<LocateResult> {
  const screen = givenScreen ?? await captureFor(s, "default");
  const family = s.caller.config("default").family;
  return await modelStep(s, {
    kind: "Locate",
    title,
    intent: "default",
    system: locateSystemPrompt(family),
    user: locateUserText(description, context, screen.image),
    screen,
  }, (answer, step) => {
    // The family's own box key (`bbox_2d`, `box_2d`) counts when there is no `bbox`.
    const bbox = boxField(answer.json, family);
    const error = stringField(answer.json, "error");
    // Only `"bbox": null` or an `error` says "not found"; an answer with neither says nothing
    // usable, so it gets the one retry of unusable answers instead.
    if (bbox === undefined && error === undefined) {
      throw new ModelResponseError(
        `The answer locating "${description}" has neither "bbox" nor "error"`,
        answer.raw,
      );
    }
    if (bbox === null || bbox === undefined) {
      throw new LocateError(
        `Element not found: "${description}". The model said: ${
          error ?? stringField(answer.json, "thought") ?? "(no reason)"
        }`,
      );
    }
    const imageRect = family.toPixelRect(bbox, screen.modelImage);
    Object.assign(step, markTarget(imageRect));
    return { element: toLocatedElement(screen, imageRect, description), imageRect, screen };
  });
}

/** Smallest side of the zoomed region, as a fraction of the screen's side. */
const DEEP_REGION_FRACTION = 1 / 3;
/** Largest enlargement of the zoomed region. */
const DEEP_MAX_SCALE = 2;

/**
 * The region around a first-pass box that the second call looks at: the box enlarged to at least
 * a third of the screen on each side (and twice the box), centered on it, moved inside the image.
 */
function deepRegion(rect: Rect, width: number, height: number): Rect {
  const side = (box: number, size: number) =>
    Math.min(size, Math.max(Math.ceil(size * DEEP_REGION_FRACTION), Math.ceil(box * 2)));
  const w = side(rect.width, width), h = side(rect.height, height);
  const cx = rect.left + rect.width / 2, cy = rect.top + rect.height / 2;
  const left = Math.min(width - w, Math.max(0, Math.round(cx - w / 2)));
  const top = Math.min(height - h, Math.max(0, Math.round(cy - h / 2)));
  return { left, top, width: w, height: h };
}

/**
 * deepLocate: two calls. The first locates the element on the whole screenshot; the second looks
 * at a crop of the region around that box, enlarged (at most 2x, and never larger than the
 * screenshot), and its box is mapped back to the screen. Both calls are report steps, the second
 * with the crop as its screenshot.
 *
 * @throws {LocateError} when either call says the element is not there.
 * @throws {ModelResponseError} when an answer cannot be used.
 */
export async function deepLocateElement(
  s: CallSession,
  description: string,
  context: string | undefined,
  givenScreen?: Screen,
): Promise<LocateResult> {
  const first = await locateElement(s, description, context, givenScreen);
  const screen = first.screen;
  const cw = screen.image.contentWidth, ch = screen.image.contentHeight;
  const region = deepRegion(first.imageRect, cw, ch);
  const scale = Math.max(1, Math.min(DEEP_MAX_SCALE, cw / region.width, ch / region.height));
  const crop = await cropImage(screen.image.dataUri, region, scale);
  const family = s.caller.config("default").family;
  const image = await prepareImage(crop.dataUri, { padToMultipleOf: family.padToMultipleOf });
  const sx = crop.width / region.width, sy = crop.height / region.height;
  const zoomed: Screen = {
    image,
    screenshotId: s.report.addScreenshot(image.dataUri),
    // The crop's own geometry: its logical size is the region's share of the screen.
    logical: {
      width: region.width * screen.logical.width / cw,
      height: region.height * screen.logical.height / ch,
      dpr: screen.logical.dpr,
    },
    physical: {
      width: region.width * screen.physical.width / cw,
      height: region.height * screen.physical.height / ch,
    },
    modelImage: {
      width: image.width,
      height: image.height,
      contentWidth: image.contentWidth,
      contentHeight: image.contentHeight,
    },
  };
  const second = await locateElement(
    s,
    description,
    context,
    zoomed,
    `Locate (zoomed): ${description}`,
  );
  const r = second.imageRect;
  const imageRect: Rect = {
    left: region.left + r.left / sx,
    top: region.top + r.top / sy,
    width: r.width / sx,
    height: r.height / sy,
  };
  return { element: toLocatedElement(screen, imageRect, description), imageRect, screen };
}
