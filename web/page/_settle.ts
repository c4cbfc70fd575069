/**
 * Settling after an action (private to `@sdk/web`): between `beforeAction` and the end of
 * `afterAction` the page's requests and main-frame navigations are tracked, so the device waits
 * for what the action started and never looks at anything started before it.
 *
 * @module
 */

import type { DriverRequest, PageDriver, Unsubscribe } from "./page_driver.ts";

/**
 * Bound on the round trip that flushes driver events in afterAction (a page blocked by a dialog
 * does not answer), ms.
 */
export const EVENT_FLUSH_MAX_MS = 500;

/** The longest waits of {@link ActionSettler.settle}, in ms; `0` skips a wait. */
export interface SettleTimeouts {
  /** For the load of a main-frame navigation the action started. */
  navigation: number;
  /** For the requests the action started to finish. */
  networkIdle: number;
}

/**
 * Tracks the requests and navigations of the current page's driver while an action runs, and
 * waits for them after it.
 */
export class ActionSettler {
  readonly #driver: () => PageDriver;
  readonly #timeouts: SettleTimeouts;
  #unsubscribe: Unsubscribe[] | undefined;
  #tracking = false;
  #destroyed = false;
  readonly #inFlight = new Set<string>();
  readonly #navigations = new Set<string>();
  readonly #waiters = new Set<() => void>();

  /**
   * @param driver the driver of the current page (a browser-wide agent may switch pages).
   * @param timeouts the longest waits of {@link settle}.
   */
  constructor(driver: () => PageDriver, timeouts: SettleTimeouts) {
    this.#driver = driver;
    this.#timeouts = timeouts;
  }

  /** Starts tracking what the next action starts; listens to the driver from the first call. */
  begin(): void {
    this.#subscribe();
    this.#inFlight.clear();
    this.#navigations.clear();
    this.#tracking = true;
  }

  /**
   * Waits for what was started since {@link begin}: the load of a main-frame navigation, then the
   * requests. Returns at once without `begin`. Never throws on a timeout.
   */
  async settle(): Promise<void> {
    if (!this.#tracking) return;
    try {
      await flushDriverEvents(this.#driver());
      const { navigation, networkIdle } = this.#timeouts;
      if (this.#navigations.size > 0 && navigation > 0) {
        await this.#waitUntil(() => this.#navigations.size === 0, navigation);
      }
      if (this.#inFlight.size > 0 && networkIdle > 0) {
        await this.#waitUntil(() => this.#inFlight.size === 0, networkIdle);
      }
    } finally {
      this.#tracking = false;
      this.#inFlight.clear();
      this.#navigations.clear();
    }
  }

  /**
   * The current driver changed: the listeners move to it, and a wait in progress stops waiting
   * for the old page.
   */
  driverChanged(): void {
    const subscribed = this.#unsubscribe !== undefined;
    for (const unsubscribe of this.#unsubscribe ?? []) unsubscribe();
    this.#unsubscribe = undefined;
    this.#inFlight.clear();
    this.#navigations.clear();
    if (subscribed && !this.#destroyed) this.#subscribe();
    this.#notify();
  }

  /** Stops tracking, removes the listeners and releases every pending wait. */
  destroy(): void {
    this.#destroyed = true;
    this.#tracking = false;
    for (const unsubscribe of this.#unsubscribe ?? []) unsubscribe();
    this.#unsubscribe = undefined;
    // Each pending wait sees #destroyed and releases its settle.
    this.#notify();
  }

  #subscribe(): void {
    if (this.#unsubscribe) return;
    const driver = this.#driver();
    this.#unsubscribe = [
      driver.onRequestStart((request: DriverRequest) => {
        if (!this.#tracking) return;
        this.#inFlight.add(request.id);
        if (request.isMainFrameNavigation) this.#navigations.add(request.id);
        this.#notify();
      }),
      driver.onRequestEnd((request: DriverRequest, failed: boolean) => {
        if (!this.#tracking) return;
        this.#inFlight.delete(request.id);
        // A finished navigation request (or redirect hop) still has to load; a failed one
        // (aborted, download, network error) will not.
        if (failed) this.#navigations.delete(request.id);
        this.#notify();
      }),
      driver.onMainFrameLoad(() => {
        if (!this.#tracking) return;
        this.#navigations.clear();
        this.#notify();
      }),
    ];
  }

  #notify(): void {
    for (const check of [...this.#waiters]) check();
  }

  // Resolves when `done()` holds, on the timeout, or on destroy; never rejects.
  #waitUntil(done: () => boolean, timeoutMs: number): Promise<void> {
    return new Promise<void>((resolve) => {
      if (done()) return resolve();
      const release = () => {
        clearTimeout(timer);
        this.#waiters.delete(check);
        resolve();
      };
      const check = () => {
        if (done() || this.#destroyed) release();
      };
      const timer = setTimeout(release, timeoutMs);
      this.#waiters.add(check);
    });
  }
}

/**
 * An input call resolves when the page got the event, which can be before the driver has told
 * us about the navigation or request the event started. One round trip to the page delivers
 * those events first. Never rejects.
 */
export async function flushDriverEvents(driver: PageDriver): Promise<void> {
  await withinMs(
    driver.evaluate("0").catch(() => {
      // Fails while the page is navigating (its request has been seen by then) or closed:
      // either way there is nothing left to deliver.
    }),
    EVENT_FLUSH_MAX_MS,
  );
}

/** `work`'s value when it settles within `ms`, else undefined; never rejects (`work` must not). */
export async function withinMs<T>(work: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<undefined>((resolve) =>
    timer = setTimeout(() => resolve(undefined), ms)
  );
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}
