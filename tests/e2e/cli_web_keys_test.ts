/**
 * The `web` section's browser keys of the peer SDK's scripts (issue 40), run by `sdk run` (the
 * command line's `main`, in this process) in the system Chromium: what the page really did is
 * read back through the scripts' `javascript` items and their output files, and what the
 * browser sent through a local HTTP(S) server. No item calls the model.
 */

import { after, test } from "../helpers/test.ts";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { main } from "../../cli/main.ts";
import { parseReportHtml } from "../../core/report/_format.ts";
import { findChromium } from "@sdk/web/chromium";
import { freePort } from "../helpers/free_port.ts";

const work = await mkdtemp(join(tmpdir(), "sdk-web-keys-"));
process.env.SDK_RUN_DIR = join(work, "sdk_run");

const PAGES: Record<string, string> = {
  "/": `<title>home</title><a id="dl" href="/file.txt">file</a>
    <a id="tab" href="/second.html" target="_blank">second</a>`,
  "/second.html": "<title>second</title>",
};

/** Every request the local server saw: its path and headers. */
const seen: { path: string; headers: IncomingHttpHeaders }[] = [];
const handler = (req: { url?: string; headers: IncomingHttpHeaders }, res: {
  writeHead(code: number, headers: Record<string, string>): void;
  end(body: string): void;
}) => {
  const path = new URL(req.url ?? "/", "http://x").pathname;
  seen.push({ path, headers: req.headers });
  if (path === "/file.txt") {
    res.writeHead(200, {
      "content-type": "text/plain",
      "content-disposition": 'attachment; filename="report.txt"',
    });
    res.end("downloaded");
    return;
  }
  res.writeHead(PAGES[path] ? 200 : 404, { "content-type": "text/html" });
  res.end(PAGES[path] ?? "not found");
};

const listen = async (server: Server | ReturnType<typeof createHttpsServer>) => {
  const port = await freePort();
  await new Promise<void>((done) => server.listen(port, "127.0.0.1", done));
  return port;
};
const http = createServer(handler);
const site = `http://127.0.0.1:${await listen(http)}/`;

after(async () => {
  await new Promise((done) => http.close(done));
  await rm(work, { recursive: true, force: true });
});

/** Runs `sdk run <file> --summary` on a script in `work`; the summary's one file. */
async function run(name: string, script: string, ...flags: string[]) {
  const file = join(work, name);
  await writeFile(file, script);
  const summary = join(work, `${name}.summary.json`);
  let out = "";
  const code = await main(["run", file, "--summary", summary, ...flags], {
    stdout: { write: (t: string) => out += t },
    stderr: { write: (t: string) => out += t },
    cwd: work,
  });
  const read = JSON.parse(await readFile(summary, "utf8"));
  return { code, out, summary: read, file: read.files[0] };
}

const output = async (name: string) => JSON.parse(await readFile(join(work, name), "utf8"));

const tasks = (...items: string[]) =>
  `tasks:\n  - name: t\n    flow:\n${items.map((i) => `      - ${i}\n`).join("")}`;

test("extraHTTPHeaders are sent with every request of the page: the document and what it fetches", async () => {
  seen.length = 0;
  const r = await run(
    "headers.yaml",
    `web:\n  url: ${site}\n  output: headers.json\n  extraHTTPHeaders:\n    X-Token: abc123\n` +
      tasks("javascript: fetch('/second.html').then((r) => r.status)\n        name: status"),
  );
  assert.equal(r.code, 0, r.out);
  assert.deepEqual(await output("headers.json"), { status: 200 });
  const byPath = Object.fromEntries(seen.map((s) => [s.path, s.headers["x-token"]]));
  assert.deepEqual([byPath["/"], byPath["/second.html"]], ["abc123", "abc123"]);
});

test("acceptInsecureCerts: a self-signed https page is refused without it and opens with it", async () => {
  const certs = await mkdtemp(join(work, "certs-"));
  const [key, cert] = [join(certs, "key.pem"), join(certs, "cert.pem")];
  const made = await new Deno.Command("openssl", {
    args: [
      "req",
      "-x509",
      "-newkey",
      "rsa:2048",
      "-nodes",
      "-keyout",
      key,
      "-out",
      cert,
      "-days",
      "1",
      "-subj",
      "/CN=127.0.0.1",
    ],
    stdout: "null",
    stderr: "null",
  }).output();
  assert.ok(made.success, "openssl made a self-signed certificate");
  const https = createHttpsServer(
    { key: await readFile(key), cert: await readFile(cert) },
    handler,
  );
  const url = `https://127.0.0.1:${await listen(https)}/`;
  try {
    const refused = await run(
      "insecure-off.yaml",
      `web:\n  url: ${url}\n` + tasks("javascript: document.title"),
    );
    assert.equal(refused.code, 1);
    assert.match(refused.file.error, /CERT/);
    const opened = await run(
      "insecure-on.yaml",
      `web:\n  url: ${url}\n  acceptInsecureCerts: true\n  output: insecure.json\n` +
        tasks("javascript: document.title\n        name: title"),
    );
    assert.equal(opened.code, 0, opened.out);
    assert.deepEqual(await output("insecure.json"), { title: "home" });
  } finally {
    await new Promise((done) => https.close(done));
  }
});

test("downloadPath: a download of the page lands in the folder under the name the server gives", async () => {
  const r = await run(
    "download.yaml",
    `web:\n  url: ${site}\n  downloadPath: downloads\n` +
      // The click starts the download; the pause lets it begin before the run ends.
      tasks("javascript: document.querySelector('#dl').click()", "sleep: 1000"),
  );
  assert.equal(r.code, 0, r.out);
  assert.deepEqual(await readdir(join(work, "downloads")), ["report.txt"]);
  assert.equal(await readFile(join(work, "downloads/report.txt"), "utf8"), "downloaded");
});

test("autoFollowNewPage: after a link opens a new tab, the next items act on that tab; without it they stay on the first", async () => {
  const items = tasks(
    "javascript: document.querySelector('#tab').click()",
    "sleep: 1000",
    "javascript: location.pathname\n        name: path",
  );
  const followed = await run(
    "follow.yaml",
    `web:\n  url: ${site}\n  autoFollowNewPage: true\n  output: follow.json\n` + items,
  );
  assert.equal(followed.code, 0, followed.out);
  assert.deepEqual(await output("follow.json"), { path: "/second.html" });
  const stayed = await run(
    "stay.yaml",
    `web:\n  url: ${site}\n  forceSameTabNavigation: false\n  output: stay.json\n` + items,
  );
  assert.equal(stayed.code, 0, stayed.out);
  assert.deepEqual(await output("stay.json"), { path: "/" });
});

test("unstableLogContent writes the agent's log as JSON: to its path, or with true to <run dir>/output/unstableLogContent.json", async () => {
  const script = (setting: string) =>
    `web:\n  url: ${site}\n  unstableLogContent: ${setting}\n` +
    tasks("logScreenshot: the home page\n        content: before anything");
  assert.equal((await run("log-path.yaml", script("logs/run.json"))).code, 0);
  const log = await output("logs/run.json");
  assert.deepEqual(
    log.executions.map((e: { apiName: string; prompt: string }) => [e.apiName, e.prompt]),
    [["recordToReport", "the home page"]],
  );
  assert.equal((await run("log-true.yaml", script("true"))).code, 0);
  const atRunDir = JSON.parse(
    await readFile(join(work, "sdk_run/output/unstableLogContent.json"), "utf8"),
  );
  assert.equal(atRunDir.executions[0].steps[0].thought, "before anything");
});

test("the agent section's testId, groupName and groupDescription name the file's entry in the merged report", async () => {
  const r = await run(
    "named.yaml",
    `web:\n  url: ${site}\nagent:\n  testId: checkout-1\n  groupName: Checkout\n` +
      `  groupDescription: the whole checkout\n` + tasks("logScreenshot: the page"),
  );
  assert.equal(r.code, 0, r.out);
  const merged = parseReportHtml(await readFile(r.summary.mergedReport, "utf8"));
  const [source] = merged.sources;
  assert.deepEqual(
    [source.testId, source.testTitle, source.testDescription, source.testStatus],
    ["checkout-1", "Checkout", "the whole checkout", "passed"],
  );
});

test("chromeArgs reach the file's own browser: a --user-agent argument is the page's user agent", async () => {
  const r = await run(
    "args.yaml",
    `web:\n  url: ${site}\n  output: args.json\n  chromeArgs:\n    - --user-agent=ArgsMarker/1.0\n` +
      tasks("javascript: navigator.userAgent\n        name: ua"),
  );
  assert.equal(r.code, 0, r.out);
  assert.deepEqual(await output("args.json"), { ua: "ArgsMarker/1.0" });
});

/** Whether the process `pid` still runs. */
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

test("cdpEndpoint: the script runs in the user's running browser, which stays open with none of the file's pages left", async () => {
  const port = await freePort();
  const profile = await mkdtemp(join(work, "profile-"));
  const chromium = spawn(await findChromium(), [
    "--headless",
    `--remote-debugging-port=${port}`,
    `--user-data-dir=${profile}`,
    "--user-agent=UserBrowser/1.0",
    "--no-sandbox",
    "about:blank",
  ], { stdio: "ignore" });
  try {
    const endpoint = `http://127.0.0.1:${port}`;
    // Chromium answers on its port once it has started.
    for (
      let i = 0;
      !(await fetch(`${endpoint}/json/version`).then((r) => r.ok, () => false));
      i++
    ) {
      assert.ok(i < 100, "Chromium answers on its debugging port");
      await new Promise((done) => setTimeout(done, 100));
    }
    const r = await run(
      "cdp.yaml",
      `web:\n  url: ${site}second.html\n  cdpEndpoint: ${endpoint}\n  output: cdp.json\n` +
        tasks("javascript: navigator.userAgent\n        name: ua"),
    );
    assert.equal(r.code, 0, r.out);
    assert.deepEqual(await output("cdp.json"), { ua: "UserBrowser/1.0" });
    assert.ok(alive(chromium.pid!), "the user's browser still runs");
    const pages: { url: string }[] = await (await fetch(`${endpoint}/json/list`)).json();
    assert.ok(
      !pages.some((p) => p.url.includes("second.html")),
      `the file's page is closed: ${JSON.stringify(pages)}`,
    );
  } finally {
    chromium.kill();
    await new Promise((done) => chromium.once("exit", done));
  }
});

test("headless: false runs the file's browser with a window (on a virtual display), headless: true without", async () => {
  const xvfb = spawn(
    "Xvfb",
    ["-displayfd", "1", "-screen", "0", "1280x800x24", "-nolisten", "tcp"],
    {
      stdio: ["ignore", "pipe", "ignore"],
    },
  );
  const saved = process.env.DISPLAY;
  try {
    const display = await new Promise<string>((done) =>
      xvfb.stdout!.once("data", (d: Uint8Array) => done(`:${String(d).trim()}`))
    );
    process.env.DISPLAY = display;
    const script = (headless: boolean) =>
      `web:\n  url: ${site}\n  headless: ${headless}\n  output: headless-${headless}.json\n` +
      tasks("javascript: navigator.userAgent\n        name: ua");
    const windowed = await run("windowed.yaml", script(false));
    assert.equal(windowed.code, 0, windowed.out);
    assert.doesNotMatch((await output("headless-false.json")).ua, /Headless/);
    const headless = await run("headless.yaml", script(true));
    assert.equal(headless.code, 0, headless.out);
    assert.match((await output("headless-true.json")).ua, /HeadlessChrome/);
  } finally {
    if (saved === undefined) delete process.env.DISPLAY;
    else process.env.DISPLAY = saved;
    xvfb.kill();
    await new Promise((done) => xvfb.once("exit", done));
  }
});

test("page: and browser: run as web: sections, with the warning in the file's summary", async () => {
  const r = await run(
    "peer-page.yaml",
    `page:\n  url: ${site}\n  output: page.json\n` +
      tasks("javascript: document.title\n        name: title"),
  );
  assert.equal(r.code, 0, r.out);
  assert.deepEqual(await output("page.json"), { title: "home" });
  assert.match(r.file.warnings[0], /'page' is the peer SDK's name of 'web'/);
});
