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
import type { PreparedImage, ScreenshotEncoding } from "../image/mod.ts";
import type { ModelFamily } from "../model/families/mod.ts";
import type { ModelImageSize } from "../model/chat.ts";
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

/** How a call's screenshots are made: the agent's encoding and shrink factor. */
export interface ScreenSettings {
  /** The format sent to the model and stored in the report (`screenshotFormat`/`Quality`). */
  encoding: ScreenshotEncoding;
  /** `screenshotShrinkFactor`. */
  shrinkFactor: number;
}

/**
 * What to ask the device for: the final encoding when the image is sent as captured, else PNG,
 * so that shrinking or padding works on lossless pixels and the one lossy encode comes last.
 * `padToMultipleOf` undefined means no family is known yet (a frozen snapshot): only the shrink
 * factor decides, and a padding family re-encodes that snapshot later.
 */
export function sourceEncoding(
  settings: ScreenSettings,
  padToMultipleOf?: number,
): ScreenshotEncoding {
  const transforms = settings.shrinkFactor !== 1 || (padToMultipleOf ?? 1) > 1;
  return transforms ? { format: "png", quality: settings.encoding.quality } : settings.encoding;
}

/** Captures the device's screen for a call whose model uses `family`. */
export async function captureScreen(
  device: AbstractInterface,
  family: ModelFamily,
  settings: ScreenSettings,
  report: ReportScreenshotSink,
): Promise<Screen> {
  const [raw, logical] = await Promise.all([
    device.screenshotBase64(sourceEncoding(settings, family.padToMultipleOf)),
    device.size(),
  ]);
  return await screenFromRaw(raw, logical, family, settings, report);
}

/**
 * The current screen as one image in the agent's encoding, unshrunk, for the report
 * (`recordToReport`): `raw` when given (a frozen snapshot), else a new capture.
 */
export async function reportScreenshot(
  device: AbstractInterface,
  encoding: ScreenshotEncoding,
  raw?: string,
): Promise<string> {
  const shot = raw ?? await device.screenshotBase64(encoding);
  return (await prepareImage(shot, { encoding })).dataUri;
}

/**
 * A screen from a screenshot already taken (`raw`: data URI, physical pixels) and the logical
 * size it was taken at: the frozen page context (spec 3.2) goes through here on every call.
 */
export async function screenFromRaw(
  raw: string,
  logical: Size,
  family: ModelFamily,
  settings: ScreenSettings,
  report: ReportScreenshotSink,
): Promise<Screen> {
  const physical = imageSizeFromDataUri(raw);
  const image = await prepareImage(raw, {
    shrinkFactor: settings.shrinkFactor,
    padToMultipleOf: family.padToMultipleOf,
    encoding: settings.encoding,
  });
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
