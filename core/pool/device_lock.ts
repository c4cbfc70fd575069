/**
 * Holding a device across processes: a marker file per device in a shared folder (by default
 * `sdk-device-locks` in the OS temporary folder), taken exclusively while a pool uses the device
 * and removed when it lets it go. A second `sdk run --devices` (or any program with a
 * `DevicePool`) on the same machine then does not drive a device the first one holds; a marker
 * whose process is gone counts as free. It is the report files' marker (`report/_report_lock.ts`)
 * under a device's name.
 *
 * @module
 */

import { lockReport } from "../report/_report_lock.ts";
import { nodeBuiltin, nodeFs, nodePath } from "../runtime/runtime.ts";
import { lockKeyOf, type PoolDevice } from "./devices.ts";

/** A device this process holds. */
export interface DeviceLock {
  /** Lets the device go; safe to call more than once. */
  release(): Promise<void>;
}

/** The default folder of the device markers: `<OS temp>/sdk-device-locks`. */
export async function defaultLockDir(): Promise<string> {
  const os = await nodeBuiltin<{ tmpdir(): string }>("node:os");
  return (await nodePath()).join(os.tmpdir(), "sdk-device-locks");
}

/**
 * The marker's base name of a device: its lock key (its platform and id, unless it shares one),
 * with only safe characters.
 */
function lockNameOf(device: PoolDevice): string {
  return lockKeyOf(device).replace(/[^A-Za-z0-9._-]/g, "_");
}

/**
 * Takes a device's marker in `dir` (created when missing).
 *
 * @returns the lock, or `undefined` when another live process holds the device.
 * @throws {Error} the file system's error when the marker cannot be written.
 */
export async function lockDevice(
  device: PoolDevice,
  dir: string,
): Promise<DeviceLock | undefined> {
  await (await nodeFs()).mkdir(dir, { recursive: true });
  const lock = await lockReport((await nodePath()).join(dir, lockNameOf(device)));
  return lock && { release: () => lock.release() };
}
