/**
 * The cache benchmark (issue 35): what a repeated run costs in model calls, on every platform.
 *
 * One multi-step task per platform, each with the scripted test model (in process; it answers
 * from the app's real layout, and counts the calls):
 *
 * - web, on DriverA and DriverB: "click the button, then type hello into the key input" on the
 *   fixture app's actions.html; the move: the Click me button is shifted by a CSS transform;
 * - MobileA, MobileB, MobileC on their simulators (one Chromium): 'archive "Invoice 42", then open
 *   "Flight to Oslo"' on the inbox app; the move: the Archive button of Invoice 42 shifts left;
 * - the desktop on a private Xvfb, and RDP (FreeRDP's shadow server over a second Xvfb, when
 *   `freerdp-shadow-cli` is installed): "type Ada into the name field, then press Save" on the Tk
 *   fixture app; the move: the Save button is placed elsewhere.
 *
 * Each platform runs the task five times on a fresh screen, checking the end state each time:
 * cold (empty cache), repeat (same cache), moved (same cache, after the layout change), changed
 * (same cache, one element's label changed, so its cached location no longer names it and is
 * healed), and the script the cold run's agent exported (`exportScript`), run by a new agent
 * without a cache. MobileA and MobileB run again with a dialect family's plans (AutoGLM, UI-TARS;
 * rows of the table only). The table gives the model calls and the time of each run; the last
 * line reads:
 *
 *     model calls on repeat: web <a>, mobilea <b>, mobileb <c>, mobilec <d>, desktop <e>; after a move: <f> per moved element; exported script: <g>
 *
 * `web` adds both drivers; `after a move` is the most any platform needed for its one moved
 * element; `exported script` adds the exported scripts' calls of the platforms of the line. RDP
 * and the dialect rows have their own rows in the table. Writes `bench/output/cache.json`. Exit code 0 when every run
 * reached its end state, 1 otherwise.
 *
 *     deno task bench:cache
 *
 * @module
 */

/// <reference lib="dom" />

import process from "node:process";
import { randomBytes } from "node:crypto";
import { fileURLToPath } from "node:url";
import { mkdir, writeFile } from "node:fs/promises";
import type { Browser as BrowserB, Page as PageB } from "playwright-core";
import { type Browser as BrowserA, launch, type Page as PageA } from "puppeteer-core";
import type { Agent } from "@sdk/core";
import {
  startTestModel,
  type TestModel,
  type TestModelOptions,
  type TestModelScript,
} from "@sdk/core/testing";
import { DriverAPageAgent, DriverBPageAgent } from "@sdk/web";
import { ComputerAgent, ComputerDevice, RDPDevice } from "@sdk/computer";
import { CHROMIUM_ARGS, findChromium, launchChromium } from "../tests/helpers/browser.ts";
import { FIXTURE_APP_DIR, serveStatic } from "../tests/helpers/static_server.ts";
import {
  freshInbox,
  INBOX_TASK,
  inboxLocate,
  type InboxPhone,
  inboxPlanner,
  inboxState,
  moveArchiveButton,
  renameFlight,
  startInboxPhones,
} from "../tests/helpers/inbox_phones.ts";
import {
  type DesktopApp,
  type DesktopAppState,
  ensureDesktopTools,
  nutJsDir,
  startDesktopApp,
  startShadowServer,
  startTestDisplay,
  untilAppState,
  type WidgetBox,
} from "../tests/helpers/desktop.ts";

/** One platform's task. */
interface Platform {
  /** Name in the table. */
  name: string;
  /** Its word in the last line, or none (RDP). */
  key?: "web" | "mobilea" | "mobileb" | "mobilec" | "desktop";
  /** The task's instruction. */
  task: string;
  /**
   * Puts the app in its start state: as it was (`"none"`), with one element moved (`"move"`), or
   * with one element's label changed (`"change"`).
   */
  fresh(variant: Variant): Promise<void>;
  /** The test model's script and screen scale. */
  model(): Promise<TestModel>;
  /** An agent over the platform's device. */
  agent(model: TestModel, cache?: { id: string; cacheDir: string }): Promise<Agent>;
  /** Throws unless the app reached the task's end state. */
  check(): Promise<void>;
}

type Variant = "none" | "move" | "change";
type RunName = "cold" | "repeat" | "moved" | "changed" | "script";
const VARIANT: Record<RunName, Variant> = {
  cold: "none",
  repeat: "none",
  moved: "move",
  changed: "change",
  script: "none",
};
interface RunResult {
  calls: number;
  kinds: string[];
  ms: number;
  error?: string;
}

const cleanup: (() => Promise<unknown>)[] = [];
const models: TestModel[] = [];
const agents: Agent[] = [];
const track = async (model: Promise<TestModel>) => {
  const m = await model;
  models.push(m);
  return m;
};
const keep = <A extends Agent>(agent: A): A => {
  agents.push(agent);
  return agent;
};
const AGENT = { waitAfterAction: 100, generateReport: false, autoPrintReportMsg: false };

// ---- web ----------------------------------------------------------------------------------------

const WEB_TASK = "click the button, then type hello into the key input";

function webScript(measure: (selector: string) => Promise<DOMRect | null>): TestModelScript {
  const box = async (selector: string) => {
    const r = await measure(selector);
    if (!r) throw new Error(`${selector} is not on the page`);
    return { left: r.left, top: r.top, width: r.width, height: r.height };
  };
  return {
    locate: ({ target }) =>
      /click me/i.test(target)
        ? box("#click-button")
        : /key input/i.test(target)
        ? box("#key-input")
        : Promise.resolve(null),
    plan: async ({ history }) =>
      history.length === 0
        ? {
          log: "Tap the Click me button",
          action: {
            type: "Tap",
            param: { locate: { prompt: "Click me", box: await box("#click-button") } },
          },
        }
        : history.length === 1
        ? {
          log: "Type hello",
          action: {
            type: "Input",
            param: {
              locate: { prompt: "the key input", box: await box("#key-input") },
              value: "hello",
            },
          },
        }
        : { log: "done", finished: true, output: "clicked and typed" },
  };
}

function measureIn(selector: string) {
  const r = document.querySelector(selector)?.getBoundingClientRect();
  return r ? { left: r.left, top: r.top, width: r.width, height: r.height } as DOMRect : null;
}

function moveButton() {
  document.getElementById("click-button")!.style.transform = "translate(80px, 60px)";
}

function renameButton() {
  document.getElementById("click-button")!.textContent = "Click me now";
}

function webState() {
  const state = (globalThis as unknown as { appState: { clicks: number } }).appState;
  const input = document.getElementById("key-input") as HTMLInputElement;
  return { clicks: state.clicks, value: input.value };
}

async function webPlatforms(appUrl: string): Promise<Platform[]> {
  const url = `${appUrl}actions.html`;
  const browserA: BrowserA = await launch({
    executablePath: await findChromium(),
    args: [...CHROMIUM_ARGS],
    headless: true,
  });
  cleanup.push(() => browserA.close());
  const browserB: BrowserB = await launchChromium();
  cleanup.push(() => browserB.close());
  let pageA: PageA | undefined;
  let pageB: PageB | undefined;
  const a: Platform = {
    name: "web (DriverA)",
    key: "web",
    task: WEB_TASK,
    async fresh(variant) {
      await pageA?.close();
      pageA = await (await browserA.createBrowserContext()).newPage();
      await pageA.setViewport({ width: 1280, height: 800 });
      await pageA.goto(url);
      if (variant === "move") await pageA.evaluate(moveButton);
      if (variant === "change") await pageA.evaluate(renameButton);
    },
    model: () => track(startTestModel({ script: webScript((s) => pageA!.evaluate(measureIn, s)) })),
    agent: (model, cache) =>
      Promise.resolve(keep(
        new DriverAPageAgent(pageA!, {
          modelConfig: model.modelConfig(),
          ...AGENT,
          ...cache && { cache },
        }),
      )),
    async check() {
      const s = await pageA!.evaluate(webState);
      if (s.clicks !== 1 || s.value !== "hello") throw new Error(`end state ${JSON.stringify(s)}`);
    },
  };
  const b: Platform = {
    ...a,
    name: "web (DriverB)",
    async fresh(variant) {
      await pageB?.context().close();
      const context = await browserB.newContext({ viewport: { width: 1280, height: 800 } });
      pageB = await context.newPage();
      await pageB.goto(url);
      if (variant === "move") await pageB.evaluate(moveButton);
      if (variant === "change") await pageB.evaluate(renameButton);
    },
    model: () => track(startTestModel({ script: webScript((s) => pageB!.evaluate(measureIn, s)) })),
    agent: (model, cache) =>
      Promise.resolve(keep(
        new DriverBPageAgent(pageB!, {
          modelConfig: model.modelConfig(),
          ...AGENT,
          ...cache && { cache },
        }),
      )),
    async check() {
      const s = await pageB!.evaluate(webState);
      if (s.clicks !== 1 || s.value !== "hello") throw new Error(`end state ${JSON.stringify(s)}`);
    },
  };
  return [a, b];
}

// ---- phones -------------------------------------------------------------------------------------

async function phonePlatforms(browser: BrowserB): Promise<Platform[]> {
  const rigs = await startInboxPhones(browser);
  cleanup.push(() => rigs.close());
  const dialects: Record<string, TestModelOptions["family"]> = {
    MobileA: "auto-glm",
    MobileB: "vlm-ui-tars",
  };
  const phone = (rig: InboxPhone, family?: TestModelOptions["family"]): Platform => ({
    name: family ? `${rig.name} (${family})` : rig.name,
    ...(family ? {} : { key: rig.name.toLowerCase() as Platform["key"] }),
    task: INBOX_TASK,
    async fresh(variant) {
      await freshInbox(rig.phone);
      if (variant === "move") await moveArchiveButton(rig.phone);
      if (variant === "change") await renameFlight(rig.phone);
    },
    model: () =>
      track(startTestModel({
        script: {
          plan: inboxPlanner(rig.phone),
          locate: ({ target }) => inboxLocate(rig.phone, target),
        },
        imagePixelsPerCssPixel: rig.phone.density,
        ...(family ? { family } : {}),
      })),
    agent: (model, cache) => Promise.resolve(rig.agent(model, { ...AGENT, ...cache && { cache } })),
    async check() {
      const s = await inboxState(rig.phone);
      if (s.archived.join() !== "Invoice 42" || s.opened.join() !== "Flight to Oslo") {
        throw new Error(`end state ${JSON.stringify(s)}`);
      }
    },
  });
  return [
    ...rigs.phones.map((rig) => phone(rig)),
    ...rigs.phones.filter((rig) => dialects[rig.name]).map((rig) => phone(rig, dialects[rig.name])),
  ];
}

// ---- desktop and RDP ----------------------------------------------------------------------------

const DESKTOP_TASK = "type Ada into the name field, then press Save";

function desktopScript(app: DesktopApp): TestModelScript {
  const box = (w: WidgetBox) => ({ left: w.x, top: w.y, width: w.width, height: w.height });
  const widget = (target: string, s: DesktopAppState) =>
    /name field/i.test(target) ? s.widgets.name : /save/i.test(target) ? s.widgets.save : undefined;
  return {
    locate: async ({ target }) => {
      const w = widget(target, await app.state());
      return w ? box(w) : null;
    },
    plan: async () => {
      const s = await app.state();
      if (s.name !== "Ada") {
        return {
          log: "type Ada",
          action: {
            type: "Input",
            param: { value: "Ada", locate: { prompt: "the name field", box: box(s.widgets.name) } },
          },
        };
      }
      if (s.clicks === 0) {
        return {
          log: "press Save",
          action: {
            type: "Tap",
            param: { locate: { prompt: "the Save button", box: box(s.widgets.save) } },
          },
        };
      }
      return { log: "done", finished: true, output: "saved" };
    },
  };
}

function desktopPlatform(
  name: string,
  key: Platform["key"],
  app: DesktopApp,
  device: () => ComputerDevice,
  settle: number,
): Platform {
  return {
    name,
    key,
    task: DESKTOP_TASK,
    async fresh(variant) {
      await app.command("reset");
      if (variant === "move") await app.command("place save 700 560");
      if (variant === "change") await app.command("text save Store");
      await app.focus();
      // Let the change reach the screen the device reads (over RDP, once the server sent it).
      await new Promise((resolve) => setTimeout(resolve, settle));
    },
    model: () => track(startTestModel({ script: desktopScript(app) })),
    agent: (model, cache) =>
      Promise.resolve(keep(
        new ComputerAgent(device(), {
          modelConfig: model.modelConfig(),
          ...AGENT,
          ...cache && { cache },
        }),
      )),
    async check() {
      await untilAppState(
        () => app.state(),
        (s) => s.clicks === 1 && s.name === "Ada",
        "Ada saved",
        5000,
      );
    },
  };
}

async function desktopPlatforms(): Promise<{ platforms: Platform[]; notes: string[] }> {
  const notes: string[] = [];
  await ensureDesktopTools();
  process.env.SDK_NUT_JS_DIR ??= nutJsDir();
  const local = await startTestDisplay("1280x800x24");
  cleanup.push(() => local.close());
  process.env.DISPLAY = local.display;
  const app = await startDesktopApp(local.display);
  cleanup.unshift(() => app.close());
  const device = new ComputerDevice({});
  cleanup.unshift(() => device.destroy());
  const platforms = [desktopPlatform("desktop (Xvfb)", "desktop", app, () => device, 300)];
  try {
    const remote = await startTestDisplay("1280x800x24");
    cleanup.push(() => remote.close());
    const remoteApp = await startDesktopApp(remote.display);
    cleanup.unshift(() => remoteApp.close());
    const password = randomBytes(12).toString("base64url");
    const shadow = await startShadowServer(remote.display, "bench", password);
    cleanup.unshift(() => shadow.close());
    const rdp = new RDPDevice({
      host: "127.0.0.1",
      port: shadow.port,
      username: "bench",
      password,
      ignoreCertificate: true,
    });
    await rdp.connect();
    cleanup.unshift(() => rdp.destroy());
    platforms.push(desktopPlatform("RDP (FreeRDP shadow)", undefined, remoteApp, () => rdp, 1000));
  } catch (e) {
    notes.push(`RDP not run: ${e instanceof Error ? e.message : e}`);
  }
  return { platforms, notes };
}

// ---- the runs -----------------------------------------------------------------------------------

async function runPlatform(p: Platform, outDir: string): Promise<Record<RunName, RunResult>> {
  const cacheDir = `${outDir}/cache-${p.name.replace(/\W+/g, "-")}`;
  await Deno.remove(cacheDir, { recursive: true }).catch(() => {});
  const cache = { id: "bench", cacheDir };
  const results = {} as Record<RunName, RunResult>;
  let exported: string | undefined;
  for (const run of ["cold", "repeat", "moved", "changed", "script"] as RunName[]) {
    const start = performance.now();
    let model: TestModel | undefined;
    try {
      await p.fresh(VARIANT[run]);
      model = await p.model();
      const agent = await p.agent(model, run === "script" ? undefined : cache);
      if (run === "script") {
        if (exported === undefined) throw new Error("no exported script");
        await agent.runYaml(exported);
      } else await agent.aiAct(p.task);
      await p.check();
      if (run === "cold") {
        const file = `${outDir}/exported-${p.name.replace(/\W+/g, "-")}.yaml`;
        exported = (await agent.exportScript(file)).text;
      }
      results[run] = {
        calls: model.calls.length,
        kinds: model.calls.map((c) => String(c.kind)),
        ms: Math.round(performance.now() - start),
      };
    } catch (e) {
      results[run] = {
        calls: model?.calls.length ?? NaN,
        kinds: model?.calls.map((c) => String(c.kind)) ?? [],
        ms: Math.round(performance.now() - start),
        error: e instanceof Error ? e.message.split("\n")[0] : String(e),
      };
    }
    console.log(
      `${p.name.padEnd(22)} ${run.padEnd(7)} ${String(results[run].calls).padStart(2)} call(s) ` +
        `[${results[run].kinds.join(", ")}] ${results[run].ms} ms` +
        (results[run].error ? `  FAILED: ${results[run].error}` : ""),
    );
  }
  return results;
}

const outDir = fileURLToPath(new URL("./output", import.meta.url));
await mkdir(outDir, { recursive: true });
const notes: string[] = [];
const results: { platform: Platform; runs: Record<RunName, RunResult> }[] = [];
let exitCode = 0;
try {
  const app = await serveStatic(FIXTURE_APP_DIR);
  cleanup.push(() => app.close());
  const phoneBrowser = await launchChromium();
  cleanup.push(() => phoneBrowser.close());
  const desktop = await desktopPlatforms();
  notes.push(...desktop.notes);
  const platforms = [
    ...await webPlatforms(app.url),
    ...await phonePlatforms(phoneBrowser),
    ...desktop.platforms,
  ];
  for (const platform of platforms) {
    results.push({ platform, runs: await runPlatform(platform, outDir) });
  }
} finally {
  await Promise.allSettled(agents.map((a) => a.destroy()));
  await Promise.allSettled(models.map((m) => m.close()));
  for (const step of cleanup.reverse()) await step().catch(() => {});
}

const failed = results.flatMap((r) =>
  Object.entries(r.runs).filter(([, run]) => run.error).map(([name, run]) =>
    `${r.platform.name} ${name}: ${run.error}`
  )
);
if (failed.length) exitCode = 1;
const sum = (key: Platform["key"], run: RunName) =>
  results.filter((r) => r.platform.key === key).reduce((n, r) => n + r.runs[run].calls, 0);
const inLine = results.filter((r) => r.platform.key);
const moved = Math.max(...results.map((r) => r.runs.moved.calls));
const script = inLine.reduce((n, r) => n + r.runs.script.calls, 0);
await writeFile(
  `${outDir}/cache.json`,
  JSON.stringify(
    {
      date: new Date().toISOString(),
      notes,
      failed,
      results: results.map((r) => ({ platform: r.platform.name, ...r.runs })),
    },
    null,
    2,
  ),
);
console.log("");
for (const note of notes) console.log(`note: ${note}`);
for (const f of failed) console.log(`failed: ${f}`);
console.log(
  `model calls on repeat: web ${sum("web", "repeat")}, mobilea ${sum("mobilea", "repeat")}, ` +
    `mobileb ${sum("mobileb", "repeat")}, mobilec ${sum("mobilec", "repeat")}, desktop ${
      sum("desktop", "repeat")
    }; after a move: ${moved} per moved element; exported script: ${script}`,
);
process.exitCode = exitCode;
