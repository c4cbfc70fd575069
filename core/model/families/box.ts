/**
 * Box arithmetic shared by the families: lenient reading of numbers, normalized and absolute
 * conventions, points to small boxes, and range checks that name what was wrong.
 *
 * @module
 */

import type { Rect } from "../../device/types.ts";
import { ModelResponseError, QUOTE_EXCERPT_CHARS, quoteExcerpt } from "../../errors.ts";
import type { ModelImageSize } from "../chat.ts";

/** A list read from a box string: numbers, and lists of them. */
type Nested = number | Nested[];

/** Words a box list may carry before its numbers (`["bbox", [1, 2, 3, 4]]`). */
const BOX_LABELS = /^(bbox|bbox_2d|box|box_2d|point)$/i;

/**
 * A string of numbers and brackets only: `"336 163 717 200"`, `"[336, 163, 717, 200]"`,
 * `"(336,163),(717,200)"`, `"[[1,2,3,4]]"`, `"277; 664 291;"`. Numbers are separated by blanks,
 * commas or semicolons; `(` `)` group like `[` `]`. Anything else (a word, a colon) makes the
 * string no list: `undefined`.
 */
function numberList(text: string): Nested[] | undefined {
  const t = text.trim().replace(/[\s,;]+$/, "");
  if (!/\d/.test(t) || !/^[[\]()\s,;0-9.-]*$/.test(t)) return undefined;
  const tokens = t.replace(/\(/g, "[").replace(/\)/g, "]").match(/\[|\]|[^\s,;[\]]+/g) ?? [];
  const stack: Nested[][] = [[]];
  for (const token of tokens) {
    if (token === "[") stack.push([]);
    else if (token === "]") {
      if (stack.length < 2) return undefined;
      const done = stack.pop()!;
      stack[stack.length - 1].push(done);
    } else {
      if (!/^-?(\d+(\.\d*)?|\.\d+)$/.test(token)) return undefined;
      stack[stack.length - 1].push(Number(token));
    }
  }
  return stack.length === 1 ? stack[0] : undefined;
}

/** `"x1=100, y1=200, x2=300, y2=400"` or `"x: 5, y: 7"`, labels in that order; else undefined. */
function labeledNumbers(text: string): number[] | undefined {
  const pairs = [...text.matchAll(/([xy][12]?)\s*[=:]\s*(-?\d+(?:\.\d+)?)/gi)];
  const rest = text.replace(/([xy][12]?)\s*[=:]\s*(-?\d+(?:\.\d+)?)/gi, "");
  if (pairs.length === 0 || !/^[\s,;]*$/.test(rest)) return undefined;
  const labels = pairs.map((m) => m[1].toLowerCase()).join(",");
  if (labels !== "x1,y1,x2,y2" && labels !== "x,y" && labels !== "x1,y1") return undefined;
  return pairs.map((m) => Number(m[2]));
}

/**
 * The numbers a box string stands for, read strictly: a `<bbox>`, `<bbox_2d>`, `<box>` or
 * `<point>` tag (the first one; text around it is ignored), else a `bbox_x1_y1_x2_y2` token
 * (Doubao; text around it is ignored), else labeled numbers, else the whole string as a list
 * of numbers. Numbers anywhere else in a string never count.
 */
function stringBox(text: string): Nested[] | undefined {
  const t = text.replace(/<\|(box_start|box_end|begin_of_box|end_of_box)\|>/g, " ");
  const tag = /<(bbox|bbox_2d|box|point)>([\s\S]*?)<\/\1>/i.exec(t);
  if (tag) return numberList(tag[2]);
  const token = /(?<![A-Za-z0-9])bbox((?:_-?\d+(?:\.\d+)?){4})(?![\w.])/i.exec(t);
  if (token) return token[1].slice(1).split("_").map(Number);
  return labeledNumbers(t) ?? numberList(t);
}

/** 2 numbers: a point; 4: a box; 8: a quadrilateral, as its bounds; else undefined. */
function byCount(n: number[]): number[] | undefined {
  if (n.length === 2 || n.length === 4) return n;
  if (n.length !== 8) return undefined;
  const even = n.filter((_, i) => i % 2 === 0), odd = n.filter((_, i) => i % 2 === 1);
  return [Math.min(...even), Math.min(...odd), Math.max(...even), Math.max(...odd)];
}

/**
 * The box of a list: flat numbers (strings of numbers spliced in: `["123 222", "789 100"]`,
 * `[653, "277; 664 291;"]`), one wrapped list (`[[1, 2, 3, 4]]`), corner points
 * (`[[x1, y1], [x2, y2]]`, or four of them: a quadrilateral), or several boxes (the first, as
 * the vendors' parsers take it). Labels (`"bbox"`, `"bbox_2d"`) before the numbers are skipped.
 */
function listBox(list: readonly unknown[]): number[] | undefined {
  const items: unknown[] = [];
  for (const item of list) {
    if (typeof item === "string") {
      if (BOX_LABELS.test(item.trim())) continue;
      const read = stringBox(item);
      if (!read) return undefined;
      items.push(...read);
    } else items.push(item);
  }
  if (items.length === 0) return undefined;
  if (items.every((v) => typeof v === "number")) {
    return (items as number[]).every(Number.isFinite) ? byCount(items as number[]) : undefined;
  }
  if (items.length === 1 && Array.isArray(items[0])) return listBox(items[0]);
  if (!items.every(Array.isArray)) return undefined;
  const inner = items.map((v) => listBox(v as unknown[]));
  if (inner.some((v) => v === undefined)) return undefined;
  const boxes = inner as number[][];
  if (boxes.every((b) => b.length === 2)) return byCount(boxes.flat());
  return boxes[0].length === 4 ? boxes[0] : undefined;
}

/**
 * Reads a point (2 numbers) or a box (4) from a model's value, strictly: only the numbers of
 * the value's box count. Accepted: `[1, 2, 3, 4]`, `["1", "2", "3", "4"]`, `"336 163 717 200"`,
 * `"[336, 163, 717, 200]"`, `"(x,y)"`, `"(x1,y1),(x2,y2)"`, `[[x1, y1], [x2, y2]]`,
 * `[[1, 2, 3, 4]]` (and the first of several boxes), `"<bbox>x1 y1 x2 y2</bbox>"`,
 * `"<point>x y</point>"` (prose around the tag is ignored), `"bbox_x1_y1_x2_y2"` (Doubao's token;
 * prose around it is ignored), `"x1=.., y1=.., x2=.., y2=.."`, and 8 numbers (a quadrilateral's
 * corners, in any of these shapes) as their bounds. Anything else, say a string with words and
 * numbers but no tag or token (`"error: 500, 503"`), or 3, 5 or 6 numbers, is not a box.
 *
 * @param image the image the model saw, named in the error.
 * @throws {ModelResponseError} when the value is not a point or a box.
 */
export function readBoxNumbers(raw: unknown, family: string, image?: ModelImageSize): number[] {
  const numbers = typeof raw === "string"
    ? (() => {
      const read = stringBox(raw);
      return read ? listBox(read) : undefined;
    })()
    : Array.isArray(raw)
    ? listBox(raw)
    : undefined;
  if (!numbers || numbers.some((n) => !Number.isFinite(n))) {
    throw new ModelResponseError(
      `Model family '${family}' answered a bbox that is neither a point nor a box: ${
        shownBox(raw)
      }` + (image ? ` (image ${image.width}x${image.height} px)` : ""),
      JSON.stringify(raw),
    );
  }
  return numbers;
}

/**
 * The box of an answer object (a locate answer, a planned `locate`): its `bbox`, or, when it has
 * none, the first of the family's own box keys it has (`bbox_2d`, `box_2d`); `undefined` when
 * it has none of them. Only this value's numbers are read as the box.
 */
export function boxField(
  answer: Record<string, unknown>,
  family: { readonly boxKeys?: readonly string[] },
): unknown {
  if ("bbox" in answer) return answer.bbox;
  const key = family.boxKeys?.find((k) => k in answer);
  return key === undefined ? undefined : answer[key];
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
