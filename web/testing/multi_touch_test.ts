/// <reference lib="dom" />
/**
 * VirtualPhone.multiTouch on the zoom fixture app (tests/fixtures/mobile/zoom): several fingers
 * reach the page as one touch sequence, so a two-finger pinch zooms in and out.
 *
 * @module
 */

import { before } from "node:test";
import { after, test } from "../../tests/helpers/test.ts";
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { serveStatic, type StaticServer } from "../../tests/helpers/static_server.ts";
import { startVirtualPhone, type TouchPoint, type VirtualPhone } from "./virtual_phone.ts";

const MOBILE_APPS_DIR = fileURLToPath(new URL("../../tests/fixtures/mobile/", import.meta.url));
const ZOOM = "com.example.zoom";
const DENSITY = 3;

let apps: StaticServer;
let phone: VirtualPhone;

before(async () => {
  apps = await serveStatic(MOBILE_APPS_DIR);
  phone = await startVirtualPhone({
    width: 1170,
    height: 2532,
    density: DENSITY,
    apps: { [ZOOM]: `${apps.url}zoom/index.html` },
  });
});

after(async () => {
  await phone?.close();
  await apps?.close();
});

const text = (selector: string): Promise<string | null> =>
  phone.foregroundPage().textContent(selector);

/** Two fingers `gap` physical pixels apart, horizontally, around the screen's center. */
function pair(gap: number): TouchPoint[] {
  const [cx, cy] = [phone.width / 2, phone.height / 2];
  return [{ id: 1, x: cx - gap / 2, y: cy }, { id: 2, x: cx + gap / 2, y: cy }];
}

/** Pinches from `from` to `to` physical pixels apart in `steps` moves, then lifts both fingers. */
async function pinch(from: number, to: number, steps = 8): Promise<void> {
  for (let i = 0; i <= steps; i++) await phone.multiTouch(pair(from + ((to - from) * i) / steps));
  await phone.multiTouch([]);
}

test("a two-finger spread zooms in by the ratio of the fingers' distances", async () => {
  await phone.stopApp(ZOOM);
  await phone.launchApp(ZOOM);
  const before = phone.inputs.length;
  await pinch(200, 360);
  assert.equal(await text("#zoom"), "Zoom: 1.80x");
  assert.equal(await text("#fingers"), "Fingers: 0");
  const recorded = phone.inputs.slice(before);
  assert.equal(recorded.length, 10);
  assert.deepEqual(recorded[0], { type: "multiTouch", points: pair(200) });
  assert.deepEqual(recorded.at(-1), { type: "multiTouch", points: [] });
});

test("a two-finger pinch zooms out from the zoom it had", async () => {
  await phone.stopApp(ZOOM);
  await phone.launchApp(ZOOM);
  await pinch(200, 400);
  assert.equal(await text("#zoom"), "Zoom: 2.00x");
  await pinch(400, 100);
  assert.equal(await text("#zoom"), "Zoom: 0.50x");
});

test("known ids move, new ids go down and missing ids lift, one finger at a time", async () => {
  await phone.stopApp(ZOOM);
  await phone.launchApp(ZOOM);
  const [a, b] = pair(300);
  await phone.multiTouch([a]);
  assert.equal(await text("#fingers"), "Fingers: 1");
  await phone.multiTouch([a, b]);
  assert.equal(await text("#fingers"), "Fingers: 2");
  // Finger 2 moves away from finger 1 while finger 1 stays: 300 -> 600 physical pixels apart.
  await phone.multiTouch([a, { ...b, x: b.x + 300 }]);
  assert.equal(await text("#zoom"), "Zoom: 2.00x");
  await phone.multiTouch([{ ...b, x: b.x + 300 }]);
  assert.equal(await text("#fingers"), "Fingers: 1");
  // One call that lifts finger 2 and puts fingers 3 and 4 down.
  await phone.multiTouch([{ id: 3, x: 300, y: 1200 }, { id: 4, x: 800, y: 1200 }]);
  assert.equal(await text("#fingers"), "Fingers: 2");
  await phone.multiTouch([]);
  assert.equal(await text("#fingers"), "Fingers: 0");
});

test("multiTouch refuses two fingers with one id and non-finite points", async () => {
  await assert.rejects(
    phone.multiTouch([{ id: 1, x: 10, y: 10 }, { id: 1, x: 20, y: 20 }]),
    /two fingers share the id 1/,
  );
  await assert.rejects(phone.multiTouch([{ id: 1, x: NaN, y: 10 }]), /finite coordinates/);
});
