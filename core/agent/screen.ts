/**
 * One captured screen: the screenshot as the model sees it (shrunk, maybe padded), its id in the
 * report, and the mapping from the model's image pixels back to the device.
 *
 * Mapping is per axis from measured sizes (logical size / content width), so a device pixel ratio
 * and a shrink factor compose without rounding drift.
 *
 * @module
 */

import type { AbstractInterface, LocatedElement, Rect, Size } from "../device/types.ts";
import { imageSizeFromDataUri, prepareImage } from "../image/mod.ts";
import type { PreparedImage } from "../image/mod.ts";
import type { ModelFamily, ModelImageSize } from "../model/families/mod.ts";
import type { ReportScreenshotSink } from "../report/types.ts";

/** A screen as captured for one model call. */
export interface Screen {
  /** The image sent to the model and stored in the report. */
  image: PreparedImage;
  /** Its id in the report. */
  screenshotId: string;
  /** Logical size and dpr of the device. */
  logical: Size;
  /** Size of the raw screenshot in physical pixels. */
  physical: { width: number; height: number };
  /** Size facts for the family's box conversion. */
  modelImage: ModelImageSize;
}

/** Captures the device's screen for a call whose model uses `family`. */
export async function captureScreen(
  device: AbstractInterface,
  family: ModelFamily,
  shrinkFactor: number,
  report: ReportScreenshotSink,
): Promise<Screen> {
  const [raw, logical] = await Promise.all([device.screenshotBase64(), device.size()]);
  return await screenFromRaw(raw, logical, family, shrinkFactor, report);
}

/**
 * A screen from a screenshot already taken (`raw`: data URI, physical pixels) and the logical
 * size it was taken at: the frozen page context (spec 3.2) goes through here on every call.
 */
export async function screenFromRaw(
  raw: string,
  logical: Size,
  family: ModelFamily,
  shrinkFactor: number,
  report: ReportScreenshotSink,
): Promise<Screen> {
  const physical = imageSizeFromDataUri(raw);
  const image = await prepareImage(raw, { shrinkFactor, padToMultipleOf: family.padToMultipleOf });
  return {
    image,
    screenshotId: report.addScreenshot(image.dataUri),
    logical,
    physical: { width: physical.width, height: physical.height },
    modelImage: {
      width: image.width,
      height: image.height,
      contentWidth: image.contentWidth,
      contentHeight: image.contentHeight,
    },
  };
}

/** Scales a rect in model-image pixels by per-axis factors. */
function scaleRect(r: Rect, sx: number, sy: number): Rect {
  return { left: r.left * sx, top: r.top * sy, width: r.width * sx, height: r.height * sy };
}

/** Converts a rect in model-image pixels to an element in the device's logical pixels. */
export function toLocatedElement(screen: Screen, rect: Rect, description: string): LocatedElement {
  const sx = screen.logical.width / screen.image.contentWidth;
  const sy = screen.logical.height / screen.image.contentHeight;
  const r = scaleRect(rect, sx, sy);
  return {
    description,
    rect: r,
    center: [Math.round(r.left + r.width / 2), Math.round(r.top + r.height / 2)],
  };
}

/** Converts a rect in model-image pixels to physical screenshot pixels (spec 2.6). */
export function toPhysicalRect(screen: Screen, rect: Rect): Rect {
  return scaleRect(
    rect,
    screen.physical.width / screen.image.contentWidth,
    screen.physical.height / screen.image.contentHeight,
  );
}
