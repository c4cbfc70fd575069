/**
 * File choosers on both drivers (spec 4.2 `aiAct` rules 4 and 5, spec 7): the user's
 * `fileChooserAccept` on `aiTap` and `aiAct`, model-planned uploads through the Tap action's
 * `files` parameter and `fileChooserAllowedDir`, with real files and symlinks in a temporary
 * directory and the page's own record of what its inputs received.
 */

import { after } from "../helpers/test.ts";
import assert from "node:assert/strict";
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import type { PlanReply, TestModelScript } from "@sdk/core/testing";
import { driverTest, type E2ePage } from "./_drivers.ts";

// root/
//   uploads/  one.txt (3 bytes)  two.txt (5 bytes)  link-in -> two.txt  link-out -> ../secret.txt
//   secret.txt
const root = await realpath(await mkdtemp(join(tmpdir(), "sdk-e2e-upload-")));
const uploads = join(root, "uploads");
await mkdir(uploads);
await writeFile(join(uploads, "one.txt"), "one");
await writeFile(join(uploads, "two.txt"), "two!!");
await writeFile(join(root, "secret.txt"), "secret");
await symlink(join(uploads, "two.txt"), join(uploads, "link-in"));
await symlink("../secret.txt", join(uploads, "link-out"));
after(() => rm(root, { recursive: true, force: true }));

const ONE = { name: "one.txt", size: 3 };
const TWO = { name: "two.txt", size: 5 };

const TARGETS: [RegExp, string][] = [
  [/one-file input/i, "#single-input"],
  [/several-files input/i, "#multi-input"],
  [/upload a document/i, "#pick-button"],
];

/**
 * Locates the upload page's targets; plans one Tap on the "Upload a document" button with
 * `files()` (left out when undefined), then finishes.
 */
function script(page: E2ePage, files?: () => unknown): TestModelScript {
  return {
    locate: ({ target }) => {
      const hit = TARGETS.find(([re]) => re.test(target));
      return hit ? page.measure(hit[1]) : null;
    },
    plan: async ({ history }): Promise<PlanReply> => {
      if (history.length) return { log: "Done", finished: true };
      const given = files?.();
      return {
        log: "Tap the Upload a document button",
        action: {
          type: "Tap",
          param: {
            locate: {
              prompt: "the Upload a document button",
              box: await page.measure("#pick-button"),
            },
            ...(given === undefined ? {} : { files: given }),
          },
        },
      };
    },
  };
}

driverTest(
  "aiTap with fileChooserAccept gives one file to the chooser the tap opens",
  async (e2e) => {
    const page = await e2e.open("upload.html");
    const { agent } = await e2e.agent(page, script(page));
    await agent.aiTap("the one-file input", { fileChooserAccept: join(uploads, "one.txt") });
    assert.deepEqual(await page.state("single"), [ONE]);
    // A button that opens a hidden input with input.click(); a path relative to the working
    // directory.
    const rel = relative(Deno.cwd(), join(uploads, "two.txt"));
    await agent.aiTap("the Upload a document button", { fileChooserAccept: [rel] });
    assert.deepEqual(await page.state("hidden"), [TWO]);
    assert.equal(await page.state("pickClicks"), 1);
    assert.deepEqual(await page.state("changes"), { single: 1, multi: 0, hidden: 1 });
  },
);

driverTest("aiTap gives two files to an input with multiple", async (e2e) => {
  const page = await e2e.open("upload.html");
  const { agent } = await e2e.agent(page, script(page));
  await agent.aiTap("the several-files input", {
    fileChooserAccept: [join(uploads, "one.txt"), join(uploads, "two.txt")],
  });
  assert.deepEqual(await page.state("multi"), [ONE, TWO]);
});

driverTest("two files for an input without multiple reject, and no file is set", async (e2e) => {
  const page = await e2e.open("upload.html");
  const { agent } = await e2e.agent(page, script(page));
  await assert.rejects(
    agent.aiTap("the one-file input", {
      fileChooserAccept: [join(uploads, "one.txt"), join(uploads, "two.txt")],
    }),
    /Cannot choose 2 files: the file input the tap opened accepts one file \(it has no "multiple" attribute\)\. Add "multiple" to the input, or pass one file\./,
  );
  assert.deepEqual(await page.state("single"), []);
  assert.equal((await page.state<{ single: number }>("changes")).single, 0);
  // The refused chooser does not block the next one.
  await agent.aiTap("the one-file input", { fileChooserAccept: join(uploads, "two.txt") });
  assert.deepEqual(await page.state("single"), [TWO]);
});

driverTest(
  "a tap that opens a chooser without fileChooserAccept completes and chooses nothing",
  async (e2e) => {
    const page = await e2e.open("upload.html");
    const { agent } = await e2e.agent(page, script(page));
    await agent.aiTap("the one-file input");
    await agent.aiTap("the Upload a document button");
    assert.equal(await page.state("pickClicks"), 1);
    assert.deepEqual(await page.state("changes"), { single: 0, multi: 0, hidden: 0 });
    // A tap with files after them still gets its chooser.
    await agent.aiTap("the several-files input", { fileChooserAccept: join(uploads, "one.txt") });
    assert.deepEqual(await page.state("multi"), [ONE]);
  },
);

driverTest("fileChooserAccept naming a missing file rejects before any model call", async (e2e) => {
  const page = await e2e.open("upload.html");
  const { agent, model } = await e2e.agent(page, script(page));
  await assert.rejects(
    agent.aiTap("the one-file input", { fileChooserAccept: join(uploads, "missing.pdf") }),
    /aiTap: fileChooserAccept file ".*missing\.pdf" does not exist/,
  );
  await assert.rejects(
    agent.aiAct("upload a document", { fileChooserAccept: [join(uploads, "missing.pdf")] }),
    /aiAct: fileChooserAccept file ".*missing\.pdf" does not exist/,
  );
  assert.equal(model.calls.length, 0);
});

driverTest(
  "a model-planned upload without fileChooserAllowedDir rejects and sets no file",
  async (e2e) => {
    const page = await e2e.open("upload.html");
    const { agent, model } = await e2e.agent(page, script(page, () => ["one.txt"]));
    await assert.rejects(
      agent.aiAct("upload one.txt with the Upload a document button"),
      /Action Tap: the model asked to upload \["one\.txt"\], but model-planned file uploads need fileChooserAllowedDir/,
    );
    assert.equal(await page.state("pickClicks"), 0);
    assert.deepEqual(await page.state("hidden"), []);
    // The planner was told about the parameter.
    const plan = model.calls.find((c) => c.kind === "plan")!.call!;
    assert.match(
      plan.systemPrompt,
      /- files \(files, optional\): only when the click opens a file chooser/,
    );
  },
);

driverTest(
  "model-planned uploads inside fileChooserAllowedDir are chosen, symlinks inside too",
  async (e2e) => {
    const page = await e2e.open("upload.html");
    let files: unknown = ["one.txt"];
    const { agent } = await e2e.agent(page, script(page, () => files));
    await agent.aiAct("upload one.txt with the Upload a document button", {
      fileChooserAllowedDir: uploads,
    });
    assert.deepEqual(await page.state("hidden"), [ONE]);
    // A symlink inside pointing inside: the real file is uploaded.
    files = "link-in";
    await agent.aiAct("upload link-in", { fileChooserAllowedDir: relative(Deno.cwd(), uploads) });
    assert.deepEqual(await page.state("hidden"), [TWO]);
    assert.equal(await page.state("pickClicks"), 2);
  },
);

driverTest("model-planned uploads escaping fileChooserAllowedDir are rejected", async (e2e) => {
  const page = await e2e.open("upload.html");
  let files: unknown;
  const { agent } = await e2e.agent(page, script(page, () => files));
  files = ["../secret.txt"];
  await assert.rejects(
    agent.aiAct("upload the secret", { fileChooserAllowedDir: uploads }),
    /file "\.\.\/secret\.txt" is outside fileChooserAllowedDir/,
  );
  files = ["link-out"];
  await assert.rejects(
    agent.aiAct("upload the secret", { fileChooserAllowedDir: uploads }),
    /file "link-out" leads through a symlink outside fileChooserAllowedDir/,
  );
  files = [join(root, "secret.txt")];
  await assert.rejects(
    agent.aiAct("upload the secret", { fileChooserAllowedDir: uploads }),
    /is outside fileChooserAllowedDir/,
  );
  assert.equal(await page.state("pickClicks"), 0);
  assert.deepEqual(await page.state("changes"), { single: 0, multi: 0, hidden: 0 });
});

driverTest(
  "aiAct's fileChooserAccept reaches a planned Tap, and planned files win over it",
  async (e2e) => {
    const page = await e2e.open("upload.html");
    const planned: { files?: string[] } = {};
    const { agent } = await e2e.agent(page, script(page, () => planned.files));
    // Not limited by fileChooserAllowedDir: the file is outside it.
    await agent.aiAct("upload a document", {
      fileChooserAccept: join(root, "secret.txt"),
      fileChooserAllowedDir: uploads,
    });
    assert.deepEqual(await page.state("hidden"), [{ name: "secret.txt", size: 6 }]);
    planned.files = ["two.txt"];
    await agent.aiAct("upload two.txt", {
      fileChooserAccept: join(root, "secret.txt"),
      fileChooserAllowedDir: uploads,
    });
    assert.deepEqual(await page.state("hidden"), [TWO]);
  },
);
