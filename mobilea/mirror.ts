/**
 * The mirror stream of a MobileA device (spec 4.8 `mirrorConfig`, 3.5): the scrcpy server's
 * H.264 video, decoded by ffmpeg into JPEG frames, the latest of which serves screenshots and
 * the observer's frames. Connects on first use; after a failure it stays unavailable (screenshots
 * fall back to `screencap`) until `retryAfter`, or until `retryMirror()`. With `idleTimeoutMs`,
 * it disconnects after that long without a screenshot or a frame consumer, and the next
 * screenshot connects again.
 *
 * @module
 */

import type { Adb } from "@yume-chan/adb";
import { ConnectionError, MissingDependencyError } from "@sdk/core";
import { type FrameDecoder, startFrameDecoder } from "./mirror_decoder.ts";
import { scrcpyJarHint, type ScrcpySession, startScrcpySession } from "./scrcpy.ts";

/** Default `mirrorConfig.videoBitRate`, bits/s (spec 8). */
export const DEFAULT_MIRROR_BIT_RATE = 100_000_000;
/** Default `mirrorConfig.idleTimeoutMs` (spec 8). */
export const DEFAULT_MIRROR_IDLE_TIMEOUT_MS = 30_000;
/** Default `mirrorConfig.videoResetFrameTimeoutMs` (spec 8). */
export const DEFAULT_MIRROR_RESET_FRAME_TIMEOUT_MS = 800;
/** How long a failed mirror stays unavailable before a screenshot tries it again, ms. */
export const MIRROR_RETRY_DELAY_MS = 10_000;
// The first frame must arrive this soon after the server started, or the mirror failed.
const FIRST_FRAME_TIMEOUT_MS = 10_000;

/** State of the mirror stream (spec 3.5). */
export interface MirrorStatus {
  /** Whether `mirrorConfig.enabled` was set. */
  enabled: boolean;
  /** Whether frames are being received now. */
  connected: boolean;
  /** Why the stream is unavailable (the last failure), or undefined. */
  lastError: string | undefined;
  /** When a screenshot will try to connect again (ms since the epoch), after a failure. */
  retryAfter: number | undefined;
}

/** The settled mirror settings. */
export interface MirrorSettings {
  enabled: boolean;
  maxSize: number;
  videoBitRate: number;
  idleTimeoutMs: number;
  videoResetFrameTimeoutMs: number;
  ffmpegPath: string;
  serverPath: string;
  serverVersion: string;
}

/** What the mirror needs from its device. */
export interface MirrorHost {
  /** The adb connection. */
  adb(): Promise<Adb>;
  /** The screen's physical size. */
  screen(): Promise<{ width: number; height: number }>;
  /** Whether the scrcpy server jar is on the device. */
  serverPresent(): Promise<boolean>;
}

/** A decoded frame. */
export interface MirrorFrame {
  /** A JPEG file. */
  jpeg: Uint8Array;
  /** When it was decoded, ms since the epoch. */
  timestamp: number;
}

/** The mirror stream of one device. Private to the package. */
export class Mirror {
  readonly settings: MirrorSettings;
  readonly #host: MirrorHost;
  #session: ScrcpySession | undefined;
  #decoder: FrameDecoder | undefined;
  #connecting: Promise<void> | undefined;
  #latest: MirrorFrame | undefined;
  #lastError: string | undefined;
  #retryAfter: number | undefined;
  #resetSince: number | undefined;
  #idleTimer: ReturnType<typeof setTimeout> | undefined;
  #listeners = new Set<(frame: MirrorFrame) => void>();
  #generation = 0;
  #closed = false;

  constructor(settings: MirrorSettings, host: MirrorHost) {
    this.settings = settings;
    this.#host = host;
  }

  /** The status of spec 3.5. */
  status(): MirrorStatus {
    return {
      enabled: this.settings.enabled,
      connected: this.#session !== undefined && this.#latest !== undefined,
      lastError: this.#lastError,
      retryAfter: this.#retryAfter,
    };
  }

  /**
   * The latest frame, connecting first when not connected (unless a failure's `retryAfter` has
   * not passed). Undefined when the mirror is unavailable, or when an in-band video reset gave
   * no fresh key frame within `videoResetFrameTimeoutMs`: the caller falls back.
   */
  async frame(): Promise<MirrorFrame | undefined> {
    if (!this.settings.enabled || this.#closed) return undefined;
    this.#touch();
    if (!this.#session) {
      if (this.#retryAfter !== undefined && Date.now() < this.#retryAfter) return undefined;
      await this.#connect();
      if (!this.#session) return undefined;
      this.#touch();
    }
    if (this.#resetSince !== undefined) {
      const fresh = await this.#nextFrame(this.settings.videoResetFrameTimeoutMs);
      if (!fresh) return undefined;
    }
    return this.#latest;
  }

  /** Disconnects and connects again now, whatever `retryAfter` says. */
  async retry(): Promise<void> {
    if (!this.settings.enabled || this.#closed) return;
    await this.#disconnect();
    this.#retryAfter = undefined;
    this.#touch();
    await this.#connect();
  }

  /**
   * Calls `onFrame` with every frame decoded from now on (the mirror stays connected meanwhile:
   * no idle disconnect); returns the function that stops it.
   */
  subscribe(onFrame: (frame: MirrorFrame) => void): () => void {
    this.#listeners.add(onFrame);
    this.#touch();
    return () => {
      this.#listeners.delete(onFrame);
      this.#touch();
    };
  }

  /** Disconnects for good; resolves once the server was told to end. */
  async close(): Promise<void> {
    this.#closed = true;
    this.#listeners.clear();
    await this.#disconnect();
  }

  // Restarts the idle countdown (none while a consumer is subscribed).
  #touch(): void {
    clearTimeout(this.#idleTimer);
    this.#idleTimer = undefined;
    const idle = this.settings.idleTimeoutMs;
    if (idle <= 0 || this.#listeners.size > 0 || this.#closed) return;
    // A connection under way is not idle: the countdown starts again once it is done.
    this.#idleTimer = setTimeout(
      () => this.#connecting ? this.#touch() : void this.#disconnect(),
      idle,
    );
    // The countdown does not keep a script alive that ended without destroy().
    unrefTimer(this.#idleTimer);
  }

  #connect(): Promise<void> {
    this.#connecting ??= this.#open().finally(() => this.#connecting = undefined);
    return this.#connecting;
  }

  async #open(): Promise<void> {
    const generation = ++this.#generation;
    const stale = () => generation !== this.#generation || this.#closed;
    let decoder: FrameDecoder | undefined;
    let session: ScrcpySession | undefined;
    try {
      decoder = await startFrameDecoder(this.settings.ffmpegPath, {
        onFrame: (jpeg) => {
          if (stale()) return;
          const frame = { jpeg, timestamp: Date.now() };
          this.#latest = frame;
          this.#resetSince = undefined;
          for (const listener of this.#listeners) listener(frame);
        },
        onExit: (reason) => {
          if (!stale()) this.#fail(`the decoder stopped: ${reason}`);
        },
      });
      const [adb, screen] = await Promise.all([this.#host.adb(), this.#host.screen()]);
      if (!(await this.#host.serverPresent())) {
        const { serverPath: path, serverVersion: version } = this.settings;
        throw new MissingDependencyError(
          `the scrcpy server jar is not on the device at ${path}: ${
            scrcpyJarHint({ path, version })
          }`,
          "scrcpy-server",
        );
      }
      session = await startScrcpySession(adb, {
        serverPath: this.settings.serverPath,
        serverVersion: this.settings.serverVersion,
        video: true,
        maxSize: this.settings.maxSize,
        videoBitRate: this.settings.videoBitRate,
      }, screen);
      if (stale()) {
        throw new ConnectionError("closed while connecting", {
          kind: "lost",
          endpoint: "scrcpy server",
        });
      }
      this.#session = session;
      this.#decoder = decoder;
      this.#latest = undefined;
      void this.#pump(session, decoder, stale);
      session.exited.then(() => {
        if (!stale()) this.#fail("the scrcpy server exited");
      });
      if (!(await this.#nextFrame(FIRST_FRAME_TIMEOUT_MS))) {
        throw new ConnectionError(`no video frame within ${FIRST_FRAME_TIMEOUT_MS} ms`, {
          kind: "timeout",
          endpoint: "scrcpy server",
        });
      }
      this.#lastError = undefined;
      this.#retryAfter = undefined;
    } catch (error) {
      if (this.#session === session) this.#session = undefined;
      if (this.#decoder === decoder) this.#decoder = undefined;
      decoder?.close();
      await session?.close();
      if (!stale()) this.#fail((error as Error).message);
    }
  }

  async #pump(session: ScrcpySession, decoder: FrameDecoder, stale: () => boolean) {
    let configured = false;
    try {
      for await (const packet of session.video!) {
        if (stale()) return;
        if (packet.configuration) {
          // A second configuration is an in-band reset: wait for the key frame after it.
          if (configured) this.#resetSince = Date.now();
          configured = true;
        }
        decoder.write(packet.data);
      }
      if (!stale()) this.#fail("the video stream ended");
    } catch (error) {
      if (!stale()) this.#fail(`the video stream failed: ${(error as Error).message}`);
    }
  }

  // Resolves true with the next decoded frame, false after `ms` without one.
  #nextFrame(ms: number): Promise<boolean> {
    return new Promise((resolve) => {
      const listener = () => {
        clearTimeout(timer);
        this.#listeners.delete(listener);
        resolve(true);
      };
      const timer = setTimeout(() => {
        this.#listeners.delete(listener);
        resolve(false);
      }, ms);
      this.#listeners.add(listener);
    });
  }

  #fail(reason: string): void {
    this.#lastError = `the mirror stream is unavailable: ${reason}; screenshots fall back to ` +
      `screencap until it reconnects (at retryAfter, or on retryMirror())`;
    this.#retryAfter = Date.now() + MIRROR_RETRY_DELAY_MS;
    void this.#disconnect();
  }

  #disconnect(): Promise<void> {
    this.#generation++;
    clearTimeout(this.#idleTimer);
    this.#idleTimer = undefined;
    const session = this.#session;
    this.#session = undefined;
    this.#decoder?.close();
    this.#decoder = undefined;
    this.#latest = undefined;
    this.#resetSince = undefined;
    return session?.close() ?? Promise.resolve();
  }
}

/** Lets the process exit while `timer` is pending (Node's `unref()`, Deno's `unrefTimer`). */
function unrefTimer(timer: ReturnType<typeof setTimeout>): void {
  const deno = (globalThis as { Deno?: { unrefTimer?: (id: number) => void } }).Deno;
  if (typeof timer === "number") deno?.unrefTimer?.(timer);
  else (timer as { unref?: () => void }).unref?.();
}
