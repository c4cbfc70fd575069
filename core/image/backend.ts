/**
 * Image backends: the code that decodes, resizes, pads and re-encodes a screenshot.
 *
 * - `sharp` (libvips, native): fastest; used in Node, and in Deno when `--allow-ffi` is granted
 *   (checked without prompting).
 * - `canvas` (OffscreenCanvas): in a browser page, where sharp cannot exist.
 * - `js` (`pngjs` + `jpeg-js` + a box filter): no native code, for Deno without `--allow-ffi`
 *   and any other place where sharp fails to load.
 *
 * Every backend is loaded lazily by dynamic `import()` the first time an image must really be
 * transformed, so importing core costs nothing and never fails for lack of a native module. This
 * file is the only one that imports `sharp`, `pngjs` and `jpeg-js`, and only behind the runtime
 * check: a browser bundle of core (scripts/bundle_core.ts) replaces them with modules that
 * throw, and the canvas backend does all the work there (docs/in-browser.md).
 *
 * @module
 */

import { MissingDependencyError, SdkTypeError } from "../errors.ts";
import { nativeAddonsAllowed, nodeBuiltin, runtimeKind } from "../runtime/runtime.ts";
import { padRightBottomWhite, resizeBox, type RgbaImage } from "./resample.ts";
import type { ImageMime } from "./size.ts";

/**
 * The format an image is written in: PNG (lossless), or JPEG at `quality` (1-100). Internal to
 * `core/image`; the public shape is `ScreenshotEncoding` in `encoding.ts`.
 */
export interface EncodeTarget {
  /** Output media type. */
  mime: ImageMime;
  /** JPEG quality, 1-100; ignored for PNG. */
  quality: number;
}

/** Name of an image backend. */
export type ImageBackendName = "sharp" | "canvas" | "js";

/** Backend selection: `"auto"` (the default) picks the best one that loads. */
export type ImageBackendMode = "auto" | ImageBackendName;

/** What a backend must produce, in pixels. Internal to `core/image`. */
export interface ImagePlan {
  /** Size of the input image. */
  sourceWidth: number;
  sourceHeight: number;
  /** Size after shrinking, before padding. */
  contentWidth: number;
  contentHeight: number;
  /** Size after padding (>= content size); the padding is white, right and bottom. */
  width: number;
  height: number;
}

/** A region of an image in pixels: integers, inside the image. Internal to `core/image`. */
export interface PixelRegion {
  /** Left edge. */
  left: number;
  /** Top edge. */
  top: number;
  /** Width, > 0. */
  width: number;
  /** Height, > 0. */
  height: number;
}

/** A loaded backend. Internal to `core/image`. */
export interface ImageBackend {
  /** Which backend this is. */
  name: ImageBackendName;
  /** Decodes `bytes` (of format `mime`), applies `plan` and encodes the result as `out`. */
  transform(
    bytes: Uint8Array,
    mime: ImageMime,
    plan: ImagePlan,
    out: EncodeTarget,
  ): Promise<Uint8Array>;
  /**
   * Decodes `bytes`, cuts `region` out, scales it to `width` x `height` and encodes it in the
   * input's format (JPEG at {@link JPEG_QUALITY}).
   */
  crop(
    bytes: Uint8Array,
    mime: ImageMime,
    region: PixelRegion,
    width: number,
    height: number,
  ): Promise<Uint8Array>;
  /**
   * Decodes `bytes` and scales the whole image to `width` x `height` gray levels (0-255, one
   * byte a pixel, rows top to bottom): a thumbnail to compare screens cheaply.
   */
  gray(bytes: Uint8Array, mime: ImageMime, width: number, height: number): Promise<Uint8Array>;
}

/** Gray levels (Rec. 601 luma) of RGBA pixels. */
function rgbaToGray(data: Uint8Array, pixels: number): Uint8Array {
  const gray = new Uint8Array(pixels);
  for (let i = 0; i < pixels; i++) {
    gray[i] = (data[i * 4] * 299 + data[i * 4 + 1] * 587 + data[i * 4 + 2] * 114) / 1000;
  }
  return gray;
}

/** JPEG quality of zoomed crops (deepLocate) and of test images: keeps UI text crisp. */
export const JPEG_QUALITY = 90;

let mode: ImageBackendMode = "auto";
let selected: Promise<ImageBackend> | undefined;

/**
 * Forces a backend, so tests can run the fallback where sharp would load. `"auto"` restores the
 * default choice. Process-wide; takes effect for the next `prepareImage` call.
 *
 * @param backend `"auto"`, `"sharp"`, `"canvas"` or `"js"`.
 * @throws {TypeError} for any other value.
 */
export function setImageBackendForTesting(backend: ImageBackendMode): void {
  if (!["auto", "sharp", "canvas", "js"].includes(backend)) {
    throw new SdkTypeError(`Unknown image backend "${String(backend)}"`);
  }
  mode = backend;
  selected = undefined;
}

/**
 * Loads (once) and returns the backend that `prepareImage` uses.
 *
 * @throws {Error} when a forced backend cannot load (in `"auto"` mode, the `js` fallback is
 *   the last resort and its load error is thrown).
 */
export function loadImageBackend(): Promise<ImageBackend> {
  if (!selected) {
    const p = selected = pick(mode);
    // A failed load is not kept, so a later call (or another mode) can retry.
    p.catch(() => {
      if (selected === p) selected = undefined;
    });
  }
  return selected;
}

/**
 * Resolves to the name of the backend `prepareImage` uses now (loading it if needed).
 *
 * @throws {Error} as {@link loadImageBackend}.
 */
export async function imageBackendInUse(): Promise<ImageBackendName> {
  return (await loadImageBackend()).name;
}

async function pick(m: ImageBackendMode): Promise<ImageBackend> {
  if (m === "sharp") return await sharpBackend();
  if (m === "canvas") return canvasBackend();
  if (m === "js") return await jsBackend();
  if (runtimeKind === "browser") {
    // sharp cannot exist in a page; a bundler may not even resolve its import.
    return hasOffscreenCanvas() ? canvasBackend() : await jsBackend();
  }
  try {
    return await sharpBackend();
  } catch {
    // Deno without --allow-ffi, no prebuilt binary for this platform, etc.
    return await jsBackend();
  }
}

// ---------------------------------------------------------------------------------------------
// sharp

/** The part of sharp's API used here, typed locally so core's types do not pull in Node's. */
interface SharpPipeline {
  extract(region: PixelRegion): SharpPipeline;
  resize(width: number, height: number, options: { fit: "fill" }): SharpPipeline;
  extend(options: {
    right: number;
    bottom: number;
    background: { r: number; g: number; b: number; alpha: number };
  }): SharpPipeline;
  png(): SharpPipeline;
  jpeg(options: { quality: number }): SharpPipeline;
  greyscale(): SharpPipeline;
  raw(): SharpPipeline;
  toBuffer(): Promise<Uint8Array>;
}
type SharpFactory = (input: Uint8Array) => SharpPipeline;

let sharpLoad: Promise<SharpFactory> | undefined;

function loadSharp(): Promise<SharpFactory> {
  // Cached with its failure too: a failing native load is slow and will not start working.
  return sharpLoad ??= import("sharp").then((mod) => {
    const m = mod as unknown as { default?: SharpFactory };
    const factory = m.default ?? (mod as unknown as SharpFactory);
    if (typeof factory !== "function") {
      throw new MissingDependencyError("The sharp module has no default export", "sharp");
    }
    return factory;
  });
}

async function sharpBackend(): Promise<ImageBackend> {
  // In Deno, importing sharp without --allow-ffi would show a permission prompt mid-step.
  if (!nativeAddonsAllowed()) {
    throw new MissingDependencyError("sharp needs --allow-ffi in Deno; not granted", "sharp");
  }
  const sharp = await loadSharp();
  return {
    name: "sharp",
    transform(bytes, _mime, plan, out) {
      let p = sharp(bytes);
      if (plan.contentWidth !== plan.sourceWidth || plan.contentHeight !== plan.sourceHeight) {
        p = p.resize(plan.contentWidth, plan.contentHeight, { fit: "fill" });
      }
      // sharp always applies extend after resize, whatever the call order.
      if (plan.width !== plan.contentWidth || plan.height !== plan.contentHeight) {
        p = p.extend({
          right: plan.width - plan.contentWidth,
          bottom: plan.height - plan.contentHeight,
          background: { r: 255, g: 255, b: 255, alpha: 1 },
        });
      }
      p = out.mime === "image/png" ? p.png() : p.jpeg({ quality: out.quality });
      return p.toBuffer();
    },
    crop(bytes, mime, region, width, height) {
      let p = sharp(bytes).extract(region);
      if (width !== region.width || height !== region.height) {
        p = p.resize(width, height, { fit: "fill" });
      }
      return (mime === "image/png" ? p.png() : p.jpeg({ quality: JPEG_QUALITY })).toBuffer();
    },
    async gray(bytes, _mime, width, height) {
      const out = await sharp(bytes).resize(width, height, { fit: "fill" }).greyscale().raw()
        .toBuffer();
      // A PNG with alpha keeps two channels (gray, alpha) after greyscale().
      const channels = out.length / (width * height);
      if (channels === 1) return new Uint8Array(out);
      const gray = new Uint8Array(width * height);
      for (let i = 0; i < gray.length; i++) gray[i] = out[i * channels];
      return gray;
    },
  };
}

// ---------------------------------------------------------------------------------------------
// OffscreenCanvas (browser page). Typed locally: core's type check does not include the DOM lib.

interface Canvas2D {
  fillStyle: string;
  getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray };
  imageSmoothingEnabled: boolean;
  imageSmoothingQuality: string;
  fillRect(x: number, y: number, w: number, h: number): void;
  drawImage(image: unknown, x: number, y: number, w: number, h: number): void;
  drawImage(
    image: unknown,
    sx: number,
    sy: number,
    sw: number,
    sh: number,
    dx: number,
    dy: number,
    dw: number,
    dh: number,
  ): void;
}
interface OffscreenCanvasLike {
  getContext(kind: "2d"): Canvas2D | null;
  convertToBlob(options: { type: string; quality?: number }): Promise<Blob>;
}
interface CanvasGlobals {
  OffscreenCanvas?: new (width: number, height: number) => OffscreenCanvasLike;
  createImageBitmap?: (blob: Blob) => Promise<{ close(): void }>;
}

const canvasGlobals = globalThis as unknown as CanvasGlobals;

let canvas2d: boolean | undefined;

/** True when OffscreenCanvas has a 2d context (Deno has OffscreenCanvas but no 2d context). */
function hasOffscreenCanvas(): boolean {
  if (canvas2d === undefined) {
    try {
      canvas2d = typeof canvasGlobals.createImageBitmap === "function" &&
        typeof canvasGlobals.OffscreenCanvas === "function" &&
        new canvasGlobals.OffscreenCanvas(1, 1).getContext("2d") !== null;
    } catch {
      canvas2d = false;
    }
  }
  return canvas2d;
}

function canvasBackend(): ImageBackend {
  if (!hasOffscreenCanvas()) {
    throw new MissingDependencyError(
      "OffscreenCanvas with a 2d context is not available in this runtime",
      "OffscreenCanvas",
    );
  }
  const { OffscreenCanvas, createImageBitmap } = canvasGlobals as Required<CanvasGlobals>;
  // Decodes `bytes`, gives `paint` a width x height canvas with smoothing on, and frees the bitmap.
  async function paintOn<T>(
    bytes: Uint8Array,
    mime: string,
    width: number,
    height: number,
    paint: (ctx: Canvas2D, bitmap: unknown, canvas: OffscreenCanvasLike) => Promise<T> | T,
  ): Promise<T> {
    const bitmap = await createImageBitmap(
      new Blob([bytes as Uint8Array<ArrayBuffer>], { type: mime }),
    );
    try {
      const canvas = new OffscreenCanvas(width, height);
      const ctx = canvas.getContext("2d");
      if (!ctx) {
        throw new MissingDependencyError("OffscreenCanvas has no 2d context", "OffscreenCanvas");
      }
      ctx.imageSmoothingEnabled = true;
      ctx.imageSmoothingQuality = "high";
      return await paint(ctx, bitmap, canvas);
    } finally {
      bitmap.close();
    }
  }
  const encode = async (canvas: OffscreenCanvasLike, mime: string, quality: number) =>
    new Uint8Array(await (await canvas.convertToBlob({ type: mime, quality })).arrayBuffer());
  return {
    name: "canvas",
    transform(bytes, mime, plan, out) {
      return paintOn(bytes, mime, plan.width, plan.height, (ctx, bitmap, canvas) => {
        // Only the padding is filled: a transparent PNG keeps its transparency, as with sharp.
        ctx.fillStyle = "#ffffff";
        ctx.fillRect(plan.contentWidth, 0, plan.width - plan.contentWidth, plan.height);
        ctx.fillRect(0, plan.contentHeight, plan.contentWidth, plan.height - plan.contentHeight);
        ctx.drawImage(bitmap, 0, 0, plan.contentWidth, plan.contentHeight);
        return encode(canvas, out.mime, out.quality / 100);
      });
    },
    crop(bytes, mime, region, width, height) {
      return paintOn(bytes, mime, width, height, (ctx, bitmap, canvas) => {
        const { left, top, width: w, height: h } = region;
        ctx.drawImage(bitmap, left, top, w, h, 0, 0, width, height);
        return encode(canvas, mime, JPEG_QUALITY / 100);
      });
    },
    gray(bytes, mime, width, height) {
      return paintOn(bytes, mime, width, height, (ctx, bitmap) => {
        ctx.drawImage(bitmap, 0, 0, width, height);
        const { data } = ctx.getImageData(0, 0, width, height);
        return rgbaToGray(new Uint8Array(data.buffer), width * height);
      });
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Pure JS: pngjs + jpeg-js (codecs) and resample.ts (resize, pad).

/** The part of pngjs used here (it ships no types). */
interface PngMeta {
  width: number;
  height: number;
  data: Uint8Array;
  alpha?: boolean;
}
interface PngjsModule {
  PNG: {
    sync: {
      read(buffer: Uint8Array): PngMeta;
      write(
        png: PngMeta,
        options: {
          colorType: 2 | 6;
          inputHasAlpha: boolean;
          deflateLevel: number;
          filterType: number;
        },
      ): Uint8Array;
    };
  };
}
/** The part of jpeg-js used here. */
interface JpegjsModule {
  decode(
    bytes: Uint8Array,
    options: { useTArray: true; formatAsRGBA: true; maxMemoryUsageInMB: number },
  ): RgbaImage;
  encode(image: RgbaImage, quality: number): { data: Uint8Array };
}
interface BufferModule {
  Buffer: { from(data: ArrayBufferLike, offset: number, length: number): Uint8Array };
}

/** The pure-JS codecs; loaded once. Internal to `core/image` (tests decode with it too). */
export interface JsCodecs {
  /** Decodes a PNG or JPEG to RGBA; `alpha` says whether a PNG had an alpha channel. */
  decode(bytes: Uint8Array, mime: ImageMime): RgbaImage & { alpha: boolean };
  /**
   * Encodes RGBA to PNG (RGB when `alpha` is false) or JPEG at `quality` (1-100, default
   * {@link JPEG_QUALITY}).
   */
  encode(image: RgbaImage, mime: ImageMime, alpha: boolean, quality?: number): Uint8Array;
}

let codecsLoad: Promise<JsCodecs> | undefined;

/**
 * Loads `pngjs` and `jpeg-js` once (and takes `node:buffer`, which pngjs needs for its input,
 * from the runtime).
 *
 * @throws {Error} when they cannot be imported (in a browser bundle of core they throw).
 */
export function loadJsCodecs(): Promise<JsCodecs> {
  if (codecsLoad) return codecsLoad;
  const p = codecsLoad = (async (): Promise<JsCodecs> => {
    const [pngMod, jpegMod, bufferMod] = await Promise.all([
      import("pngjs"),
      import("jpeg-js"),
      // pngjs reads its input with Buffer methods. From the runtime, like runtime.ts: this path
      // only runs where pngjs itself runs (Deno, Node), never at module load.
      nodeBuiltin<BufferModule>("node:buffer"),
    ]);
    // CommonJS packages: the exports object is the default export under ESM interop.
    const pngjs = ((pngMod as { default?: unknown }).default ?? pngMod) as PngjsModule;
    const jpeg = ((jpegMod as { default?: unknown }).default ?? jpegMod) as JpegjsModule;
    const { Buffer } = bufferMod;
    return {
      decode(bytes, mime) {
        if (mime === "image/jpeg") {
          const img = jpeg.decode(bytes, {
            useTArray: true,
            formatAsRGBA: true,
            maxMemoryUsageInMB: 1024,
          });
          return { width: img.width, height: img.height, data: img.data, alpha: false };
        }
        const png = pngjs.PNG.sync.read(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length));
        return { width: png.width, height: png.height, data: png.data, alpha: png.alpha === true };
      },
      encode(image, mime, alpha, quality = JPEG_QUALITY) {
        if (mime === "image/jpeg") return jpeg.encode(image, quality).data;
        return pngjs.PNG.sync.write(image, {
          colorType: alpha ? 6 : 2,
          inputHasAlpha: true,
          // Level 6, no row filter, as sharp/libvips does by default: pngjs' default (level 9,
          // trying all five filters per row) took 2x longer and gave larger screenshot files.
          deflateLevel: 6,
          filterType: 0,
        });
      },
    };
  })();
  // A failed import is not kept, so a later call can retry.
  p.catch(() => {
    if (codecsLoad === p) codecsLoad = undefined;
  });
  return p;
}

async function jsBackend(): Promise<ImageBackend> {
  const codecs = await loadJsCodecs();
  return {
    name: "js",
    transform(bytes, mime, plan, out) {
      const decoded = codecs.decode(bytes, mime);
      let image: RgbaImage = decoded;
      if (decoded.width !== plan.contentWidth || decoded.height !== plan.contentHeight) {
        image = resizeBox(decoded, plan.contentWidth, plan.contentHeight);
      }
      image = padRightBottomWhite(image, plan.width, plan.height);
      return Promise.resolve(codecs.encode(image, out.mime, decoded.alpha, out.quality));
    },
    gray(bytes, mime, width, height) {
      const small = resizeBox(codecs.decode(bytes, mime), width, height);
      return Promise.resolve(rgbaToGray(small.data, width * height));
    },
    crop(bytes, mime, region, width, height) {
      const decoded = codecs.decode(bytes, mime);
      const { left, top } = region;
      const cut: RgbaImage = {
        width: region.width,
        height: region.height,
        data: new Uint8Array(region.width * region.height * 4),
      };
      for (let y = 0; y < region.height; y++) {
        const from = ((top + y) * decoded.width + left) * 4;
        cut.data.set(decoded.data.subarray(from, from + region.width * 4), y * region.width * 4);
      }
      const scaled = width !== region.width || height !== region.height
        ? resizeBox(cut, width, height)
        : cut;
      return Promise.resolve(codecs.encode(scaled, mime, decoded.alpha));
    },
  };
}
