/**
 * `DevicePool`: hands out devices one script at a time. A device (with the devices that share its
 * `lockKey`) is in use by one caller at once, and by one process at once when the pool locks (the
 * default): a device another run holds is waited for. A device that fails and no longer answers leaves the pool; the rest go on.
 * `sdk run --devices` runs its files through it; a program or a Playwright Test worker can too
 * (docs/device-pool.md).
 *
 * @module
 */

import { ConnectionError, DeviceNotFoundError, SdkTypeError } from "../errors.ts";
import { sleep } from "../runtime/runtime.ts";
import { defaultLockDir, type DeviceLock, lockDevice } from "./device_lock.ts";
import { lockKeyOf, type PoolDevice } from "./devices.ts";

/** Options of {@link DevicePool}. */
export interface DevicePoolOptions {
  /**
   * Hold each device in use with a marker file, so that another process's pool does not take it
   * (and this one waits for the devices others hold). Default `true`.
   */
  lock?: boolean;
  /** The markers' folder. Default `<OS temp folder>/sdk-device-locks`. */
  lockDir?: string;
  /**
   * Whether a device still answers, asked after a use of it failed; `false` takes it out of the
   * pool. Default: it always does (nothing leaves the pool).
   */
  isReachable?: (device: PoolDevice) => Promise<boolean>;
  /** Told once per device that another process holds while this pool waits for a device. */
  onHeld?: (device: PoolDevice) => void;
  /** How often a device another process holds is tried again, ms. Default 500. */
  pollMs?: number;
}

/** Which device {@link DevicePool.acquire} may hand out. */
export interface AcquireOptions {
  /** Only a device of this platform (script section key, e.g. `"mobilea"`). */
  platform?: string;
  /** Only a device the predicate accepts (a file pinned to one device). */
  match?: (device: PoolDevice) => boolean;
  /** Stops waiting: `acquire` then resolves `undefined`. */
  signal?: AbortSignal;
}

/** How {@link DevicePool.release} found the device. */
export interface ReleaseResult {
  /** The device stopped answering and left the pool. */
  lost: boolean;
}

/**
 * A set of devices handed out one user at a time.
 *
 * @example Run a function on a free Android device, then on every device at once
 * ```ts ignore
 * import { DevicePool } from "@sdk/core";
 * import { listMobileADevices } from "@sdk/mobilea";
 *
 * const pool = new DevicePool(await listMobileADevices());
 * await pool.use((device) => runOn(device), { platform: "mobilea" });
 * await pool.runOnEach((device) => runOn(device));
 * await pool.close();
 * ```
 */
export class DevicePool {
  readonly #devices: PoolDevice[];
  readonly #busy = new Map<PoolDevice, DeviceLock | undefined>();
  readonly #told = new Set<PoolDevice>();
  readonly #options: DevicePoolOptions;
  #wake: (() => void)[] = [];
  #lockDir: Promise<string> | undefined;

  /**
   * Creates a pool of `devices` (from `listDevices`, a platform's lister, or written by hand).
   *
   * @throws {SdkTypeError} when two devices have the same platform and id, or `pollMs` is not a
   * number > 0.
   */
  constructor(devices: readonly PoolDevice[], options: DevicePoolOptions = {}) {
    const seen = new Set<string>();
    for (const d of devices) {
      const key = `${d.platform}:${d.id}`;
      if (seen.has(key)) throw new SdkTypeError(`DevicePool: device ${key} is listed twice`);
      seen.add(key);
    }
    if (options.pollMs !== undefined && !(options.pollMs > 0)) {
      throw new SdkTypeError(
        `DevicePool: 'pollMs' must be a number of ms > 0: current value is ${options.pollMs}`,
      );
    }
    this.#devices = [...devices];
    this.#options = options;
  }

  /** The devices still in the pool (a lost one has left), in the order given. */
  get devices(): PoolDevice[] {
    return [...this.#devices];
  }

  /**
   * Takes a free device: the first one of the kind asked for that no caller of this pool uses and
   * no other process holds, waiting for one to be released when all are in use.
   *
   * @returns the device, or `undefined` when the pool has no device of that kind (left) or
   * `signal` aborted.
   * @throws {Error} the file system's error when a marker cannot be written.
   */
  async acquire(options: AcquireOptions = {}): Promise<PoolDevice | undefined> {
    const fits = (d: PoolDevice) =>
      (options.platform === undefined || d.platform === options.platform) &&
      (options.match === undefined || options.match(d));
    while (!options.signal?.aborted) {
      const candidates = this.#devices.filter(fits);
      if (candidates.length === 0) return undefined;
      let heldElsewhere = false;
      for (const device of candidates) {
        // Checked at each turn: another acquire may have taken it (or a device sharing its lock
        // key) while a marker was written.
        if (this.#inUse(device)) continue;
        this.#busy.set(device, undefined); // taken while its marker is written
        const lock = this.#options.lock === false
          ? undefined
          : await lockDevice(device, await this.#markerDir()).catch((e) => {
            this.#busy.delete(device);
            throw e;
          });
        if (this.#options.lock === false || lock) {
          this.#busy.set(device, lock);
          return device;
        }
        this.#busy.delete(device);
        heldElsewhere = true;
        if (!this.#told.has(device)) {
          this.#told.add(device);
          this.#options.onHeld?.(device);
        }
      }
      // Wait for a release here, or (for markers of other processes) for the next try; what
      // did not wake this wait is let go, so a long wait does not pile up listeners.
      await new Promise<void>((resolve) => {
        const wake = () => {
          this.#wake = this.#wake.filter((w) => w !== wake);
          options.signal?.removeEventListener("abort", wake);
          resolve();
        };
        this.#wake.push(wake);
        if (heldElsewhere) sleep(this.#options.pollMs ?? 500, options.signal).then(wake, wake);
        options.signal?.addEventListener("abort", wake, { once: true });
      });
    }
    return undefined;
  }

  /**
   * Gives a device back. After a failed use (`failed: true`) the pool asks `isReachable`; a
   * device that does not answer leaves the pool.
   *
   * @returns whether the device was lost.
   */
  async release(device: PoolDevice, options: { failed?: boolean } = {}): Promise<ReleaseResult> {
    let lost = false;
    if (options.failed && this.#options.isReachable) {
      lost = !(await this.#options.isReachable(device).catch(() => false));
    }
    if (lost) this.remove(device);
    await this.#busy.get(device)?.release();
    this.#busy.delete(device);
    const waiting = this.#wake;
    this.#wake = [];
    for (const wake of waiting) wake();
    return { lost };
  }

  /** Takes a device out of the pool (it is no longer handed out). */
  remove(device: PoolDevice): void {
    const at = this.#devices.indexOf(device);
    if (at >= 0) this.#devices.splice(at, 1);
    for (const wake of this.#wake.splice(0)) wake();
  }

  /**
   * Runs `fn` on a free device ({@link acquire}), then releases it.
   *
   * @returns what `fn` returns.
   * @throws {DeviceNotFoundError} when the pool has no device of that kind.
   * @throws {ConnectionError} (`CONNECTION_LOST`, `cause`: `fn`'s error) when `fn` failed and
   * the device no longer answers: it left the pool.
   * @throws what `fn` throws otherwise.
   */
  async use<T>(fn: (device: PoolDevice) => Promise<T>, options: AcquireOptions = {}): Promise<T> {
    const device = await this.acquire(options);
    if (!device) {
      const kind = options.platform === undefined ? "" : `${options.platform} `;
      throw new DeviceNotFoundError(
        `the device pool has no ${kind}device left to use`,
        { wanted: options.platform ?? "", available: this.devices.map((d) => d.id) },
      );
    }
    try {
      const value = await fn(device);
      await this.release(device);
      return value;
    } catch (error) {
      const { lost } = await this.release(device, { failed: true });
      if (lost) throw deviceLost(device, error);
      throw error;
    }
  }

  /**
   * Runs `fn` once on every device of the pool (of `platform`, when given), all at once, each
   * device acquired for it.
   *
   * @returns one settled result per device, in the pool's order.
   */
  async runOnEach<T>(
    fn: (device: PoolDevice) => Promise<T>,
    options: { platform?: string } = {},
  ): Promise<PromiseSettledResult<T>[]> {
    const devices = this.#devices.filter((d) =>
      options.platform === undefined || d.platform === options.platform
    );
    return await Promise.allSettled(
      devices.map((device) => this.use(fn, { match: (d) => d === device })),
    );
  }

  /** Releases every device still held (their markers removed). */
  async close(): Promise<void> {
    for (const device of [...this.#busy.keys()]) await this.release(device);
  }

  /** Whether this pool uses `device`, or a device with its lock key. */
  #inUse(device: PoolDevice): boolean {
    const key = lockKeyOf(device);
    return [...this.#busy.keys()].some((d) => lockKeyOf(d) === key);
  }

  #markerDir(): Promise<string> {
    return this.#lockDir ??= this.#options.lockDir !== undefined
      ? Promise.resolve(this.#options.lockDir)
      : defaultLockDir();
  }
}

/**
 * The error of a use whose device went away: a `ConnectionError` of kind `lost`
 * (`CONNECTION_LOST`) naming the device, with the use's error as `cause`.
 */
export function deviceLost(device: PoolDevice, cause: unknown): ConnectionError {
  return new ConnectionError(
    `device ${device.platform}:${device.id} stopped answering during the run and left the ` +
      `pool (the other devices go on): ${(cause as Error)?.message ?? cause}`,
    { kind: "lost", endpoint: device.id },
    { cause },
  );
}
