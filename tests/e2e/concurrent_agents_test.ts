/**
 * Many agents in one process (issue 16): eight DriverB page agents on eight pages of one browser
 * run at once against one test model, each with its own report file and its own cache file, and
 * nothing of one agent shows up in another's.
 *
 * @module
 */

import { before } from "node:test";
import { after, test } from "../helpers/test.ts";
import assert from "node:assert/strict";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { parse } from "yaml";
import { startTestModel, type TestModel } from "@sdk/core/testing";
import { DriverBPageAgent } from "@sdk/web";
import { parseReportHtml } from "../../core/report/_format.ts";
import { launchChromium, measure } from "../helpers/browser.ts";
import { FIXTURE_APP_DIR, serveStatic, type StaticServer } from "../helpers/static_server.ts";

const AGENTS = 8;
const TAPS = 3;
/** Report names of this run: a name whose report exists is taken as `<name>-2`, so each run has its own. */
const RUN = `concurrent-${Date.now().toString(36)}`;

let browser: Browser;
let app: StaticServer;
let model: TestModel;
let work: string;
const pages: Page[] = [];
/** Report files the tests wrote, removed at the end. */
const reports: string[] = [];

before(async () => {
  work = await mkdtemp(join(tmpdir(), "sdk-concurrent-"));
  browser = await launchChromium();
  app = await serveStatic(FIXTURE_APP_DIR);
  for (let i = 0; i < AGENTS; i++) {
    const context = await browser.newContext({ viewport: { width: 800, height: 600 } });
    const page = await context.newPage();
    await page.goto(`${app.url}actions.html`);
    pages.push(page);
  }
  // One model for all agents: each prompt names its agent, whose page the model reads.
  model = await startTestModel({
    script: {
      locate: ({ target }) => {
        const i = Number(/agent (\d+)/.exec(target)?.[1]);
        return Number.isInteger(i) ? measure(pages[i], "#click-button") : null;
      },
    },
  });
});

after(async () => {
  await model?.close();
  await browser?.close();
  await app?.close();
  await rm(work, { recursive: true, force: true });
  await Promise.all(reports.map((file) => rm(file, { force: true })));
});

test("eight agents at once keep their own reports and caches intact", async () => {
  const agents = pages.map((page, i) =>
    new DriverBPageAgent(page, {
      modelConfig: model.modelConfig(),
      reportFileName: `${RUN}-agent-${i}`,
      cache: { id: `agent-${i}`, strategy: "read-write", cacheDir: join(work, "cache") },
      autoPrintReportMsg: false,
      waitAfterAction: 20,
    })
  );
  await Promise.all(agents.map(async (agent, i) => {
    // Each agent's taps differ in wording, so each cache entry is its own.
    for (let t = 0; t < TAPS; t++) await agent.aiTap(`the Click me button of agent ${i}, tap ${t}`);
  }));
  await Promise.all(agents.map((agent) => agent.destroy()));
  reports.push(...agents.flatMap((agent) => agent.reportFile ?? []));

  for (const [i, page] of pages.entries()) {
    assert.equal(
      await page.locator("#click-count").textContent(),
      String(TAPS),
      `agent ${i} tapped its own page ${TAPS} times`,
    );
    const report = agents[i].reportFile;
    assert.ok(report, `agent ${i} wrote a report`);
    assert.match(report, new RegExp(`${RUN}-agent-${i}\\.html$`));
    const parsed = parseReportHtml(await readFile(report, "utf8"));
    const prompts = parsed.executions.flatMap((e) => e.steps).map((s) => JSON.stringify(s));
    assert.equal(parsed.executions.length, TAPS, `agent ${i}'s report has its ${TAPS} taps`);
    for (let t = 0; t < TAPS; t++) {
      assert.ok(
        prompts.some((p) => p.includes(`agent ${i}, tap ${t}`)),
        `agent ${i}'s report shows its tap ${t}`,
      );
    }
    assert.ok(
      !prompts.some((p) => /agent (\d+)/.test(p) && !p.includes(`agent ${i},`)),
      `agent ${i}'s report holds no other agent's steps`,
    );
    const cache = parse(await readFile(join(work, "cache", `agent-${i}.cache.yaml`), "utf8"));
    const entries = JSON.stringify(cache);
    for (let t = 0; t < TAPS; t++) {
      assert.ok(entries.includes(`agent ${i}, tap ${t}`), `agent ${i}'s cache has tap ${t}`);
    }
    assert.ok(
      ![...entries.matchAll(/agent (\d+),/g)].some((m) => Number(m[1]) !== i),
      `agent ${i}'s cache holds no other agent's entries`,
    );
  }
  assert.equal(
    model.calls.filter((c) => c.kind === "locate").length,
    AGENTS * TAPS,
    "the model answered every concurrent call once",
  );
});

test("two agents at once with one reportFileName get <name>.html and <name>-2.html: each report holds its own calls, and a warning names both", async () => {
  const name = `${RUN}-same`;
  const warnings: string[] = [];
  const warn = console.warn;
  console.warn = (...args: unknown[]) => void warnings.push(args.map(String).join(" "));
  const agents = [0, 1].map((i) =>
    new DriverBPageAgent(pages[i], {
      modelConfig: model.modelConfig(),
      reportFileName: name,
      autoPrintReportMsg: false,
      waitAfterAction: 20,
    })
  );
  try {
    await Promise.all(agents.map(async (agent, i) => {
      for (let t = 0; t < TAPS; t++) {
        await agent.aiTap(`the Click me button of agent ${i}, same ${t}`);
      }
    }));
    await Promise.all(agents.map((agent) => agent.destroy()));
  } finally {
    console.warn = warn;
  }
  const files = agents.map((agent) => agent.reportFile!);
  reports.push(...files);
  assert.deepEqual(
    files.map((f) => f.slice(f.lastIndexOf("/") + 1)).sort(),
    [`${name}-2.html`, `${name}.html`],
  );
  for (const [i, file] of files.entries()) {
    const parsed = parseReportHtml(await readFile(file, "utf8"));
    const steps = parsed.executions.map((e) => JSON.stringify(e));
    assert.equal(parsed.executions.length, TAPS, `${file} holds agent ${i}'s ${TAPS} calls`);
    for (let t = 0; t < TAPS; t++) {
      assert.ok(steps.some((s) => s.includes(`agent ${i}, same ${t}`)), `${file}: call ${t}`);
    }
    assert.ok(!steps.some((s) => s.includes(`agent ${1 - i}, same`)), `${file}: no other calls`);
  }
  const named = warnings.filter((w) => files.every((f) => w.includes(f)));
  assert.equal(named.length, 1, warnings.join("\n"));
});
