/**
 * The virtual phone of the device simulator kit: a phone screen that is a page in headless
 * Chromium, rendered at the phone's physical size and density, driven by real touch and key
 * input, and recording every input it is sent.
 *
 * It knows no wire protocol: fronts (the adb front, later others) translate their protocol into
 * its methods. Units: every coordinate and size it takes or reports is in **physical pixels** of
 * the phone's screen (what a phone's own tools use), unless a name says CSS pixels; one CSS pixel
 * of the page is `density` physical pixels.
 *
 * @module
 */

import type { Browser, BrowserContext, CDPSession, Page } from "playwright-core";
import { Buffer } from "node:buffer";
import { PNG } from "pngjs";
import { launchChromium } from "../chromium/launch.ts";
import { launcherHtml, recentsHtml, type SystemUiApp } from "./_system_ui.ts";

/** Android key codes the simulator acts on (the codes `input keyevent` takes). */
export const KEYCODE: Readonly<Record<string, number>> = Object.freeze({
  HOME: 3,
  BACK: 4,
  DPAD_UP: 19,
  DPAD_DOWN: 20,
  DPAD_LEFT: 21,
  DPAD_RIGHT: 22,
  VOLUME_UP: 24,
  VOLUME_DOWN: 25,
  POWER: 26,
  TAB: 61,
  SPACE: 62,
  ENTER: 66,
  DEL: 67,
  MENU: 82,
  SEARCH: 84,
  PAGE_UP: 92,
  PAGE_DOWN: 93,
  ESCAPE: 111,
  FORWARD_DEL: 112,
  MOVE_HOME: 122,
  MOVE_END: 123,
  APP_SWITCH: 187,
});

/** The package name of the simulator's home screen and recent-apps screen. */
export const LAUNCHER_PACKAGE = "com.android.launcher3";
/** Activity of the home screen. */
export const LAUNCHER_ACTIVITY = "com.android.launcher3.Launcher";
/** Activity of the recent-apps screen (part of the launcher, as on Android 10 and later). */
export const RECENTS_ACTIVITY = "com.android.quickstep.RecentsActivity";
/** The built-in browser app that opens web URLs ({@link VirtualPhone.openUrl}). */
export const BROWSER_PACKAGE = "com.android.chrome";

/** An app installed on the virtual phone. */
export interface SimulatedApp {
  /** The page the app shows when launched (any URL Chromium can open). */
  url: string;
  /** Name on the home screen and in recent apps. Default: the package's last segment. */
  label?: string;
  /** Its launcher activity's class name. Default: `<package>.MainActivity`. */
  activity?: string;
  /**
   * Other activities, by class name (fully qualified, or `.Name` inside the package) -> the page
   * URL they show. Starting one (`launchApp(pkg, activity)`, `am start -n pkg/.Name`) opens its
   * URL on top of the app's history, so back returns to the screen before.
   */
  activities?: Record<string, string>;
}

/** Options of {@link startVirtualPhone}. */
export interface VirtualPhoneOptions {
  /** Screen width in physical pixels. Default 1080. */
  width?: number;
  /** Screen height in physical pixels. Default 2400. */
  height?: number;
  /** Physical pixels per CSS pixel (Android: dpi / 160). Default 2.625 (420 dpi). */
  density?: number;
  /** Installed apps: package name -> the app's page URL or its description. */
  apps?: Record<string, string | SimulatedApp>;
  /** Package to launch right away. Default: none (the home screen shows). */
  startApp?: string;
  /**
   * A Chromium to open the phone in (shared between phones: each gets its own context). Default:
   * the machine's Chromium is launched for this phone and closed by {@link VirtualPhone.close}.
   */
  browser?: Browser;
  /** Device model name, e.g. for `getprop ro.product.model`. Default `"Simulator Phone"`. */
  model?: string;
  /** Device manufacturer. Default `"SDK"`. */
  manufacturer?: string;
}

/** What is on screen: the app in front and its activity. */
export interface ForegroundApp {
  /** Package name ({@link LAUNCHER_PACKAGE} for the home and recent-apps screens). */
  packageName: string;
  /** Fully qualified activity class name. */
  activity: string;
}

/** One input the phone received, in the order received. Coordinates in physical pixels. */
export type SimulatorInput =
  | { type: "tap"; x: number; y: number }
  | { type: "swipe"; x1: number; y1: number; x2: number; y2: number; durationMs: number }
  | { type: "longPress"; x: number; y: number; durationMs: number }
  | { type: "touch"; action: "down" | "move" | "up" | "cancel"; x: number; y: number }
  | { type: "text"; text: string; method: "keys" | "ime" }
  | { type: "clearText" }
  | { type: "key"; keyCode: number }
  | { type: "launch"; packageName: string; activity?: string }
  | { type: "stop"; packageName: string }
  | { type: "openUrl"; url: string }
  | { type: "multiTouch"; points: TouchPoint[] };

/** A finger on the screen, physical pixels; `id` tells fingers apart across calls. */
export interface TouchPoint {
  /** Any number naming the finger; the same id in the next call is the same finger. */
  id: number;
  /** Horizontal position, physical pixels. */
  x: number;
  /** Vertical position, physical pixels. */
  y: number;
}

/** A running virtual phone. Every coordinate is in physical pixels of its screen. */
export interface VirtualPhone {
  /** Screen width, physical pixels. */
  readonly width: number;
  /** Screen height, physical pixels. */
  readonly height: number;
  /** Physical pixels per CSS pixel. */
  readonly density: number;
  /** Density in dots per inch as Android reports it: `round(density * 160)`. */
  readonly densityDpi: number;
  /** Device model name. */
  readonly model: string;
  /** Device manufacturer. */
  readonly manufacturer: string;
  /** Every input received so far, oldest first (a live array; do not modify it). */
  readonly inputs: readonly SimulatorInput[];
  /** Installed packages, in installation order (the launcher and browser included). */
  packages(): string[];
  /** The launcher activity of an installed package (fully qualified); undefined when not installed. */
  activityOf(packageName: string): string | undefined;
  /** Every activity of an installed package, fully qualified, the launcher activity first. */
  activitiesOf(packageName: string): string[];
  /** Running apps, most recently used first (not the launcher). */
  runningApps(): string[];
  /** The app in front. */
  foregroundApp(): ForegroundApp;
  /** The page now on screen: the foreground app's page, or the system page of the launcher. */
  foregroundPage(): Page;
  /** Whether the on-screen keyboard is up: an editable element has focus and was not dismissed. */
  keyboardShown(): Promise<boolean>;
  /** The screen as a PNG of exactly `width` x `height` physical pixels. */
  screenshot(): Promise<Uint8Array>;
  /** Taps at a point (a touch down and up). */
  tap(x: number, y: number): Promise<void>;
  /** Moves one finger from one point to another over `durationMs` (default 300 ms). */
  swipe(x1: number, y1: number, x2: number, y2: number, durationMs?: number): Promise<void>;
  /** Holds one finger at a point for `durationMs` (default 600 ms). */
  longPress(x: number, y: number, durationMs?: number): Promise<void>;
  /**
   * One step of a finger driven by hand (Android's `input motionevent`): `down` puts it on the
   * screen, `move` moves it, `up` lifts it, `cancel` cancels the touch. A `move` or `up` without
   * a finger down is ignored.
   */
  touch(action: "down" | "move" | "up" | "cancel", x: number, y: number): Promise<void>;
  /**
   * Sets the fingers now on the screen: new ids go down, known ids move, missing ids lift; `[]`
   * lifts all. One call is one touch event on the page (DevTools `Input.dispatchTouchEvent` with
   * every finger still down), so several fingers can pinch. Recorded as one `multiTouch` input.
   *
   * @throws {TypeError} when a point has a non-finite coordinate or two points share an id.
   */
  multiTouch(points: readonly TouchPoint[]): Promise<void>;
  /** Types text into the focused element, one key per character (any Unicode text). */
  inputText(text: string): Promise<void>;
  /**
   * Inserts text into the focused element the way an input method commits it: one insertion,
   * no key events (what helper keyboards such as yadb do).
   */
  commitText(text: string): Promise<void>;
  /** Empties the focused text field, as an input method does it (no key events). */
  clearText(): Promise<void>;
  /** Sends one Android key code ({@link KEYCODE}): BACK, HOME, APP_SWITCH act as system keys. */
  keyEvent(keyCode: number): Promise<void>;
  /**
   * Brings an app to the front, launching it when it is not running. With an activity other than
   * the launcher activity, that activity is started on top of the app's history.
   *
   * @throws {Error} when the package is not installed or has no such activity.
   */
  launchApp(packageName: string, activity?: string): Promise<void>;
  /** Stops an app (its page closes and its state is lost); a no-op when it is not running. */
  stopApp(packageName: string): Promise<void>;
  /** Opens a web URL in the built-in browser app ({@link BROWSER_PACKAGE}). */
  openUrl(url: string): Promise<void>;
  /** Closes the phone's pages and context, and the browser when the phone launched it. */
  close(): Promise<void>;
}

interface InstalledApp {
  packageName: string;
  url: string;
  label: string;
  activity: string;
  /** Other activities: fully qualified class name -> URL. */
  activities: Map<string, string>;
}

interface RunningApp {
  app: InstalledApp;
  page: Page;
  session?: Promise<CDPSession>;
  /** Navigation entry index right after launch: back at this index leaves the app. */
  rootIndex: number;
  /** Activities started, bottom first, with the navigation entry index each one began at. */
  stack: { activity: string; index: number }[];
}

type Screen = { kind: "app"; packageName: string } | { kind: "home" } | { kind: "recents" };

// Keys the simulator forwards to the page, by Android key code.
const PAGE_KEYS: ReadonlyMap<number, string> = new Map<number, string>([
  [19, "ArrowUp"],
  [20, "ArrowDown"],
  [21, "ArrowLeft"],
  [22, "ArrowRight"],
  [61, "Tab"],
  [62, " "],
  [66, "Enter"],
  [67, "Backspace"],
  [92, "PageUp"],
  [93, "PageDown"],
  [111, "Escape"],
  [112, "Delete"],
  [122, "Home"],
  [123, "End"],
  ...Array.from({ length: 10 }, (_, i) => [7 + i, String(i)] as [number, string]),
  ...Array.from(
    { length: 26 },
    (_, i) => [29 + i, String.fromCharCode(97 + i)] as [number, string],
  ),
]);

// Tracks the on-screen keyboard in every page: up when an editable element gains focus or is
// touched, down when focus leaves or the phone dismisses it.
const KEYBOARD_SCRIPT = `(() => {
  const editable = (el) => !!el && (el.isContentEditable || el.tagName === "TEXTAREA" ||
    (el.tagName === "INPUT" && !/^(button|checkbox|radio|submit|reset|range|color|file|image|hidden)$/i.test(el.type)));
  window.__simulatorKeyboard = { shown: false, editable };
  addEventListener("focusin", (e) => { window.__simulatorKeyboard.shown = editable(e.target); }, true);
  addEventListener("focusout", () => { window.__simulatorKeyboard.shown = false; }, true);
  addEventListener("touchend", (e) => {
    if (editable(e.target) && e.target === document.activeElement) window.__simulatorKeyboard.shown = true;
  }, true);
})();`;

/** `.Name` -> `<package>.Name`; a fully qualified name stays as it is. */
function qualify(packageName: string, activity: string): string {
  return activity.startsWith(".") ? packageName + activity : activity;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function checkPoint(x: number, y: number): void {
  if (!Number.isFinite(x) || !Number.isFinite(y)) {
    throw new TypeError(`a point needs finite coordinates, got (${x}, ${y})`);
  }
}

function pngSize(png: Uint8Array): [number, number] {
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  return [view.getUint32(16), view.getUint32(20)];
}

/** Crops or pads (black) a PNG to exactly `width` x `height`; used only if Chromium is off. */
function fitPng(png: Uint8Array, width: number, height: number): Uint8Array {
  const source = PNG.sync.read(Buffer.from(png));
  const target = new PNG({ width, height });
  PNG.bitblt(
    source,
    target,
    0,
    0,
    Math.min(width, source.width),
    Math.min(height, source.height),
    0,
    0,
  );
  return new Uint8Array(PNG.sync.write(target));
}

/**
 * Starts a virtual phone: a browser context with the phone's screen (viewport of
 * `ceil(width / density)` x `ceil(height / density)` CSS pixels at `deviceScaleFactor: density`,
 * touch, mobile), showing the home screen or `startApp`.
 *
 * @example
 * ```ts ignore
 * const phone = await startVirtualPhone({ apps: { "com.example.notes": "http://127.0.0.1:8080/" } });
 * await phone.launchApp("com.example.notes");
 * await phone.tap(540, 300); // physical pixels
 * const png = await phone.screenshot(); // 1080 x 2400
 * await phone.close();
 * ```
 */
export async function startVirtualPhone(options: VirtualPhoneOptions = {}): Promise<VirtualPhone> {
  const width = options.width ?? 1080;
  const height = options.height ?? 2400;
  const density = options.density ?? 2.625;
  for (const [name, value] of [["width", width], ["height", height], ["density", density]]) {
    if (typeof value !== "number" || !Number.isFinite(value) || value <= 0) {
      throw new TypeError(`startVirtualPhone(): ${name} must be a positive number, got ${value}`);
    }
  }
  if (!Number.isInteger(width) || !Number.isInteger(height)) {
    throw new TypeError(`startVirtualPhone(): width and height are whole physical pixels`);
  }
  const installed = new Map<string, InstalledApp>();
  for (const [packageName, spec] of Object.entries(options.apps ?? {})) {
    const app = typeof spec === "string" ? { url: spec } : spec;
    installed.set(packageName, {
      packageName,
      url: app.url,
      label: app.label ?? packageName.split(".").pop()!,
      activity: qualify(packageName, app.activity ?? ".MainActivity"),
      activities: new Map(
        Object.entries(app.activities ?? {}).map((
          [name, url],
        ) => [qualify(packageName, name), url]),
      ),
    });
  }
  installed.set(BROWSER_PACKAGE, {
    packageName: BROWSER_PACKAGE,
    url: "about:blank",
    label: "Browser",
    activity: "com.google.android.apps.chrome.Main",
    activities: new Map(),
  });

  const ownBrowser = options.browser ? undefined : await launchChromium();
  const browser = options.browser ?? ownBrowser!;
  let context: BrowserContext;
  try {
    context = await browser.newContext({
      viewport: { width: Math.ceil(width / density), height: Math.ceil(height / density) },
      deviceScaleFactor: density,
      hasTouch: true,
      isMobile: true,
    });
    await context.addInitScript({ content: KEYBOARD_SCRIPT });
  } catch (error) {
    await ownBrowser?.close();
    throw error;
  }
  let systemPage: Page;
  try {
    systemPage = await context.newPage();
  } catch (error) {
    await context.close().catch(() => {});
    await ownBrowser?.close();
    throw error;
  }
  const running = new Map<string, RunningApp>();
  let recents: string[] = []; // most recent first
  let screen: Screen = { kind: "home" };
  let previous: Screen = { kind: "home" };
  const inputs: SimulatorInput[] = [];
  const sessions = new Map<Page, Promise<CDPSession>>();
  let closed = false;
  let fingerDown = false;
  // The fingers multiTouch put down, by id, in physical pixels.
  let fingers = new Map<number, TouchPoint>();
  let queue: Promise<unknown> = Promise.resolve();

  // One operation on the screen at a time, in arrival order.
  const serial = <T>(operation: () => Promise<T>): Promise<T> => {
    if (closed) return Promise.reject(new Error("the virtual phone is closed"));
    const result = queue.then(operation);
    queue = result.catch(() => {});
    return result;
  };

  const current = (): Page => {
    if (screen.kind === "app") return running.get(screen.packageName)!.page;
    return systemPage;
  };
  const session = (page: Page): Promise<CDPSession> => {
    let s = sessions.get(page);
    if (!s) {
      s = context.newCDPSession(page);
      sessions.set(page, s);
      page.once("close", () => sessions.delete(page));
    }
    return s;
  };
  const touch = async (
    type: "touchStart" | "touchMove" | "touchEnd" | "touchCancel",
    x?: number,
    y?: number,
  ): Promise<void> => {
    const s = await session(current());
    await s.send("Input.dispatchTouchEvent", {
      type,
      touchPoints: type === "touchEnd" || type === "touchCancel"
        ? []
        : [{ x: x! / density, y: y! / density, id: 1 }],
    });
  };
  const appsForUi = (names: readonly string[]): SystemUiApp[] =>
    names.map((name) => installed.get(name)!).map(({ packageName, label }) => ({
      packageName,
      label,
    }));
  const show = async (next: Screen): Promise<void> => {
    if (
      next.kind !== screen.kind || (next.kind === "app" && screen.kind === "app" &&
        next.packageName !== screen.packageName)
    ) {
      previous = screen;
    }
    screen = next;
    if (next.kind === "home") {
      const apps = [...installed.keys()].filter((name) => name !== BROWSER_PACKAGE);
      await systemPage.setContent(launcherHtml(appsForUi(apps)));
    } else if (next.kind === "recents") {
      await systemPage.setContent(recentsHtml(appsForUi(recents)));
    }
    await current().bringToFront();
  };
  const navigationIndex = (page: Page): Promise<number> =>
    page.evaluate(() =>
      (globalThis as unknown as { navigation?: { currentEntry?: { index: number } } })
        .navigation?.currentEntry?.index ?? 0
    );
  const launch = async (
    packageName: string,
    url?: string,
    activity?: string,
  ): Promise<void> => {
    const app = installed.get(packageName);
    if (!app) throw new Error(`package ${packageName} is not installed`);
    const started = activity === undefined ? undefined : qualify(packageName, activity);
    const startedUrl = started === undefined || started === app.activity
      ? undefined
      : app.activities.get(started);
    if (started !== undefined && started !== app.activity && startedUrl === undefined) {
      throw new Error(`activity ${started} does not exist in ${packageName}`);
    }
    let entry = running.get(packageName);
    if (entry && startedUrl !== undefined) {
      await entry.page.goto(startedUrl);
      entry.stack.push({ activity: started!, index: await navigationIndex(entry.page) });
    }
    if (!entry) {
      const page = await context.newPage();
      let rootIndex: number;
      try {
        await page.goto(url ?? startedUrl ?? app.url);
        rootIndex = await navigationIndex(page);
      } catch (error) {
        await page.close().catch(() => {});
        throw new Error(`the app ${packageName} did not load: ${(error as Error).message}`);
      }
      const first = startedUrl === undefined ? app.activity : started!;
      entry = { app, page, rootIndex, stack: [{ activity: first, index: rootIndex }] };
      running.set(packageName, entry);
    } else if (url) {
      await entry.page.goto(url);
    }
    recents = [packageName, ...recents.filter((name) => name !== packageName)];
    await show({ kind: "app", packageName });
  };
  const stop = async (packageName: string): Promise<void> => {
    const entry = running.get(packageName);
    if (!entry) return;
    running.delete(packageName);
    recents = recents.filter((name) => name !== packageName);
    if (screen.kind === "app" && screen.packageName === packageName) {
      screen = { kind: "home" };
      await show({ kind: "home" });
    } else if (screen.kind === "recents") {
      await show({ kind: "recents" });
    }
    if (previous.kind === "app" && previous.packageName === packageName) {
      previous = { kind: "home" };
    }
    await entry.page.close();
  };
  const keyboardShown = async (): Promise<boolean> => {
    return await current().evaluate(() => {
      const page = globalThis as unknown as {
        __simulatorKeyboard?: { shown: boolean; editable(el: unknown): boolean };
        document: { activeElement: unknown };
      };
      const state = page.__simulatorKeyboard;
      return !!state && state.shown && state.editable(page.document.activeElement);
    });
  };
  const dismissKeyboard = async (): Promise<void> => {
    await current().evaluate(() => {
      const state = (globalThis as unknown as { __simulatorKeyboard?: { shown: boolean } })
        .__simulatorKeyboard;
      if (state) state.shown = false;
    });
  };
  const back = async (): Promise<void> => {
    if (await keyboardShown()) return await dismissKeyboard();
    if (screen.kind === "recents") {
      const target = previous.kind === "app" && running.has(previous.packageName)
        ? previous
        : { kind: "home" as const };
      return await show(target);
    }
    if (screen.kind === "home") return;
    const entry = running.get(screen.packageName)!;
    const index = await navigationIndex(entry.page);
    if (index > entry.rootIndex) {
      await entry.page.goBack({ waitUntil: "commit" });
      const now = await navigationIndex(entry.page);
      while (entry.stack.length > 1 && entry.stack[entry.stack.length - 1].index > now) {
        entry.stack.pop();
      }
    } else {
      // Android 12 and later: back on a root activity moves its task to the background.
      await show({ kind: "home" });
    }
  };

  try {
    // Called by the launcher and recents pages when tapped; queued after the tap that caused it.
    await systemPage.exposeFunction(
      "__simulator",
      (action: string, packageName: string) =>
        serial(async () => {
          if (action === "launch" || action === "resume") await launch(packageName);
          else if (action === "clear") {
            for (const name of [...recents]) await stop(name);
            await show({ kind: "home" });
          }
        }).catch(() => {}),
    );
    await show({ kind: "home" });
    if (options.startApp) await launch(options.startApp);
  } catch (error) {
    await context.close().catch(() => {});
    await ownBrowser?.close();
    throw error;
  }

  const phone: VirtualPhone = {
    width,
    height,
    density,
    densityDpi: Math.round(density * 160),
    model: options.model ?? "Simulator Phone",
    manufacturer: options.manufacturer ?? "SDK",
    inputs,
    packages: () => [LAUNCHER_PACKAGE, ...installed.keys()],
    activityOf: (packageName) =>
      packageName === LAUNCHER_PACKAGE ? LAUNCHER_ACTIVITY : installed.get(packageName)?.activity,
    activitiesOf(packageName: string): string[] {
      if (packageName === LAUNCHER_PACKAGE) return [LAUNCHER_ACTIVITY, RECENTS_ACTIVITY];
      const app = installed.get(packageName);
      return app ? [app.activity, ...app.activities.keys()] : [];
    },
    runningApps: () => [...recents],
    foregroundApp(): ForegroundApp {
      if (screen.kind === "app") {
        const app = installed.get(screen.packageName)!;
        const stack = running.get(screen.packageName)!.stack;
        return { packageName: app.packageName, activity: stack[stack.length - 1].activity };
      }
      return {
        packageName: LAUNCHER_PACKAGE,
        activity: screen.kind === "home" ? LAUNCHER_ACTIVITY : RECENTS_ACTIVITY,
      };
    },
    foregroundPage: current,
    keyboardShown: () => serial(keyboardShown),
    screenshot: () =>
      serial(async () => {
        const s = await session(current());
        const { data } = await s.send("Page.captureScreenshot", {
          format: "png",
          fromSurface: true,
          clip: { x: 0, y: 0, width: width / density, height: height / density, scale: density },
        }) as { data: string };
        const png = new Uint8Array(Buffer.from(data, "base64"));
        const [w, h] = pngSize(png);
        return w === width && h === height ? png : fitPng(png, width, height);
      }),
    tap: (x, y) =>
      serial(async () => {
        checkPoint(x, y);
        inputs.push({ type: "tap", x, y });
        await touch("touchStart", x, y);
        await touch("touchEnd");
      }),
    swipe: (x1, y1, x2, y2, durationMs = 300) =>
      serial(async () => {
        checkPoint(x1, y1);
        checkPoint(x2, y2);
        inputs.push({ type: "swipe", x1, y1, x2, y2, durationMs });
        const steps = Math.max(1, Math.round(durationMs / 16));
        const started = performance.now();
        await touch("touchStart", x1, y1);
        for (let i = 1; i <= steps; i++) {
          const wait = started + (durationMs * i) / steps - performance.now();
          if (wait > 0) await sleep(wait);
          await touch("touchMove", x1 + ((x2 - x1) * i) / steps, y1 + ((y2 - y1) * i) / steps);
        }
        await touch("touchEnd");
      }),
    longPress: (x, y, durationMs = 600) =>
      serial(async () => {
        checkPoint(x, y);
        inputs.push({ type: "longPress", x, y, durationMs });
        await touch("touchStart", x, y);
        await sleep(durationMs);
        await touch("touchEnd");
      }),
    touch: (action, x, y) =>
      serial(async () => {
        checkPoint(x, y);
        inputs.push({ type: "touch", action, x, y });
        if (action === "down") {
          fingerDown = true;
          await touch("touchStart", x, y);
        } else if (fingerDown && action === "move") await touch("touchMove", x, y);
        else if (fingerDown) {
          fingerDown = false;
          await touch(action === "up" ? "touchEnd" : "touchCancel");
        }
      }),
    multiTouch: (points) =>
      serial(async () => {
        const next = new Map<number, TouchPoint>();
        for (const { id, x, y } of points) {
          checkPoint(x, y);
          if (next.has(id)) throw new TypeError(`multiTouch(): two fingers share the id ${id}`);
          next.set(id, { id, x, y });
        }
        inputs.push({ type: "multiTouch", points: [...next.values()] });
        const known = fingers;
        fingers = next;
        const s = await session(current());
        const send = (
          type: "touchStart" | "touchMove" | "touchEnd",
          points: Iterable<TouchPoint>,
        ) =>
          s.send("Input.dispatchTouchEvent", {
            type,
            touchPoints: [...points].map(({ id, x, y }) => ({
              id,
              x: x / density,
              y: y / density,
            })),
          });
        // Chromium compares each event's points with the last event's: missing ids are released,
        // new ids pressed, known ids moved. So lifts go first (the staying fingers where they
        // were), then one event puts new fingers down and moves the others.
        const staying = [...known.values()].filter(({ id }) => next.has(id));
        if (staying.length < known.size) await send("touchEnd", staying);
        if ([...next.keys()].some((id) => !known.has(id))) await send("touchStart", next.values());
        else if (
          [...next.values()].some(({ id, x, y }) =>
            known.get(id)!.x !== x || known.get(id)!.y !== y
          )
        ) await send("touchMove", next.values());
      }),
    inputText: (text) =>
      serial(async () => {
        inputs.push({ type: "text", text, method: "keys" });
        await current().keyboard.type(text);
      }),
    clearText: () =>
      serial(async () => {
        inputs.push({ type: "clearText" });
        await current().evaluate(() => {
          const doc = (globalThis as unknown as {
            document: {
              activeElement: unknown;
              execCommand(command: string): boolean;
            };
          }).document;
          const field = doc.activeElement as {
            select?: () => void;
            isContentEditable?: boolean;
          } | null;
          if (!field) return;
          if (typeof field.select === "function") field.select();
          else if (field.isContentEditable) doc.execCommand("selectAll");
          else return;
          doc.execCommand("delete");
        });
      }),
    commitText: (text) =>
      serial(async () => {
        inputs.push({ type: "text", text, method: "ime" });
        await current().keyboard.insertText(text);
      }),
    keyEvent: (keyCode) =>
      serial(async () => {
        inputs.push({ type: "key", keyCode });
        if (keyCode === KEYCODE.HOME) return await show({ kind: "home" });
        if (keyCode === KEYCODE.APP_SWITCH) {
          return await show(screen.kind === "recents" ? previous : { kind: "recents" });
        }
        if (keyCode === KEYCODE.BACK) return await back();
        if (keyCode === KEYCODE.ESCAPE && await keyboardShown()) await dismissKeyboard();
        const key = PAGE_KEYS.get(keyCode);
        if (key) await current().keyboard.press(key);
      }),
    launchApp: (packageName, activity) =>
      serial(async () => {
        const app = installed.get(packageName);
        if (!app) throw new Error(`package ${packageName} is not installed`);
        const name = activity === undefined ? undefined : qualify(packageName, activity);
        if (name !== undefined && name !== app.activity && !app.activities.has(name)) {
          throw new Error(`activity ${name} does not exist in ${packageName}`);
        }
        inputs.push({ type: "launch", packageName, ...(activity ? { activity } : {}) });
        await launch(packageName, undefined, activity);
      }),
    stopApp: (packageName) =>
      serial(async () => {
        inputs.push({ type: "stop", packageName });
        await stop(packageName);
      }),
    openUrl: (url) =>
      serial(async () => {
        inputs.push({ type: "openUrl", url });
        await launch(BROWSER_PACKAGE, url);
      }),
    async close(): Promise<void> {
      if (closed) return;
      await queue;
      closed = true;
      await context.close().catch(() => {});
      await ownBrowser?.close();
    },
  };
  return phone;
}
