import { before } from "node:test";
import { after, test as nodeTest } from "../../tests/helpers/test.ts";
import assert from "node:assert/strict";
import type { Browser as DriverBBrowser } from "playwright-core";
import type { Browser as DriverABrowser } from "puppeteer-core";
import type { DeviceAction, LocatedElement, ScreenshotEncoding } from "../_core.ts";
import { DriverAPageDriver } from "../driver_a/puppeteer_driver.ts";
import { DriverBPageDriver } from "../driver_b/playwright_driver.ts";
import type { PageDriver } from "./page_driver.ts";
import { WebPageDevice, type WebPageDeviceOptions } from "./web_device.ts";
import { imageSizeFromDataUri } from "../../core/image/size.ts";
import {
  launchChromium,
  launchChromiumDriverA,
  pngSize,
  startServer,
  type TestServer,
} from "../_test_support.ts";

// Every device test runs once per driver: the device must behave the same over each.

/** Every test's time limit: a wait that does not end fails the test, it does not hang it. */
const test = (name: string, fn: () => Promise<void> | void) =>
  nodeTest(name, { timeout: 60_000 }, fn);

/** `work`'s value once it settles, rejecting naming `what` when it is still pending after `ms`. */
async function within<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([
      work,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`${what}: still pending after ${ms} ms`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** What the tests use of a page, besides its driver: the part DriverA and DriverB pages share. */
interface NativePage {
  setContent(html: string): Promise<unknown>;
  title(): Promise<string>;
  focus(selector: string): Promise<void>;
  goto(url: string): Promise<unknown>;
  url(): string;
  isClosed(): boolean;
}

/** A page under test: the driver's own page calls, plus `evaluate` through the port. */
interface TestPage extends NativePage {
  evaluate: PageDriver["evaluate"];
}

/** Viewport of a test page; default 1280 x 720 at dpr 1. */
interface Viewport {
  width: number;
  height: number;
  dpr: number;
}

/** One driver the suite runs against. */
interface DriverUnderTest {
  readonly name: string;
  launch(): Promise<void>;
  close(): Promise<void>;
  /** A new page in its own browser context; `close` closes that context. */
  open(viewport?: Partial<Viewport>): Promise<
    { native: NativePage; driver: PageDriver; close(): Promise<unknown> }
  >;
}

function driverB(): DriverUnderTest {
  let browser: DriverBBrowser | undefined;
  return {
    name: "DriverB",
    async launch() {
      browser = await launchChromium();
    },
    async close() {
      await browser?.close();
    },
    async open(v = {}) {
      const context = await browser!.newContext({
        viewport: { width: v.width ?? 1280, height: v.height ?? 720 },
        deviceScaleFactor: v.dpr ?? 1,
      });
      const page = await context.newPage();
      return { native: page, driver: new DriverBPageDriver(page), close: () => context.close() };
    },
  };
}

function driverA(): DriverUnderTest {
  let browser: DriverABrowser | undefined;
  return {
    name: "DriverA",
    async launch() {
      browser = await launchChromiumDriverA();
    },
    async close() {
      await browser?.close();
    },
    async open(v = {}) {
      const context = await browser!.createBrowserContext();
      const page = await context.newPage();
      await page.setViewport({
        width: v.width ?? 1280,
        height: v.height ?? 720,
        deviceScaleFactor: v.dpr ?? 1,
      });
      return { native: page, driver: new DriverAPageDriver(page), close: () => context.close() };
    },
  };
}

const DRIVERS: readonly DriverUnderTest[] = [driverB(), driverA()];

function testPage(native: NativePage, driver: PageDriver): TestPage {
  return {
    setContent: (html) => native.setContent(html),
    title: () => native.title(),
    focus: (selector) => native.focus(selector),
    goto: (url) => native.goto(url),
    url: () => native.url(),
    isClosed: () => native.isClosed(),
    evaluate: driver.evaluate.bind(driver) as PageDriver["evaluate"],
  };
}

let server: TestServer;
// What the server has seen, for tests that check a request from its side.
const served = { neverReceived: false, delayedDone: false };
let onNeverReceived: (() => void) | undefined;

const html = (body: string) => `<!doctype html><html><body>${body}</body></html>`;

before(async () => {
  for (const driver of DRIVERS) await driver.launch();
  server = await startServer((request, response) => {
    const path = new URL(request.url ?? "/", "http://x").pathname;
    const send = (body: string) => {
      response.setHeader("content-type", "text/html");
      response.end(body);
    };
    switch (path) {
      case "/link":
        return send(html(
          `<a id="link" href="/slow-page" style="display:block;width:300px;height:40px">next</a>`,
        ));
      case "/slow-page":
        // Slow document and slow image: the page is loaded only after both.
        return setTimeout(
          () => send(html(`<h1 id="title">slow page</h1><img src="/slow-image">`)),
          300,
        );
      case "/slow-image":
        return setTimeout(() => {
          response.setHeader("content-type", "image/svg+xml");
          response.end(`<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>`);
        }, 300);
      case "/long-poll-page":
        return send(html(
          `<button id="go" style="width:200px;height:40px">go</button>
           <script>
             fetch("/never");
             document.getElementById("go").onclick = () => { document.getElementById("go").textContent = "done"; };
           </script>`,
        ));
      case "/fetch-page":
        return send(html(
          `<button id="delayed" style="width:200px;height:40px">delayed</button>
           <button id="never" style="width:200px;height:40px">never</button>
           <script>
             document.getElementById("delayed").onclick = () => fetch("/delayed");
             document.getElementById("never").onclick = () => fetch("/never");
           </script>`,
        ));
      case "/never":
        // Never answered; server.close() drops the connection.
        served.neverReceived = true;
        onNeverReceived?.();
        return;
      case "/delayed":
        return setTimeout(() => {
          served.delayedDone = true;
          response.end("ok");
        }, 300);
      case "/a":
        return send(html(`<h1>page a</h1>`));
      case "/b":
        return send(html(`<h1>page b</h1>`));
      default:
        response.statusCode = 404;
        response.end();
    }
  });
});

after(async () => {
  for (const driver of DRIVERS) await driver.close();
  await server?.close();
});

/** Where the element matching the CSS `selector` is, in CSS pixels, as an action receives it. */
async function locate(page: TestPage, selector: string): Promise<LocatedElement> {
  const rect = await page.evaluate((s: string) => {
    const g = globalThis as unknown as {
      document: {
        querySelector(s: string): {
          getBoundingClientRect(): { left: number; top: number; width: number; height: number };
        } | null;
      };
    };
    const element = g.document.querySelector(s);
    if (!element) throw new Error(`no element matches ${s}`);
    const r = element.getBoundingClientRect();
    return { left: r.left, top: r.top, width: r.width, height: r.height };
  }, selector);
  return {
    description: selector,
    center: [rect.left + rect.width / 2, rect.top + rect.height / 2],
    rect,
  };
}

/** Reads (or with `set`, writes) a property of the element matching `selector`. */
function prop(
  page: TestPage,
  selector: string,
  name: "value" | "textContent",
  set?: string,
): Promise<string> {
  return page.evaluate(([s, n, v]: [string, string, string | null]) => {
    const element = (globalThis as unknown as {
      document: { querySelector(s: string): Record<string, string> };
    }).document.querySelector(s);
    if (v !== null) element[n] = v;
    return element[n];
  }, [selector, name, set ?? null] as [string, string, string | null]);
}

function action(device: WebPageDevice, name: string): DeviceAction {
  const found = device.actionSpace().find((a) => a.name === name);
  assert.ok(found, `action ${name} is in the action space`);
  return found;
}

/** Runs one action the way the agent does: beforeAction, call, afterAction. */
async function act(
  device: WebPageDevice,
  name: string,
  param: Record<string, unknown> = {},
): Promise<void> {
  await device.beforeAction();
  await action(device, name).call(param, {});
  await device.afterAction();
}

const CLICK_PAGE = html(`
  <style>body { margin: 0 } #target { position: absolute; left: 100px; top: 100px; width: 200px; height: 60px }</style>
  <button id="target">target</button>
  <script>
    window.events = [];
    const t = document.getElementById("target");
    for (const type of ["click", "dblclick", "mouseenter"]) t.addEventListener(type, () => events.push(type));
    t.addEventListener("contextmenu", (e) => { e.preventDefault(); events.push("contextmenu"); });
  </script>`);

// Pointer moves also fire mouseenter; the tests below look at the rest.
const clicks = async (page: TestPage) => (await events(page)).filter((e) => e !== "mouseenter");
const events = (page: TestPage) =>
  page.evaluate(() => (globalThis as unknown as { events: string[] }).events);

const FIELDS_PAGE = html(`
  <input id="field" value="hello" style="width:300px">
  <textarea id="area" style="width:300px">line one
line two</textarea>
  <div id="editable" contenteditable="true" style="width:300px;height:40px">rich <b>text</b></div>
  <script>
    window.inputEvents = 0;
    document.getElementById("field").addEventListener("input", () => inputEvents++);
  </script>`);

const value = (page: TestPage, selector: string) => prop(page, selector, "value");

const SCROLL_PAGE = html(`
  <style>
    body { margin: 0; width: 4000px; height: 6000px }
    #inner { position: absolute; left: 600px; top: 100px; width: 300px; height: 300px; overflow: auto }
    #inner > div { width: 300px; height: 3000px }
  </style>
  <div id="inner"><div>inner</div></div>`);

const scrollState = (page: TestPage) =>
  page.evaluate(() => {
    const g = globalThis as unknown as {
      scrollX: number;
      scrollY: number;
      innerWidth: number;
      innerHeight: number;
      document: {
        documentElement: { scrollHeight: number; scrollWidth: number };
        getElementById(id: string): { scrollTop: number };
      };
    };
    return {
      x: g.scrollX,
      y: g.scrollY,
      maxX: g.document.documentElement.scrollWidth - g.innerWidth,
      maxY: g.document.documentElement.scrollHeight - g.innerHeight,
      inner: g.document.getElementById("inner").scrollTop,
    };
  });

const near = (actual: number, expected: number, label: string) =>
  assert.ok(Math.abs(actual - expected) <= 2, `${label}: ${actual} is not about ${expected}`);

/** Counts live subscriptions of a driver, to see that destroy() removes them. */
class CountingDriver implements PageDriver {
  live = 0;
  readonly mouse: PageDriver["mouse"];
  readonly keyboard: PageDriver["keyboard"];
  readonly evaluate: PageDriver["evaluate"];
  readonly #inner: PageDriver;
  constructor(inner: PageDriver) {
    this.#inner = inner;
    this.mouse = inner.mouse;
    this.keyboard = inner.keyboard;
    this.evaluate = inner.evaluate.bind(inner) as PageDriver["evaluate"];
  }
  #count(unsubscribe: () => void): () => void {
    this.live++;
    let done = false;
    return () => {
      if (!done) this.live--;
      done = true;
      unsubscribe();
    };
  }
  screenshot() {
    return this.#inner.screenshot();
  }
  viewport() {
    return this.#inner.viewport();
  }
  addInitScript(script: () => void) {
    return this.#inner.addInitScript(script);
  }
  url() {
    return this.#inner.url();
  }
  goto(url: string) {
    return this.#inner.goto(url);
  }
  reload() {
    return this.#inner.reload();
  }
  goBack() {
    return this.#inner.goBack();
  }
  onRequestStart(...args: Parameters<PageDriver["onRequestStart"]>) {
    return this.#count(this.#inner.onRequestStart(...args));
  }
  onRequestEnd(...args: Parameters<PageDriver["onRequestEnd"]>) {
    return this.#count(this.#inner.onRequestEnd(...args));
  }
  onMainFrameLoad(...args: Parameters<PageDriver["onMainFrameLoad"]>) {
    return this.#count(this.#inner.onMainFrameLoad(...args));
  }
}

test("new WebPageDevice() throws a RangeError for a negative or non-finite timeout or delay", () => {
  const driver = {} as PageDriver;
  assert.throws(() => new WebPageDevice(driver, { keyboardTypeDelay: -1 }), RangeError);
  assert.throws(
    () => new WebPageDevice(driver, { waitForNavigationTimeout: Infinity }),
    RangeError,
  );
  assert.throws(
    () => new WebPageDevice(driver, { waitForNetworkIdleTimeout: Number.NaN }),
    RangeError,
  );
});

test("WebPageDevice.startFrameStream maps the driver's screencast to stream frames; absent without one", async () => {
  assert.equal(new WebPageDevice({} as PageDriver).startFrameStream, undefined);

  const calls: Array<{ quality: number }> = [];
  let send: ((data: string, timestamp: number) => void) | undefined;
  let stops = 0;
  const driver = {
    startScreencast(options: { quality: number; onFrame(data: string, timestamp: number): void }) {
      calls.push({ quality: options.quality });
      send = options.onFrame;
      return Promise.resolve({
        stop: () => {
          stops++;
          return Promise.resolve();
        },
      });
    },
  } as unknown as PageDriver;
  const device = new WebPageDevice(driver);
  assert.ok(device.startFrameStream);
  const frames: unknown[] = [];
  const stream = await device.startFrameStream({ onFrame: (frame) => frames.push(frame) });
  send!("/9j/AAAA", 1_700_000_000_123);
  assert.deepEqual(frames, [{ data: "/9j/AAAA", format: "jpeg", timestamp: 1_700_000_000_123 }]);
  await stream.stop();
  await stream.stop();
  assert.equal(stops, 1, "stop() is idempotent");

  await device.startFrameStream({ onFrame: () => {}, quality: 49.6 });
  assert.deepEqual(calls.map((c) => c.quality), [80, 50]);
  for (const quality of [0, 101, Number.NaN, "80" as unknown as number]) {
    await assert.rejects(device.startFrameStream({ onFrame: () => {}, quality }), RangeError);
  }
  // destroy() stops the stream still running.
  await device.destroy();
  assert.equal(stops, 2);
});

/** The device tests, against one driver. */
function suite(kind: DriverUnderTest): void {
  /** A fresh context and page, a device over it, and cleanup. */
  async function withDevice(
    run: (page: TestPage, device: WebPageDevice) => Promise<void>,
    options: { viewport?: Partial<Viewport>; device?: WebPageDeviceOptions } = {},
  ): Promise<void> {
    const { native, driver, close } = await kind.open(options.viewport);
    const device = new WebPageDevice(driver, options.device);
    try {
      await run(testPage(native, driver), device);
    } finally {
      await device.destroy();
      await close();
    }
  }

  test(`${kind.name}: a screenshot Chromium could not capture is asked for again; other screenshot errors are thrown at once`, async () => {
    const { native, driver, close } = await kind.open();
    try {
      await native.setContent(CLICK_PAGE);
      const failing = (failures: number, message: string) => {
        let calls = 0;
        const proxy = new Proxy(driver, {
          get(target, key) {
            if (key === "screenshot") {
              return (encoding?: ScreenshotEncoding) => {
                calls++;
                if (calls <= failures) return Promise.reject(new Error(message));
                return target.screenshot(encoding);
              };
            }
            const value = Reflect.get(target, key, target);
            return typeof value === "function" ? value.bind(target) : value;
          },
        });
        return { device: new WebPageDevice(proxy), calls: () => calls };
      };
      const busy = "Protocol error (Page.captureScreenshot): Unable to capture screenshot";
      const once = failing(1, busy);
      assert.match(await once.device.screenshotBase64(), /^data:image\/png;base64,iVBOR/);
      assert.equal(once.calls(), 2);
      await once.device.destroy();
      const always = failing(99, busy);
      await assert.rejects(always.device.screenshotBase64(), /Unable to capture screenshot/);
      assert.equal(always.calls(), 3);
      await always.device.destroy();
      const closed = failing(99, "Target page, context or browser has been closed");
      await assert.rejects(closed.device.screenshotBase64(), /has been closed/);
      assert.equal(closed.calls(), 1);
      await closed.device.destroy();
    } finally {
      await close();
    }
  });

  test(`${kind.name}: WebPageDevice.actionSpace() lists the web actions of the model protocol with their params`, async () => {
    await withDevice((_page, device) => {
      const space = device.actionSpace();
      assert.deepEqual(space.map((a) => a.name), [
        "Tap",
        "DoubleClick",
        "RightClick",
        "Hover",
        "Input",
        "ClearInput",
        "KeyboardPress",
        "Scroll",
        "Navigate",
        "Reload",
        "GoBack",
        "DragAndDrop",
        "LongPress",
      ]);
      const params = (name: string) =>
        space.find((a) => a.name === name)!.params.map((p) => [p.name, p.type, p.required]);
      assert.deepEqual(params("Tap"), [["locate", "locate", true], ["files", "files", false]]);
      assert.deepEqual(params("DragAndDrop"), [
        ["from", "locate", true],
        ["to", "locate", true],
      ]);
      assert.deepEqual(params("LongPress"), [
        ["locate", "locate", true],
        ["duration", "number", false],
      ]);
      assert.deepEqual(params("Input"), [
        ["locate", "locate", false],
        ["value", "string", true],
        ["mode", "enum", false],
      ]);
      assert.deepEqual(space.find((a) => a.name === "Input")!.params[2].values, [
        "replace",
        "typeOnly",
        "clear",
      ]);
      assert.deepEqual(params("KeyboardPress"), [["locate", "locate", false], [
        "keyName",
        "string",
        true,
      ]]);
      assert.deepEqual(params("Scroll"), [
        ["locate", "locate", false],
        ["direction", "enum", false],
        ["scrollType", "enum", false],
        ["distance", "number", false],
      ]);
      assert.deepEqual(params("Navigate"), [["url", "string", true]]);
      assert.deepEqual(params("Reload"), []);
      assert.deepEqual(params("GoBack"), []);
      for (const a of space) {
        assert.ok(a.description.length > 0 && !a.description.includes("\n"), a.name);
        for (const p of a.params) assert.ok(p.description.length > 0, `${a.name}.${p.name}`);
      }
      return Promise.resolve();
    });
  });

  test(`${kind.name}: WebPageDevice Tap, DoubleClick, RightClick and Hover reach the located element`, async () => {
    await withDevice(async (page, device) => {
      await page.setContent(CLICK_PAGE);
      const target = await locate(page, "#target");
      await act(device, "Hover", { locate: target });
      assert.deepEqual(await events(page), ["mouseenter"]);
      await act(device, "Tap", { locate: target });
      assert.deepEqual(await events(page), ["mouseenter", "click"]);
      await act(device, "DoubleClick", { locate: target });
      assert.deepEqual(await events(page), ["mouseenter", "click", "click", "click", "dblclick"]);
      await act(device, "RightClick", { locate: target });
      assert.equal((await events(page)).at(-1), "contextmenu");
    });
  });

  test(`${kind.name}: WebPageDevice actions throw a TypeError naming the action and the bad parameter`, async () => {
    await withDevice(async (page, device) => {
      await page.setContent(CLICK_PAGE);
      const target = await locate(page, "#target");
      const call = (name: string, param: Record<string, unknown>) =>
        action(device, name).call(param, {});
      await assert.rejects(
        call("Tap", {}),
        (e: Error) => e instanceof TypeError && /Tap/.test(e.message) && /'locate'/.test(e.message),
      );
      await assert.rejects(
        call("Tap", { locate: { center: "middle" } }),
        (e: Error) => e instanceof TypeError && /Tap/.test(e.message) && /'locate'/.test(e.message),
      );
      await assert.rejects(
        call("Input", { locate: target }),
        (e: Error) =>
          e instanceof TypeError && /Input/.test(e.message) && /'value'/.test(e.message),
      );
      await assert.rejects(
        call("Input", { locate: target, value: "x", mode: "overwrite" }),
        (e: Error) => e instanceof TypeError && /Input/.test(e.message) && /'mode'/.test(e.message),
      );
      await assert.rejects(
        call("KeyboardPress", {}),
        (e: Error) =>
          e instanceof TypeError && /KeyboardPress/.test(e.message) && /'keyName'/.test(e.message),
      );
      await assert.rejects(
        call("KeyboardPress", { keyName: "Enter+A" }),
        (e: Error) =>
          e instanceof TypeError && /KeyboardPress/.test(e.message) && /'keyName'/.test(e.message),
      );
      await assert.rejects(
        call("Scroll", { direction: "sideways" }),
        (e: Error) =>
          e instanceof TypeError && /Scroll/.test(e.message) && /'direction'/.test(e.message),
      );
      await assert.rejects(
        call("Scroll", { distance: -100 }),
        (e: Error) =>
          e instanceof RangeError && /Scroll/.test(e.message) && /'distance'/.test(e.message),
      );
      await assert.rejects(
        call("Navigate", {}),
        (e: Error) =>
          e instanceof TypeError && /Navigate/.test(e.message) && /'url'/.test(e.message),
      );
      // Nothing reached the page.
      assert.deepEqual(await events(page), []);
    });
  });

  test(`${kind.name}: WebPageDevice action calls reject with the signal's reason when it is aborted`, async () => {
    await withDevice(async (page, device) => {
      await page.setContent(CLICK_PAGE);
      const controller = new AbortController();
      controller.abort(new Error("stop"));
      await assert.rejects(
        action(device, "Tap").call({ locate: await locate(page, "#target") }, {
          signal: controller.signal,
        }),
        { message: "stop" },
      );
      assert.deepEqual(await events(page), []);
    });
  });

  test(`${kind.name}: WebPageDevice Input replaces the field's content by default`, async () => {
    await withDevice(async (page, device) => {
      await page.setContent(FIELDS_PAGE);
      await act(device, "Input", { locate: await locate(page, "#field"), value: "world" });
      assert.equal(await value(page, "#field"), "world");
      // Typed like a user: one input event per key, plus none for the selection.
      assert.ok(
        (await page.evaluate(() =>
          (globalThis as unknown as { inputEvents: number }).inputEvents
        )) >=
          5,
      );
      await act(device, "Input", {
        locate: await locate(page, "#area"),
        value: "new",
        mode: "replace",
      });
      assert.equal(await value(page, "#area"), "new");
      await act(device, "Input", { locate: await locate(page, "#editable"), value: "plain" });
      assert.equal(await prop(page, "#editable", "textContent"), "plain");
      // A number value is typed as text.
      await act(device, "Input", { locate: await locate(page, "#field"), value: 42 });
      assert.equal(await value(page, "#field"), "42");
    });
  });

  test(`${kind.name}: WebPageDevice Input typeOnly (and deprecated append) types after the existing content`, async () => {
    await withDevice(async (page, device) => {
      await page.setContent(FIELDS_PAGE);
      const field = await locate(page, "#field");
      // Click near the field's left edge: the caret lands at the start, the text still goes at the end.
      const leftEdge = { ...field, center: [field.rect.left + 3, field.center[1]] };
      await act(device, "Input", { locate: leftEdge, value: " there", mode: "typeOnly" });
      assert.equal(await value(page, "#field"), "hello there");
      await act(device, "Input", { locate: leftEdge, value: "!", mode: "append" });
      assert.equal(await value(page, "#field"), "hello there!");
      await act(device, "Input", {
        locate: await locate(page, "#area"),
        value: "!",
        mode: "typeOnly",
      });
      assert.equal(await value(page, "#area"), "line one\nline two!");
    });
  });

  test(`${kind.name}: WebPageDevice Input clear and ClearInput empty the field; value is ignored`, async () => {
    await withDevice(async (page, device) => {
      await page.setContent(FIELDS_PAGE);
      await act(device, "Input", {
        locate: await locate(page, "#field"),
        value: "ignored",
        mode: "clear",
      });
      assert.equal(await value(page, "#field"), "");
      await act(device, "Input", { locate: await locate(page, "#area"), mode: "clear" });
      assert.equal(await value(page, "#area"), "");
      await prop(page, "#field", "value", "again");
      await act(device, "ClearInput", { locate: await locate(page, "#field") });
      assert.equal(await value(page, "#field"), "");
      await act(device, "ClearInput", { locate: await locate(page, "#editable") });
      assert.equal(await prop(page, "#editable", "textContent"), "");
    });
  });

  test(`${kind.name}: WebPageDevice Input without locate types into the focused element`, async () => {
    await withDevice(async (page, device) => {
      await page.setContent(FIELDS_PAGE);
      await page.focus("#field");
      await act(device, "Input", { value: "focused" });
      assert.equal(await value(page, "#field"), "focused");
    });
  });

  test(`${kind.name}: WebPageDevice keyboardTypeDelay still types the whole text`, async () => {
    await withDevice(async (page, device) => {
      await page.setContent(FIELDS_PAGE);
      await act(device, "Input", { locate: await locate(page, "#field"), value: "slow" });
      assert.equal(await value(page, "#field"), "slow");
    }, { device: { keyboardTypeDelay: 5 } });
  });

  test(`${kind.name}: WebPageDevice KeyboardPress 'Control+A' then 'Backspace' clears a field`, async () => {
    await withDevice(async (page, device) => {
      await page.setContent(FIELDS_PAGE);
      await act(device, "KeyboardPress", {
        locate: await locate(page, "#field"),
        keyName: "Control+A",
      });
      await act(device, "KeyboardPress", { keyName: "Backspace" });
      assert.equal(await value(page, "#field"), "");
      // Loose spellings are normalised: "ctrl + a".
      await page.focus("#area");
      await act(device, "KeyboardPress", { keyName: "ctrl + a" });
      await act(device, "KeyboardPress", { keyName: "Del" });
      assert.equal(await value(page, "#area"), "");
    });
  });

  test(`${kind.name}: WebPageDevice KeyboardPress Enter submits a form through the focused field`, async () => {
    await withDevice(async (page, device) => {
      await page.setContent(html(`
      <form onsubmit="event.preventDefault(); document.title = 'submitted'"><input id="q"></form>`));
      await act(device, "KeyboardPress", { locate: await locate(page, "#q"), keyName: "Enter" });
      assert.equal(await page.title(), "submitted");
    });
  });

  test(`${kind.name}: WebPageDevice Scroll singleAction moves the page by the distance, 70% of the viewport by default`, async () => {
    await withDevice(async (page, device) => {
      await page.setContent(SCROLL_PAGE);
      await act(device, "Scroll", { direction: "down", distance: 400 });
      near((await scrollState(page)).y, 400, "scrollY after 400 down");
      await act(device, "Scroll", {});
      near((await scrollState(page)).y, 400 + 504, "scrollY after a default scroll (0.7 x 720)");
      await act(device, "Scroll", { direction: "up", distance: 300 });
      near((await scrollState(page)).y, 604, "scrollY after 300 up");
      await act(device, "Scroll", { direction: "right", distance: 250 });
      near((await scrollState(page)).x, 250, "scrollX after 250 right");
      await act(device, "Scroll", { direction: "left", distance: "100" });
      near((await scrollState(page)).x, 150, "scrollX after 100 left");
    });
  });

  test(`${kind.name}: WebPageDevice Scroll scrollToBottom/Top/Right/Left reach the page's ends`, async () => {
    await withDevice(async (page, device) => {
      await page.setContent(SCROLL_PAGE);
      const away = {
        description: "page",
        center: [200, 600],
        rect: { left: 190, top: 590, width: 20, height: 20 },
      };
      await act(device, "Scroll", { locate: away, scrollType: "scrollToBottom" });
      let state = await scrollState(page);
      assert.equal(state.y, state.maxY);
      await act(device, "Scroll", { locate: away, scrollType: "scrollToRight" });
      state = await scrollState(page);
      assert.equal(state.x, state.maxX);
      await act(device, "Scroll", { locate: away, scrollType: "scrollToTop" });
      await act(device, "Scroll", { locate: away, scrollType: "scrollToLeft" });
      state = await scrollState(page);
      assert.deepEqual([state.x, state.y, state.inner], [0, 0, 0]);
    });
  });

  test(`${kind.name}: WebPageDevice Scroll at an inner scrollable element scrolls that element, not the page`, async () => {
    await withDevice(async (page, device) => {
      await page.setContent(SCROLL_PAGE);
      await act(device, "Scroll", { locate: await locate(page, "#inner"), distance: 200 });
      let state = await scrollState(page);
      near(state.inner, 200, "inner scrollTop");
      assert.equal(state.y, 0);
      // Without locate: where the pointer was left (over the inner element).
      await act(device, "Scroll", { distance: 100 });
      state = await scrollState(page);
      near(state.inner, 300, "inner scrollTop after scrolling at the pointer");
      assert.equal(state.y, 0);
    });
  });

  test(`${kind.name}: WebPageDevice screenshotBase64() is CSS viewport x dpr; size() is the CSS viewport and dpr`, async () => {
    for (const deviceScaleFactor of [1, 2]) {
      await withDevice(async (page, device) => {
        await page.setContent(html(`<p>dpr ${deviceScaleFactor}</p>`));
        const shot = await device.screenshotBase64();
        assert.ok(shot.startsWith("data:image/png;base64,"));
        assert.deepEqual(pngSize(shot), {
          width: 800 * deviceScaleFactor,
          height: 600 * deviceScaleFactor,
        });
        assert.deepEqual(await device.size(), { width: 800, height: 600, dpr: deviceScaleFactor });
      }, { viewport: { width: 800, height: 600, dpr: deviceScaleFactor } });
    }
  });

  test(`${kind.name}: WebPageDevice screenshotBase64({ format: "jpeg" }) is a JPEG data URI of the same size`, async () => {
    await withDevice(async (page, device) => {
      await page.setContent(html(`<p>jpeg</p>`));
      const shot = await device.screenshotBase64({ format: "jpeg", quality: 70 });
      assert.ok(shot.startsWith("data:image/jpeg;base64,/9j/"), shot.slice(0, 40));
      const { width, height } = imageSizeFromDataUri(shot);
      assert.deepEqual({ width, height }, { width: 1600, height: 1200 });
    }, { viewport: { width: 800, height: 600, dpr: 2 } });
  });

  test(`${kind.name}: WebPageDevice Tap at a CSS point on a dpr-2 page hits the element there`, async () => {
    await withDevice(async (page, device) => {
      await page.setContent(html(`
      <style>body { margin: 0 } div { position: absolute; width: 400px; height: 300px }</style>
      <div id="tl" style="left:0;top:0"></div><div id="tr" style="left:400px;top:0"></div>
      <div id="bl" style="left:0;top:300px"></div><div id="br" style="left:400px;top:300px"></div>
      <script>document.body.onclick = (e) => { document.title = e.target.id; };</script>`));
      const at = (x: number, y: number) => ({
        description: "point",
        center: [x, y],
        rect: { left: x - 1, top: y - 1, width: 2, height: 2 },
      });
      await act(device, "Tap", { locate: at(600, 450) });
      assert.equal(await page.title(), "br");
      await act(device, "Tap", { locate: at(390, 10) });
      assert.equal(await page.title(), "tl");
      await act(device, "Tap", { locate: at(410, 10) });
      assert.equal(await page.title(), "tr");
    }, { viewport: { width: 800, height: 600, dpr: 2 } });
  });

  test(`${kind.name}: WebPageDevice afterAction waits for the load of a navigation the Tap started`, async () => {
    await withDevice(async (page, device) => {
      await page.goto(`${server.origin}/link`);
      await within(
        act(device, "Tap", { locate: await locate(page, "#link") }),
        30_000,
        "the Tap that navigates to the slow page",
      );
      // No waiting here: afterAction already waited for the slow document and its slow image.
      const state = await page.evaluate(() => {
        const d = globalThis as unknown as {
          document: {
            readyState: string;
            getElementById(id: string): { textContent: string } | null;
          };
          location: { pathname: string };
        };
        return {
          path: d.location.pathname,
          ready: d.document.readyState,
          title: d.document.getElementById("title")?.textContent,
        };
      });
      assert.deepEqual(state, { path: "/slow-page", ready: "complete", title: "slow page" });
    });
  });

  test(`${kind.name}: WebPageDevice afterAction does not wait for a request that was in flight before the action`, async () => {
    await withDevice(async (page, device) => {
      served.neverReceived = false;
      const neverSeen = new Promise<void>((resolve) => onNeverReceived = resolve);
      // One action first: the device listens to the page from then on, so it does see the long
      // poll start below, between two actions.
      await within(act(device, "Navigate", { url: `${server.origin}/a` }), 30_000, "Navigate");
      await page.goto(`${server.origin}/long-poll-page`);
      await within(neverSeen, 10_000, "the page's long poll reaching the server");
      onNeverReceived = undefined;
      // The request is in flight for good (never answered). Counting it, afterAction would wait
      // the two-minute timeout; it must return once the tap's own work is done.
      await within(
        act(device, "Tap", { locate: await locate(page, "#go") }),
        10_000,
        "the Tap with a request in flight from before it",
      );
      assert.equal(await prop(page, "#go", "textContent"), "done");
      assert.equal(served.neverReceived, true);
    }, { device: { waitForNetworkIdleTimeout: 120_000, waitForNavigationTimeout: 120_000 } });
  });

  test(`${kind.name}: WebPageDevice afterAction waits for a request the action started`, async () => {
    await withDevice(async (page, device) => {
      served.delayedDone = false;
      await page.goto(`${server.origin}/fetch-page`);
      await within(
        act(device, "Tap", { locate: await locate(page, "#delayed") }),
        30_000,
        "the Tap whose request the server answers after 300 ms",
      );
      // The server answered (300 ms after the request) before afterAction returned.
      assert.equal(served.delayedDone, true);
    }, { device: { waitForNetworkIdleTimeout: 120_000 } });
  });

  test(`${kind.name}: WebPageDevice afterAction gives up on a request the action started that never ends, without throwing`, async () => {
    await withDevice(async (page, device) => {
      await page.goto(`${server.origin}/fetch-page`);
      served.neverReceived = false;
      const neverSeen = new Promise<void>((resolve) => onNeverReceived = resolve);
      // Resolves (does not reject) although the request never ends: the 200 ms timeout ends
      // the wait.
      await within(
        act(device, "Tap", { locate: await locate(page, "#never") }),
        10_000,
        "the Tap whose request never ends",
      );
      // The tap did start the request that afterAction gave up on.
      await within(neverSeen, 10_000, "the tap's request reaching the server");
      onNeverReceived = undefined;
      assert.equal(served.neverReceived, true);
    }, { device: { waitForNetworkIdleTimeout: 200 } });
  });

  test(`${kind.name}: WebPageDevice afterAction returns at once without beforeAction and when nothing started`, async () => {
    await withDevice(async (page, device) => {
      await page.setContent(CLICK_PAGE);
      await within(device.afterAction(), 5_000, "afterAction without beforeAction");
      await within(
        act(device, "Tap", { locate: await locate(page, "#target") }),
        10_000,
        "a Tap that starts nothing",
      );
      assert.deepEqual(await clicks(page), ["click"]);
    }, { device: { waitForNetworkIdleTimeout: 120_000, waitForNavigationTimeout: 120_000 } });
  });

  test(`${kind.name}: WebPageDevice Navigate, GoBack and Reload move the tab through its history`, async () => {
    await withDevice(async (page, device) => {
      const host = server.origin.replace("http://", "");
      // A URL without a scheme, as models write it.
      await act(device, "Navigate", { url: `${host}/a` });
      assert.equal(new URL(page.url()).pathname, "/a");
      assert.equal(
        await page.evaluate(() =>
          (globalThis as unknown as { document: { readyState: string } }).document.readyState
        ),
        "complete",
      );
      await act(device, "Navigate", { url: `${server.origin}/b` });
      assert.equal(await device.describe(), `${server.origin}/b`);
      await act(device, "GoBack");
      assert.equal(await device.describe(), `${server.origin}/a`);
      await page.evaluate(() => (globalThis as unknown as { marker: number }).marker = 1);
      await act(device, "Reload");
      assert.equal(await device.describe(), `${server.origin}/a`);
      assert.equal(
        await page.evaluate(() => (globalThis as unknown as { marker?: number }).marker),
        undefined,
      );
    });
  });

  test(`${kind.name}: WebPageDevice.startFrameStream streams JPEG frames of the page; a driver without a screencast gives none`, async () => {
    await withDevice(async (page, device) => {
      await page.setContent(html(`<p id="p">frame</p>`));
      assert.ok(device.startFrameStream);
      const frames: Array<{ data: string; format: string; timestamp: number }> = [];
      const stream = await device.startFrameStream({ onFrame: (f) => frames.push(f), quality: 60 });
      const deadline = Date.now() + 3000;
      while (frames.length === 0 && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 20));
      }
      await page.evaluate(() => {
        (globalThis as unknown as { document: { body: { style: { background: string } } } })
          .document.body.style.background = "#123456";
      });
      const count = frames.length;
      while (frames.length === count && Date.now() < deadline + 3000) {
        await new Promise((r) => setTimeout(r, 20));
      }
      await stream.stop();
      assert.ok(frames.length >= 2, `initial frame and one after the change: ${frames.length}`);
      for (const frame of frames) {
        assert.equal(frame.format, "jpeg");
        assert.ok(frame.data.startsWith("/9j/"), "base64 JPEG without a data: prefix");
      }
      const sizes = frames.map((f) => {
        const { width, height } = imageSizeFromDataUri(`data:image/jpeg;base64,${f.data}`);
        return `${width}x${height}`;
      });
      assert.ok(sizes.every((size) => size === "800x600"), `frame sizes: ${sizes.join(", ")}`);
      assert.ok(Math.abs(frames[0].timestamp - Date.now()) < 10_000);
    }, { viewport: { width: 800, height: 600, dpr: 2 } });
    const { native, driver: inner, close } = await kind.open();
    try {
      await native.setContent(CLICK_PAGE);
      // CountingDriver forwards no screencast: the observer would sample screenshots.
      assert.equal(new WebPageDevice(new CountingDriver(inner)).startFrameStream, undefined);
    } finally {
      await close();
    }
  });

  test(`${kind.name}: WebPageDevice.destroy() removes its listeners and leaves the page open`, async () => {
    const { native, driver: inner, close } = await kind.open();
    try {
      const page = testPage(native, inner);
      await page.setContent(CLICK_PAGE);
      const driver = new CountingDriver(inner);
      const device = new WebPageDevice(driver);
      assert.equal(driver.live, 0);
      await device.beforeAction();
      assert.equal(driver.live, 3);
      await device.destroy();
      await device.destroy();
      assert.equal(driver.live, 0);
      assert.equal(page.isClosed(), false);
      // Actions still reach the page; settling is off and subscribes nothing again.
      await act(device, "Tap", { locate: await locate(page, "#target") });
      assert.deepEqual(await clicks(page), ["click"]);
      assert.equal(driver.live, 0);
    } finally {
      await close();
    }
  });
}

for (const kind of DRIVERS) suite(kind);
