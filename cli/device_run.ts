/**
 * `sdk run --devices`: the device files of a run on a pool of devices. `--spread` hands each file
 * to the next free device of its platform; `--per-device` runs every file on every device of its
 * platform (the matrix), each device working through its own files one at a time. A file that
 * names its device (`deviceId`, `driverPort` for WebDriverAgent, `display` for a desktop) keeps
 * it: it runs only there when the pool has it, else as written, outside the pool. Web files, and
 * desktop files that bring their own (`headless`, `rdp`), run once, as without `--devices`. A
 * device whose file failed and that no longer answers leaves the pool: that file fails with
 * `CONNECTION_LOST`, the device's later cells are skipped, and the rest go on.
 *
 * @module
 */

import process from "node:process";
import { parse } from "yaml";
import { interpolateEnvVars } from "@sdk/core/script";
import { deviceLost, type DevicePool, type PoolDevice } from "@sdk/core";
import type { Preparation } from "./prepare.ts";
import { runPool } from "./pool.ts";
import type { FileResult } from "./summary.ts";

/** The section fields by which a file names its device. */
const PIN_KEYS = ["deviceId", "driverPort", "display"] as const;

/**
 * Whether a section brings a device of its own, which no pool holds: an agent-owned Xvfb
 * (`headless: true`) or a remote desktop (`rdp`).
 */
const ownsDevice = (section: Record<string, unknown> | undefined) =>
  section?.headless === true || section?.rdp !== undefined;

/** What {@link runOnDevices} needs. */
export interface DeviceRunOptions {
  /** Each file as shown (the summary's name). */
  shown: readonly string[];
  /** Each file's preparation. */
  preparations: readonly Preparation[];
  /** The devices. */
  pool: DevicePool;
  /** `--per-device` (the matrix); else `--spread`. */
  perDevice: boolean;
  /** How many devices (or web files) at once (`--concurrent`). */
  concurrent: number;
  /** Whether another run may start (false after a failure without `--continue-on-error`). */
  shouldStart: () => boolean;
  /** Stops waiting for a device (Ctrl+C). */
  signal: AbortSignal;
  /** Runs file `index` (on `device`, when it has one); never throws. */
  run: (index: number, device: PoolDevice | undefined) => Promise<FileResult>;
}

/** One run of a file: on a device, or on none (a web file, a file pinned outside the pool). */
interface Job {
  index: number;
  device?: PoolDevice;
  platform?: string;
  match?: (device: PoolDevice) => boolean;
}

/** A file's platform section, when its YAML reads. */
function sectionOf(text: string, platform: string): Record<string, unknown> | undefined {
  try {
    return (parse(text) as Record<string, Record<string, unknown>> | null)?.[platform];
  } catch {
    return undefined; // the platform's runner reports the file's YAML errors
  }
}

/**
 * The device a file's section names, as a predicate over the pool's devices; a `${VAR}` in the
 * name reads the environment, as the runner will (else a file pinned through a variable would
 * run outside the pool, on a device the pool may hand another file).
 */
function pinOf(section: Record<string, unknown> | undefined) {
  const pins = PIN_KEYS.filter((k) => section?.[k] !== undefined).map((k) =>
    [k, interpolateEnvVars(String(section![k]), (name) => process.env[name]).value] as const
  );
  if (pins.length === 0) return undefined;
  return (d: PoolDevice) => pins.every(([k, value]) => String(d.section[k]) === value);
}

/** The runs of a file: one per device of its platform (`perDevice`), or one on any device. */
function jobsOf(index: number, preparation: Preparation, options: DeviceRunOptions): Job[] {
  if (!preparation.ok || preparation.prepared.kind !== "platform") return [{ index }];
  const platform = preparation.prepared.section;
  const section = sectionOf(preparation.prepared.text, platform);
  if (ownsDevice(section)) return [{ index }];
  const match = pinOf(section);
  const devices = options.pool.devices.filter((d) => d.platform === platform);
  if (match && !devices.some(match)) return [{ index }]; // its device is not in the pool
  if (!options.perDevice) return [{ index, platform, match }];
  return devices.filter((d) => !match || match(d)).map((device) => ({ index, device, platform }));
}

/** A file that did not run on its device: skipped, or failed for want of a device. */
function notRun(shown: string, device: string, status: "skipped" | "failed", error: string) {
  return { file: shown, device, status, durationMs: 0, items: [], error } satisfies FileResult;
}

/**
 * Runs the files of a `--devices` run.
 *
 * @returns one result per run, in file order (then the pool's device order), each with the
 * `device` it ran on.
 */
export async function runOnDevices(options: DeviceRunOptions): Promise<FileResult[]> {
  const jobs = options.preparations.flatMap((p, i) => jobsOf(i, p, options));
  const results = new Map<Job, FileResult>();
  const runJob = async (job: Job) => {
    const device = await options.pool.acquire({
      ...(job.platform !== undefined && { platform: job.platform }),
      ...((job.device || job.match) && { match: (d) => d === job.device || !!job.match?.(d) }),
      signal: options.signal,
    });
    const name = job.device ? `${job.device.platform}:${job.device.id}` : `${job.platform}:-`;
    if (!device) {
      results.set(
        job,
        job.device
          ? notRun(options.shown[job.index], name, "skipped", "its device left the pool")
          : notRun(
            options.shown[job.index],
            name,
            "failed",
            `no ${job.platform} device is left in the pool to run it on`,
          ),
      );
      return;
    }
    const result = await options.run(job.index, device);
    result.device = `${device.platform}:${device.id}`;
    const { lost } = await options.pool.release(device, { failed: result.status === "failed" });
    if (lost) {
      result.error = deviceLost(device, result.error).message;
      result.errorCode = "CONNECTION_LOST";
    }
    results.set(job, result);
  };
  const runAny = async (job: Job) => {
    if (job.platform === undefined) results.set(job, await options.run(job.index, undefined));
    else await runJob(job);
  };
  if (options.perDevice) {
    // A queue per device (its files in order), and each web or pinned-outside file on its own.
    const queues = new Map<PoolDevice | Job, Job[]>();
    for (const job of jobs) {
      const key = job.device ?? job;
      queues.set(key, [...queues.get(key) ?? [], job]);
    }
    await runPool([...queues.values()], options.concurrent, async (queue) => {
      for (const job of queue) {
        if (!options.shouldStart()) return;
        await runAny(job);
      }
    });
  } else {
    await runPool(jobs, options.concurrent, runAny, options.shouldStart);
  }
  return jobs.map((job) =>
    results.get(job) ?? {
      file: options.shown[job.index],
      ...(job.device && { device: `${job.device.platform}:${job.device.id}` }),
      status: "skipped",
      durationMs: 0,
      items: [],
    }
  );
}
