// The upload path policy (spec 4.2 aiAct rules 4 and 5, spec 7) against real temporary
// directories, files and symlinks.
import { before, describe } from "node:test";
import { after, test } from "../../tests/helpers/test.ts";
import assert from "node:assert/strict";
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import type { DeviceAction } from "../device/types.ts";
import {
  type AllowedUploadDir,
  resolveAllowedDir,
  resolveModelUploads,
  resolvePlannedFiles,
  resolveUploadOptions,
  resolveUserUploads,
} from "./upload_paths.ts";

// root/
//   allowed/  a.txt  ..notes.txt  sub/b.txt  link-in -> a.txt  link-out -> ../secret.txt
//             dir-out -> ../outside   dangling -> missing.txt
//   outside/ c.txt    secret.txt    allowed-link -> allowed
let root: string;
let allowed: string;
let dir: AllowedUploadDir;

before(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), "sdk-upload-")));
  allowed = join(root, "allowed");
  await mkdir(join(allowed, "sub"), { recursive: true });
  await mkdir(join(root, "outside"));
  await writeFile(join(allowed, "a.txt"), "aaa");
  await writeFile(join(allowed, "..notes.txt"), "n");
  await writeFile(join(allowed, "sub", "b.txt"), "bb");
  await writeFile(join(root, "outside", "c.txt"), "c");
  await writeFile(join(root, "secret.txt"), "secret");
  await symlink(join(allowed, "a.txt"), join(allowed, "link-in"));
  await symlink("../secret.txt", join(allowed, "link-out"));
  await symlink(join(root, "outside"), join(allowed, "dir-out"));
  await symlink(join(allowed, "missing.txt"), join(allowed, "dangling"));
  await symlink(allowed, join(root, "allowed-link"));
  dir = await resolveAllowedDir("aiAct", allowed);
});

after(async () => {
  await rm(root, { recursive: true, force: true });
});

describe("resolveUserUploads (fileChooserAccept)", () => {
  test("resolves relative paths from the working directory and keeps absolute ones", async () => {
    const rel = relative(Deno.cwd(), join(allowed, "a.txt"));
    assert.deepEqual(await resolveUserUploads("aiTap", rel), [join(allowed, "a.txt")]);
    assert.deepEqual(
      await resolveUserUploads("aiTap", [join(root, "secret.txt"), join(allowed, "sub/b.txt")]),
      [join(root, "secret.txt"), join(allowed, "sub", "b.txt")],
    );
  });

  test("is not limited to an allowed directory: a file anywhere is accepted", async () => {
    assert.deepEqual(await resolveUserUploads("aiAct", join(root, "outside", "c.txt")), [
      join(root, "outside", "c.txt"),
    ]);
  });

  test("rejects a missing file naming it, and a directory", async () => {
    await assert.rejects(
      resolveUserUploads("aiTap", ["a-file-that-is-not-there.txt"]),
      /aiTap: fileChooserAccept file "a-file-that-is-not-there\.txt" does not exist.*working directory/,
    );
    await assert.rejects(
      resolveUserUploads("aiTap", join(allowed, "dangling")),
      /does not exist/,
    );
    await assert.rejects(resolveUserUploads("aiTap", allowed), /is a directory, not a file/);
  });

  test("rejects an empty list and values that are not paths with a TypeError", async () => {
    await assert.rejects(resolveUserUploads("aiTap", []), TypeError);
    await assert.rejects(resolveUserUploads("aiTap", [42]), /must be a file path or an array/);
    await assert.rejects(resolveUserUploads("aiTap", [""]), TypeError);
  });
});

describe("resolveAllowedDir (fileChooserAllowedDir)", () => {
  test("keeps the directory as given and its real path", async () => {
    assert.deepEqual(dir, { given: allowed, real: allowed });
    const viaLink = await resolveAllowedDir("aiAct", join(root, "allowed-link"));
    assert.deepEqual(viaLink, { given: join(root, "allowed-link"), real: allowed });
  });

  test("rejects a missing directory, a file, and a non-string", async () => {
    await assert.rejects(
      resolveAllowedDir("aiAct", join(root, "nope")),
      /fileChooserAllowedDir ".*nope" does not exist/,
    );
    await assert.rejects(resolveAllowedDir("aiAct", join(allowed, "a.txt")), /not a directory/);
    await assert.rejects(resolveAllowedDir("aiAct", 7), TypeError);
  });
});

describe("resolveModelUploads (model-planned files)", () => {
  test("without an allowed directory, rejects naming fileChooserAllowedDir", async () => {
    await assert.rejects(
      resolveModelUploads("Tap", ["a.txt"], undefined),
      /Action Tap: the model asked to upload \["a\.txt"\], but model-planned file uploads need fileChooserAllowedDir/,
    );
  });

  test("resolves relative paths against the directory and accepts absolute ones inside it", async () => {
    assert.deepEqual(await resolveModelUploads("Tap", ["a.txt", "sub/b.txt"], dir), [
      join(allowed, "a.txt"),
      join(allowed, "sub", "b.txt"),
    ]);
    assert.deepEqual(await resolveModelUploads("Tap", join(allowed, "sub", "b.txt"), dir), [
      join(allowed, "sub", "b.txt"),
    ]);
    // A name that merely starts with two dots stays inside.
    assert.deepEqual(await resolveModelUploads("Tap", "..notes.txt", dir), [
      join(allowed, "..notes.txt"),
    ]);
  });

  test("rejects '..' escapes and absolute paths outside, naming the path", async () => {
    await assert.rejects(
      resolveModelUploads("Tap", "../secret.txt", dir),
      /file "\.\.\/secret\.txt" is outside fileChooserAllowedDir/,
    );
    await assert.rejects(
      resolveModelUploads("Tap", "sub/../../outside/c.txt", dir),
      /is outside fileChooserAllowedDir/,
    );
    await assert.rejects(
      resolveModelUploads("Tap", join(root, "outside", "c.txt"), dir),
      /is outside fileChooserAllowedDir/,
    );
  });

  test("accepts a symlink inside pointing inside, and hands out the real path", async () => {
    assert.deepEqual(await resolveModelUploads("Tap", "link-in", dir), [join(allowed, "a.txt")]);
  });

  test("rejects symlinks leading outside: a file link and a directory link", async () => {
    await assert.rejects(
      resolveModelUploads("Tap", "link-out", dir),
      new RegExp(`file "link-out" leads through a symlink outside.*${join(root, "secret.txt")}`),
    );
    await assert.rejects(
      resolveModelUploads("Tap", "dir-out/c.txt", dir),
      /leads through a symlink outside/,
    );
  });

  test("with a symlinked allowed directory, paths through the link and the real path pass", async () => {
    const viaLink = await resolveAllowedDir("aiAct", join(root, "allowed-link"));
    assert.deepEqual(await resolveModelUploads("Tap", "a.txt", viaLink), [join(allowed, "a.txt")]);
    assert.deepEqual(
      await resolveModelUploads("Tap", [
        join(root, "allowed-link", "a.txt"),
        join(allowed, "a.txt"),
      ], viaLink),
      [join(allowed, "a.txt"), join(allowed, "a.txt")],
    );
  });

  test("rejects missing files, dangling links and directories", async () => {
    await assert.rejects(resolveModelUploads("Tap", "nope.txt", dir), /"nope\.txt" does not exist/);
    await assert.rejects(resolveModelUploads("Tap", "dangling", dir), /does not exist/);
    await assert.rejects(resolveModelUploads("Tap", "sub", dir), /is a directory, not a file/);
  });

  test("an empty list is no upload, even without a directory", async () => {
    assert.deepEqual(await resolveModelUploads("Tap", [], undefined), []);
  });
});

const noop = () => Promise.resolve();
const tap: DeviceAction = {
  name: "Tap",
  description: "click",
  params: [
    { name: "locate", type: "locate", required: true, description: "target" },
    { name: "files", type: "files", required: false, description: "files" },
  ],
  call: noop,
};
const hover: DeviceAction = { name: "Hover", description: "hover", params: [], call: noop };

describe("resolvePlannedFiles and resolveUploadOptions", () => {
  test("replace a planned files parameter by real paths and drop an empty one", async () => {
    const param: Record<string, unknown> = { files: "link-in" };
    await resolvePlannedFiles(tap, param, dir);
    assert.deepEqual(param, { files: [join(allowed, "a.txt")] });
    const empty: Record<string, unknown> = { files: [] };
    await resolvePlannedFiles(tap, empty, undefined);
    assert.deepEqual(empty, {});
    await assert.rejects(
      resolvePlannedFiles(tap, { files: ["a.txt"] }, undefined),
      /needs? fileChooserAllowedDir/,
    );
  });

  test("fileChooserAccept needs an action that can choose files", async () => {
    await assert.rejects(
      resolveUploadOptions("aiAct", [hover], { fileChooserAccept: join(allowed, "a.txt") }),
      /aiAct: fileChooserAccept needs a device whose actions can choose files.*Hover/,
    );
    assert.deepEqual(
      await resolveUploadOptions("aiAct", [hover, tap], {
        fileChooserAccept: join(allowed, "a.txt"),
        fileChooserAllowedDir: allowed,
      }),
      { accept: [join(allowed, "a.txt")], allowedDir: dir },
    );
    assert.deepEqual(await resolveUploadOptions("aiAct", [hover], {}), {});
  });
});
