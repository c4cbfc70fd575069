/**
 * `mirrorConfig.maxSize` for fallback screenshots (spec 4.8): while the mirror is unavailable, a
 * `screencap` PNG is scaled down so that its longer side is at most `maxSize`, as the mirror's
 * frames are. `pngjs` (pure JavaScript) is loaded on first use.
 *
 * @module
 */

/**
 * The size an image of `width` x `height` gets with `maxSize`: the aspect ratio kept, the longer
 * side at most `maxSize` (0: unchanged).
 */
export function limitToMaxSize(
  width: number,
  height: number,
  maxSize: number,
): { width: number; height: number } {
  const longer = Math.max(width, height);
  if (maxSize <= 0 || longer <= maxSize) return { width, height };
  const scale = maxSize / longer;
  return {
    width: Math.max(1, Math.round(width * scale)),
    height: Math.max(1, Math.round(height * scale)),
  };
}

/** `png` scaled down to fit `maxSize` (area averaging), or `png` itself when it already fits. */
export async function scalePngToMaxSize(png: Uint8Array, maxSize: number): Promise<Uint8Array> {
  const { PNG } = await import("pngjs");
  const { Buffer } = await import("node:buffer");
  const source = PNG.sync.read(Buffer.from(png));
  const target = limitToMaxSize(source.width, source.height, maxSize);
  if (target.width === source.width && target.height === source.height) return png;
  const out = new PNG({ width: target.width, height: target.height });
  const sx = source.width / target.width;
  const sy = source.height / target.height;
  for (let y = 0; y < target.height; y++) {
    const y0 = Math.floor(y * sy);
    const y1 = Math.max(y0 + 1, Math.floor((y + 1) * sy));
    for (let x = 0; x < target.width; x++) {
      const x0 = Math.floor(x * sx);
      const x1 = Math.max(x0 + 1, Math.floor((x + 1) * sx));
      const sum = [0, 0, 0, 0];
      for (let yy = y0; yy < y1; yy++) {
        for (let xx = x0; xx < x1; xx++) {
          const i = (yy * source.width + xx) * 4;
          for (let c = 0; c < 4; c++) sum[c] += source.data[i + c];
        }
      }
      const count = (y1 - y0) * (x1 - x0);
      const o = (y * target.width + x) * 4;
      for (let c = 0; c < 4; c++) out.data[o + c] = Math.round(sum[c] / count);
    }
  }
  return new Uint8Array(PNG.sync.write(out));
}
