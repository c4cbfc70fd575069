// WebPageDevice.beforeAction/afterAction against a scripted PageDriver: which events make
// afterAction wait, and what ends the wait. (The real-browser behaviour is in web_device_test.ts.)
//
// Every test has a time limit, and waits for the state it checks: afterAction resolves within
// SETTLED_MS (the device's ten-minute timeouts would otherwise be what ends it), or is still
// pending once the device has made its event-flushing round trip and every queued callback has
// run. No test waits for a duration.
import { test as nodeTest } from "../../tests/helpers/test.ts";
import assert from "node:assert/strict";
import type { DriverRequest, PageDriver, Unsubscribe } from "./page_driver.ts";
import { WebPageDevice } from "./web_device.ts";

/** A PageDriver whose events the test fires by hand. */
class ScriptedDriver implements PageDriver {
  readonly starts = new Set<(request: DriverRequest) => void>();
  readonly ends = new Set<(request: DriverRequest, failed: boolean) => void>();
  readonly loads = new Set<() => void>();
  /** Runs during the device's event-flushing round trip, as late-delivered events would. */
  duringRoundTrip: (() => void) | undefined;

  readonly mouse = {
    move: () => Promise.resolve(),
    click: () => Promise.resolve(),
    down: () => Promise.resolve(),
    up: () => Promise.resolve(),
    wheel: () => Promise.resolve(),
  };
  readonly keyboard = {
    type: () => Promise.resolve(),
    press: () => Promise.resolve(),
    insertText: () => Promise.resolve(),
  };
  screenshot(): Promise<Uint8Array> {
    return Promise.resolve(new Uint8Array());
  }
  viewport() {
    return Promise.resolve({ width: 100, height: 100, dpr: 1 });
  }
  /** Round trips made: the device's event flush is one per afterAction. */
  roundTrips = 0;
  evaluate<R>(): Promise<R> {
    this.roundTrips++;
    this.duringRoundTrip?.();
    this.duringRoundTrip = undefined;
    return Promise.resolve(0 as R);
  }
  initScripts = 0;
  addInitScript(): Promise<() => Promise<void>> {
    this.initScripts++;
    return Promise.resolve(() => {
      this.initScripts--;
      return Promise.resolve();
    });
  }
  url(): Promise<string> {
    return Promise.resolve("about:blank");
  }
  goto(): Promise<void> {
    return Promise.resolve();
  }
  reload(): Promise<void> {
    return Promise.resolve();
  }
  goBack(): Promise<void> {
    return Promise.resolve();
  }
  onRequestStart(listener: (request: DriverRequest) => void): Unsubscribe {
    this.starts.add(listener);
    return () => this.starts.delete(listener);
  }
  onRequestEnd(listener: (request: DriverRequest, failed: boolean) => void): Unsubscribe {
    this.ends.add(listener);
    return () => this.ends.delete(listener);
  }
  onMainFrameLoad(listener: () => void): Unsubscribe {
    this.loads.add(listener);
    return () => this.loads.delete(listener);
  }

  start(id: string, isMainFrameNavigation = false): void {
    for (const l of this.starts) l({ id, url: `https://x/${id}`, isMainFrameNavigation });
  }
  end(id: string, failed = false, isMainFrameNavigation = false): void {
    for (const l of this.ends) l({ id, url: `https://x/${id}`, isMainFrameNavigation }, failed);
  }
  load(): void {
    for (const l of this.loads) l();
  }
}

const LONG = { waitForNavigationTimeout: 600_000, waitForNetworkIdleTimeout: 600_000 };

/** How long an afterAction that has nothing left to wait for may take here, ms. */
const SETTLED_MS = 2000;

/** Every test's time limit, ms. */
const test = (name: string, fn: () => Promise<void>) => nodeTest(name, { timeout: 10_000 }, fn);

/** Runs every callback queued so far (a zero-delay timer fires after all pending promise jobs). */
const drained = () => new Promise((resolve) => setTimeout(resolve, 0));

/** `work`'s outcome once it settles, failing the test when it is still pending after `ms`. */
async function settles(work: Promise<unknown>, what: string, ms = SETTLED_MS): Promise<string> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve(`${what}: still pending after ${ms} ms`), ms);
  });
  try {
    return await Promise.race([
      work.then(() => "resolved", (e) => `rejected: ${(e as Error).message}`),
      late,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Starts afterAction and waits until it is waiting: its round trip to the driver made and every
 * callback after it run.
 */
async function startAfterAction(device: WebPageDevice, driver: ScriptedDriver) {
  let resolved = false;
  const before = driver.roundTrips;
  const promise = device.afterAction().then(() => {
    resolved = true;
  });
  await drained();
  assert.equal(driver.roundTrips, before + 1, "afterAction made its event-flushing round trip");
  return { promise, isResolved: () => resolved };
}

test("WebPageDevice.afterAction() ignores requests started before beforeAction", async () => {
  const driver = new ScriptedDriver();
  const device = new WebPageDevice(driver, LONG);
  await device.beforeAction(); // subscribes
  assert.equal(await settles(device.afterAction(), "afterAction with nothing started"), "resolved");
  driver.start("long-poll");
  await device.beforeAction();
  // Counting the long poll would make it wait ten minutes.
  assert.equal(
    await settles(device.afterAction(), "afterAction after a request started before the action"),
    "resolved",
  );
  driver.end("long-poll"); // ending it later is harmless
  assert.equal(await settles(device.afterAction(), "a later afterAction"), "resolved");
});

test("WebPageDevice.afterAction() waits for requests the action started, until they all end", async () => {
  const driver = new ScriptedDriver();
  const device = new WebPageDevice(driver, LONG);
  await device.beforeAction();
  driver.start("a");
  driver.start("b");
  const after = await startAfterAction(device, driver);
  assert.equal(after.isResolved(), false, "waits while a and b are in flight");
  driver.end("a");
  await drained();
  assert.equal(after.isResolved(), false, "waits while b is in flight");
  driver.end("b", true); // a failed request has ended too
  assert.equal(await settles(after.promise, "afterAction once a and b ended"), "resolved");
});

test("WebPageDevice.afterAction() sees a request whose event arrives during its round trip", async () => {
  const driver = new ScriptedDriver();
  const device = new WebPageDevice(driver, LONG);
  await device.beforeAction();
  driver.duringRoundTrip = () => driver.start("late");
  const after = await startAfterAction(device, driver);
  assert.equal(after.isResolved(), false, "waits for the request reported during the round trip");
  driver.end("late");
  assert.equal(await settles(after.promise, "afterAction once the late request ended"), "resolved");
});

test("WebPageDevice.afterAction() waits for the load of a main-frame navigation, not just its response", async () => {
  const driver = new ScriptedDriver();
  const device = new WebPageDevice(driver, LONG);
  await device.beforeAction();
  driver.start("nav", true);
  const after = await startAfterAction(device, driver);
  driver.end("nav", false, true);
  await drained();
  assert.equal(after.isResolved(), false, "the response came, the load did not");
  driver.load();
  assert.equal(await settles(after.promise, "afterAction once the page loaded"), "resolved");
});

test("WebPageDevice.afterAction() stops waiting for a navigation whose request failed", async () => {
  const driver = new ScriptedDriver();
  const device = new WebPageDevice(driver, LONG);
  await device.beforeAction();
  driver.start("download", true);
  const after = await startAfterAction(device, driver);
  assert.equal(after.isResolved(), false, "waits for the navigation");
  driver.end("download", true, true);
  assert.equal(
    await settles(after.promise, "afterAction once the navigation's request failed"),
    "resolved",
  );
});

test("WebPageDevice.afterAction() returns after its timeouts without throwing", async () => {
  const driver = new ScriptedDriver();
  const device = new WebPageDevice(driver, {
    waitForNavigationTimeout: 5,
    waitForNetworkIdleTimeout: 5,
  });
  await device.beforeAction();
  driver.start("nav", true);
  driver.start("never");
  // Neither the load nor the request's end ever comes: only the 5 ms timeouts end the wait.
  assert.equal(
    await settles(device.afterAction(), "afterAction with 5 ms timeouts"),
    "resolved",
  );
});

test("WebPageDevice.afterAction() skips both waits when the timeouts are 0", async () => {
  const driver = new ScriptedDriver();
  const device = new WebPageDevice(driver, {
    waitForNavigationTimeout: 0,
    waitForNetworkIdleTimeout: 0,
  });
  await device.beforeAction();
  driver.start("nav", true);
  driver.start("never");
  const after = await startAfterAction(device, driver);
  // Resolved as soon as the round trip was made: no timer of 0 ms was even needed.
  assert.equal(after.isResolved(), true, "resolved right after the round trip");
  assert.equal(await settles(after.promise, "afterAction with timeouts 0"), "resolved");
});

test("WebPageDevice.destroy() releases a pending afterAction() and unsubscribes", async () => {
  const driver = new ScriptedDriver();
  const device = new WebPageDevice(driver, LONG);
  await device.beforeAction();
  assert.equal(driver.starts.size + driver.ends.size + driver.loads.size, 3);
  driver.start("never");
  const after = await startAfterAction(device, driver);
  assert.equal(after.isResolved(), false, "waits for the request");
  await device.destroy();
  assert.equal(await settles(after.promise, "afterAction after destroy()"), "resolved");
  assert.equal(driver.starts.size + driver.ends.size + driver.loads.size, 0);
});

test("WebPageDevice.setDriver() moves its listeners to the new driver and stops waiting for the old one", async () => {
  const first = new ScriptedDriver();
  const second = new ScriptedDriver();
  const device = new WebPageDevice(first, LONG);
  await device.beforeAction();
  // forceSameTabNavigation and forceChromeSelectRendering default to true: one script each.
  assert.equal(first.initScripts, 2);
  first.start("old");
  const after = await startAfterAction(device, first);
  assert.equal(after.isResolved(), false);
  device.setDriver(second);
  // The old page's request no longer counts.
  assert.equal(await settles(after.promise, "afterAction after setDriver()"), "resolved");
  assert.equal(device.driver, second);
  assert.deepEqual([first.starts.size, second.starts.size], [0, 1]);
  await device.beforeAction();
  assert.equal(second.initScripts, 2);
  second.start("new");
  const next = await startAfterAction(device, second);
  assert.equal(next.isResolved(), false);
  second.end("new");
  assert.equal(
    await settles(next.promise, "afterAction once the new page's request ended"),
    "resolved",
  );
  await device.destroy();
  assert.deepEqual([first.initScripts, second.initScripts, second.starts.size], [0, 0, 0]);
});

test("WebPageDevice with forceSameTabNavigation and forceChromeSelectRendering false adds no init script", async () => {
  const driver = new ScriptedDriver();
  const device = new WebPageDevice(driver, {
    ...LONG,
    forceSameTabNavigation: false,
    forceChromeSelectRendering: false,
  });
  await device.beforeAction();
  assert.equal(await settles(device.afterAction(), "afterAction with nothing started"), "resolved");
  assert.equal(driver.initScripts, 0);
});
