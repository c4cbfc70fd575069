import { test } from "../../tests/helpers/test.ts";
import assert from "node:assert/strict";
import { mkdir, readdir, readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { spawn } from "node:child_process";
import { hostname } from "node:os";
import { parseReportHtml, reportTags } from "./_format.ts";
import { execution, fakePng, step, withRunDir } from "./_test_helpers.ts";
import { reportToHtml, ReportWriter } from "./writer.ts";

const meta = { sdkVersion: "0.1.0", interfaceType: "web-page" };

async function size(file: string): Promise<number> {
  return (await stat(file)).size;
}

async function parsed(file: string) {
  return parseReportHtml(await readFile(file, "utf8"));
}

test("ReportWriter.create() generates '<interface>-<local time>-<hex>' under <SDK_RUN_DIR>/report", async () => {
  await withRunDir(async (dir) => {
    const before = new Date();
    const writer = await ReportWriter.create({ meta });
    assert.match(writer.meta.name, /^web-page-\d{4}-\d\d-\d\d_\d\d-\d\d-\d\d-[0-9a-f]{4}$/);
    const day = `${before.getFullYear()}-${String(before.getMonth() + 1).padStart(2, "0")}`;
    assert.ok(writer.meta.name.startsWith(`web-page-${day}`));
    assert.equal(writer.file, undefined, "no file before the first write");
    await writer.writeExecution(execution());
    assert.equal(writer.file, join(dir, "report", `${writer.meta.name}.html`));
    assert.equal(await writer.finalize(), writer.file);
    const report = await parsed(writer.file!);
    assert.equal(report.meta?.name, writer.meta.name);
    assert.equal(report.meta?.sdkVersion, "0.1.0");
    assert.equal(report.meta?.format, 1);
  });
});

test("ReportWriter.create() uses a given name and keeps a name ending in .html as is", async () => {
  await withRunDir(async (dir) => {
    const a = await ReportWriter.create({ name: "login-flow", meta });
    await a.writeExecution(execution());
    assert.equal(a.file, join(dir, "report", "login-flow.html"));
    const b = await ReportWriter.create({ name: "checkout.html", meta });
    await b.writeExecution(execution());
    assert.equal(b.file, join(dir, "report", "checkout.html"));
    assert.equal(b.meta.name, "checkout");
  });
});

test("ReportWriter.create() rejects a name with a path separator or an empty name", async () => {
  await assert.rejects(ReportWriter.create({ name: "a/b", meta }), TypeError);
  await assert.rejects(ReportWriter.create({ name: " ", meta }), /reportFileName/);
});

test("ReportWriter writes no file when generateReport is false", async () => {
  await withRunDir(async (dir) => {
    const writer = await ReportWriter.create({ meta, generateReport: false });
    assert.equal(writer.enabled, false);
    const id = writer.addScreenshot(fakePng(1));
    assert.equal(id, writer.addScreenshot(fakePng(1)), "ids are still given");
    await writer.writeExecution(execution({ steps: [step({ screenshot: id })] }));
    assert.equal(await writer.finalize(), undefined);
    assert.equal(writer.file, undefined);
    assert.deepEqual(await readdir(dir), []);
  });
});

test("ReportWriter.finalize() leaves no file when no execution was written", async () => {
  await withRunDir(async (dir) => {
    const writer = await ReportWriter.create({ meta });
    writer.addScreenshot(fakePng(1));
    assert.equal(await writer.finalize(), undefined);
    assert.deepEqual(await readdir(dir), []);
  });
});

test("ReportWriter.addScreenshot() returns a content hash and stores the same image once", async () => {
  await withRunDir(async () => {
    const writer = await ReportWriter.create({ meta });
    const png = fakePng(7, 60_000);
    const id = writer.addScreenshot(png);
    assert.match(id, /^[0-9a-f]{16}-[0-9a-z]+$/);
    assert.notEqual(id, writer.addScreenshot(fakePng(8, 60_000)));
    await writer.writeExecution(execution({ steps: [step({ screenshot: id })] }));
    const afterOne = await size(writer.file!);

    // The same image again, as a new data URI string: only the step is added.
    assert.equal(writer.addScreenshot(png.slice(0)), id);
    await writer.writeExecution(
      execution({ steps: [step({ screenshot: id }), step({ screenshot: id })] }),
    );
    const grown = (await size(writer.file!)) - afterOne;
    assert.ok(grown < 1000, `a repeated screenshot added ${grown} bytes`);

    const report = await parsed(writer.file!);
    assert.equal(report.screenshots.size, 2, "two distinct images, each once");
    assert.equal(report.screenshots.get(id), png);
  });
});

test("ReportWriter: file grows by about one image for two identical screenshots", async () => {
  await withRunDir(async () => {
    const writer = await ReportWriter.create({ meta });
    await writer.writeExecution(execution({ id: "warmup" }));
    const start = await size(writer.file!);
    const png = fakePng(3, 100_000);
    const a = writer.addScreenshot(png);
    const b = writer.addScreenshot(png);
    assert.equal(a, b);
    await writer.writeExecution(execution({ steps: [step({ screenshot: a }), step()] }));
    const grown = (await size(writer.file!)) - start;
    assert.ok(grown > 100_000 && grown < 102_000, `grew by ${grown} bytes`);
  });
});

test("ReportWriter.addScreenshot() takes raw base64 as PNG and rejects other text", async () => {
  const writer = await ReportWriter.create({ meta, generateReport: false });
  const raw = fakePng(2).slice("data:image/png;base64,".length);
  assert.equal(writer.addScreenshot(raw), writer.addScreenshot(`data:image/png;base64,${raw}`));
  assert.throws(() => writer.addScreenshot("data:text/html,<script>x</script>"), TypeError);
  assert.throws(() => writer.addScreenshot("data:image/png;base64,AA</script>"), TypeError);
  assert.throws(() => writer.addScreenshot(""), TypeError);
});

test("ReportWriter.writeExecution() replaces an execution by id and appends only changed steps", async () => {
  await withRunDir(async () => {
    const writer = await ReportWriter.create({ meta });
    const exec = execution({ id: "act", apiName: "aiAct", status: "running", endedAt: undefined });
    const bigThought = "x".repeat(20_000);
    for (let i = 0; i < 10; i++) {
      exec.steps.push(step({ title: `step ${i}`, status: "running", thought: bigThought }));
      const written = writer.writeExecution(exec);
      exec.steps[i].status = "passed"; // mutated after the call: must not leak into that write
      await written;
    }
    const mid = (await parsed(writer.file!)).executions[0];
    assert.deepEqual(mid.steps.map((s) => s.status), [...Array(9).fill("passed"), "running"]);
    await writer.writeExecution(execution({ id: "other" }));
    exec.status = "passed";
    exec.endedAt = exec.startedAt + 5000;
    await writer.writeExecution(exec);
    const html = await readFile(writer.file!, "utf8");
    // Only the execution tags count, not the viewer page before them. Ten full copies would be
    // 10 * 10 * 20 KB / 2 = 1 MB; deltas carry each step about twice.
    const executionTags = [...reportTags(html)].filter((t) => t.kind === "execution");
    const dataChars = executionTags.reduce((n, t) => n + t.body.length, 0);
    assert.ok(dataChars < 450_000, `execution data is ${dataChars} chars`);

    const report = parseReportHtml(html);
    assert.deepEqual(report.executions.map((e) => e.id), ["act", "other"]);
    const act = report.executions[0];
    assert.equal(act.status, "passed");
    assert.deepEqual(act.steps.map((s) => s.title), exec.steps.map((s) => s.title));
    assert.deepEqual(act.steps.map((s) => s.status), Array(10).fill("passed"));

    // A shorter, different state replaces the old one entirely.
    await writer.writeExecution(execution({ id: "act", steps: [step({ title: "only" })] }));
    const again = await parsed(writer.file!);
    assert.deepEqual(again.executions[0].steps.map((s) => s.title), ["only"]);
  });
});

test("ReportWriter.writeExecution() keeps call order when calls are not awaited", async () => {
  await withRunDir(async () => {
    const writer = await ReportWriter.create({ meta });
    const writes = [];
    for (let i = 1; i <= 20; i++) {
      const shot = writer.addScreenshot(fakePng(i));
      const steps = Array.from({ length: i }, (_, j) => step({ title: `s${j}`, screenshot: shot }));
      writes.push(writer.writeExecution(execution({ id: "e", steps })));
    }
    await Promise.all(writes);
    const report = await parsed((await writer.finalize())!);
    assert.equal(report.executions[0].steps.length, 20);
    assert.equal(report.screenshots.size, 20);
  });
});

test("ReportWriter.writeExecution() rejects an execution that is not JSON", async () => {
  await withRunDir(async () => {
    const writer = await ReportWriter.create({ meta });
    await assert.rejects(
      writer.writeExecution(execution({ steps: [step({ param: { n: 1n } })] })),
      TypeError,
    );
    await writer.writeExecution(execution());
    assert.equal((await parsed(writer.file!)).executions.length, 1);
  });
});

test("ReportWriter.finalize() flushes queued screenshots and is idempotent", async () => {
  await withRunDir(async () => {
    const writer = await ReportWriter.create({ meta });
    await writer.writeExecution(execution());
    const before = await size(writer.file!);
    writer.addScreenshot(fakePng(9, 5000));
    const file = await writer.finalize();
    assert.equal(file, writer.file);
    const after = await size(file!);
    assert.ok(after - before > 5000);
    assert.equal(await writer.finalize(), file);
    assert.equal(await size(file!), after, "a second finalize writes nothing");
  });
});

test("ReportWriter: a truncated trailing tag leaves the rest readable", async () => {
  await withRunDir(async () => {
    const writer = await ReportWriter.create({ meta });
    await writer.writeExecution(execution({ id: "a" }));
    await writer.writeExecution(execution({ id: "b" }));
    const html = await readFile(writer.file!, "utf8");
    const cut = html.slice(0, html.lastIndexOf(`"b"`) + 10);
    assert.deepEqual(parseReportHtml(cut).executions.map((e) => e.id), ["a"]);
  });
});

test("ReportWriter with outputFormat 'html-and-external-assets' writes index.html and image files", async () => {
  await withRunDir(async (dir) => {
    const writer = await ReportWriter.create({
      name: "ext",
      meta,
      outputFormat: "html-and-external-assets",
    });
    const png = `data:image/png;base64,${btoa("\x89PNG fake bytes")}`;
    const id = writer.addScreenshot(png);
    await writer.writeExecution(execution({ steps: [step({ screenshot: id })] }));
    assert.equal(writer.file, join(dir, "report", "ext", "index.html"));
    const report = await parsed(writer.file!);
    assert.equal(report.screenshots.get(id), `screenshots/${id}.png`);
    const bytes = await readFile(join(dir, "report", "ext", "screenshots", `${id}.png`));
    assert.equal(new TextDecoder().decode(bytes), "\x89PNG fake bytes".replace("\x89", "\uFFFD"));
    assert.equal(bytes[0], 0x89);
  });
});

test("ReportWriter with persistExecutionDump writes a JSON file per finished execution", async () => {
  await withRunDir(async (dir) => {
    const writer = await ReportWriter.create({ name: "d", meta, persistExecutionDump: true });
    await writer.writeExecution(execution({ id: "x/1", status: "running" }));
    // The report, and while its writer is live, the marker that says so.
    assert.deepEqual((await readdir(join(dir, "report"))).sort(), [".d.html.lock", "d.html"]);
    await writer.writeExecution(execution({ id: "x/1", status: "failed", error: "boom" }));
    const dump = JSON.parse(await readFile(join(dir, "report", "d.x_1.execution.json"), "utf8"));
    assert.equal(dump.meta.name, "d");
    assert.equal(dump.execution.error, "boom");
  });
});

/** Runs `fn` with `console.warn` captured; returns the warnings, one string each. */
async function warningsOf(fn: () => Promise<void>): Promise<string[]> {
  const warnings: string[] = [];
  const original = console.warn;
  console.warn = (...args: unknown[]) => warnings.push(args.map(String).join(" "));
  try {
    await fn();
  } finally {
    console.warn = original;
  }
  return warnings;
}

test("ReportWriter: two writers with one name at the same time get <name>.html and <name>-2.html, each with only its own executions, and a warning names both", async () => {
  await withRunDir(async (dir) => {
    const first = join(dir, "report", "same.html");
    const second = join(dir, "report", "same-2.html");
    let a!: ReportWriter, b!: ReportWriter;
    const warnings = await warningsOf(async () => {
      a = await ReportWriter.create({ name: "same", meta });
      b = await ReportWriter.create({ name: "same.html", meta });
      // Interleaved, not awaited one by one: both write their first execution at once.
      const writes: Promise<void>[] = [];
      for (let i = 1; i <= 3; i++) {
        writes.push(a.writeExecution(execution({ id: `a${i}`, prompt: `a call ${i}` })));
        writes.push(b.writeExecution(execution({ id: `b${i}`, prompt: `b call ${i}` })));
      }
      await Promise.all(writes);
      await Promise.all([a.finalize(), b.finalize()]);
    });
    assert.deepEqual([a.file, b.file].sort(), [second, first]);
    for (const writer of [a, b]) {
      const own = writer === a ? "a" : "b";
      const report = await parsed(writer.file!);
      assert.deepEqual(
        report.executions.map((e) => e.id),
        [`${own}1`, `${own}2`, `${own}3`],
        `${writer.file} holds its own three calls, and nothing else`,
      );
      assert.equal(report.meta?.name, writer.meta.name);
    }
    assert.deepEqual((await readdir(join(dir, "report"))).sort(), ["same-2.html", "same.html"]);
    assert.equal(warnings.length, 1, warnings.join("\n"));
    assert.ok(warnings[0].includes(first) && warnings[0].includes(second), warnings[0]);
    assert.match(warnings[0], /reportFileName/);
  });
});

test("ReportWriter: a re-run replaces its own finished report, atomically (a reader always finds a whole file), without -2 or a warning; a report without a marker too", async () => {
  await withRunDir(async (dir) => {
    const reportDir = join(dir, "report");
    const file = join(reportDir, "kept.html");
    const warnings = await warningsOf(async () => {
      const first = await ReportWriter.create({ name: "kept", meta });
      await first.writeExecution(execution({ id: "first-run" }));
      assert.equal(await first.finalize(), file);
      assert.deepEqual(await readdir(reportDir), ["kept.html"], "the marker goes with finalize");
      // A reader polls the file while the next run replaces it.
      let polling = true, reads = 0;
      const poller = (async () => {
        while (polling) {
          const text = await readFile(file, "utf8");
          assert.ok(text.startsWith("<!"), `a whole report at read ${reads}: ${text.slice(0, 40)}`);
          reads++;
          await new Promise((r) => setTimeout(r, 0));
        }
      })();
      const second = await ReportWriter.create({ name: "kept", meta });
      await second.writeExecution(execution({ id: "second-run" }));
      await second.finalize();
      polling = false;
      await poller;
      assert.ok(reads > 0);
      assert.equal(second.file, file);
      assert.equal(second.meta.name, "kept");
      assert.deepEqual((await parsed(file)).executions.map((e) => e.id), ["second-run"]);
      // A report no marker claims (an earlier version's, a copied one) belongs to no live agent.
      await writeFile(join(reportDir, "legacy.html"), "an earlier run's report");
      const third = await ReportWriter.create({ name: "legacy", meta });
      await third.writeExecution(execution({ id: "3" }));
      await third.finalize();
      assert.equal(third.file, join(reportDir, "legacy.html"));
      assert.deepEqual((await parsed(third.file!)).executions.map((e) => e.id), ["3"]);
    });
    assert.deepEqual(warnings, []);
    assert.deepEqual((await readdir(reportDir)).sort(), ["kept.html", "legacy.html"]);
  });
});

test("ReportWriter: a report whose agent's process is alive keeps its name (-2, with a warning); once that process is gone, the next run replaces it", async () => {
  await withRunDir(async (dir) => {
    const reportDir = join(dir, "report");
    await mkdir(reportDir, { recursive: true });
    const other = spawn("sleep", ["60"], { stdio: "ignore" });
    try {
      await writeFile(join(reportDir, "live.html"), "the live agent's report");
      await writeFile(
        join(reportDir, ".live.html.lock"),
        JSON.stringify({ pid: other.pid, host: hostname(), createdAt: Date.now() }),
      );
      const warnings = await warningsOf(async () => {
        const second = await ReportWriter.create({ name: "live", meta });
        await second.writeExecution(execution({ id: "1" }));
        assert.equal(second.file, join(reportDir, "live-2.html"));
        assert.equal(second.meta.name, "live-2");
        await second.finalize();
      });
      assert.equal(warnings.length, 1, warnings.join("\n"));
      assert.ok(warnings[0].includes(join(reportDir, "live.html")), warnings[0]);
      assert.match(warnings[0], /agent still running/);
      assert.equal(await readFile(join(reportDir, "live.html"), "utf8"), "the live agent's report");
    } finally {
      other.kill("SIGKILL");
      await new Promise((resolve) => other.once("exit", resolve));
    }
    // The process is gone (killed, never destroyed its agent): its report is the next run's.
    const third = await ReportWriter.create({ name: "live", meta, persistExecutionDump: true });
    await third.writeExecution(execution({ id: "1" }));
    assert.equal(third.file, join(reportDir, "live.html"));
    assert.ok(await readFile(join(reportDir, "live.1.execution.json"), "utf8"));
    await third.finalize();
    assert.deepEqual(
      (await readdir(reportDir)).filter((f) => f.endsWith(".html") || f.endsWith(".lock")).sort(),
      ["live-2.html", "live.html"],
    );
  });
});

test("ReportWriter: html-and-external-assets takes <name>-2/ when <name>/index.html exists", async () => {
  await withRunDir(async (dir) => {
    const reportDir = join(dir, "report");
    const shot = fakePng(7);
    const writers = await Promise.all(
      [1, 2].map(() =>
        ReportWriter.create({ name: "folder", meta, outputFormat: "html-and-external-assets" })
      ),
    );
    await warningsOf(async () => {
      await Promise.all(writers.map((w, i) => {
        const id = w.addScreenshot(shot);
        return w.writeExecution(execution({ id: `x${i}`, steps: [step({ screenshot: id })] }));
      }));
    });
    assert.deepEqual(
      writers.map((w) => w.file).sort(),
      [join(reportDir, "folder-2", "index.html"), join(reportDir, "folder", "index.html")],
    );
    for (const w of writers) {
      assert.equal((await readdir(join(w.file!, "..", "screenshots"))).length, 1);
      assert.equal((await parsed(w.file!)).executions.length, 1);
    }
  });
});

test("ReportWriter: two processes with one name and one run directory write two whole reports", async () => {
  await withRunDir(async (dir) => {
    const child = new URL("../../tests/fixtures/report/same_name_writer.ts", import.meta.url);
    const go = join(dir, "go");
    const run = (who: string) =>
      new Deno.Command(Deno.execPath(), {
        args: ["run", "-A", child.pathname, who, go],
        env: { SDK_RUN_DIR: dir },
        stdout: "piped",
        stderr: "piped",
      }).output();
    const both = [run("p"), run("q")];
    // Both children wait for this file, so their first writes meet.
    await writeFile(go, "");
    const outputs = await Promise.all(both);
    for (const out of outputs) {
      assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
    }
    // Only the children's reports: SDK_RUN_DIR is process-wide, so a report test running in
    // parallel (another file, same process) may write its own file into this folder meanwhile.
    const files = (await readdir(join(dir, "report")))
      .filter((f) => f.startsWith("shared") && f.endsWith(".html")).sort();
    assert.deepEqual(files, ["shared-2.html", "shared.html"]);
    const owners = new Set<string>();
    for (const f of files) {
      const ids = (await parsed(join(dir, "report", f))).executions.map((e) => e.id);
      const who = ids[0].slice(0, 1);
      owners.add(who);
      assert.deepEqual(ids, [1, 2, 3, 4, 5].map((i) => `${who}${i}`), `${f}: ${ids.join(",")}`);
    }
    assert.deepEqual([...owners].sort(), ["p", "q"]);
    const warned = outputs.map((o) => new TextDecoder().decode(o.stderr)).join("");
    assert.match(warned, /shared-2\.html/);
  });
});

test("ReportWriter: one writer updating its own report many times, and writers of other files, do not warn", async () => {
  await withRunDir(async () => {
    const warnings = await warningsOf(async () => {
      const writer = await ReportWriter.create({ name: "own", meta });
      for (let i = 0; i < 20; i++) {
        await writer.writeExecution(execution({ id: String(i % 3), prompt: `update ${i}` }));
      }
      await writer.finalize();
      const other = await ReportWriter.create({ name: "other", meta });
      await other.writeExecution(execution());
    });
    assert.deepEqual(warnings, []);
  });
});

test("storage 'memory' writes nothing and html() returns the single-file report with its screenshots", async () => {
  await withRunDir(async (dir) => {
    const writer = await ReportWriter.create({ name: "in-page", meta, storage: "memory" });
    assert.equal(writer.inMemory, true);
    assert.equal(writer.enabled, false);
    assert.equal(writer.html(), undefined, "no executions, no report");
    const shot = writer.addScreenshot(fakePng(1));
    await writer.writeExecution(execution({ id: "e1", status: "running", steps: [] }));
    await writer.writeExecution(execution({ id: "e1", steps: [step({ screenshot: shot })] }));
    assert.equal(await writer.finalize(), undefined);
    assert.equal(writer.file, undefined);
    assert.deepEqual(await readdir(dir).catch(() => []), [], "nothing on disk");
    const report = parseReportHtml(writer.html()!);
    assert.equal(report.meta?.name, "in-page");
    assert.deepEqual(report.executions.map((e) => e.id), ["e1"]);
    assert.equal(report.executions[0].status, "passed", "the last state wins");
    assert.equal(report.executions[0].steps[0].screenshot, shot);
    assert.equal(report.screenshots.get(shot), fakePng(1));
  });
});

test("reportToHtml() builds the report of an agent's log from the writer that recorded it", async () => {
  const writer = await ReportWriter.create({ name: "log", meta, storage: "memory" });
  const other = await ReportWriter.create({ name: "other", meta, storage: "memory" });
  const shot = writer.addScreenshot(fakePng(2));
  other.addScreenshot(fakePng(3));
  const exec = execution({ id: "log-1", steps: [step({ screenshot: shot })] });
  await writer.writeExecution(exec);
  await other.writeExecution(execution({ id: "other-1" }));
  const fromLog = parseReportHtml(reportToHtml({ executions: [exec] }));
  assert.equal(fromLog.meta?.name, "log");
  assert.deepEqual(fromLog.executions.map((e) => e.id), ["log-1"]);
  assert.deepEqual([...fromLog.screenshots.keys()], [shot], "only the owner's screenshots");
  const agentLike = { _unstableLogContent: () => ({ executions: [exec] }) };
  assert.equal(reportToHtml(agentLike), reportToHtml({ executions: [exec] }));
  assert.throws(() => reportToHtml({ executions: [] }), /no executions yet/);
  assert.throws(
    () => reportToHtml({ executions: [execution({ id: "unknown" })] }),
    /no in-memory report holds these executions.*agent\.reportFile/,
  );
});

test("ReportWriter.create() rejects an unknown storage", async () => {
  await assert.rejects(
    ReportWriter.create({ meta, storage: "disk" as "file" }),
    (e: unknown) =>
      e instanceof TypeError && /'storage' must be "file" or "memory"/.test(e.message),
  );
});

test("ReportWriter: after finalize the report is final: a late write (a call still in flight at destroy()) is dropped", async () => {
  await withRunDir(async () => {
    const writer = await ReportWriter.create({ name: "final", meta });
    await writer.writeExecution(execution({ id: "1" }));
    const file = (await writer.finalize())!;
    const before = await readFile(file, "utf8");
    await writer.writeExecution(execution({ id: "late" }));
    assert.equal(await readFile(file, "utf8"), before);
    assert.equal(await writer.finalize(), file);
  });
});
