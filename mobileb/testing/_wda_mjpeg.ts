/**
 * The MJPEG screen stream of the WDA front (private to `@sdk/mobileb/testing`), framed as WDA's
 * FBMjpegServer frames it: on any request, an HTTP/1.0 `multipart/x-mixed-replace` answer with
 * boundary `--BoundaryString`, then one part per frame (`Content-type: image/jpg`,
 * `Content-Length`, the JPEG, a blank line) at the configured frame rate while clients listen.
 *
 * @module
 */

import net from "node:net";
import { Buffer } from "node:buffer";
import type { CDPSession, Page } from "playwright-core";
import type { VirtualPhone } from "@sdk/web/testing";

/** The stream's settings, WDA's names; read before every frame, so changes apply at once. */
export interface MjpegSettings {
  /** Frames per second (WDA's `mjpegServerFramerate`, default 10). */
  mjpegServerFramerate: number;
  /** JPEG quality, 1-100 (WDA's `mjpegServerScreenshotQuality`, default 25). */
  mjpegServerScreenshotQuality: number;
  /** Frame size in percent of the physical screen, 1-100 (WDA's `mjpegScalingFactor`, 100). */
  mjpegScalingFactor: number;
}

/** The range of each setting, inclusive (the front's options and `/appium/settings`). */
export const MJPEG_SETTING_LIMITS: Readonly<
  Record<keyof MjpegSettings, readonly [number, number]>
> = {
  mjpegServerFramerate: [1, 60],
  mjpegServerScreenshotQuality: [1, 100],
  mjpegScalingFactor: [1, 100],
};

/** A listening MJPEG server. */
export interface MjpegServer {
  readonly port: number;
  close(): Promise<void>;
}

const STREAM_HEADER = "HTTP/1.0 200 OK\r\nServer: WDA MJPEG Server\r\nConnection: close\r\n" +
  "Max-Age: 0\r\nExpires: 0\r\nCache-Control: no-cache, private\r\nPragma: no-cache\r\n" +
  "Content-Type: multipart/x-mixed-replace; boundary=--BoundaryString\r\n\r\n";

/**
 * Captures the phone's screen as a JPEG with Chromium's own encoder: `quality` 1-100, `percent`
 * of the physical size.
 */
function jpegCapturer(
  phone: VirtualPhone,
): (quality: number, percent: number) => Promise<Uint8Array> {
  const sessions = new WeakMap<Page, Promise<CDPSession>>();
  return async (quality, percent) => {
    const page = phone.foregroundPage();
    let session = sessions.get(page);
    if (!session) {
      session = page.context().newCDPSession(page);
      sessions.set(page, session);
    }
    const { data } = await (await session).send("Page.captureScreenshot", {
      format: "jpeg",
      quality,
      fromSurface: true,
      clip: {
        x: 0,
        y: 0,
        width: phone.width / phone.density,
        height: phone.height / phone.density,
        scale: (phone.density * percent) / 100,
      },
    }) as { data: string };
    return new Uint8Array(Buffer.from(data, "base64"));
  };
}

/** Starts the MJPEG server on 127.0.0.1 and `port` (0: a free one). */
export function startMjpegServer(
  phone: VirtualPhone,
  settings: MjpegSettings,
  port: number,
): Promise<MjpegServer> {
  const capture = jpegCapturer(phone);
  // Each listening client with when it joined: it gets only frames captured after that, so a
  // frame in flight with older settings never reaches a new client.
  const clients = new Map<net.Socket, number>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let capturing = false;
  let closed = false;

  const frame = async () => {
    timer = undefined;
    if (closed || clients.size === 0) return;
    const started = performance.now();
    capturing = true;
    try {
      const jpeg = await capture(
        settings.mjpegServerScreenshotQuality,
        settings.mjpegScalingFactor,
      );
      const part = Buffer.concat([
        Buffer.from(
          `--BoundaryString\r\nContent-type: image/jpg\r\nContent-Length: ${jpeg.length}\r\n\r\n`,
        ),
        jpeg,
        Buffer.from("\r\n\r\n"),
      ]);
      for (const [client, joined] of clients) if (joined <= started) client.write(part);
    } catch {
      // The page changed or closed under the capture (an app stopped): the next frame retries.
    } finally {
      capturing = false;
    }
    schedule(1000 / settings.mjpegServerFramerate - (performance.now() - started));
  };
  const schedule = (ms: number) => {
    if (!timer && !capturing && !closed && clients.size) timer = setTimeout(frame, Math.max(0, ms));
  };

  const server = net.createServer((socket) => {
    let request = "";
    socket.on("error", () => clients.delete(socket));
    socket.on("close", () => clients.delete(socket));
    socket.on("data", (chunk) => {
      if (clients.has(socket)) return;
      request += chunk.toString("latin1");
      if (!request.includes("\r\n\r\n")) return;
      socket.write(STREAM_HEADER);
      clients.set(socket, performance.now());
      schedule(0);
    });
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => {
      resolve({
        port: (server.address() as net.AddressInfo).port,
        close: () =>
          new Promise<void>((done) => {
            closed = true;
            if (timer) clearTimeout(timer);
            for (const client of clients.keys()) client.destroy();
            server.close(() => done());
          }),
      });
    });
  });
}
