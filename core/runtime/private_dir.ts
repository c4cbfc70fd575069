/**
 * Private temporary folders of the SDK (an X display's authority, the RDP client's home, a
 * phone's screenshots): this user's only, removed by the device or, at the latest, when the
 * process ends.
 *
 * @module
 */

import { onProcessEnd } from "./children.ts";
import { nodeBuiltin } from "./runtime.ts";

/** A folder made by {@link privateTempDir}. */
export interface PrivateTempDir {
  /** Its absolute path. */
  readonly path: string;
  /** Removes it and all it holds; safe to call twice. */
  remove(): Promise<void>;
}

/**
 * Makes a new folder of this user only (mode 0700) in the temporary folder (`TMPDIR`), named
 * `prefix` and random letters. It is removed by `remove()` or, at the latest, when the process
 * ends however the SDK's children see it end (`onProcessEnd`: a normal end, `process.exit`,
 * `Deno.exit`, an uncaught error, SIGINT, SIGTERM, SIGHUP); a SIGKILL leaves it.
 *
 * @param prefix the start of the folder's name, e.g. `"sdk-x11-"`.
 * @throws {UnsupportedRuntimeError} in a browser runtime; the file system's error otherwise.
 */
export async function privateTempDir(prefix: string): Promise<PrivateTempDir> {
  const fs = await nodeBuiltin<typeof import("node:fs")>("node:fs");
  const os = await nodeBuiltin<typeof import("node:os")>("node:os");
  const nodePath = await nodeBuiltin<typeof import("node:path")>("node:path");
  const path = await fs.promises.mkdtemp(nodePath.join(os.tmpdir(), prefix));
  const removeNow = () => fs.rmSync(path, { recursive: true, force: true });
  const forget = onProcessEnd(removeNow);
  await fs.promises.chmod(path, 0o700);
  return {
    path,
    remove: async () => {
      forget();
      await fs.promises.rm(path, { recursive: true, force: true });
    },
  };
}
