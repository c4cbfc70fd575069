import assert from "node:assert/strict";
import { getEventListeners } from "node:events";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "../../tests/helpers/test.ts";
import { ConnectionError, DeviceNotFoundError } from "../errors.ts";
import { DevicePool } from "./device_pool.ts";
import { describeEach, listDevices, type PoolDevice, selectDevices } from "./devices.ts";

const lockDir = await mkdtemp(join(tmpdir(), "sdk-pool-test-"));
after(() => rm(lockDir, { recursive: true, force: true }));

const phone = (platform: string, id: string): PoolDevice => ({
  platform,
  id,
  section: { deviceId: id },
});
const A1 = phone("mobilea", "a1"), A2 = phone("mobilea", "a2"), C1 = phone("mobilec", "c1");

test("selectDevices() reads all, <platform>:all and ids, and names what is there for an unknown id", () => {
  const all = [A1, A2, C1];
  assert.deepEqual(selectDevices(all, "all"), all);
  assert.deepEqual(selectDevices(all, "mobilea:all"), [A1, A2]);
  assert.deepEqual(selectDevices(all, "c1, mobilea:a2"), [A2, C1]);
  assert.throws(
    () => selectDevices(all, "a3"),
    (e) => e instanceof DeviceNotFoundError && /mobilea:a1, mobilea:a2, mobilec:c1/.test(e.message),
  );
});

test("listDevices() lists every platform that answers and reports the one that fails", async () => {
  const listing = await listDevices({
    mobilea: () => Promise.resolve([A1]),
    mobileb: () => Promise.reject(new Error("no WebDriverAgent")),
    mobilec: () => Promise.resolve([C1]),
  });
  assert.deepEqual(listing.devices, [A1, C1]);
  assert.equal(listing.errors.length, 1);
  assert.equal(listing.errors[0].platform, "mobileb");
});

test("a pool hands each device to one user at a time and waits for a release", async () => {
  const pool = new DevicePool([A1, A2], { lockDir });
  const first = await pool.acquire();
  const second = await pool.acquire();
  assert.deepEqual([first, second], [A1, A2]);
  let third: PoolDevice | undefined;
  const waiting = pool.acquire().then((d) => third = d);
  await new Promise((r) => setTimeout(r, 50));
  assert.equal(third, undefined, "both devices are in use: the third acquire waits");
  await pool.release(A2);
  await waiting;
  assert.equal(third, A2);
  assert.equal(await pool.acquire({ platform: "mobilec" }), undefined, "no mobilec device");
  await pool.close();
  assert.deepEqual(await readdir(lockDir), [], "close() removes every marker");
});

test("a device held by another pool (another run) is skipped, and waited for when it is the only one", async () => {
  const other = new DevicePool([A1], { lockDir });
  assert.equal(await other.acquire(), A1);
  const held: string[] = [];
  const pool = new DevicePool([A1, A2], { lockDir, pollMs: 20, onHeld: (d) => held.push(d.id) });
  assert.equal(await pool.acquire(), A2, "the held device is skipped");
  let got: PoolDevice | undefined;
  const waiting = pool.acquire().then((d) => got = d);
  await new Promise((r) => setTimeout(r, 100));
  assert.equal(got, undefined, "A1 is held elsewhere and A2 is in use: it waits");
  await other.release(A1);
  await waiting;
  assert.equal(got, A1, "taken once the other run lets it go");
  assert.deepEqual(held, ["a1"], "told once");
  await pool.close();
});

test("a device that fails and no longer answers leaves the pool with CONNECTION_LOST; the rest go on", async () => {
  const gone = new Set<string>();
  const pool = new DevicePool([A1, A2], {
    lockDir,
    isReachable: (d) => Promise.resolve(!gone.has(d.id)),
  });
  await assert.rejects(
    pool.use(() => {
      gone.add("a1");
      return Promise.reject(new Error("socket closed"));
    }),
    (e) =>
      e instanceof ConnectionError && e.code === "CONNECTION_LOST" && /mobilea:a1/.test(e.message),
  );
  assert.deepEqual(pool.devices, [A2]);
  await assert.rejects(pool.use(() => Promise.reject(new Error("a task failed"))), /a task failed/);
  assert.deepEqual(pool.devices, [A2], "a failure on a device that answers keeps it");
  const ran = await pool.runOnEach((d) => Promise.resolve(d.id));
  assert.deepEqual(ran.map((r) => r.status === "fulfilled" && r.value), ["a2"]);
  await pool.close();
});

test("acquires at once never take the same device, nor report this pool's own devices as held elsewhere", async () => {
  const held: string[] = [];
  const devices = [A1, A2, phone("mobilea", "a3")];
  const other = new DevicePool([A1], { lockDir });
  await other.acquire();
  const pool = new DevicePool(devices, { lockDir, onHeld: (d) => held.push(d.id) });
  // Bounded, so that a pool that lost track of a device fails here instead of waiting forever.
  const signal = AbortSignal.timeout(10_000);
  const got = await Promise.all([pool.acquire({ signal }), pool.acquire({ signal })]);
  assert.deepEqual(new Set(got.map((d) => d?.id)), new Set(["a2", "a3"]));
  assert.deepEqual(held, ["a1"]);
  await pool.close();
  await other.close();
  assert.deepEqual(await readdir(lockDir), [], "every marker removed");
});

test("a long wait for a device held elsewhere keeps one abort listener, and an abort ends it", async () => {
  const other = new DevicePool([A1], { lockDir });
  assert.equal(await other.acquire(), A1);
  const pool = new DevicePool([A1], { lockDir, pollMs: 5 });
  const stop = new AbortController();
  const waiting = pool.acquire({ signal: stop.signal });
  await new Promise((r) => setTimeout(r, 150)); // about 30 tries
  assert.ok(
    getEventListeners(stop.signal, "abort").length <= 2,
    `${getEventListeners(stop.signal, "abort").length} abort listeners after 30 tries`,
  );
  stop.abort();
  assert.equal(await waiting, undefined);
  await other.close();
});

test("devices with one lockKey (monitors of one X display) are used one at a time, in this pool and by another", async () => {
  const monitor = (id: string): PoolDevice => ({
    platform: "computer",
    id: `:5/${id}`,
    section: { display: ":5", displayId: id },
    lockKey: "computer-:5",
  });
  const [left, right] = [monitor("LEFT"), monitor("RIGHT")];
  const pool = new DevicePool([left, right], { lockDir, pollMs: 20 });
  assert.equal(await pool.acquire(), left);
  let got: PoolDevice | undefined;
  const waiting = pool.acquire().then((d) => got = d);
  await new Promise((r) => setTimeout(r, 100));
  assert.equal(got, undefined, "RIGHT shares the display LEFT holds: it waits");
  await pool.release(left);
  await waiting;
  assert.ok(got === left || got === right, "free again once LEFT is released");
  const other = new DevicePool([right], { lockDir, pollMs: 20 });
  let otherGot: PoolDevice | undefined;
  const otherWaiting = other.acquire().then((d) => otherGot = d);
  await new Promise((r) => setTimeout(r, 100));
  assert.equal(otherGot, undefined, "another run waits while this one holds the display");
  await pool.close();
  await otherWaiting;
  assert.equal(otherGot, right);
  await other.close();
  assert.deepEqual(await readdir(lockDir), [], "every marker removed");
});

test("describeEach() keeps the devices that answer and tells about the one that does not", async () => {
  const told: string[] = [];
  const described = await describeEach(
    ["a1", "mute", "a2"],
    (id) =>
      id === "mute" ? Promise.reject(new Error("no shell")) : Promise.resolve(phone("mobilea", id)),
    (id, e) => told.push(`${id}: ${(e as Error).message}`),
  );
  assert.deepEqual(described.map((d) => d.id), ["a1", "a2"]);
  assert.deepEqual(told, ["mute: no shell"]);
});
