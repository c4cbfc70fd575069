/**
 * Box arithmetic shared by the families: lenient reading of numbers, normalized and absolute
 * conventions, points to small boxes, and range checks that name what was wrong.
 *
 * @module
 */

import type { Rect } from "../../device/types.ts";
import { ModelResponseError, QUOTE_EXCERPT_CHARS, quoteExcerpt } from "../../errors.ts";
import type { ModelImageSize } from "../chat.ts";

/**
 * Reads 2 or 4 numbers from a loosely formatted value: `[1, 2, 3, 4]`, `["1", "2"]`,
 * `"336 163 717 200"`, `"(x,y)"`, `[[1, 2, 3, 4]]`, `[[x1, y1], [x2, y2]]`,
 * `"<bbox>x1 y1 x2 y2</bbox>"`, `"<point>x y</point>"`. In a string, only the first `<bbox>` or
 * `<point>` tag is read when there is one, and digits inside words (`bbox_2d`, `x1=`) are not
 * numbers.
 *
 * @param image the image the model saw, named in the error.
 * @throws {ModelResponseError} when no 2 or 4 numbers can be read.
 */
export function readBoxNumbers(raw: unknown, family: string, image?: ModelImageSize): number[] {
  const numbers: number[] = [];
  const visit = (v: unknown): void => {
    if (typeof v === "number") numbers.push(v);
    else if (typeof v === "string") {
      const tag = /<(bbox|point)>([\s\S]*?)<\/\1>/i.exec(v);
      for (const m of (tag ? tag[2] : v).matchAll(/(?<![\w.])-?\d+(?:\.\d+)?/g)) {
        numbers.push(Number(m[0]));
      }
    } else if (Array.isArray(v)) v.forEach(visit);
  };
  visit(raw);
  if ((numbers.length !== 2 && numbers.length !== 4) || numbers.some((n) => !Number.isFinite(n))) {
    throw new ModelResponseError(
      `Model family '${family}' answered a bbox that is neither a point nor a box: ${
        shownBox(raw)
      }` + (image ? ` (image ${image.width}x${image.height} px)` : ""),
      JSON.stringify(raw),
    );
  }
  return numbers;
}

/** A box value as an error message shows it: as written when short, else an excerpt. */
function shownBox(raw: unknown): string {
  const text = JSON.stringify(raw) ?? String(raw);
  return text.length <= QUOTE_EXCERPT_CHARS ? text : quoteExcerpt(text);
}

/** Error for a box outside the image or reversed. */
function badBox(family: string, raw: unknown, image: ModelImageSize, why: string) {
  return new ModelResponseError(
    `Model family '${family}' answered bbox ${shownBox(raw)} that is ${why} ` +
      `(image ${image.width}x${image.height} px)`,
    JSON.stringify(raw),
  );
}

/** Turns `[x1, y1, x2, y2]` in pixels into a rect clamped to the content, after range checks. */
function pixelsToRect(
  box: number[],
  image: ModelImageSize,
  family: string,
  raw: unknown,
): Rect {
  const [x1, y1, x2, y2] = box;
  if (x2 < x1 || y2 < y1) throw badBox(family, raw, image, "reversed");
  // One pixel of slack: models often answer the far edge itself (width, not width - 1).
  if (x1 < 0 || y1 < 0 || x2 > image.width + 1 || y2 > image.height + 1) {
    throw badBox(family, raw, image, "outside the image");
  }
  const cw = image.contentWidth, ch = image.contentHeight;
  if (x1 >= cw || y1 >= ch) {
    throw badBox(family, raw, image, "inside the padding, not the screenshot");
  }
  // Padding (qwen2.5-vl) is not part of the screen: clamp back to the content.
  const left = x1, top = y1;
  const right = Math.min(x2, cw - 1), bottom = Math.min(y2, ch - 1);
  return { left, top, width: right - left, height: bottom - top };
}

/**
 * Box normalized to 0-`range` (`[x1, y1, x2, y2]`, or a point `[x, y]`) to a pixel rect of the
 * image the model saw: `round(v * 1000 / range * (size - 1) / 1000)` per axis. `range` is 1000
 * (the default) for the 0-1000 families and 1 for fractions.
 */
export function normalizedToRect(
  values: number[],
  image: ModelImageSize,
  family: string,
  raw: unknown,
  range = 1000,
): Rect {
  if (values.some((v) => v < 0 || v > range)) {
    throw badBox(family, raw, image, `outside the 0-${range} range`);
  }
  const v1000 = values.map((v) => v * 1000 / range);
  const box = v1000.length === 2
    ? [v1000[0] - 10, v1000[1] - 10, v1000[0] + 10, v1000[1] + 10].map((v) =>
      Math.min(1000, Math.max(0, v))
    )
    : v1000;
  const sx = (v: number) => Math.round(v * (image.width - 1) / 1000);
  const sy = (v: number) => Math.round(v * (image.height - 1) / 1000);
  return pixelsToRect([sx(box[0]), sy(box[1]), sx(box[2]), sy(box[3])], image, family, raw);
}

/** Box in absolute pixels (`[x1, y1, x2, y2]`, or a point `[x, y]`) to a pixel rect. */
export function absoluteToRect(
  values: number[],
  image: ModelImageSize,
  family: string,
  raw: unknown,
): Rect {
  const box = values.length === 2
    ? [
      Math.max(0, values[0] - 10),
      Math.max(0, values[1] - 10),
      Math.min(image.contentWidth - 1, values[0] + 10),
      Math.min(image.contentHeight - 1, values[1] + 10),
    ]
    : values;
  if (
    values.length === 2 &&
    (values[0] < 0 || values[1] < 0 || values[0] > image.width || values[1] > image.height)
  ) {
    throw badBox(family, raw, image, "outside the image");
  }
  return pixelsToRect(box.map(Math.round), image, family, raw);
}
