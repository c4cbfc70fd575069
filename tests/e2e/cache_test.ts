/**
 * The agent cache (spec 2.1 `cache`/`cacheId`, 2.2, 4.2 `cacheable`) on both drivers: model
 * locations are kept as xpaths and `aiAct` plans as actions in `<cacheDir>/<id>.cache.yaml`; a
 * later agent with the same id acts on a fresh page without model calls, falls back to the model
 * when the page changed, and the strategies and opt-outs hold.
 */

import assert from "node:assert/strict";
import { parse } from "yaml";
import { createTestPng } from "@sdk/core/testing";
import type { PlanCall, TestModelScript } from "@sdk/core/testing";
import type { WebPageAgent } from "@sdk/web";
import { driverTest, type E2ePage } from "./_drivers.ts";

// Reports and the default cache directory of this file's agents go to a fresh run directory.
const runDir = await Deno.makeTempDir({ prefix: "sdk_cache_e2e_" });
Deno.env.set("SDK_RUN_DIR", runDir);

const TASK = "click the button, then type hello into the key input";

/** Answers locates and plans on actions.html as a model would, from the page's real layout. */
function script(page: E2ePage): TestModelScript {
  return {
    locate: ({ target }) =>
      /click me/i.test(target)
        ? page.measure("#click-button, #renamed-button")
        : /key input/i.test(target)
        ? page.measure("#key-input, #renamed-input")
        : Promise.resolve(null),
    plan: async ({ history }: PlanCall) =>
      history.length === 0
        ? {
          log: "Tap the Click me button",
          action: {
            type: "Tap",
            param: { locate: { prompt: "Click me", box: await page.measure("#click-button") } },
          },
        }
        : history.length === 1
        ? {
          log: "Type hello",
          action: {
            type: "Input",
            param: {
              locate: { prompt: "the key input", box: await page.measure("#key-input") },
              value: "hello",
            },
          },
        }
        : { log: "done", finished: true, output: "clicked and typed" },
  };
}

interface CacheFile {
  sdkVersion: string;
  cacheId: string;
  caches: { type: string; prompt: string; xpaths?: string[]; actions?: unknown[] }[];
}

async function readCache(file: string): Promise<CacheFile> {
  return parse(await Deno.readTextFile(file)) as CacheFile;
}

function record(file: CacheFile, type: string, prompt: string) {
  return file.caches.find((r) => r.type === type && r.prompt === prompt);
}

function steps(agent: WebPageAgent, execution: number): { title: string; thought?: string }[] {
  return agent._unstableLogContent().executions[execution].steps;
}

/** Fills a cache in a fresh directory with agent 1: returns the directory and the file. */
async function warmCache(e2e: Parameters<Parameters<typeof driverTest>[1]>[0], id: string) {
  const cacheDir = await Deno.makeTempDir();
  const page = await e2e.open("actions.html");
  const { agent, model } = await e2e.agent(page, script(page), { cache: { id, cacheDir } });
  await agent.aiTap("the Click me button");
  assert.equal(await agent.aiAct(TASK), "clicked and typed");
  assert.equal(await page.state("clicks"), 2);
  assert.equal(await page.inputValue("#key-input"), "hello");
  assert.deepEqual(model.calls.map((c) => c.kind), ["locate", "plan", "plan", "plan"]);
  return { cacheDir, file: `${cacheDir}/${id}.cache.yaml` };
}

driverTest(
  "a second agent with the same cache id repeats aiTap and aiAct on a fresh page with no model call",
  async (e2e) => {
    const { cacheDir, file } = await warmCache(e2e, "repeat");
    const written = await readCache(file);
    assert.equal(written.cacheId, "repeat");
    assert.deepEqual(record(written, "locate", "the Click me button")?.xpaths, [
      '//*[@id="click-button"]',
    ]);
    assert.deepEqual(record(written, "locate", "Click me")?.xpaths, ['//*[@id="click-button"]']);
    assert.deepEqual(record(written, "locate", "the key input")?.xpaths, ['//*[@id="key-input"]']);
    assert.deepEqual(record(written, "plan", TASK)?.actions, [
      { type: "Tap", param: { locate: "Click me" } },
      { type: "Input", param: { locate: "the key input", value: "hello" } },
    ]);

    const page = await e2e.open("actions.html");
    const { agent, model } = await e2e.agent(page, script(page), {
      cache: { id: "repeat", cacheDir },
    });
    await agent.aiTap("the Click me button");
    assert.equal(await page.state("clicks"), 1);
    assert.equal(await agent.aiAct(TASK), "clicked and typed");
    assert.equal(await page.state("clicks"), 2);
    assert.equal(await page.inputValue("#key-input"), "hello");
    assert.equal(model.calls.length, 0);
    const tap = steps(agent, 0);
    assert.equal(tap[0].title, "Locate from cache: the Click me button");
    assert.match(tap[0].thought ?? "", /Cache hit/);
    assert.deepEqual(steps(agent, 1).map((s) => s.title), [
      "Replayed from cache",
      "Locate from cache: Click me",
      "Tap",
      "Locate from cache: the key input",
      "Input",
    ]);
  },
);

driverTest(
  "a cached xpath that no longer matches falls back to the model and the record is updated",
  async (e2e) => {
    const { cacheDir, file } = await warmCache(e2e, "changed");
    const page = await e2e.open("actions.html");
    await page.evaluate(() => {
      document.getElementById("click-button")!.id = "renamed-button";
    });
    const { agent, model } = await e2e.agent(page, script(page), {
      cache: { id: "changed", cacheDir },
    });
    await agent.aiTap("the Click me button");
    assert.equal(await page.state("clicks"), 1);
    assert.deepEqual(model.calls.map((c) => c.kind), ["locate"]);
    assert.match(
      steps(agent, 0)[0].thought ?? "",
      /^Healed: no cached xpath selects a visible element; the model located the element again and the cache record is updated\.$/,
    );
    assert.deepEqual(record(await readCache(file), "locate", "the Click me button")?.xpaths, [
      '//*[@id="renamed-button"]',
    ]);
  },
);

driverTest(
  "a cached xpath that now selects another target (covered by an overlay) is a miss: the covering element is never tapped",
  async (e2e) => {
    const { cacheDir, file } = await warmCache(e2e, "covered");
    const { target } = record(await readCache(file), "locate", "the Click me button") as {
      target?: { kind: string; id?: string; name?: string; box: { width: number } };
    };
    assert.deepEqual(
      [target?.kind, target?.id, target?.name],
      ["button", "click-button", "Click me"],
      "the record keeps what was at the element's point",
    );
    assert.ok((target?.box.width ?? 0) > 0);
    const page = await e2e.open("actions.html");
    // A banner over the button: the xpath still selects it, but a tap at its center would land
    // on the banner. The model locates the button beside it.
    await page.evaluate(() => {
      const b = document.getElementById("click-button")!.getBoundingClientRect();
      const banner = document.createElement("div");
      banner.id = "banner";
      banner.textContent = "Accept cookies";
      banner.style.cssText = `position:fixed;left:${b.left}px;top:${b.top}px;width:${
        b.width * 0.6
      }px;height:${b.height}px;background:#fc0;z-index:9`;
      banner.addEventListener(
        "click",
        () => (window as unknown as { bannerClicks: number }).bannerClicks = 1,
      );
      document.body.append(banner);
    });
    const { agent, model } = await e2e.agent(page, {
      ...script(page),
      locate: async () => {
        const b = await page.measure("#click-button");
        return { ...b, left: b.left + b.width * 0.6, width: b.width * 0.3 };
      },
    }, { cache: { id: "covered", cacheDir } });
    await agent.aiTap("the Click me button");
    assert.equal(
      await page.evaluate(() => (window as unknown as { bannerClicks?: number }).bannerClicks),
      undefined,
    );
    assert.equal(await page.state("clicks"), 1);
    assert.deepEqual(model.calls.map((c) => c.kind), ["locate"]);
    assert.match(
      steps(agent, 0)[0].thought ?? "",
      /^Healed: the cached xpath selects another target now \(div #banner|div "Accept cookies"/,
    );
  },
);

driverTest(
  "a cached plan that fails on a changed page is planned on from there and the record replaced",
  async (e2e) => {
    const { cacheDir, file } = await warmCache(e2e, "replan");
    const page = await e2e.open("actions.html");
    // The key input is gone: its cached xpath and the model both miss it.
    await page.evaluate(() => document.getElementById("key-input")!.remove());
    const { agent, model } = await e2e.agent(page, {
      locate: () => null,
      plan: () => ({ log: "no input to type in", finished: true, output: "no input" }),
    }, { cache: { id: "replan", cacheDir } });
    assert.equal(await agent.aiAct(TASK), "no input");
    // The cached Tap was replayed; the planner is told about it.
    assert.equal(await page.state("clicks"), 1);
    assert.deepEqual(model.calls.map((c) => c.kind), ["locate", "plan"]);
    const plan = model.calls[1].call as PlanCall;
    assert.deepEqual(plan.history, ['Tap {"locate":"Click me"}']);
    const replay = steps(agent, 0)[0];
    assert.equal(replay.title, "Replayed from cache");
    assert.match(
      replay.thought ?? "",
      /stopped at action 2 of 2 \(Input\).*Planning from the current/,
    );
    const written = record(await readCache(file), "plan", TASK);
    assert.deepEqual(written?.actions, [{ type: "Tap", param: { locate: "Click me" } }]);
  },
);

driverTest("read-only uses the cache but leaves the file byte-identical", async (e2e) => {
  const { cacheDir, file } = await warmCache(e2e, "ro");
  const before = await Deno.readFile(file);
  const page = await e2e.open("actions.html");
  await page.evaluate(() => {
    document.getElementById("key-input")!.id = "renamed-input";
  });
  const { agent, model } = await e2e.agent(page, script(page), {
    cache: { id: "ro", strategy: "read-only", cacheDir },
  });
  await agent.aiTap("the Click me button");
  assert.equal(model.calls.length, 0);
  // A miss asks the model and is not recorded; the cache is still tried after a missing xpath.
  await agent.aiTap("the key input");
  assert.equal(await page.evaluate(() => document.activeElement?.id), "renamed-input");
  await agent.aiTap("the Click me button", { xpath: "//nothing" });
  assert.equal(await page.state("clicks"), 2);
  assert.deepEqual(model.calls.map((c) => c.kind), ["locate"]);
  assert.deepEqual(await Deno.readFile(file), before);
});

driverTest("write-only asks the model even with a warm cache, and records", async (e2e) => {
  const { cacheDir, file } = await warmCache(e2e, "wo");
  await Deno.writeTextFile(
    file,
    (await Deno.readTextFile(file)).replaceAll('//*[@id="click-button"]', "//stale"),
  );
  const page = await e2e.open("actions.html");
  const { agent, model } = await e2e.agent(page, script(page), {
    cache: { id: "wo", strategy: "write-only", cacheDir },
  });
  await agent.aiTap("the Click me button");
  assert.equal(await agent.aiAct(TASK), "clicked and typed");
  assert.deepEqual(model.calls.map((c) => c.kind), ["locate", "plan", "plan", "plan"]);
  assert.deepEqual(record(await readCache(file), "locate", "the Click me button")?.xpaths, [
    '//*[@id="click-button"]',
  ]);
});

driverTest(
  "write-only asks the model even when the cached entry still matches the page",
  async (e2e) => {
    const { cacheDir, file } = await warmCache(e2e, "wo-valid");
    const page = await e2e.open("actions.html");
    const { agent, model } = await e2e.agent(page, script(page), {
      cache: { id: "wo-valid", strategy: "write-only", cacheDir },
    });
    await agent.aiTap("the Click me button");
    assert.deepEqual(model.calls.map((c) => c.kind), ["locate"]);
    assert.deepEqual(record(await readCache(file), "locate", "the Click me button")?.xpaths, [
      '//*[@id="click-button"]',
    ]);
  },
);

driverTest("cache: false writes nothing, even with cacheId", async (e2e) => {
  const page = await e2e.open("actions.html");
  const { agent, model } = await e2e.agent(page, script(page), {
    cache: false,
    cacheId: "off",
  });
  await agent.aiTap("the Click me button");
  await agent.aiTap("the Click me button");
  assert.equal(model.calls.length, 2);
  await assert.rejects(Deno.stat(`${runDir}/cache/off.cache.yaml`), Deno.errors.NotFound);
});

driverTest(
  "the legacy cacheId caches read-write in <SDK_RUN_DIR>/cache",
  async (e2e) => {
    const id = `legacy-${e2e.driver}`;
    const first = await e2e.open("actions.html");
    const one = await e2e.agent(first, script(first), { cacheId: id });
    await one.agent.aiTap("the Click me button");
    assert.equal(one.model.calls.length, 1);
    const written = await readCache(`${runDir}/cache/${id}.cache.yaml`);
    assert.deepEqual(record(written, "locate", "the Click me button")?.xpaths, [
      '//*[@id="click-button"]',
    ]);
    const second = await e2e.open("actions.html");
    const two = await e2e.agent(second, script(second), { cacheId: id });
    await two.agent.aiTap("the Click me button");
    assert.equal(await second.state("clicks"), 1);
    assert.equal(two.model.calls.length, 0);
  },
);

driverTest("cacheable: false neither reads nor writes the cache for that call", async (e2e) => {
  const { cacheDir, file } = await warmCache(e2e, "opt-out");
  const before = await Deno.readFile(file);
  const page = await e2e.open("actions.html");
  const { agent, model } = await e2e.agent(page, script(page), {
    cache: { id: "opt-out", cacheDir },
  });
  await agent.aiTap("the Click me button", { cacheable: false });
  await agent.aiLocate("the key input", { cacheable: false });
  assert.equal(await agent.aiAct(TASK, { cacheable: false }), "clicked and typed");
  assert.deepEqual(model.calls.map((c) => c.kind), ["locate", "locate", "plan", "plan", "plan"]);
  assert.equal(await page.state("clicks"), 2);
  assert.deepEqual(await Deno.readFile(file), before);
  // The same call with the default reads the cache.
  await agent.aiLocate("the key input");
  assert.equal(model.calls.length, 5);
});

driverTest("a prompt with images is not cached", async (e2e) => {
  const cacheDir = await Deno.makeTempDir();
  const page = await e2e.open("actions.html");
  const { agent, model } = await e2e.agent(page, script(page), {
    cache: { id: "images", cacheDir },
  });
  const url = await createTestPng(8, 8);
  const prompt = {
    prompt: "the Click me button, like image icon",
    images: [{ name: "icon", url }],
  };
  await agent.aiTap(prompt);
  await agent.aiTap(prompt);
  assert.equal(await page.state("clicks"), 2);
  assert.equal(model.calls.length, 2);
  await assert.rejects(Deno.stat(`${cacheDir}/images.cache.yaml`), Deno.errors.NotFound);
});

driverTest(
  "the web device names the element at a point by its unique id, else by its position",
  async (e2e) => {
    const page = await e2e.open("actions.html");
    const device = e2e.pageAgent(page).interface;
    const center = async (selector: string): Promise<[number, number]> => {
      const b = await page.measure(selector);
      return [b.left + b.width / 2, b.top + b.height / 2];
    };
    assert.deepEqual(await device.xpathsAt(await center("#click-button")), [
      '//*[@id="click-button"]',
    ]);
    // No id: the positional path, which selects that very element.
    const label = await page.measure('label[for="key-input"]');
    const [path] = await device.xpathsAt(await center('label[for="key-input"]'));
    assert.equal(path, "/html/body[1]/main[1]/div[1]/section[5]/label[1]");
    assert.deepEqual((await device.locateByXpath(path))?.rect, label);
    // A shared id is not unique, so the position is used.
    await page.evaluate(() => {
      document.getElementById("dblclick-button")!.id = "click-button";
    });
    assert.match(
      (await device.xpathsAt(await center("#click-button")))[0],
      /^\/html\/body\[1\]\/main\[1\]\/.*button\[\d+\]$/,
    );
    // The inside of a frame cannot be reached by a page xpath.
    await page.evaluate(() => {
      const frame = document.createElement("iframe");
      frame.id = "frame";
      frame.style.cssText = "position:fixed;left:0;top:0;width:200px;height:100px";
      document.body.append(frame);
    });
    assert.deepEqual(await device.xpathsAt(await center("#frame")), []);
  },
);

/** A UI-TARS planner of TASK: tap the button, tap the field (UI-TARS types into the focused one), type. */
function tarsScript(page: E2ePage): TestModelScript {
  return {
    locate: script(page).locate,
    plan: async ({ history }: PlanCall) => {
      const tap = async (selector: string, log: string) => ({
        log,
        action: {
          type: "Tap",
          param: { locate: { prompt: log, box: await page.measure(selector) } },
        },
      });
      if (history.length === 0) return await tap("#click-button, #renamed-button", "tap Click me");
      if (history.length === 1) return await tap("#key-input", "tap the key input");
      if (history.length === 2) {
        return { log: "type hello", action: { type: "Input", param: { value: "hello" } } };
      }
      return { log: "done", finished: true, output: "clicked and typed" };
    },
  };
}

driverTest(
  "a UI-TARS plan is cached with each target's xpath and identity: it replays with no model call after the button moved, and heals a renamed button with one locate call",
  async (e2e) => {
    const cacheDir = await Deno.makeTempDir();
    const tars = { cache: { id: "tars", cacheDir }, model: { family: "vlm-ui-tars" as const } };
    const runTask = async (change?: (page: E2ePage) => Promise<unknown>) => {
      const page = await e2e.open("actions.html");
      await change?.(page);
      const { agent, model } = await e2e.agent(page, tarsScript(page), tars);
      assert.equal(await agent.aiAct(TASK), "clicked and typed");
      assert.equal(await page.state("clicks"), 1);
      assert.equal(await page.inputValue("#key-input"), "hello");
      return { agent, model };
    };
    const first = await runTask();
    assert.deepEqual(first.model.calls.map((c) => c.kind), ["plan", "plan", "plan", "plan"]);
    const plan = record(await readCache(`${cacheDir}/tars.cache.yaml`), "plan", TASK) as {
      actions: { type: string; param: unknown; targets?: Record<string, { xpaths: string[] }> }[];
    };
    assert.deepEqual(plan.actions.map((a) => [a.type, a.param]), [
      ["Tap", {}],
      ["Tap", {}],
      ["Input", { value: "hello", mode: "typeOnly" }],
    ]);
    assert.deepEqual(plan.actions[0].targets?.locate.xpaths, ['//*[@id="click-button"]']);
    const moved = await runTask((page) =>
      page.evaluate(() => {
        document.getElementById("click-button")!.style.transform = "translate(60px, 40px)";
      })
    );
    assert.equal(moved.model.calls.length, 0);
    const renamed = await runTask((page) =>
      page.evaluate(() => {
        const button = document.getElementById("click-button")!;
        button.id = "renamed-button";
        button.textContent = "Click me now";
      })
    );
    assert.deepEqual(renamed.model.calls.map((c) => c.kind), ["locate"]);
    const healed = steps(renamed.agent, 0).find((s) => s.title.startsWith("Locate from cache"));
    assert.match(healed?.thought ?? "", /^Healed: no cached xpath selects a visible element/);
  },
);
