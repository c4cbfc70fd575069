/**
 * Screenshot encoding benchmark: what each way of encoding a screenshot costs and weighs, on the
 * flat `actions.html` and the image-rich `rich.html` at 1280 x 800, dpr 1, in headless Chromium.
 *
 * - Capture: Chromium's PNG capture and its JPEG capture at the default quality (the web
 *   device's path: Chromium encodes at the source), the median of {@link REPS} captures.
 * - Re-encode: a PNG screenshot to JPEG at the default quality by the SDK's own backends, sharp
 *   and the pure-JS fallback (the path of a device that can only give PNG, and of the shrink
 *   path), the median of {@link REPS} runs.
 * - Quality sweep: bytes and base64 characters of Chromium's JPEG at each quality, and how much of
 *   the page's text stays legible: the share of the words that OCR (tesseract, when installed:
 *   `apt-get install tesseract-ocr`) reads in the lossless PNG that it still reads in the JPEG.
 *   A scripted test model reads the page, not the image, so this is the measure of what lossy
 *   encoding takes away from a model's view.
 *
 * Prints tables and writes `bench/output/screenshot_encoding.json`. Exit code 0 even when a
 * target is missed (a benchmark reports, tests assert).
 *
 *     deno run --allow-all bench/screenshot_encoding.ts
 *
 * @module
 */

import { DEFAULT_SCREENSHOT_QUALITY } from "../core/image/encoding.ts";
import { encodeBase64 } from "../core/image/base64.ts";
import { prepareImage, setImageBackendForTesting } from "../core/image/mod.ts";
import { nativeAddonsAllowed } from "../core/runtime/runtime.ts";
import { launchChromium } from "../tests/helpers/browser.ts";
import { FIXTURE_APP_DIR, serveStatic } from "../tests/helpers/static_server.ts";

/** Pages measured. */
export const PAGES = ["actions.html", "rich.html"] as const;
/** JPEG qualities of the sweep. */
export const QUALITIES = [40, 50, 60, 70, 80, 90] as const;
/** Repetitions per timed measure. */
export const REPS = 10;
/** Target: sharp encodes one rich screenshot in at most this many ms. */
export const SHARP_ENCODE_TARGET_MS = 15;
/** Target: the pure-JS fallback encodes one rich screenshot in at most this many ms. */
export const JS_ENCODE_TARGET_MS = 120;

const VIEWPORT = { width: 1280, height: 800 };
const OUTPUT_DIR = new URL("output/", import.meta.url);

/** One quality of the sweep. */
interface SweepPoint {
  quality: number;
  bytes: number;
  base64Chars: number;
  /** Share of the PNG's OCR words still read in this JPEG (0-1); null without tesseract. */
  ocrRecall: number | null;
}

/** Everything measured on one page. */
interface PageResult {
  page: string;
  pngBytes: number;
  captureMs: { png: number; jpeg: number };
  reencodeMs: { sharp: number | null; js: number };
  reencodeBytes: { sharp: number | null; js: number };
  ocrWordsInPng: number | null;
  sweep: SweepPoint[];
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

async function timed<T>(run: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const start = performance.now();
  const value = await run();
  return { ms: performance.now() - start, value };
}

async function medianMs<T>(run: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const times: number[] = [];
  let value!: T;
  for (let i = 0; i < REPS; i++) {
    const r = await timed(run);
    times.push(r.ms);
    value = r.value;
  }
  return { ms: median(times), value };
}

const tesseract = await (async () => {
  try {
    const { success } = await new Deno.Command("tesseract", {
      args: ["--version"],
      stdout: "null",
      stderr: "null",
    }).output();
    return success;
  } catch {
    return false;
  }
})();

/** Words tesseract reads in an image: lower-case runs of 3+ letters or digits, with counts. */
async function ocrWords(bytes: Uint8Array, ext: string): Promise<Map<string, number>> {
  const file = await Deno.makeTempFile({ suffix: `.${ext}` });
  try {
    await Deno.writeFile(file, bytes);
    const out = await new Deno.Command("tesseract", { args: [file, "stdout"], stderr: "null" })
      .output();
    const words = new Map<string, number>();
    for (
      const w of new TextDecoder().decode(out.stdout).toLowerCase().match(/[a-z0-9]{3,}/g) ?? []
    ) {
      words.set(w, (words.get(w) ?? 0) + 1);
    }
    return words;
  } finally {
    await Deno.remove(file);
  }
}

/** Share of `reference`'s words (with multiplicity) found in `words`. */
function recall(reference: Map<string, number>, words: Map<string, number>): number {
  let total = 0, found = 0;
  for (const [w, n] of reference) {
    total += n;
    found += Math.min(n, words.get(w) ?? 0);
  }
  return total === 0 ? 1 : found / total;
}

const size = (n: number) => n.toLocaleString("en-US");

async function main(): Promise<void> {
  const server = await serveStatic(FIXTURE_APP_DIR);
  const browser = await launchChromium();
  const results: PageResult[] = [];
  try {
    for (const name of PAGES) {
      const context = await browser.newContext({ viewport: VIEWPORT, deviceScaleFactor: 1 });
      const page = await context.newPage();
      await page.goto(new URL(name, server.url).href);
      await page.waitForFunction(() =>
        (globalThis as unknown as { appState?: { ready?: boolean } }).appState?.ready !== false
      );
      const shoot = (type: "png" | "jpeg", quality?: number) =>
        page.screenshot({ type, quality, scale: "device", caret: "initial" });
      const png = await medianMs(() => shoot("png"));
      const jpeg = await medianMs(() => shoot("jpeg", DEFAULT_SCREENSHOT_QUALITY));
      const pngUri = `data:image/png;base64,${encodeBase64(png.value)}`;
      const encoding = { format: "jpeg", quality: DEFAULT_SCREENSHOT_QUALITY } as const;
      const reencode = async (backend: "sharp" | "js") => {
        setImageBackendForTesting(backend);
        try {
          const r = await medianMs(() => prepareImage(pngUri, { encoding }));
          return { ms: r.ms, bytes: Math.floor((r.value.dataUri.length - 23) * 3 / 4) };
        } finally {
          setImageBackendForTesting("auto");
        }
      };
      const sharp = nativeAddonsAllowed() ? await reencode("sharp") : null;
      const js = await reencode("js");
      const reference = tesseract ? await ocrWords(png.value, "png") : null;
      const sweep: SweepPoint[] = [];
      for (const quality of QUALITIES) {
        const bytes = await shoot("jpeg", quality);
        sweep.push({
          quality,
          bytes: bytes.length,
          base64Chars: `data:image/jpeg;base64,`.length + encodeBase64(bytes).length,
          ocrRecall: reference ? recall(reference, await ocrWords(bytes, "jpg")) : null,
        });
      }
      results.push({
        page: name,
        pngBytes: png.value.length,
        captureMs: { png: png.ms, jpeg: jpeg.ms },
        reencodeMs: { sharp: sharp?.ms ?? null, js: js.ms },
        reencodeBytes: { sharp: sharp?.bytes ?? null, js: js.bytes },
        ocrWordsInPng: reference ? [...reference.values()].reduce((a, b) => a + b, 0) : null,
        sweep,
      });
      await context.close();
    }
  } finally {
    await browser.close();
    await server.close();
  }

  const q = DEFAULT_SCREENSHOT_QUALITY;
  console.log(`Screenshot encoding, 1280 x 800 dpr 1, JPEG quality ${q} (the default)\n`);
  for (const r of results) {
    const mark = (ms: number | null, target: number) =>
      ms === null
        ? "n/a (no --allow-ffi)"
        : `${ms.toFixed(1)} ms  (target <= ${target} ms: ${ms <= target ? "PASS" : "MISS"})`;
    console.log(`${r.page}`);
    console.log(
      `  PNG capture            ${r.captureMs.png.toFixed(1)} ms, ${size(r.pngBytes)} bytes`,
    );
    console.log(
      `  JPEG capture (q${q})     ${r.captureMs.jpeg.toFixed(1)} ms, ${
        size(r.sweep.find((p) => p.quality === q)?.bytes ?? NaN)
      } bytes`,
    );
    console.log(
      `  PNG -> JPEG, sharp     ${mark(r.reencodeMs.sharp, SHARP_ENCODE_TARGET_MS)}, ${
        size(r.reencodeBytes.sharp ?? NaN)
      } bytes`,
    );
    console.log(
      `  PNG -> JPEG, pure JS   ${mark(r.reencodeMs.js, JS_ENCODE_TARGET_MS)}, ${
        size(r.reencodeBytes.js)
      } bytes`,
    );
    console.log(
      `  quality  bytes    base64 chars  OCR words kept${
        r.ocrWordsInPng === null
          ? " (tesseract not installed)"
          : ` (of ${r.ocrWordsInPng} in the PNG)`
      }`,
    );
    for (const p of r.sweep) {
      console.log(
        `  ${String(p.quality).padStart(7)}  ${size(p.bytes).padStart(7)}  ${
          size(p.base64Chars).padStart(12)
        }  ${p.ocrRecall === null ? "n/a" : `${(p.ocrRecall * 100).toFixed(1)} %`}`,
      );
    }
    console.log();
  }
  await Deno.mkdir(OUTPUT_DIR, { recursive: true });
  const out = new URL("screenshot_encoding.json", OUTPUT_DIR);
  await Deno.writeTextFile(
    out,
    JSON.stringify({ date: new Date().toISOString(), defaultQuality: q, results }, null, 2),
  );
  console.log(`JSON: ${out.pathname}`);
}

if (import.meta.main) await main();
