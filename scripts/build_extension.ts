/**
 * Builds the SDK Bridge Chrome extension (MV3) from `extension/` into `dist/extension/`, ready for
 * chrome://extensions > "Load unpacked" (see docs/bridge.md).
 *
 * The extension is plain JavaScript, so building is copying after checks; the build fails (exit
 * code 1, naming the problem) when:
 *
 * - `manifest.json` is not JSON, not `manifest_version` 3, lacks one of the permissions the bridge
 *   needs (`alarms`, `debugger`, `storage`, `tabs`) or asks for more, or has no module service worker;
 * - a file the manifest names (service worker, popup) is missing;
 * - a `.js` file does not parse as an ES module.
 *
 * Run it with `deno task build:extension`.
 *
 * @module
 */

import * as fs from "node:fs/promises";
import * as path from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../", import.meta.url));

/** The extension's sources. */
export const EXTENSION_SOURCE: string = path.join(ROOT, "extension");
/** Where the built extension is written (the folder to "Load unpacked"). */
export const EXTENSION_DIST: string = path.join(ROOT, "dist/extension");

/** Exactly the permissions the bridge needs. */
export const EXTENSION_PERMISSIONS: readonly string[] = ["alarms", "debugger", "storage", "tabs"];

interface Manifest {
  manifest_version?: unknown;
  permissions?: unknown;
  host_permissions?: unknown;
  background?: { service_worker?: unknown; type?: unknown };
  action?: { default_popup?: unknown };
}

/**
 * Checks `extension/` and copies it to `outDir`.
 *
 * @param outDir the output folder (emptied first). Default {@link EXTENSION_DIST}.
 * @returns the output folder.
 * @throws {Error} naming the file and the problem when a check fails.
 */
export async function buildExtension(outDir: string = EXTENSION_DIST): Promise<string> {
  const manifestPath = path.join(EXTENSION_SOURCE, "manifest.json");
  let manifest: Manifest;
  try {
    manifest = JSON.parse(await fs.readFile(manifestPath, "utf8"));
  } catch (error) {
    throw new Error(`extension/manifest.json: ${(error as Error).message}`);
  }
  if (manifest.manifest_version !== 3) {
    throw new Error("extension/manifest.json: manifest_version must be 3");
  }
  const permissions = Array.isArray(manifest.permissions) ? [...manifest.permissions].sort() : [];
  if (JSON.stringify(permissions) !== JSON.stringify(EXTENSION_PERMISSIONS)) {
    throw new Error(
      `extension/manifest.json: permissions must be exactly ${EXTENSION_PERMISSIONS.join(", ")}: ` +
        `current value is ${JSON.stringify(manifest.permissions)}`,
    );
  }
  if (manifest.host_permissions !== undefined) {
    throw new Error("extension/manifest.json: the bridge needs no host_permissions");
  }
  const worker = manifest.background?.service_worker;
  if (typeof worker !== "string" || manifest.background?.type !== "module") {
    throw new Error("extension/manifest.json: background must be a module service_worker");
  }
  const named = [worker];
  if (typeof manifest.action?.default_popup === "string") named.push(manifest.action.default_popup);
  const files = await fs.readdir(EXTENSION_SOURCE);
  for (const file of named) {
    if (!files.includes(file)) {
      throw new Error(`extension/manifest.json names a missing file: ${file}`);
    }
  }
  const esbuild = await import("esbuild");
  for (const file of files.filter((f) => f.endsWith(".js"))) {
    const source = await fs.readFile(path.join(EXTENSION_SOURCE, file), "utf8");
    try {
      await esbuild.transform(source, { format: "esm", loader: "js", target: "chrome116" });
    } catch (error) {
      throw new Error(`extension/${file} does not parse: ${(error as Error).message}`);
    }
  }
  await esbuild.stop();
  await fs.rm(outDir, { recursive: true, force: true });
  await fs.mkdir(outDir, { recursive: true });
  for (const file of files) {
    await fs.copyFile(path.join(EXTENSION_SOURCE, file), path.join(outDir, file));
  }
  return outDir;
}

if (import.meta.main) {
  try {
    const out = await buildExtension();
    console.log(`extension built: ${path.relative(process.cwd(), out) || out} (Load unpacked)`);
  } catch (error) {
    console.error(`build:extension failed: ${(error as Error).message}`);
    process.exit(1);
  }
}
