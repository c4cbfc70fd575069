/**
 * The {@link PageDriver} contract as tests: every driver's test file runs
 * {@link testPageDriverContract} with a way to open pages, so both drivers are held to the same
 * behaviour through the port alone. Private to the package's tests.
 *
 * @module
 */

import { before } from "node:test";
import { after, test as nodeTest } from "../../tests/helpers/test.ts";
import assert from "node:assert/strict";
import type { DriverRequest, PageDialog, PageDriver } from "./page_driver.ts";
import { pngSize, startServer, type TestServer } from "../_test_support.ts";
import { imageSizeFromDataUri } from "../../core/image/size.ts";
import { decodeBase64, encodeBase64 } from "../../core/image/base64.ts";
import { loadJsCodecs } from "../../core/image/backend.ts";

/** A page opened for one test, through its driver. */
export interface ContractPage {
  /** The page's driver. */
  driver: PageDriver;
  /** Closes the page (and its context, when the harness made one). */
  close(): Promise<void>;
  /**
   * Readies the page for the screencast tests and returns the CSS size its frames have. Default:
   * the viewport the page was opened at. A harness whose emulated viewport the screencast does
   * not follow (the bridge's `chrome.debugger` screencasts the window's surface) drops the
   * emulation here and returns the tab's own size, as a real tab has it.
   */
  screencastViewport?(): Promise<{ width: number; height: number }>;
}

/** How a driver's tests open pages in a real browser. */
export interface PageDriverHarness {
  /** Launches the browser; called once before the tests. */
  launch(): Promise<void>;
  /** Opens a blank page at a CSS viewport size and device pixel ratio. */
  open(viewport: { width: number; height: number; dpr: number }): Promise<ContractPage>;
  /** Closes the browser; called once after the tests. */
  close(): Promise<void>;
}

// Resolves once `done()` holds, polling; gives up after `ms` and lets the assertions tell.
async function until(done: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!done() && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
}

// Replaces the current document's body, through the port only.
function setBody(driver: PageDriver, html: string): Promise<void> {
  return driver.evaluate((markup: string) => {
    const doc = (globalThis as unknown as { document: { body: { innerHTML: string } } }).document;
    doc.body.innerHTML = markup;
  }, html);
}

/** Registers the contract tests, named `"{name} ..."`. */
export function testPageDriverContract(name: string, harness: PageDriverHarness): void {
  const test = (title: string, fn: () => Promise<void>) => nodeTest(title, { timeout: 60_000 }, fn);
  let server: TestServer;

  before(async () => {
    await harness.launch();
    server = await startServer((request, response) => {
      response.setHeader("content-type", request.url === "/style.css" ? "text/css" : "text/html");
      if (request.url === "/") {
        response.end(`<link rel="stylesheet" href="/style.css"><iframe src="/frame"></iframe>`);
      } else if (request.url === "/missing") {
        response.statusCode = 404;
        response.end("no");
      } else if (request.url === "/redirect") {
        response.statusCode = 302;
        response.setHeader("location", "/");
        response.end();
      } else {
        response.end("");
      }
    });
  });

  after(async () => {
    await harness.close();
    await server?.close();
  });

  const withPage = async (
    body: (driver: PageDriver, page: ContractPage) => Promise<void>,
    viewport = { width: 800, height: 600, dpr: 1 },
  ) => {
    const page = await harness.open(viewport);
    try {
      await body(page.driver, page);
    } finally {
      await page.close();
    }
  };

  test(`${name}.screenshot() is a PNG of the viewport in physical pixels`, () =>
    withPage(async (driver) => {
      await setBody(driver, `<div style="height: 5000px">tall page</div>`);
      assert.deepEqual(pngSize(await driver.screenshot()), { width: 1280, height: 960 });
      assert.deepEqual(await driver.viewport(), { width: 640, height: 480, dpr: 2 });
    }, { width: 640, height: 480, dpr: 2 }));

  test(`${name}.screenshot() encodes JPEG in the browser at the quality asked, at physical size`, () =>
    withPage(async (driver) => {
      // Text on a gradient: a page where JPEG quality shows in the byte count.
      await setBody(
        driver,
        `<div style="height:100vh;background:linear-gradient(45deg,#f06,#0af,#fd0)">` +
          `${"Dense text on a gradient. ".repeat(400)}</div>`,
      );
      const sizes: number[] = [];
      for (const quality of [90, 30]) {
        const jpeg = await driver.screenshot({ format: "jpeg", quality });
        assert.deepEqual([...jpeg.subarray(0, 3)], [0xff, 0xd8, 0xff], "JPEG magic bytes");
        const uri = `data:image/jpeg;base64,${encodeBase64(jpeg)}`;
        const { width, height } = imageSizeFromDataUri(uri);
        assert.deepEqual({ width, height }, { width: 1280, height: 960 });
        sizes.push(jpeg.length);
      }
      assert.ok(sizes[1] < sizes[0], `quality 30 must be smaller than 90: ${sizes}`);
      const png = await driver.screenshot({ format: "png", quality: 30 });
      assert.deepEqual(pngSize(png), { width: 1280, height: 960 });
    }, { width: 640, height: 480, dpr: 2 }));

  test(`${name}.onDialog hands each native dialog to its listener, which answers it`, () =>
    withPage(async (driver) => {
      const seen: string[] = [];
      const answerWith = (answer: (dialog: PageDialog) => Promise<void>) =>
        driver.onDialog!((dialog) => {
          seen.push(`${dialog.type}|${dialog.message}|${dialog.defaultValue}`);
          void answer(dialog);
        });
      let off = answerWith((d) => d.type === "prompt" ? d.accept("Ada") : d.accept());
      await driver.goto(`${server.origin}/blank`);
      const ask = `[String(alert("hi")), confirm("sure?"), prompt("name?", "guest")]`;
      assert.deepEqual(await driver.evaluate(ask), ["undefined", true, "Ada"]);
      off();
      // Another listener, and only it, gets the next ones.
      off = answerWith((d) => d.dismiss());
      assert.deepEqual(await driver.evaluate(ask), ["undefined", false, null]);
      assert.deepEqual(seen, [
        "alert|hi|",
        "confirm|sure?|",
        "prompt|name?|guest",
        "alert|hi|",
        "confirm|sure?|",
        "prompt|name?|guest",
      ]);
      off();
      // Leaving a page whose beforeunload handler asks to stay (after a user's click).
      off = answerWith((d) => d.accept());
      await driver.evaluate(`addEventListener("beforeunload", (event) => {
        event.preventDefault();
        event.returnValue = "unsaved";
      })`);
      await driver.mouse.click(5, 5);
      await driver.goto(`${server.origin}/other`);
      assert.equal(new URL(await driver.url()).pathname, "/other");
      assert.equal(seen.at(-1), "beforeunload||");
      off();
    }));

  test(`${name} request events pair start and end by id and flag the main-frame navigation`, () =>
    withPage(async (driver) => {
      const started: DriverRequest[] = [];
      const ended: Array<[DriverRequest, boolean]> = [];
      let loads = 0;
      const unsubscribe = [
        driver.onRequestStart((r) => started.push(r)),
        driver.onRequestEnd((r, failed) => ended.push([r, failed])),
        driver.onMainFrameLoad(() => loads++),
      ];
      await driver.goto(`${server.origin}/`);
      // goto resolves once the document is parsed; the load and the frame's requests follow.
      await until(() => loads === 1 && started.every((r) => ended.some(([e]) => e === r)));
      const byPath = (path: string) => started.find((r) => new URL(r.url).pathname === path);
      assert.equal(byPath("/")?.isMainFrameNavigation, true);
      assert.equal(byPath("/style.css")?.isMainFrameNavigation, false);
      // A frame's document is a navigation, but not of the main frame.
      assert.equal(byPath("/frame")?.isMainFrameNavigation, false);
      assert.equal(new Set(started.map((r) => r.id)).size, started.length);
      for (const request of started) {
        const end = ended.find(([r]) => r.id === request.id);
        assert.ok(end, `end event for ${request.url}`);
        assert.equal(end[0], request);
      }
      assert.equal(loads, 1);

      await driver.evaluate(() => fetch("/missing").then(() => 0));
      assert.equal(ended.at(-1)?.[1], false, "an HTTP error status is still a finished request");

      // Each redirect hop is its own main-frame navigation request, ended by its response.
      started.length = 0;
      await driver.goto(`${server.origin}/redirect`);
      const hops = started.filter((r) => r.isMainFrameNavigation);
      assert.deepEqual(hops.map((r) => new URL(r.url).pathname), ["/redirect", "/"]);
      for (const hop of hops) assert.ok(ended.some(([r, failed]) => r === hop && !failed));

      for (const u of unsubscribe) u();
      const counts = [started.length, ended.length, loads];
      await driver.reload();
      assert.deepEqual([started.length, ended.length, loads], counts);
    }));

  test(`${name} goto/reload/goBack move through history; goBack without history is a no-op`, () =>
    withPage(async (driver) => {
      await driver.goBack();
      await driver.goto(`${server.origin}/`);
      assert.equal(await driver.url(), `${server.origin}/`);
      await driver.goto(`${server.origin}/other`);
      await driver.goBack();
      assert.equal(await driver.url(), `${server.origin}/`);
      await driver.reload();
      assert.equal(await driver.url(), `${server.origin}/`);
      await assert.rejects(driver.goto("http://127.0.0.1:1/"));
    }));

  test(`${name} keyboard and evaluate reach the page`, () =>
    withPage(async (driver) => {
      await setBody(driver, `<input id="f">`);
      const value = () =>
        driver.evaluate(
          (id: string) =>
            (globalThis as unknown as {
              document: { getElementById(id: string): { value: string; focus(): void } };
            }).document.getElementById(id).value,
          "f",
        );
      await driver.evaluate(() =>
        (globalThis as unknown as {
          document: { getElementById(id: string): { focus(): void } };
        }).document.getElementById("f").focus()
      );
      await driver.keyboard.type("ab", { delayMs: 1 });
      await driver.keyboard.insertText("ç");
      await driver.keyboard.press("Shift+ArrowLeft");
      await driver.keyboard.press("Backspace");
      assert.equal(await driver.evaluate(() => 40 + 2), 42);
      assert.equal(await value(), "ab");
      assert.equal(await driver.evaluate<number>("1 + 1"), 2);
      // Combinations: modifiers down in order, up in reverse; "Shift++" presses "+".
      await driver.keyboard.press("Control+A");
      await driver.keyboard.press("Backspace");
      assert.equal(await value(), "");
      await driver.keyboard.press("Shift++");
      assert.equal(await value(), "+");
      await assert.rejects(driver.keyboard.press("Control+NoSuchKey"), Error);
      // A failed press leaves no modifier down: "a" is typed as "a", not as Control+A.
      await driver.keyboard.press("a");
      assert.equal(await value(), "+a");
    }));

  test(`${name} mouse: a double click fires two clicks and one dblclick`, () =>
    withPage(async (driver) => {
      await setBody(driver, `<div id="t" style="width: 200px; height: 100px"></div>`);
      await driver.evaluate(() => {
        const g = globalThis as unknown as {
          events: string[];
          document: {
            body: { style: { margin: string } };
            getElementById(id: string): {
              addEventListener(type: string, fn: (e: { preventDefault(): void }) => void): void;
            };
          };
        };
        g.document.body.style.margin = "0";
        g.events = [];
        for (const type of ["click", "dblclick", "contextmenu"]) {
          g.document.getElementById("t").addEventListener(type, (e) => {
            e.preventDefault();
            g.events.push(type);
          });
        }
      });
      await driver.mouse.click(50, 50, { clickCount: 2 });
      await driver.mouse.click(50, 50, { button: "right" });
      assert.deepEqual(
        await driver.evaluate(() => (globalThis as unknown as { events: string[] }).events),
        ["click", "click", "dblclick", "contextmenu"],
      );
    }));

  test(`${name}.startScreencast() sends the current frame, then one per repaint, until stop()`, () =>
    withPage(async (driver, page) => {
      assert.ok(driver.startScreencast, "a Chromium driver has the screencast");
      const size = await page.screencastViewport?.() ?? { width: 320, height: 240 };
      await setBody(driver, `<div style="height:100vh;background:#0000ff"></div>`);
      await driver.evaluate("document.body.style.margin = '0'");
      const frames: Array<{ data: string; timestamp: number }> = [];
      const startedAt = Date.now();
      const screencast = await driver.startScreencast({
        quality: 80,
        onFrame: (data, timestamp) => frames.push({ data, timestamp }),
      });
      const { decode } = await loadJsCodecs();
      const center = (data: string) => {
        const image = decode(decodeBase64(data), "image/jpeg");
        const i = (Math.floor(image.height / 2) * image.width + Math.floor(image.width / 2)) * 4;
        return [...image.data.subarray(i, i + 3)];
      };
      const near = (rgb: number[], want: number[]) =>
        rgb.every((v, i) => Math.abs(v - want[i]) < 40);
      // A still page: Chromium still sends the current picture right after the start (on a loaded
      // machine a frame from before the blue paint may come first, then the blue one).
      await until(() => frames.length >= 1 && near(center(frames.at(-1)!.data), [0, 0, 255]), 3000);
      assert.ok(frames.length >= 1, "a frame of the unchanged page after the start");
      await new Promise((r) => setTimeout(r, 300));
      const beforeChange = frames.length;
      assert.ok(
        near(center(frames[beforeChange - 1].data), [0, 0, 255]),
        `the picture before the change is blue: ${center(frames[beforeChange - 1].data)}`,
      );
      await driver.evaluate("document.body.firstElementChild.style.background = '#ff0000'");
      await until(() => frames.length > beforeChange, 3000);
      assert.ok(frames.length > beforeChange, "a frame after the page changed");

      for (const frame of frames) {
        const bytes = decodeBase64(frame.data);
        assert.deepEqual([...bytes.subarray(0, 3)], [0xff, 0xd8, 0xff], "JPEG magic bytes");
        // CSS size, not physical: the screencast does not scale up by the pixel ratio.
        const { width, height } = imageSizeFromDataUri(`data:image/jpeg;base64,${frame.data}`);
        assert.deepEqual({ width, height }, size);
      }
      assert.ok(near(center(frames.at(-1)!.data), [255, 0, 0]), "last frame red");

      const times = frames.map((f) => f.timestamp);
      for (let i = 1; i < times.length; i++) {
        assert.ok(times[i] >= times[i - 1], `in order: ${times}`);
      }
      assert.ok(times.at(-1)! > times[0], `later frame, later time: ${times}`);
      // ms since the epoch, on the Date.now() clock.
      assert.ok(Math.abs(times[0] - startedAt) < 2000, `${times[0]} near ${startedAt}`);

      await screencast.stop();
      const afterStop = frames.length;
      await driver.evaluate("document.body.firstElementChild.style.background = '#00ff00'");
      await new Promise((r) => setTimeout(r, 400));
      assert.equal(frames.length, afterStop, "no frame after stop()");
      await screencast.stop();
      // The screencast's own session is gone; the page still works, and another can start.
      let again = 0;
      const second = await driver.startScreencast({ quality: 50, onFrame: () => again++ });
      await until(() => again > 0, 3000);
      await second.stop();
      assert.ok(again > 0);
    }, { width: 320, height: 240, dpr: 2 }));

  test(`${name}.startScreencast({ minIntervalMs }) paces a page that repaints every frame`, () =>
    withPage(async (driver) => {
      await setBody(driver, `<div id="box" style="width:40px;height:40px;background:#f0f"></div>`);
      // Repaints on every animation frame, about 60 times a second.
      await driver.evaluate(`(function move(t) {
        document.getElementById("box").style.marginLeft = (t / 5 % 200) + "px";
        requestAnimationFrame(move);
      })(0)`);
      const count = async (minIntervalMs: number) => {
        const times: number[] = [];
        const screencast = await driver.startScreencast!({
          quality: 50,
          minIntervalMs,
          onFrame: () => times.push(Date.now()),
        });
        await new Promise((r) => setTimeout(r, 1500));
        await screencast.stop();
        return times;
      };
      const paced = await count(300);
      const gaps = paced.slice(1).map((t, i) => t - paced[i]);
      // Chromium sends up to three frames before the first ack, then one per ack: 1.5 s at one
      // frame per 300 ms after those is about 8 frames. A loaded machine can delay one of the
      // first frames and so shorten one gap, hence the median.
      assert.ok(paced.length >= 4 && paced.length <= 9, `paced frames: ${paced.length}`);
      const later = gaps.slice(3).sort((x, y) => x - y);
      assert.ok(later[Math.floor(later.length / 2)] >= 250, `gaps after the first: ${gaps}`);
      const unpaced = await count(0);
      assert.ok(unpaced.length > paced.length * 2, `${unpaced.length} frames without pacing`);
    }));
}
