import { test } from "../tests/helpers/test.ts";
import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEVICE_CLASS_OVERRIDE_ENV, loadDeviceClass } from "./device_class.ts";
import { MobileBDevice } from "./device.ts";

async function withModules(
  run: (dir: string) => Promise<void>,
): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), "sdk-mobileb-class-"));
  const device = new URL("./device.ts", import.meta.url).href;
  await writeFile(
    join(dir, "named.ts"),
    `import { MobileBDevice } from ${JSON.stringify(device)};\n` +
      `export const version = 1;\nexport class NamedDevice extends MobileBDevice {}\n`,
  );
  await writeFile(join(dir, "plain.ts"), "export default class Plain {}\n");
  const saved = Deno.env.get(DEVICE_CLASS_OVERRIDE_ENV);
  try {
    await run(dir);
  } finally {
    if (saved === undefined) Deno.env.delete(DEVICE_CLASS_OVERRIDE_ENV);
    else Deno.env.set(DEVICE_CLASS_OVERRIDE_ENV, saved);
    await rm(dir, { recursive: true, force: true });
  }
}

test("loadDeviceClass: MobileBDevice without an override; a named export class is found", async () => {
  await withModules(async (dir) => {
    Deno.env.delete(DEVICE_CLASS_OVERRIDE_ENV);
    assert.equal(await loadDeviceClass(), MobileBDevice);
    const Named = await loadDeviceClass(join(dir, "named.ts"));
    assert.equal(Named.name, "NamedDevice");
    assert.ok(new Named({}) instanceof MobileBDevice);
  });
});

test("loadDeviceClass: the environment variable works and the explicit option wins", async () => {
  await withModules(async (dir) => {
    Deno.env.set(DEVICE_CLASS_OVERRIDE_ENV, join(dir, "named.ts"));
    assert.equal((await loadDeviceClass()).name, "NamedDevice");
    Deno.env.set(DEVICE_CLASS_OVERRIDE_ENV, join(dir, "missing.ts"));
    await assert.rejects(loadDeviceClass(), /SDK_MOBILEB_DEVICE_CLASS_OVERRIDE.*missing\.ts/);
    assert.equal((await loadDeviceClass(join(dir, "named.ts"))).name, "NamedDevice");
  });
});

test("loadDeviceClass: a class that is not a device names what it lacks", async () => {
  await withModules(async (dir) => {
    await assert.rejects(
      loadDeviceClass(join(dir, "plain.ts")),
      /Plain of iOSDeviceClassOverride .* lacks connect, screenshotBase64.*extend MobileBDevice/,
    );
  });
});
