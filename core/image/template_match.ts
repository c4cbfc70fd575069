/**
 * Finding a small image again on a screenshot: the visual fingerprint of an element on a device
 * that has no element tree (a desktop, RDP, a custom device; docs/agent.md, "Cache"). The
 * element's crop is kept small (at most {@link MAX_TEMPLATE_PIXELS} pixels), and found again by
 * OpenCV's normalized cross-correlation (`matchTemplate` with `TM_CCOEFF_NORMED`, npm
 * `@techstark/opencv-js`, WebAssembly, loaded on first use) over the gray levels of a screenshot
 * scaled so that the crop keeps its size: a score of 1 is the same pixels, a moved element scores
 * about 1, another label or another look far less.
 *
 * @module
 */

import { decodeBase64, encodeBase64 } from "./base64.ts";
import { loadImageBackend } from "./backend.ts";
import { readImageInput } from "./size.ts";

/** From this score on, the template is taken as found (a moved element scores above 0.97). */
export const TEMPLATE_MATCH_THRESHOLD = 0.9;

/** Largest template, pixels: a 100 x 80 crop, a few kilobytes in a cache file. */
const MAX_TEMPLATE_PIXELS = 8000;

/** A region in pixels of an image. */
export interface ImageRegion {
  /** Left edge. */
  left: number;
  /** Top edge. */
  top: number;
  /** Width. */
  width: number;
  /** Height. */
  height: number;
}

/** A template cut out of a screenshot. */
export interface ImageTemplate {
  /** The crop, a data URI in the screenshot's format, at most {@link MAX_TEMPLATE_PIXELS} pixels. */
  dataUri: string;
  /** Template pixels per screenshot pixel (1, or less for a large element). */
  scale: number;
  /**
   * The region cut, in screenshot pixels: the region asked for, or a larger one around it when
   * that was too plain to be found again (see {@link cutTemplate}).
   */
  region: ImageRegion;
}

/** Where a template was found. */
export interface TemplateMatch {
  /** The best place, in pixels of the screenshot searched. */
  region: ImageRegion;
  /** Its score, -1 to 1 (1: the same pixels). */
  score: number;
  /** The score of the best place that does not overlap it (-1 when there is none). */
  runnerUp: number;
}

/** Least spread of gray levels (standard deviation) a template needs to be found again. */
const MIN_TEMPLATE_CONTRAST = 12;

/** How often a plain region is doubled around its center, at most. */
const MAX_GROWTH_STEPS = 4;

/**
 * Cuts `region` (clipped to the image) out of a PNG or JPEG data URI as a template, scaled down to
 * at most {@link MAX_TEMPLATE_PIXELS} pixels. A region that could not be told apart (the middle of
 * an empty field around a point a planner gave: gray levels spread less than 12, or a crop found
 * in more than one place of this screenshot) is doubled around its center, up to 4 times, until
 * its surroundings make it unique. `undefined` when the region has no pixel inside.
 *
 * @throws what the image backend throws for data that is not an image.
 */
export async function cutTemplate(
  dataUri: string,
  region: ImageRegion,
): Promise<ImageTemplate | undefined> {
  const input = readImageInput(dataUri);
  const backend = await loadImageBackend();
  const bytes = decodeBase64(input.base64);
  let cut: ImageTemplate | undefined;
  for (let step = 0; step <= MAX_GROWTH_STEPS; step++) {
    const grow = 2 ** step;
    const cx = region.left + region.width / 2, cy = region.top + region.height / 2;
    const w = region.width * grow, h = region.height * grow;
    const left = Math.max(0, Math.round(cx - w / 2));
    const top = Math.max(0, Math.round(cy - h / 2));
    const right = Math.min(input.width, Math.round(cx + w / 2));
    const bottom = Math.min(input.height, Math.round(cy + h / 2));
    if (right - left < 2 || bottom - top < 2) return cut;
    const clipped = { left, top, width: right - left, height: bottom - top };
    const scale = Math.min(1, Math.sqrt(MAX_TEMPLATE_PIXELS / (clipped.width * clipped.height)));
    const width = Math.max(2, Math.round(clipped.width * scale));
    const height = Math.max(2, Math.round(clipped.height * scale));
    const out = await backend.crop(bytes, input.mime, clipped, width, height);
    cut = {
      dataUri: `data:${input.mime};base64,${encodeBase64(out)}`,
      scale: width / clipped.width,
      region: clipped,
    };
    const gray = await backend.gray(out, input.mime, width, height);
    if (contrast(gray) < MIN_TEMPLATE_CONTRAST) continue;
    // Found once only on the screenshot it was cut from: else it could not be told apart.
    const self = await findTemplate(dataUri, cut.dataUri, cut.scale);
    if (!self || self.runnerUp < TEMPLATE_MATCH_THRESHOLD) return cut;
  }
  return cut;
}

/** The standard deviation of gray levels. */
function contrast(gray: Uint8Array): number {
  let sum = 0, squares = 0;
  for (const v of gray) {
    sum += v;
    squares += v * v;
  }
  const mean = sum / gray.length;
  return Math.sqrt(Math.max(0, squares / gray.length - mean * mean));
}

/** The part of OpenCV.js used here. */
interface Mat {
  data: Uint8Array;
  rows: number;
  cols: number;
  delete(): void;
}
interface OpenCv {
  Mat: new (rows?: number, cols?: number, type?: number) => Mat;
  CV_8UC1: number;
  TM_CCOEFF_NORMED: number;
  matchTemplate(image: Mat, template: Mat, result: Mat, method: number): void;
  minMaxLoc(m: Mat): { maxVal: number; maxLoc: { x: number; y: number } };
  rectangle(
    m: Mat,
    a: { x: number; y: number },
    b: { x: number; y: number },
    color: unknown,
    thickness: number,
  ): void;
  Scalar: new (v: number) => unknown;
}

/**
 * OpenCV.js, wrapped: the Emscripten module is a thenable that calls back with itself, so a
 * promise must never resolve to it (awaiting it would follow its `then` for ever).
 */
let openCv: Promise<{ cv: OpenCv }> | undefined;

/** Loads OpenCV.js once (its WebAssembly runtime starts asynchronously), wrapped. */
function loadOpenCv(): Promise<{ cv: OpenCv }> {
  openCv ??= import("@techstark/opencv-js").then((mod) => {
    const cv = ((mod as { default?: unknown }).default ?? mod) as Partial<OpenCv> & {
      then?: (ready: (cv: OpenCv) => void) => void;
    };
    if (cv.Mat && cv.matchTemplate) return { cv: cv as OpenCv };
    return new Promise<{ cv: OpenCv }>((resolve) => cv.then!((ready) => resolve({ cv: ready })));
  });
  openCv.catch(() => openCv = undefined);
  return openCv;
}

/** Gray levels of a data URI scaled to `width` x `height`, as an OpenCV matrix. */
async function grayMat(cv: OpenCv, dataUri: string, width: number, height: number): Promise<Mat> {
  const input = readImageInput(dataUri);
  const backend = await loadImageBackend();
  const gray = await backend.gray(decodeBase64(input.base64), input.mime, width, height);
  const mat = new cv.Mat(height, width, cv.CV_8UC1);
  mat.data.set(gray);
  return mat;
}

/**
 * Finds `template` on `screenshot` (PNG or JPEG data URIs). `scale` is how many template pixels
 * one screenshot pixel of the element now spans (the template's own scale, times the change of
 * the screenshot's pixels per logical pixel since it was cut): the screenshot is resized by it,
 * so that the element has the template's size. `undefined` when the template is larger than the
 * resized screenshot.
 *
 * @throws what the image backend throws for data that is not an image; OpenCV's load error.
 */
export async function findTemplate(
  screenshot: string,
  template: string,
  scale: number,
): Promise<TemplateMatch | undefined> {
  const shot = readImageInput(screenshot);
  const tpl = readImageInput(template);
  const width = Math.round(shot.width * scale);
  const height = Math.round(shot.height * scale);
  if (tpl.width > width || tpl.height > height) return undefined;
  const { cv } = await loadOpenCv();
  const image = await grayMat(cv, screenshot, width, height);
  const needle = await grayMat(cv, template, tpl.width, tpl.height);
  const result = new cv.Mat();
  try {
    cv.matchTemplate(image, needle, result, cv.TM_CCOEFF_NORMED);
    const best = cv.minMaxLoc(result);
    // The runner-up is the best place that does not overlap the best one.
    const { x, y } = best.maxLoc;
    cv.rectangle(
      result,
      { x: x - tpl.width + 1, y: y - tpl.height + 1 },
      { x: x + tpl.width - 1, y: y + tpl.height - 1 },
      new cv.Scalar(-1),
      -1,
    );
    const second = result.rows * result.cols > 1 ? cv.minMaxLoc(result).maxVal : -1;
    // A flat template (one color) has no variance: its score is not a number, and not a match.
    const score = Number.isFinite(best.maxVal) ? best.maxVal : 0;
    return {
      region: {
        left: x / scale,
        top: y / scale,
        width: tpl.width / scale,
        height: tpl.height / scale,
      },
      score,
      runnerUp: Number.isFinite(second) ? second : -1,
    };
  } finally {
    image.delete();
    needle.delete();
    result.delete();
  }
}
