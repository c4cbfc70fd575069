/**
 * Where observed frames live while an observation exists (spec 4.4 rule 3): files under
 * `<run dir>/observe/<observation id>/frame-<n>.<ext>` where a file system exists, else memory
 * (a browser page; bounded by `maxFrames` because thinning removes frames as it goes).
 *
 * @module
 */

import { InvalidStateError, SdkTypeError } from "../errors.ts";
import { decodeBase64, encodeBase64 } from "../image/base64.ts";
import {
  hasFileSystem,
  nodePath,
  readLocalFile,
  removePath,
  runDir,
  writeFileAtomic,
} from "../runtime/runtime.ts";

/** The image format of a frame. */
export type FrameFormat = "jpeg" | "png";

/** Stores frame images by their number. */
export interface FrameStore {
  /** Where the frames are written; undefined for memory. */
  readonly dir: string | undefined;
  /** Stores frame `n` (base64 body). */
  put(n: number, format: FrameFormat, base64: string): Promise<void>;
  /** Frame `n` as a data URI. */
  read(n: number): Promise<string>;
  /** Removes frame `n`. */
  remove(n: number): Promise<void>;
  /** Removes every frame (and the directory). */
  clear(): Promise<void>;
}

const ext = (format: FrameFormat) => (format === "jpeg" ? "jpg" : "png");
const mime = (format: FrameFormat) => (format === "jpeg" ? "image/jpeg" : "image/png");

class FileFrameStore implements FrameStore {
  readonly dir: string;
  readonly #formats = new Map<number, FrameFormat>();
  constructor(dir: string) {
    this.dir = dir;
  }
  async #file(n: number, format: FrameFormat): Promise<string> {
    return (await nodePath()).join(this.dir, `frame-${n}.${ext(format)}`);
  }
  async put(n: number, format: FrameFormat, base64: string): Promise<void> {
    // Frames show the screen: this user's only.
    await writeFileAtomic(await this.#file(n, format), decodeBase64(base64), { private: true });
    this.#formats.set(n, format);
  }
  async read(n: number): Promise<string> {
    const format = this.#formats.get(n);
    if (!format) throw new InvalidStateError(`observed frame ${n} was removed`);
    const { bytes } = await readLocalFile(await this.#file(n, format));
    return `data:${mime(format)};base64,${encodeBase64(bytes)}`;
  }
  async remove(n: number): Promise<void> {
    const format = this.#formats.get(n);
    if (!format) return;
    this.#formats.delete(n);
    await removePath(await this.#file(n, format));
  }
  async clear(): Promise<void> {
    this.#formats.clear();
    await removePath(this.dir);
  }
}

class MemoryFrameStore implements FrameStore {
  readonly dir = undefined;
  readonly #frames = new Map<number, string>();
  put(n: number, format: FrameFormat, base64: string): Promise<void> {
    this.#frames.set(n, `data:${mime(format)};base64,${base64}`);
    return Promise.resolve();
  }
  read(n: number): Promise<string> {
    const uri = this.#frames.get(n);
    return uri === undefined
      ? Promise.reject(new InvalidStateError(`observed frame ${n} was removed`))
      : Promise.resolve(uri);
  }
  remove(n: number): Promise<void> {
    this.#frames.delete(n);
    return Promise.resolve();
  }
  clear(): Promise<void> {
    this.#frames.clear();
    return Promise.resolve();
  }
}

/**
 * The store of one observation: files under `<run dir>/observe/<id>/` with a file system (or
 * `inMemory`), else memory.
 */
export async function createFrameStore(id: string, inMemory = !hasFileSystem): Promise<FrameStore> {
  if (inMemory) return new MemoryFrameStore();
  const path = await nodePath();
  return new FileFrameStore(path.join(await runDir(), "observe", id));
}

/** Splits a data URI (or a raw base64 body, taken as PNG) into format and base64 body. */
export function splitDataUri(uri: string): { format: FrameFormat; base64: string } {
  const m = /^data:image\/(png|jpeg|jpg);base64,/i.exec(uri);
  if (!m) {
    if (uri.startsWith("data:")) {
      throw new SdkTypeError(
        `an observed frame must be a PNG or JPEG image, got ${uri.slice(0, 30)}`,
      );
    }
    return { format: "png", base64: uri };
  }
  return { format: m[1].toLowerCase() === "png" ? "png" : "jpeg", base64: uri.slice(m[0].length) };
}
