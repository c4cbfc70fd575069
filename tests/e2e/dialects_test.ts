/**
 * The planning dialects end to end (MODEL_FAMILIES.md "Limits and dialects"): UI-TARS and AutoGLM
 * plan `aiAct` on the fixture app through the test model answering in each dialect; their default
 * cycle limits; an action the web page does not have; the one retry on an unusable answer; and
 * deepLocate.
 *
 * @module
 */

import { after, test } from "../helpers/test.ts";
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { ModelResponseError, PlanningError } from "@sdk/core";
import type { PlanCall, PlanReply, TestModelScript } from "@sdk/core/testing";
import { locateTarget, todoItems } from "../helpers/app_model.ts";
import { appState, startE2e } from "./_setup.ts";

const env = await startE2e();
after(() => env.close());

async function target(page: Page, what: string) {
  const box = await locateTarget(page, what);
  if (!box) throw new Error(`"${what}" is not on the page`);
  return { prompt: what, box };
}

/**
 * The sign-in-and-add task planned the way a dialect model must: it types into the focused
 * element, so each field is tapped first, then typed into.
 */
function dialectAppScript(page: Page): TestModelScript {
  const fill = async (id: string, value: string, what: string): Promise<PlanReply | undefined> => {
    if (await page.inputValue(`#${id}`) === value) return undefined;
    const focused = await page.evaluate<string>("document.activeElement?.id ?? ''");
    if (focused !== id) {
      return {
        log: `Tap ${what}`,
        action: { type: "Tap", param: { locate: await target(page, what) } },
      };
    }
    return { log: `Type "${value}"`, action: { type: "Input", param: { value } } };
  };
  return {
    plan: async (call: PlanCall): Promise<PlanReply> => {
      const user = /as (\w+)/i.exec(call.instruction)![1];
      const pass = /password (\w+)/i.exec(call.instruction)![1];
      const item = /'([^']+)'/.exec(call.instruction)![1];
      if (page.url().endsWith("/login.html")) {
        return await fill("username", user, "the username field") ??
          await fill("password", pass, "the password field") ??
          {
            log: "Tap Sign in",
            action: { type: "Tap", param: { locate: await target(page, "the Sign in button") } },
          };
      }
      if ((await todoItems(page)).includes(item)) {
        return { log: "done", thought: "The item is in the list.", output: `Added "${item}"` };
      }
      return await fill("new-item", item, "the new item field") ??
        {
          log: "Tap Add",
          action: { type: "Tap", param: { locate: await target(page, "the Add button") } },
        };
    },
  };
}

const TASK = "Sign in as alice with password secret, then add the todo item 'Call the plumber'";

function imagesIn(request: Record<string, unknown> | null): number {
  const messages = (request?.messages ?? []) as { content?: unknown }[];
  return messages.reduce(
    (n, m) =>
      n +
      (Array.isArray(m.content)
        ? (m.content as { type?: string }[]).filter((p) => p.type === "image_url").length
        : 0),
    0,
  );
}

test("UI-TARS plans aiAct in its own dialect: signs in and adds a todo, history as assistant turns", async () => {
  const page = await env.open("login.html");
  const { agent, model } = await env.agent(page, dialectAppScript(page), {
    model: { family: "vlm-ui-tars" },
  });
  const output = await agent.aiAct(TASK);
  assert.equal(output, 'Added "Call the plumber"');
  assert.ok((await todoItems(page)).includes("Call the plumber"));
  assert.equal(await page.evaluate(() => sessionStorage.getItem("user")), "alice");
  const plans = model.calls.filter((c) => c.kind === "plan");
  // tap + type username, tap + type password, sign in, tap + type item, add, finished.
  assert.equal(plans.length, 9);
  assert.match(plans[0].answer!, /^Thought: .*\nAction: click\(start_box='\(\d+,\d+\)'\)$/);
  assert.ok(plans.some((p) => /Action: type\(content='alice'\)/.test(p.answer!)));
  assert.match(plans.at(-1)!.answer!, /Action: finished\(content='Added "Call the plumber"'\)/);
  const last = plans.at(-1)!.call as PlanCall;
  assert.equal(last.history.length, 8);
  assert.match(last.history[0], /^Thought: .*\nAction: click\(start_box='\(\d+,\d+\)'\)$/);
  assert.match(last.systemPrompt, /left_double\(start_box/);
  // Only actions the page has: DragAndDrop (drag), GoBack (press_back), no home (press_home).
  assert.match(last.systemPrompt, /drag\(start_box/);
  assert.match(last.systemPrompt, /press_back\(\)/);
  assert.doesNotMatch(last.systemPrompt, /press_home/);
  // Two earlier screenshots kept, plus the current one.
  assert.equal(imagesIn(plans.at(-1)!.request), 3);
  assert.equal(imagesIn(plans[0].request), 1);
});

test("AutoGLM plans aiAct in its own dialect: do(action=...) turns, finish(message=...)", async () => {
  const page = await env.open("login.html");
  const { agent, model } = await env.agent(page, dialectAppScript(page), {
    model: { family: "auto-glm" },
  });
  const output = await agent.aiAct(TASK);
  assert.equal(output, 'Added "Call the plumber"');
  assert.ok((await todoItems(page)).includes("Call the plumber"));
  const plans = model.calls.filter((c) => c.kind === "plan");
  assert.equal(plans.length, 9);
  assert.match(plans[0].answer!, /<answer>do\(action="Tap", element=\[\d+,\d+\]\)<\/answer>/);
  assert.ok(plans.some((p) => /do\(action="Type", text="secret"\)/.test(p.answer!)));
  const last = plans.at(-1)!.call as PlanCall;
  assert.equal(last.history.length, 8);
  assert.match(
    last.history[0],
    /^<think>.*<\/think><answer>do\(action="Tap", element=\[\d+,\d+\]\)<\/answer>$/,
  );
  // AutoGLM sees only the current screenshot.
  assert.equal(imagesIn(plans.at(-1)!.request), 1);
});

async function tinyPage(): Promise<Page> {
  const page = await env.open("login.html", { width: 240, height: 120 });
  await page.setContent(
    `<button id="b" style="width:120px;height:40px" onclick="window.n=(window.n||0)+1">Press</button>`,
  );
  return page;
}

for (const [family, limit] of [["vlm-ui-tars", 40], ["auto-glm", 100]] as const) {
  test(`${family} stops at its default replanningCycleLimit (${limit})`, async () => {
    const page = await tinyPage();
    const box = await page.locator("#b").boundingBox();
    const { agent, model } = await env.agent(page, {
      plan: () => ({
        log: "Press the button",
        action: {
          type: "Tap",
          param: {
            locate: {
              prompt: "the button",
              box: { left: box!.x, top: box!.y, width: box!.width, height: box!.height },
            },
          },
        },
      }),
    }, { model: { family }, waitAfterAction: 0, generateReport: false });
    await assert.rejects(
      agent.aiAct("press the button until told to stop"),
      (e: unknown) =>
        e instanceof PlanningError && e.message.includes(`replanningCycleLimit (${limit})`),
    );
    assert.equal(model.calls.filter((c) => c.kind === "plan").length, limit);
    assert.equal(await page.evaluate(() => (window as unknown as { n: number }).n), limit);
  });
}

test("AutoGLM's Launch and Home on a web page: a PlanningError naming the action and the platform, listing the page's actions", async () => {
  for (const action of [{ type: "Home" }, { type: "Launch", param: { app: "Settings" } }]) {
    const page = await env.open("actions.html");
    const { agent, model } = await env.agent(page, {
      plan: () => ({ log: "go", action }),
    }, { model: { family: "auto-glm" } });
    await assert.rejects(
      agent.aiAct("go home"),
      (e: unknown) =>
        e instanceof PlanningError && e.message.includes(`"${action.type}`) &&
        /AutoGLM/.test(e.message) && /"web-page"/.test(e.message) &&
        /Tap, DoubleClick, RightClick, Hover, Input/.test(e.message) && /GoBack/.test(e.message),
    );
    // Not an unusable answer: no retry.
    assert.equal(model.calls.length, 1);
  }
});

test("AutoGLM Back and UI-TARS press_back go back on a web page (its GoBack); press_home is a PlanningError", async () => {
  for (const [family, back] of [["auto-glm", "Back"], ["vlm-ui-tars", "press_back"]] as const) {
    const page = await env.open("login.html");
    await page.goto(new URL("actions.html", env.appUrl).href);
    let n = 0;
    const { agent } = await env.agent(page, {
      plan: () =>
        n++ === 0 ? { log: "back", action: { type: back } } : { log: "done", output: "back" },
    }, { model: { family } });
    assert.equal(await agent.aiAct("go back"), "back");
    assert.ok(page.url().endsWith("login.html"), `${family}: ${page.url()}`);
  }
  const page = await env.open("actions.html");
  const { agent } = await env.agent(page, {
    plan: () => ({ log: "go home", action: { type: "press_home" } }),
  }, { model: { family: "vlm-ui-tars" } });
  await assert.rejects(
    agent.aiAct("go home"),
    (e: unknown) =>
      e instanceof PlanningError && /press_home/.test(e.message) && /"web-page"/.test(e.message) &&
      /HomeButton/.test(e.message),
  );
});

// ---- one retry on an unusable answer ------------------------------------------------------------

async function executionDump(agent: { reportFile: string | null | undefined }) {
  const file = agent.reportFile!;
  const dir = file.slice(0, file.lastIndexOf("/"));
  const base = file.slice(file.lastIndexOf("/") + 1).replace(/\.html$/, "");
  const dumps: { execution: { steps: Record<string, unknown>[] } }[] = [];
  for await (const e of Deno.readDir(dir)) {
    if (e.name.startsWith(base + ".") && e.name.endsWith(".execution.json")) {
      dumps.push(JSON.parse(await Deno.readTextFile(`${dir}/${e.name}`)));
    }
  }
  return dumps;
}

test("a malformed locate answer is retried once with what was wrong; the good second answer is used", async () => {
  const page = await env.open("actions.html");
  let n = 0;
  const { agent, model } = await env.agent(page, {
    locate: (call) => locateTarget(page, call.target),
  }, {
    persistExecutionDump: true,
    model: {
      answerOverride: () => n++ === 0 ? "The button is there, I think: bbox = ???" : undefined,
    },
  });
  await agent.aiTap("the click button");
  assert.equal(await appState(page, "clicks"), 1);
  assert.equal(model.calls.length, 2);
  assert.equal(model.calls[0].call!.feedback, undefined);
  const feedback = model.calls[1].call!.feedback!;
  assert.match(feedback, /^Your previous answer could not be used: /);
  assert.match(feedback, /not a JSON object/);
  assert.match(feedback, /Answer again with one JSON object/);
  // The request carried the unusable answer as the assistant's turn.
  const messages = model.calls[1].request!.messages as { role: string; content: unknown }[];
  assert.deepEqual(messages.map((m) => m.role), ["system", "user", "assistant", "user"]);
  assert.equal(messages[2].content, "The button is there, I think: bbox = ???");
  // Both calls are on the one Locate step of the report.
  const steps = (await executionDump(agent)).flatMap((d) => d.execution.steps);
  const locate = steps.find((s) => s.kind === "Locate")!;
  const attempts = locate.attempts as { rawResponse: string; usage: { totalTokens: number } }[];
  assert.equal(attempts.length, 2);
  assert.equal(attempts[0].rawResponse, "The button is there, I think: bbox = ???");
  assert.equal(attempts[1].rawResponse, model.calls[1].answer);
  assert.equal(
    (locate.usage as { totalTokens: number }).totalTokens,
    attempts[0].usage.totalTokens + attempts[1].usage.totalTokens,
  );
  await agent.destroy();
});

test("two unusable answers: a ModelResponseError quoting both raw answers, nothing clicked", async () => {
  const page = await env.open("actions.html");
  const bad = [
    "I cannot answer in JSON today.",
    JSON.stringify({ thought: "x", bbox: [700, 400, 300, 600] }),
  ];
  let n = 0;
  const { agent, model } = await env.agent(page, { locate: () => null }, {
    model: { answerOverride: () => bad[n++] },
  });
  await assert.rejects(agent.aiTap("the click button"), (e: unknown) => {
    assert.ok(e instanceof ModelResponseError);
    assert.ok(e.message.includes(JSON.stringify(bad[0])), e.message);
    assert.ok(e.message.includes(JSON.stringify(bad[1])), e.message);
    assert.match(e.message, /reversed/);
    assert.ok(e.rawResponse.includes(bad[0]) && e.rawResponse.includes(bad[1]));
    return true;
  });
  assert.equal(model.calls.length, 2);
  assert.match(model.calls[1].call!.feedback!, /not a JSON object/);
  assert.equal(await appState(page, "clicks"), 0);
});

test("a UI-TARS answer without an action is retried with the expected format; the task goes on", async () => {
  const page = await env.open("actions.html");
  let n = 0;
  const { agent, model } = await env.agent(page, {
    plan: async (call) =>
      call.history.length === 0
        ? { log: "tap", action: { type: "Tap", param: { locate: await target(page, "click") } } }
        : { log: "done", output: "clicked" },
  }, {
    model: {
      family: "vlm-ui-tars",
      answerOverride: () => n++ === 0 ? "I should click the button in the middle." : undefined,
    },
  });
  assert.equal(await agent.aiAct("click the button"), "clicked");
  assert.equal(await appState(page, "clicks"), 1);
  const plans = model.calls.filter((c) => c.kind === "plan");
  assert.equal(plans.length, 3);
  assert.match(plans[1].call!.feedback!, /The UI-TARS answer has no action/);
  // The history holds the good answer, not the unusable one.
  assert.equal((plans[2].call as PlanCall).history.length, 1);
  assert.match((plans[2].call as PlanCall).history[0], /Action: click/);
});

// ---- deepLocate --------------------------------------------------------------------------------

/** 0-1000 normalization of the default family: v = round(px * 1000 / (size - 1)). */
function normBox(
  [x1, y1, x2, y2]: number[],
  image: { width: number; height: number },
): number[] {
  const n = (v: number, size: number) => Math.round(v * 1000 / (size - 1));
  return [n(x1, image.width), n(y1, image.height), n(x2, image.width), n(y2, image.height)];
}

/**
 * The zoomed region docs/model-protocol.md describes: the first box enlarged to at least a third
 * of the screenshot's side (and twice the box), centered on it, moved inside; scaled by
 * min(2, screen / region) and never below 1.
 */
function documentedRegion(box: number[], width: number, height: number) {
  const side = (b: number, size: number) =>
    Math.min(size, Math.max(Math.ceil(size / 3), Math.ceil(b * 2)));
  const w = side(box[2] - box[0], width), h = side(box[3] - box[1], height);
  const left = Math.min(width - w, Math.max(0, Math.round((box[0] + box[2]) / 2 - w / 2)));
  const top = Math.min(height - h, Math.max(0, Math.round((box[1] + box[3]) / 2 - h / 2)));
  const scale = Math.max(1, Math.min(2, width / w, height / h));
  return { left, top, w, h, scale };
}

test("deepLocate at dpr 2: a sloppy first box, then a zoomed crop, lands on a 12 px target", async () => {
  const page = await env.open("actions.html", { dpr: 2 });
  await page.evaluate(`(() => {
    const b = document.createElement("button");
    b.id = "tiny";
    b.style.cssText = "position:fixed;left:700px;top:500px;width:12px;height:12px;padding:0;border:0;background:#c00";
    window.tinyClicks = 0;
    b.onclick = () => window.tinyClicks++;
    document.body.appendChild(b);
  })()`);
  // Target in image pixels (dpr 2): 1400..1424 x 1000..1024. The first answer is 30 CSS px off.
  const first = [1420, 1000, 1500, 1080];
  const region = documentedRegion(first, 2560, 1600);
  const target = [1400, 1000, 1424, 1024];
  const inCrop = [
    (target[0] - region.left) * region.scale,
    (target[1] - region.top) * region.scale,
    (target[2] - region.left) * region.scale,
    (target[3] - region.top) * region.scale,
  ];
  let n = 0;
  const { agent, model } = await env.agent(page, { locate: () => null }, {
    model: {
      answerOverride: (call) => {
        const bbox = n++ % 2 === 0 ? normBox(first, call.image!) : normBox(inCrop, call.image!);
        return JSON.stringify({ thought: "There.", bbox });
      },
    },
  });
  await agent.aiTap("the tiny red button", { deepLocate: true });
  assert.equal(await page.evaluate("window.tinyClicks"), 1);
  assert.equal(model.calls.length, 2);
  const [full, zoomed] = model.calls.map((c) => c.call!.image!);
  assert.deepEqual([full.format, full.width, full.height], ["jpeg", 2560, 1600]);
  // The crop: smaller than the screen, larger than the region it shows (upscaled), same format.
  assert.deepEqual([zoomed.format, zoomed.width, zoomed.height], [
    "jpeg",
    Math.round(region.w * region.scale),
    Math.round(region.h * region.scale),
  ]);
  assert.ok(zoomed.width < 2560 && zoomed.width > region.w);

  // aiLocate with the old name deepThink: the rect comes back in physical pixels.
  const found = await agent.aiLocate("the tiny red button", { deepThink: true });
  assert.equal(model.calls.length, 4);
  assert.ok(Math.abs(found.rect.left - 1400) <= 2 && Math.abs(found.rect.top - 1000) <= 2);
  assert.ok(Math.abs(found.rect.width - 24) <= 2);
  assert.equal(found.dpr, 2);
});
