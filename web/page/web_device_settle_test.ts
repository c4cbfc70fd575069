// WebPageDevice.beforeAction/afterAction against a scripted PageDriver: which events make
// afterAction wait, and what ends the wait. (The real-browser behaviour is in web_device_test.ts.)
import { test } from "node:test";
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
  evaluate<R>(): Promise<R> {
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

/** Starts afterAction and reports whether it has resolved after the pending callbacks ran. */
async function startAfterAction(device: WebPageDevice) {
  let resolved = false;
  const promise = device.afterAction().then(() => {
    resolved = true;
  });
  await new Promise((r) => setTimeout(r, 0));
  return { promise, isResolved: () => resolved };
}

test("WebPageDevice.afterAction() ignores requests started before beforeAction", async () => {
  const driver = new ScriptedDriver();
  const device = new WebPageDevice(driver, LONG);
  await device.beforeAction(); // subscribes
  await device.afterAction();
  driver.start("long-poll");
  await device.beforeAction();
  await device.afterAction(); // would wait ten minutes if it counted the long poll
  driver.end("long-poll"); // ending it later is harmless
});

test("WebPageDevice.afterAction() waits for requests the action started, until they all end", async () => {
  const driver = new ScriptedDriver();
  const device = new WebPageDevice(driver, LONG);
  await device.beforeAction();
  driver.start("a");
  driver.start("b");
  const after = await startAfterAction(device);
  driver.end("a");
  await new Promise((r) => setTimeout(r, 0));
  assert.equal(after.isResolved(), false);
  driver.end("b", true); // a failed request has ended too
  await after.promise;
});

test("WebPageDevice.afterAction() sees a request whose event arrives during its round trip", async () => {
  const driver = new ScriptedDriver();
  const device = new WebPageDevice(driver, LONG);
  await device.beforeAction();
  driver.duringRoundTrip = () => driver.start("late");
  const after = await startAfterAction(device);
  assert.equal(after.isResolved(), false);
  driver.end("late");
  await after.promise;
});

test("WebPageDevice.afterAction() waits for the load of a main-frame navigation, not just its response", async () => {
  const driver = new ScriptedDriver();
  const device = new WebPageDevice(driver, LONG);
  await device.beforeAction();
  driver.start("nav", true);
  const after = await startAfterAction(device);
  driver.end("nav", false, true);
  await new Promise((r) => setTimeout(r, 0));
  assert.equal(after.isResolved(), false);
  driver.load();
  await after.promise;
});

test("WebPageDevice.afterAction() stops waiting for a navigation whose request failed", async () => {
  const driver = new ScriptedDriver();
  const device = new WebPageDevice(driver, LONG);
  await device.beforeAction();
  driver.start("download", true);
  const after = await startAfterAction(device);
  driver.end("download", true, true);
  await after.promise;
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
  await device.afterAction();
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
  await device.afterAction();
});

test("WebPageDevice.destroy() releases a pending afterAction() and unsubscribes", async () => {
  const driver = new ScriptedDriver();
  const device = new WebPageDevice(driver, LONG);
  await device.beforeAction();
  assert.equal(driver.starts.size + driver.ends.size + driver.loads.size, 3);
  driver.start("never");
  const after = await startAfterAction(device);
  await device.destroy();
  await after.promise;
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
  const after = await startAfterAction(device);
  assert.equal(after.isResolved(), false);
  device.setDriver(second);
  await after.promise; // the old page's request no longer counts
  assert.equal(device.driver, second);
  assert.deepEqual([first.starts.size, second.starts.size], [0, 1]);
  await device.beforeAction();
  assert.equal(second.initScripts, 2);
  second.start("new");
  const next = await startAfterAction(device);
  assert.equal(next.isResolved(), false);
  second.end("new");
  await next.promise;
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
  await device.afterAction();
  assert.equal(driver.initScripts, 0);
});
