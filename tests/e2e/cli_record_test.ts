/// <reference lib="dom" />

/**
 * `sdk run --record` (issue 35, docs/yaml-and-cli.md "Exported scripts") end to end, as
 * subprocesses with the test model over HTTP: a script whose `aiAct` taps and types is recorded;
 * `sdk run` on the record then makes no model call and ends in the same state (read by the
 * script's own `javascript` item into its output file); on a copy of the page where the button
 * has another id it asks the model once, for that button.
 */

import { before } from "node:test";
import { after, test } from "../helpers/test.ts";
import assert from "node:assert/strict";
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { parse } from "yaml";
import { startTestModel, type TargetBox, type TestModel } from "@sdk/core/testing";
import { launchChromium, measure } from "../helpers/browser.ts";
import { FIXTURE_APP_DIR, serveStatic } from "../helpers/static_server.ts";

const MAIN = fileURLToPath(new URL("../../cli/bin.ts", import.meta.url));
const TASK = "click the button, then type hello into the key input";

let model: TestModel;
let work: string;

before(async () => {
  const browser = await launchChromium();
  const app = await serveStatic(FIXTURE_APP_DIR);
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(`${app.url}actions.html`);
  const button: TargetBox = await measure(page, "#click-button");
  const input: TargetBox = await measure(page, "#key-input");
  await browser.close();
  await app.close();
  model = await startTestModel({
    viewport: { width: 1280, height: 800 },
    script: {
      locate: (call) => /click me/i.test(call.target) ? button : null,
      plan: (call) =>
        [
          {
            log: "Tap the Click me button",
            action: { type: "Tap", param: { locate: { prompt: "Click me", box: button } } },
          },
          {
            log: "Type hello",
            action: {
              type: "Input",
              param: { locate: { prompt: "the key input", box: input }, value: "hello" },
            },
          },
        ][call.history.length] ?? { log: "Done", finished: true },
      assert: () => ({ pass: true }),
    },
  });
  work = await mkdtemp(join(tmpdir(), "sdk-record-"));
});

after(async () => {
  await model.close();
  await rm(work, { recursive: true, force: true });
});

async function sdk(...args: string[]) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-all", MAIN, ...args],
    cwd: work,
    env: { ...model.modelConfig(), SDK_RUN_DIR: join(work, "sdk_run") },
    stdin: "null",
  }).output();
  const decode = (b: Uint8Array) => new TextDecoder().decode(b);
  return { code: out.code, stdout: decode(out.stdout), stderr: decode(out.stderr) };
}

test("sdk run --record writes the run as a script; sdk run on it makes no model call and ends the same, and one model call heals a step whose element changed", async () => {
  const src = join(work, "flows");
  await mkdir(src);
  // Relative paths of the script (serve, output) are rewritten for the record's own folder.
  await writeFile(
    join(src, "act.yaml"),
    `web:
  serve: ${relative(src, FIXTURE_APP_DIR)}
  url: actions.html
  output: out/state.json
agent:
  waitAfterAction: 0
tasks:
  - name: act
    flow:
      # The model plans both steps.
      - aiAct: ${TASK}
      - javascript: "({ clicks: window.appState.clicks, typed: document.querySelector('#key-input').value })"
        name: state
  - name: check
    flow:
      - aiAssert: the page shows 1 click
`,
  );
  const first = await sdk("run", "flows/act.yaml", "--record", "recorded/act.yaml");
  assert.equal(first.code, 0, `${first.stdout}\n${first.stderr}`);
  assert.deepEqual(model.calls.map((c) => c.kind), ["plan", "plan", "plan", "assert"]);
  const state = JSON.parse(await readFile(join(src, "out/state.json"), "utf8"));
  assert.deepEqual(state, { state: { clicks: 1, typed: "hello" } });

  const recordFile = join(work, "recorded/act.yaml");
  const record = await readFile(recordFile, "utf8");
  const doc = parse(record);
  assert.equal(doc.web.serve, relative(join(work, "recorded"), FIXTURE_APP_DIR));
  assert.equal(doc.web.output, "../flows/out/state.json");
  assert.deepEqual(
    doc.tasks[0].flow.map((i: Record<string, unknown>) => Object.keys(i)[0]),
    ["aiTap", "aiInput", "javascript"],
  );
  assert.match(record, /# The model plans both steps\.\n\s+# aiAct: click the button/);
  assert.deepEqual(doc.tasks[1].flow, []);
  assert.match(record, /#\s+aiAssert: the page shows 1 click/);

  await rm(join(src, "out"), { recursive: true });
  const calls = model.calls.length;
  const second = await sdk("run", "recorded/act.yaml");
  assert.equal(second.code, 0, `${second.stdout}\n${second.stderr}`);
  assert.equal(model.calls.length - calls, 0, "no model call while the page matches");
  assert.deepEqual(JSON.parse(await readFile(join(src, "out/state.json"), "utf8")), state);

  // A copy of the page whose button has another id (after its own script ran): its locator
  // misses, the model locates it once; the input's locator still matches.
  const changed = join(work, "app-changed");
  await cp(FIXTURE_APP_DIR, changed, { recursive: true });
  const html = await readFile(join(changed, "actions.html"), "utf8");
  await writeFile(
    join(changed, "actions.html"),
    html.replace(
      "</body>",
      `<script>document.getElementById("click-button").id = "renamed-button";</script></body>`,
    ),
  );
  await writeFile(
    join(work, "recorded/changed.yaml"),
    record.replace(/serve: .*/, `serve: ../app-changed`),
  );
  await rm(join(src, "out"), { recursive: true });
  const before = model.calls.length;
  const third = await sdk("run", "recorded/changed.yaml");
  assert.equal(third.code, 0, `${third.stdout}\n${third.stderr}`);
  assert.deepEqual(model.calls.slice(before).map((c) => c.kind), ["locate"]);
  assert.deepEqual(JSON.parse(await readFile(join(src, "out/state.json"), "utf8")), state);
});

test("--record with a .yaml path takes one script; several scripts need a folder", async () => {
  const dir = join(work, "two");
  await mkdir(dir);
  for (const name of ["a.yaml", "b.yaml"]) {
    await writeFile(
      join(dir, name),
      "web:\n  url: about:blank\ntasks:\n  - name: nothing\n    flow:\n      - sleep: 0\n",
    );
  }
  const wrong = await sdk("run", "two", "--record", "out.yaml");
  assert.equal(wrong.code, 2);
  assert.match(wrong.stderr, /--record out\.yaml names one file, and 2 scripts run: give a folder/);
  const ok = await sdk("run", "two", "--record", "records");
  assert.equal(ok.code, 0, `${ok.stdout}\n${ok.stderr}`);
  for (const name of ["a.yaml", "b.yaml"]) {
    assert.match(await readFile(join(work, "records", name), "utf8"), /- sleep: 0/);
  }
});
