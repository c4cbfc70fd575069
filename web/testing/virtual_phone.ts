/**
 * The virtual phone of the device simulator kit: a phone screen that is a page in headless
 * Chromium, rendered at the phone's physical size and density, driven by real touch and key
 * input, and recording every input it is sent.
 *
 * It knows no wire protocol: fronts (the adb, WDA and hdc fronts of the phone platforms' `testing`
 * entries) translate their protocol into its methods. Units: every coordinate and size it takes or
 * reports is in **physical pixels** of the phone's screen (what a phone's own tools use), unless a
 * name says CSS pixels; one CSS pixel of the page is `density` physical pixels.
 *
 * @module
 */

import type { BrowserContext, CDPSession } from "playwright-core";
import type { DriverBBrowser as Browser, DriverBPage as Page } from "../driver_b/types.ts";
import { launchChromium } from "../chromium/launch.ts";
import { KEYBOARD_SCRIPT, keyboardShown } from "./_phone_keyboard.ts";
import { captureScreen } from "./_phone_screenshot.ts";
import {
  BROWSER_PACKAGE,
  type ForegroundApp,
  PhoneApps,
  type SimulatedApp,
} from "./_phone_apps.ts";
import { PhoneInput, type SimulatorInput, type TouchPoint } from "./_phone_input.ts";
import { ConnectionError, SdkTypeError } from "../_core.ts";

export {
  BROWSER_PACKAGE,
  type ForegroundApp,
  LAUNCHER_ACTIVITY,
  LAUNCHER_PACKAGE,
  RECENTS_ACTIVITY,
  type SimulatedApp,
} from "./_phone_apps.ts";
export { KEYCODE, type SimulatorInput, type TouchPoint } from "./_phone_input.ts";

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
  /**
   * The name an installed package shows on the home screen (`SimulatedApp.label`; `"Browser"`
   * for the browser app, `"Launcher"` for the launcher); undefined when not installed.
   */
  labelOf(packageName: string): string | undefined;
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
  /**
   * Taps at a point: a touch down and up, `holdMs` apart (default 0). Recorded as a `tap` whatever
   * the hold: telling a held press from a tap is the front's part, as it is the system's on a
   * phone (Android's long-press timeout, for example).
   */
  tap(x: number, y: number, holdMs?: number): Promise<void>;
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
   * @throws {SdkTypeError} when a point has a non-finite coordinate or two points share an id.
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
  /** Sends one Android key code (`KEYCODE`): BACK, HOME, APP_SWITCH act as system keys. */
  keyEvent(keyCode: number): Promise<void>;
  /**
   * Brings an app to the front, launching it when it is not running. With an activity other than
   * the launcher activity, that activity is started on top of the app's history.
   *
   * @throws {ToolError} when the package is not installed or has no such activity.
   */
  launchApp(packageName: string, activity?: string): Promise<void>;
  /** Stops an app (its page closes and its state is lost); a no-op when it is not running. */
  stopApp(packageName: string): Promise<void>;
  /** Opens a web URL in the built-in browser app ({@link BROWSER_PACKAGE}). */
  openUrl(url: string): Promise<void>;
  /** Closes the phone's pages and context, and the browser when the phone launched it. */
  close(): Promise<void>;
}

/**
 * Starts a virtual phone: a browser context with the phone's screen (viewport of
 * `ceil(width / density)` x `ceil(height / density)` CSS pixels at `deviceScaleFactor: density`,
 * touch, mobile), showing the home screen or `startApp`.
 *
 * @example
 * ```ts ignore
 * const phone = await startVirtualPhone({ apps: { "com.example.notes": "http://127.0.0.1:8080/" }
 * }); await phone.launchApp("com.example.notes"); await phone.tap(540, 300); // physical pixels
 * const png = await phone.screenshot(); // 1080 x 2400 await phone.close();
 * ```
 */
export async function startVirtualPhone(options: VirtualPhoneOptions = {}): Promise<VirtualPhone> {
  const width = options.width ?? 1080;
  const height = options.height ?? 2400;
  const density = options.density ?? 2.625;
  for (const [name, value] of [["width", width], ["height", height], ["density", density]]) {
    if (typeof value !== "number" || !Number.isFinite(value) || value <= 0) {
      throw new SdkTypeError(
        `startVirtualPhone(): ${name} must be a positive number, got ${value}`,
      );
    }
  }
  if (!Number.isInteger(width) || !Number.isInteger(height)) {
    throw new SdkTypeError(`startVirtualPhone(): width and height are whole physical pixels`);
  }

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
  const apps = new PhoneApps(context, systemPage, options.apps ?? {});
  const inputs: SimulatorInput[] = [];
  const sessions = new Map<Page, Promise<CDPSession>>();
  let closed = false;
  let queue: Promise<unknown> = Promise.resolve();

  // One operation on the screen at a time, in arrival order.
  const serial = <T>(operation: () => Promise<T>): Promise<T> => {
    if (closed) {
      return Promise.reject(
        new ConnectionError("the virtual phone is closed", {
          kind: "lost",
          endpoint: "virtual phone",
        }),
      );
    }
    const result = queue.then(operation);
    queue = result.catch(() => {});
    return result;
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
  const input = new PhoneInput({ density, inputs, apps, serial, session });

  try {
    // Called by the launcher and recents pages when tapped; queued after the tap that caused it.
    await systemPage.exposeFunction(
      "__simulator",
      (action: string, packageName: string) =>
        serial(async () => {
          if (action === "launch" || action === "resume") await apps.launch(packageName);
          else if (action === "clear") await apps.clearRecents();
        }).catch(() => {}),
    );
    await apps.home();
    if (options.startApp) await apps.launch(options.startApp);
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
    packages: () => apps.packages(),
    activityOf: (packageName) => apps.activityOf(packageName),
    activitiesOf: (packageName) => apps.activitiesOf(packageName),
    labelOf: (packageName) => apps.labelOf(packageName),
    runningApps: () => apps.runningApps(),
    foregroundApp: () => apps.foregroundApp(),
    foregroundPage: () => apps.current(),
    keyboardShown: () => serial(() => keyboardShown(apps.current())),
    screenshot: () =>
      serial(async () => captureScreen(await session(apps.current()), width, height, density)),
    tap: (x, y, holdMs) => input.tap(x, y, holdMs),
    swipe: (x1, y1, x2, y2, durationMs) => input.swipe(x1, y1, x2, y2, durationMs),
    longPress: (x, y, durationMs) => input.longPress(x, y, durationMs),
    touch: (action, x, y) => input.touch(action, x, y),
    multiTouch: (points) => input.multiTouch(points),
    inputText: (text) => input.inputText(text),
    clearText: () => input.clearText(),
    commitText: (text) => input.commitText(text),
    keyEvent: (keyCode) => input.keyEvent(keyCode),
    launchApp: (packageName, activity) =>
      serial(async () => {
        apps.checkLaunch(packageName, activity);
        inputs.push({ type: "launch", packageName, ...(activity ? { activity } : {}) });
        await apps.launch(packageName, undefined, activity);
      }),
    stopApp: (packageName) =>
      serial(async () => {
        inputs.push({ type: "stop", packageName });
        await apps.stop(packageName);
      }),
    openUrl: (url) =>
      serial(async () => {
        inputs.push({ type: "openUrl", url });
        await apps.launch(BROWSER_PACKAGE, url);
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
