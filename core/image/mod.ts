/**
 * The screenshot image pipeline: read a PNG/JPEG size from its header, and shrink/pad a
 * screenshot before it is sent to the model (docs/model-protocol.md, "The image").
 *
 * @module
 */

export { type ImageMime, type ImageSize, imageSizeFromDataUri } from "./size.ts";
export { type PreparedImage, prepareImage, type PrepareImageOptions } from "./prepare.ts";
export {
  DEFAULT_SCREENSHOT_ENCODING,
  DEFAULT_SCREENSHOT_QUALITY,
  resolveScreenshotEncoding,
  type ScreenshotEncoding,
  type ScreenshotFormat,
} from "./encoding.ts";
export { cropImage, type CroppedImage, type CropRegion } from "./crop.ts";
export {
  imageBackendInUse,
  type ImageBackendMode,
  type ImageBackendName,
  setImageBackendForTesting,
} from "./backend.ts";
