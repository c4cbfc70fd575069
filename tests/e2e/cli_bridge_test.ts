/// <reference lib="dom" />
/**
 * Web scripts with `bridgeMode` through `sdk run`, as a subprocess: headless Chromium with the
 * SDK Bridge extension loaded (paired by the fixture's token), the command line's bridge server on
 * `--bridge-port`, the test model answering with the boxes of the tab the script drives.
 *
 * @module
 */

import { after, test } from "../helpers/test.ts";
import assert from "node:assert/strict";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { startTestModel } from "@sdk/core/testing";
import { measure } from "../helpers/browser.ts";
import { openFixture, useBridgeFixture } from "../helpers/bridge_extension.ts";
import { runSdk } from "../helpers/cli.ts";

const TOKEN = "cli-bridge-pairing-token-0123456789";
const fixture = useBridgeFixture("sdk-cli-bridge-", TOKEN);
const work = await mkdtemp(join(tmpdir(), "sdk-cli-bridge-work-"));
after(() => rm(work, { recursive: true, force: true }));

/** The tab on the fixture's actions page: the one the script drives. */
const actionsTab = (): Page => {
  const page = fixture.context.pages().find((p) => p.url().includes("actions.html"));
  if (!page) throw new Error("no tab on actions.html");
  return page;
};

const model = await startTestModel({
  script: {
    locate: async (call) =>
      /click me/i.test(call.target) ? await measure(actionsTab(), "#click-button") : null,
  },
  viewport: () => actionsTab().evaluate(() => ({ width: innerWidth, height: innerHeight })),
});
after(() => model.close());

/** Runs `sdk run <file> <flags>` in `work` with the pairing token in `SDK_BRIDGE_TOKEN`. */
async function sdkRun(file: string, ...flags: string[]) {
  return await sdkRunWith({ SDK_BRIDGE_TOKEN: TOKEN }, file, ...flags);
}

async function sdkRunWith(env: Record<string, string>, file: string, ...flags: string[]) {
  const run = await runSdk(
    work,
    { ...model.modelConfig(), SDK_RUN_DIR: join(work, "sdk_run"), ...env },
    "run",
    file,
    "--bridge-port",
    String(fixture.port),
    "--summary",
    "summary.json",
    ...flags,
  );
  const summary = JSON.parse(await readFile(join(work, "summary.json"), "utf8"));
  return { code: run.code, output: run.stdout + run.stderr, file: summary.files[0] };
}

const script = (web: string) =>
  `web:\n${web}tasks:\n  - name: tap\n    flow:\n      - aiTap: the Click me button\n` +
  `      - javascript: window.appState.clicks\n        name: clicks\n`;

test(
  "bridgeMode: newTabWithUrl opens the url in a new tab of your Chrome, runs the flow there, writes the output and closes the tab with closeNewTabsAfterDisconnect",
  {
    timeout: 120_000,
  },
  async () => {
    await writeFile(
      join(work, "new_tab.yaml"),
      script(
        `  url: ${fixture.app.url}actions.html\n  bridgeMode: newTabWithUrl\n` +
          `  closeNewTabsAfterDisconnect: true\n  output: out/new_tab.json\n`,
      ),
    );
    const run = await sdkRun("new_tab.yaml");
    assert.equal(run.code, 0, run.output);
    assert.equal(run.file.status, "passed");
    assert.match(run.file.report, /\.html$/);
    assert.deepEqual(JSON.parse(await readFile(join(work, "out/new_tab.json"), "utf8")), {
      clicks: 1,
    });
    assert.equal(
      fixture.context.pages().filter((p) => p.url().includes("actions.html")).length,
      0,
      "the tab the bridge opened is closed",
    );
  },
);

test("bridgeMode: currentTab drives the active tab where it is, and leaves it open", {
  timeout: 120_000,
}, async () => {
  const page = await openFixture(fixture.context, fixture.app.url, "actions.html");
  fixture.pages.push(page);
  await page.evaluate(() =>
    (window as unknown as { appState: { clicks: number } }).appState.clicks = 5
  );
  await writeFile(
    join(work, "current.yaml"),
    script(`  url: https://example.invalid/not-opened\n  bridgeMode: currentTab\n`),
  );
  const run = await sdkRun("current.yaml");
  assert.equal(run.code, 0, run.output);
  assert.equal(
    await page.evaluate(() =>
      (window as unknown as { appState: { clicks: number } }).appState.clicks
    ),
    6,
  );
  assert.ok(!page.isClosed());
});

test(
  "a bridge script needs the paired bridge: with another token the extension refuses it, without one it does not start; --untrusted refuses bridgeMode",
  {
    timeout: 120_000,
  },
  async () => {
    await writeFile(
      join(work, "paired.yaml"),
      script(`  url: ${fixture.app.url}actions.html\n  bridgeMode: newTabWithUrl\n`),
    );
    const wrong = await sdkRunWith({ SDK_BRIDGE_TOKEN: "another-token-0123456789" }, "paired.yaml");
    assert.equal(wrong.code, 1);
    assert.match(wrong.file.error, /SDK_BRIDGE_TOKEN/);
    const none = await sdkRunWith({ SDK_BRIDGE_TOKEN: "" }, "paired.yaml");
    assert.equal(none.code, 1);
    assert.match(none.file.error, /pairing token/);
    const untrusted = await sdkRun("paired.yaml", "--untrusted");
    assert.equal(untrusted.code, 1);
    assert.match(untrusted.file.error, /paired\.yaml:3:3: .*'bridgeMode' drives your own Chrome/);
  },
);
