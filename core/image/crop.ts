/**
 * Crops a region out of a PNG or JPEG screenshot and scales it, for deepLocate's second, zoomed
 * call. Same backends as `prepare.ts`: sharp when it loads, else the pure-JS codecs (the canvas
 * backend crops through the pure-JS path too).
 *
 * @module
 */

import { decodeBase64, encodeBase64 } from "./base64.ts";
import { loadImageBackend, loadJsCodecs } from "./backend.ts";
import { resizeBox, type RgbaImage } from "./resample.ts";
import { readImageInput } from "./size.ts";

/** A region in pixels of the input image; integers, inside the image. */
export interface CropRegion {
  /** Left edge. */
  left: number;
  /** Top edge. */
  top: number;
  /** Width, > 0. */
  width: number;
  /** Height, > 0. */
  height: number;
}

/** A cropped (and scaled) image. */
export interface CroppedImage {
  /** Data URI, same format as the input. */
  dataUri: string;
  /** Width in pixels: `round(region.width * scale)`. */
  width: number;
  /** Height in pixels: `round(region.height * scale)`. */
  height: number;
}

interface SharpCrop {
  extract(r: CropRegion): SharpCrop;
  resize(w: number, h: number, o: { fit: "fill"; kernel?: string }): SharpCrop;
  png(): SharpCrop;
  jpeg(o: { quality: number }): SharpCrop;
  toBuffer(): Promise<Uint8Array>;
}

/**
 * Cuts `region` out of the image and scales it by `scale` (> 0; above 1 enlarges it).
 *
 * @throws {RangeError} when the region is empty, not integral, or outside the image, or `scale`
 *   is not a positive finite number.
 * @throws {TypeError} when the input is not a PNG/JPEG data URI.
 */
export async function cropImage(
  dataUri: string,
  region: CropRegion,
  scale = 1,
): Promise<CroppedImage> {
  const input = readImageInput(dataUri);
  const { left, top, width, height } = region;
  if (
    ![left, top, width, height].every(Number.isInteger) || width <= 0 || height <= 0 ||
    left < 0 || top < 0 || left + width > input.width || top + height > input.height
  ) {
    throw new RangeError(
      `crop region ${
        JSON.stringify(region)
      } is not inside the ${input.width}x${input.height} image`,
    );
  }
  if (!(Number.isFinite(scale) && scale > 0)) {
    throw new RangeError(`crop scale must be a positive number, got ${scale}`);
  }
  const outW = Math.max(1, Math.round(width * scale));
  const outH = Math.max(1, Math.round(height * scale));
  const bytes = decodeBase64(input.base64);
  const backend = await loadImageBackend();
  let out: Uint8Array;
  if (backend.name === "sharp") {
    const mod = await import("sharp");
    const sharp = ((mod as unknown as { default?: unknown }).default ?? mod) as (
      b: Uint8Array,
    ) => SharpCrop;
    let p = sharp(bytes).extract({ left, top, width, height });
    if (outW !== width || outH !== height) p = p.resize(outW, outH, { fit: "fill" });
    out = await (input.mime === "image/png" ? p.png() : p.jpeg({ quality: 90 })).toBuffer();
  } else {
    const codecs = await loadJsCodecs();
    const decoded = codecs.decode(bytes, input.mime);
    const cut: RgbaImage = { width, height, data: new Uint8Array(width * height * 4) };
    for (let y = 0; y < height; y++) {
      const from = ((top + y) * decoded.width + left) * 4;
      cut.data.set(decoded.data.subarray(from, from + width * 4), y * width * 4);
    }
    const scaled = outW !== width || outH !== height ? resizeBox(cut, outW, outH) : cut;
    out = codecs.encode(scaled, input.mime, decoded.alpha);
  }
  return { dataUri: `data:${input.mime};base64,${encodeBase64(out)}`, width: outW, height: outH };
}
