/// <reference lib="dom" />

/**
 * The report end to end: a real agent session on the fixture app, its report file opened in
 * Chromium from `file://` and read the way a person reads it; the report's lifecycle options
 * (`reportFileName`, `generateReport: false`, `destroy()`).
 */

import { after, test } from "../helpers/test.ts";
import assert from "node:assert/strict";
import { mkdir, rm } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { AssertionError } from "@sdk/core";
import type { ReportStep } from "@sdk/core/report";
import type { PlanCall, ScriptedLocate, TargetBox } from "@sdk/core/testing";
import { appModelScript, locateTarget, todoItems } from "../helpers/app_model.ts";
import { appState, startE2e } from "./_setup.ts";
import {
  exists,
  loadAllScreenshots,
  openReport,
  reportData,
  reportDir,
} from "./_report_helpers.ts";

const env = await startE2e();
/** Report files the small tests write; removed at the end (the main session's report is kept). */
const scratchReports: string[] = [];
after(async () => {
  await env.close();
  await Promise.all(scratchReports.map((f) => rm(f, { force: true })));
});

const SCREENSHOT_PNG = new URL("../output/e2e-report.png", import.meta.url);
const HTML_THOUGHT = 'I see the login form. <img src=x onerror=alert(1)> <b id="injected">bold</b>';
const HTML_ITEM = "<script>alert(2)</script>";

/** A report name no other test run uses. */
function uniqueName(label: string): string {
  return `e2e-${label}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
}

/** An agent on actions.html whose model locates the fixture's targets. */
async function actionsAgent(options: Parameters<typeof env.agent>[2] = {}) {
  const page = await env.open("actions.html");
  const { agent, model } = await env.agent(page, {
    locate: (call) => locateTarget(page, call.target),
  }, { waitAfterAction: 0, ...options });
  return { page, agent, model };
}

test("the report of a real session lists every execution with its status, steps, screenshots and target boxes, and shows model text literally", async () => {
  const page = await env.open("login.html");
  const script = appModelScript(page);
  /** The CSS box of each planned action's target, in plan order. */
  const plannedBoxes: TargetBox[] = [];
  let plans = 0;
  const { agent, model } = await env.agent(page, {
    ...script,
    plan: async (call: PlanCall) => {
      const reply = await script.plan!(call);
      const locate = reply.action?.param?.locate as ScriptedLocate | undefined;
      if (locate) plannedBoxes.push(locate.box);
      return ++plans === 1 ? { ...reply, thought: HTML_THOUGHT } : reply;
    },
  }, { waitAfterAction: 0 });

  const instruction =
    "Sign in as alice with password secret, then add the todo item 'Call the plumber'";
  const output = await agent.aiAct(instruction);
  assert.equal(output, 'Added "Call the plumber"');
  assert.ok((await todoItems(page)).includes("Call the plumber"));
  const items = await agent.aiQuery<string[]>("the todo items shown in the list, as an array");
  assert.ok(items.includes("Call the plumber"));
  await agent.aiAssert("the list shows 'Call the plumber'");
  const failure = await agent.aiAssert(
    `the list shows '${HTML_ITEM}'`,
    "The list should hold the script item",
  ).then(() => undefined, (e: unknown) => e);
  assert.ok(failure instanceof AssertionError, `the false assertion must throw: ${failure}`);

  const fileWhileRunning = agent.reportFile;
  assert.ok(fileWhileRunning, "reportFile is set once an execution was written");
  await agent.destroy();
  const file = agent.reportFile;
  assert.equal(file, fileWhileRunning);
  assert.ok(file && await exists(file), `the report file ${file} exists`);
  assert.equal(dirname(file), reportDir());
  assert.match(basename(file), /^web-page-\d{4}-\d\d-\d\d_\d\d-\d\d-\d\d-[0-9a-f]{4}\.html$/);

  const { page: view, dialogs, errors } = await openReport(env, file);

  // ---- the data the viewer read matches what ran ----
  const data = await reportData(view);
  assert.equal(data.meta.name, basename(file, ".html"));
  assert.equal(data.meta.interfaceType, "web-page");
  const executions = data.executions;
  assert.deepEqual(
    executions.map((e) => [e.apiName, e.status]),
    [["aiAct", "passed"], ["aiQuery", "passed"], ["aiAssert", "passed"], ["aiAssert", "failed"]],
  );
  const [act, query, passedAssert, failedAssert] = executions;
  // The password typed into the password field is a secret: the report writes it as ***, in the
  // instruction too (docs/security.md).
  assert.equal(act.prompt, instruction.replace("password secret", "password ***"));
  assert.equal(act.output, output);
  assert.deepEqual(query.output, items);
  assert.equal(passedAssert.prompt, "the list shows 'Call the plumber'");
  assert.equal(failedAssert.prompt, `the list shows '${HTML_ITEM}'`);
  assert.equal(failedAssert.error, (failure as Error).message);
  for (const e of executions) {
    assert.ok(typeof e.endedAt === "number" && e.endedAt >= e.startedAt, `${e.apiName} ended`);
    assert.ok(e.steps.every((s) => s.status === e.status || s.status === "passed"));
  }
  assert.equal(new Set(executions.map((e) => e.id)).size, 4, "execution ids are unique");

  // aiAct: plan, act, plan, act, ... then the final plan, each plan with the model's raw answer.
  const planAnswers = model.calls.filter((c) => c.kind === "plan").map((c) => c.answer);
  assert.equal(planAnswers.length, 6);
  assert.deepEqual(
    act.steps.map((s) => s.kind),
    ["Planning", "Action", "Planning", "Action", "Planning", "Action", "Planning", "Action"]
      .concat(["Planning", "Action", "Planning"]),
  );
  const planSteps = act.steps.filter((s) => s.kind === "Planning");
  const actionSteps = act.steps.filter((s) => s.kind === "Action");
  // The model's answers as it gave them, but for the typed password, which the report masks.
  assert.deepEqual(
    planSteps.map((s) => s.rawResponse),
    planAnswers.map((a) => a?.replaceAll('"value":"secret"', '"value":"***"')),
  );
  assert.equal(planSteps[0].thought, HTML_THOUGHT);
  assert.deepEqual(actionSteps.map((s) => s.title), ["Input", "Input", "Tap", "Input", "Tap"]);
  assert.equal(plannedBoxes.length, 5);
  const shotIds = new Set(data.screenshotIds);
  for (const [i, s] of act.steps.entries()) {
    assert.ok(s.screenshot && shotIds.has(s.screenshot), `aiAct step ${i + 1} has its screenshot`);
  }
  // Each action's target is the element the model located: dpr 1, no shrink, so image pixels
  // are CSS pixels.
  for (const [i, s] of actionSteps.entries()) {
    const want = plannedBoxes[i];
    assert.ok(s.target && s.point, `action ${i + 1} carries its target box and point`);
    for (const k of ["left", "top", "width", "height"] as const) {
      assert.ok(Math.abs(s.target[k] - want[k]) <= 2, `action ${i + 1} target.${k}`);
    }
  }
  for (const e of [query, passedAssert, failedAssert]) {
    assert.equal(e.steps.length, 1);
    assert.ok(e.steps[0].screenshot && shotIds.has(e.steps[0].screenshot));
  }
  assert.equal(failedAssert.steps[0].kind, "Assert");
  assert.equal(failedAssert.steps[0].status, "failed");
  // Tokens in the report are the tokens the model reported.
  const reported = executions.flatMap((e) => e.steps).reduce(
    (n, s) => n + (s.usage?.totalTokens ?? 0),
    0,
  );
  const served = model.calls.reduce(
    (n, c) => n + (c.usage ? c.usage.promptTokens + c.usage.completionTokens : 0),
    0,
  );
  assert.equal(reported, served);

  // ---- what a person sees ----
  const summary = await view.locator("#hdr .summary").innerText();
  assert.match(summary, /4\s+executions/);
  assert.match(summary, /3\s+passed/);
  assert.match(summary, /1\s+failed/);
  const listed = await view.locator("#list .ex").evaluateAll((els) =>
    els.map((el) => ({
      cls: el.className,
      api: el.querySelector(".api")?.textContent,
      prompt: el.querySelector(".prompt")?.textContent,
      pill: el.querySelector(".pill")?.textContent,
    }))
  );
  assert.deepEqual(
    listed.map((l) => [l.api, l.pill, l.prompt]),
    executions.map((e) => [e.apiName, e.status, e.prompt]),
  );
  assert.deepEqual(listed.map((l) => /\b(passed|failed)\b/.exec(l.cls)?.[1]), [
    "passed",
    "passed",
    "passed",
    "failed",
  ]);

  // The first execution (aiAct) is shown: each step with its screenshot, action steps boxed.
  assert.equal(await view.locator("#detail .exhead .api").textContent(), "aiAct");
  const widths = await loadAllScreenshots(view);
  assert.equal(widths.length, act.steps.length, "one screenshot per aiAct step");
  assert.ok(widths.every((w) => w === 1280), `screenshots loaded: ${widths}`);
  const cards = await view.locator("#detail ol.steps > li").evaluateAll((els) =>
    els.map((li) => {
      const img = li.querySelector(".shot img") as HTMLImageElement | null;
      const box = li.querySelector(".shot .box") as HTMLElement | null;
      const ir = img?.getBoundingClientRect();
      const br = box?.getBoundingClientRect();
      return {
        kind: li.querySelector(".kind")?.textContent,
        status: li.querySelector(".pill")?.textContent,
        loaded: !!img && img.complete && img.naturalWidth > 0,
        naturalWidth: img?.naturalWidth ?? 0,
        hasPoint: !!li.querySelector(".shot .pt"),
        // The box as a fraction of the screenshot shown.
        box: ir && br
          ? {
            left: (br.left - ir.left) / ir.width,
            top: (br.top - ir.top) / ir.height,
            width: br.width / ir.width,
            height: br.height / ir.height,
          }
          : null,
      };
    })
  );
  assert.deepEqual(cards.map((c) => c.kind), act.steps.map((s) => s.kind));
  assert.ok(cards.every((c) => c.status === "passed" && c.loaded));
  let action = 0;
  for (const card of cards) {
    if (card.kind !== "Action") {
      assert.equal(card.box, null, "planning steps have no target box");
      continue;
    }
    const want = plannedBoxes[action++];
    assert.ok(card.box && card.hasPoint, `action ${action} shows its target box and point`);
    // The overlay sits on the element: fractions of a 1280 x 800 screenshot, within ~0.5%.
    const near = (a: number, b: number) => Math.abs(a - b) <= 0.005;
    assert.ok(
      near(card.box.left, want.left / 1280) && near(card.box.top, want.top / 800) &&
        near(card.box.width, want.width / 1280) && near(card.box.height, want.height / 800),
      `action ${action}: overlay ${JSON.stringify(card.box)} vs element ${JSON.stringify(want)}`,
    );
  }

  // Model text holding HTML is shown as text and creates no element.
  const firstThought = await view.locator("#detail ol.steps > li").first().locator(".thought")
    .textContent();
  assert.equal(firstThought, HTML_THOUGHT);
  assert.equal(await view.locator('img[src="x"]').count(), 0);
  assert.equal(await view.locator("#injected").count(), 0);

  // A person takes a look at the whole page.
  await mkdir(new URL(".", SCREENSHOT_PNG), { recursive: true });
  await view.screenshot({ path: SCREENSHOT_PNG.pathname, fullPage: true });

  // The failed assertion, opened from the list: failed, with its error and the model's reason.
  await view.locator("#list .ex").nth(3).click();
  assert.equal(await view.locator("#detail .exhead .api").textContent(), "aiAssert");
  assert.equal(await view.locator("#detail .exhead .pill").textContent(), "failed");
  assert.equal(
    await view.locator("#detail .exhead .err").textContent(),
    (failure as Error).message,
  );
  const failedStep = view.locator("#detail ol.steps > li").first();
  assert.equal(await failedStep.locator(".pill").textContent(), "failed");
  assert.match(await failedStep.locator(".err").textContent() ?? "", /Assertion is false/);
  assert.ok((await loadAllScreenshots(view)).every((w) => w > 0));
  // The prompt with a <script> in it is text, everywhere it is shown.
  assert.equal(await view.locator("#detail .exhead .prompt").textContent(), failedAssert.prompt);
  const scripts = await view.locator("script").evaluateAll((els) =>
    els.filter((el) => (el.textContent ?? "").trim() === "alert(2)").length
  );
  assert.equal(scripts, 0);
  await view.screenshot({
    path: SCREENSHOT_PNG.pathname.replace(/\.png$/, "-failed.png"),
    fullPage: true,
  });

  assert.deepEqual(dialogs, [], "the report opened no dialog");
  assert.deepEqual(errors, [], "the report ran without errors");
  await view.context().close();
});

test("reportFileName puts the report at <run dir>/report/<name>.html", async () => {
  const name = uniqueName("named");
  const file = join(reportDir(), `${name}.html`);
  scratchReports.push(file);
  const { agent, page } = await actionsAgent({ reportFileName: name });
  assert.equal(agent.reportFile, undefined, "no file before the first execution");
  await agent.aiTap("the Click me button");
  assert.equal(await appState(page, "clicks"), 1);
  assert.equal(agent.reportFile, file);
  assert.ok(await exists(file));
  await agent.destroy();
  assert.equal(agent.reportFile, file);
  const { page: view } = await openReport(env, file);
  const data = await reportData(view);
  assert.equal(data.meta.name, name);
  assert.deepEqual(data.executions.map((e) => [e.apiName, e.status]), [["aiTap", "passed"]]);
  await view.context().close();
  await page.context().close();
});

test("generateReport: false writes no file and leaves reportFile undefined after calls and destroy", async () => {
  const name = uniqueName("off");
  const file = join(reportDir(), `${name}.html`);
  scratchReports.push(file);
  const { agent, page } = await actionsAgent({ reportFileName: name, generateReport: false });
  await agent.aiTap("the Click me button");
  await agent.aiDoubleClick("the double-click button");
  assert.equal(await appState(page, "clicks"), 1);
  assert.equal(await appState(page, "doubleClicks"), 1);
  assert.equal(agent.reportFile, undefined);
  await agent.destroy();
  assert.equal(agent.reportFile, undefined);
  assert.equal(await exists(file), false, "no report file was written");
  await page.context().close();
});

test("destroy() twice is harmless: the second call resolves and changes nothing", async () => {
  const name = uniqueName("twice");
  const file = join(reportDir(), `${name}.html`);
  scratchReports.push(file);
  const { agent, page } = await actionsAgent({ reportFileName: name });
  await agent.aiTap("the Click me button");
  await agent.destroy();
  const before = await Deno.readTextFile(file);
  await agent.destroy();
  assert.equal(agent.reportFile, file);
  assert.equal(await Deno.readTextFile(file), before);
  await assert.rejects(agent.aiTap("the Click me button"), /destroyed/);
  assert.equal(await appState(page, "clicks"), 1);
  await page.context().close();
});

test("a device whose destroy() throws makes agent.destroy() reject with that error, and the report is still finalized", async () => {
  const name = uniqueName("boom");
  const file = join(reportDir(), `${name}.html`);
  scratchReports.push(file);
  const { agent, page } = await actionsAgent({ reportFileName: name });
  await agent.aiTap("the Click me button");
  await agent.aiRightClick("the right-click target");
  const boom = new Error("boom");
  agent.interface.destroy = () => Promise.reject(boom);
  await assert.rejects(agent.destroy(), (e: unknown) => e === boom);
  assert.equal(agent.reportFile, file);
  assert.ok(await exists(file));
  const { page: view } = await openReport(env, file);
  const data = await reportData(view);
  assert.deepEqual(
    data.executions.map((e) => [e.apiName, e.status]),
    [["aiTap", "passed"], ["aiRightClick", "passed"]],
  );
  // Every screenshot a step refers to is in the file.
  const ids = new Set(data.screenshotIds);
  const steps: ReportStep[] = data.executions.flatMap((e) => e.steps);
  assert.ok(steps.length > 0 && steps.every((s) => !s.screenshot || ids.has(s.screenshot)));
  await view.context().close();
  await page.context().close();
});

test("an agent with no executions has reportFile undefined after destroy and writes no file", async () => {
  const name = uniqueName("empty");
  const file = join(reportDir(), `${name}.html`);
  scratchReports.push(file);
  const { agent, page } = await actionsAgent({ reportFileName: name });
  assert.equal(agent.reportFile, undefined);
  await agent.destroy();
  assert.equal(agent.reportFile, undefined);
  assert.equal(await exists(file), false);
  await page.context().close();
});
