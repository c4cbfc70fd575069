import { test } from "../../tests/helpers/test.ts";
import assert from "node:assert/strict";
import { mkdir, readdir, readFile, stat, writeFile } from "node:fs/promises";
import { basename, dirname, join, relative } from "node:path";
import process from "node:process";
import { parseReportHtml, type SourceTagPayload } from "./_format.ts";
import { execution, fakePng, step, withRunDir } from "./_test_helpers.ts";
import { pattern, toDataUri } from "../image/test_util.ts";
import { type ReportFileWithAttributes, ReportMergingTool } from "./merge.ts";
import type { ReportAttributes } from "./types.ts";
import { type ReportOutputFormat, ReportWriter } from "./writer.ts";

/** A real JPEG and a real PNG, distinct per seed. */
async function images(seed: number): Promise<{ jpeg: string; png: string }> {
  const img = pattern(64, 40, { x: seed % 50, y: 5, w: 10, h: 10 });
  return { jpeg: await toDataUri(img, "image/jpeg"), png: await toDataUri(img, "image/png") };
}

/** Writes a real report with ReportWriter: a passed tap and a failed assert, with screenshots. */
async function writeReport(
  name: string,
  options: { format?: ReportOutputFormat; shots?: string[] } = {},
): Promise<string> {
  const writer = await ReportWriter.create({
    name,
    meta: { sdkVersion: "0.1.0", interfaceType: "web-page" },
    outputFormat: options.format,
  });
  const shots = (options.shots ?? []).map((s) => writer.addScreenshot(s));
  await writer.writeExecution(execution({
    id: "1",
    apiName: "aiTap",
    prompt: `tap in ${name}`,
    steps: shots.map((id, i) => step({ title: `Tap ${i}`, screenshot: id })),
  }));
  await writer.writeExecution(execution({
    id: "2",
    apiName: "aiAssert",
    prompt: `assert in ${name}`,
    status: "failed",
    error: "Assertion failed",
    steps: [step({ kind: "Assert", status: "failed", screenshot: shots[0] })],
  }));
  return (await writer.finalize())!;
}

function attrs(id: string, status: ReportAttributes["testStatus"] = "passed"): ReportAttributes {
  return {
    testId: id,
    testTitle: `Title ${id}`,
    testDescription: `Description of ${id}`,
    testDuration: 1234,
    testStatus: status,
  };
}

async function exists(file: string): Promise<boolean> {
  return await stat(file).then(() => true, () => false);
}

async function parse(file: string) {
  return parseReportHtml(await readFile(file, "utf8"));
}

test("append() throws a TypeError naming reportFilePath when it is missing and the test was not skipped", () => {
  const tool = new ReportMergingTool();
  for (const status of ["passed", "failed", "timedOut", "interrupted"] as const) {
    for (const reportFilePath of [undefined, null, ""]) {
      assert.throws(
        () => tool.append({ reportFilePath, reportAttributes: attrs("t", status) }),
        (e: Error) =>
          e instanceof TypeError && /'reportFilePath' is required/.test(e.message) &&
          e.message.includes(`'${status}'`) && e.message.includes("test 't'"),
      );
    }
  }
  tool.append({ reportAttributes: attrs("skipped", "skipped") });
  tool.append({ reportFilePath: null, reportAttributes: attrs("skipped2", "skipped") });
});

test("append() validates the attributes with errors naming the field and value", () => {
  const tool = new ReportMergingTool();
  const bad: [unknown, RegExp][] = [
    [undefined, /argument must be an object/],
    [
      { reportFilePath: "a.html" },
      /'reportAttributes' must be an object: current value is undefined/,
    ],
    [{ reportFilePath: 3, reportAttributes: attrs("a") }, /'reportFilePath' must be a string/],
    [
      { reportFilePath: "a.html", reportAttributes: { ...attrs("a"), testId: 1 } },
      /'reportAttributes.testId' must be a string: current value is 1/,
    ],
    [
      { reportFilePath: "a.html", reportAttributes: { ...attrs("a"), testTitle: undefined } },
      /'reportAttributes.testTitle' must be a string/,
    ],
    [
      { reportFilePath: "a.html", reportAttributes: { ...attrs("a"), testDescription: null } },
      /'reportAttributes.testDescription' must be a string: current value is null/,
    ],
    [
      { reportFilePath: "a.html", reportAttributes: { ...attrs("a"), testDuration: -1 } },
      /'reportAttributes.testDuration' must be a finite number of ms, 0 or more: current value is -1/,
    ],
    [
      { reportFilePath: "a.html", reportAttributes: { ...attrs("a"), testDuration: NaN } },
      /testDuration.*NaN/,
    ],
    [
      { reportFilePath: "a.html", reportAttributes: { ...attrs("a"), testStatus: "ok" } },
      /'reportAttributes.testStatus' must be one of 'passed', 'failed', 'timedOut', 'skipped', 'interrupted': current value is 'ok'/,
    ],
  ];
  for (const [info, message] of bad) {
    assert.throws(() => tool.append(info as ReportFileWithAttributes), (e: Error) => {
      assert.ok(e instanceof TypeError, `TypeError for ${JSON.stringify(info)}`);
      assert.match(e.message, message);
      return true;
    });
  }
});

test("mergeReports() returns null when nothing was appended, also after clear()", async () => {
  await withRunDir(async (dir) => {
    const tool = new ReportMergingTool();
    assert.equal(await tool.mergeReports(), null);
    assert.equal(await tool.mergeReports("named", { overwrite: true }), null);
    await assert.rejects(tool.mergeReports("a/b"), TypeError, "arguments are checked first");
    tool.append({ reportAttributes: attrs("s", "skipped") });
    tool.clear();
    assert.equal(await tool.mergeReports(), null);
    assert.equal(await exists(join(dir, "report")), false, "nothing written");
  });
});

test("mergeReports('AUTO') writes <run dir>/report/merged-report-<time>-<hex>.html listing every source with its executions, ids prefixed, screenshots once", async () => {
  const a = await images(1), b = await images(2);
  await withRunDir(async (dir) => {
    const first = await writeReport("first", { shots: [a.jpeg, b.png] });
    const second = await writeReport("second", { shots: [a.jpeg] });
    const tool = new ReportMergingTool();
    tool.append({ reportFilePath: first, reportAttributes: attrs("one") });
    tool.append({ reportFilePath: second, reportAttributes: attrs("two", "failed") });
    tool.append({ reportAttributes: attrs("three", "skipped") });
    const out = (await tool.mergeReports())!;
    assert.equal(dirname(out), join(dir, "report"));
    assert.match(basename(out), /^merged-report-\d{4}-\d\d-\d\d_\d\d-\d\d-\d\d-[0-9a-f]{4}\.html$/);
    const auto = (await tool.mergeReports("AUTO"))!;
    assert.notEqual(auto, out, "each AUTO name is new");

    const merged = await parse(out);
    assert.equal(merged.meta?.name, basename(out, ".html"));
    assert.equal(merged.meta?.interfaceType, "merged");
    assert.deepEqual(
      merged.sources.map((s) => [s.id, s.testId, s.testStatus, s.reportName, s.executionIds]),
      [
        ["s1", "one", "passed", "first", ["s1:1", "s1:2"]],
        ["s2", "two", "failed", "second", ["s2:1", "s2:2"]],
        ["s3", "three", "skipped", undefined, []],
      ],
    );
    const s1: SourceTagPayload = merged.sources[0];
    assert.equal(s1.testTitle, "Title one");
    assert.equal(s1.testDescription, "Description of one");
    assert.equal(s1.testDuration, 1234);
    assert.equal(s1.interfaceType, "web-page");
    const original = await parse(first);
    assert.deepEqual(
      merged.executions.slice(0, 2),
      original.executions.map((e) => ({ ...e, id: `s1:${e.id}` })),
      "executions kept whole",
    );
    assert.deepEqual(merged.executions.map((e) => e.prompt), [
      "tap in first",
      "assert in first",
      "tap in second",
      "assert in second",
    ]);
    // The shared JPEG is stored once; every step's screenshot is there, inline.
    assert.equal(merged.screenshots.size, 2);
    for (const e of merged.executions) {
      for (const s of e.steps) assert.match(merged.screenshots.get(s.screenshot!)!, /^data:image/);
    }
    assert.equal(merged.screenshots.get(original.executions[0].steps[0].screenshot!), a.jpeg);
    // The sources are kept.
    assert.ok(await exists(first) && await exists(second));
    // A temp file never stays behind.
    assert.deepEqual(
      (await readdir(join(dir, "report"))).filter((f) => f.endsWith(".tmp")),
      [],
    );
  });
});

test("mergeReports(name) takes a custom name with or without .html, and refuses to replace an existing report unless overwrite: true", async () => {
  await withRunDir(async (dir) => {
    const file = await writeReport("src");
    const tool = new ReportMergingTool();
    tool.append({ reportFilePath: file, reportAttributes: attrs("one") });
    const plain = await tool.mergeReports("nightly");
    assert.equal(plain, join(dir, "report", "nightly.html"));
    await assert.rejects(
      tool.mergeReports("nightly.html"),
      (e: Error) =>
        e.message.includes(join(dir, "report", "nightly.html")) &&
        e.message.includes("overwrite: true") && !(e instanceof TypeError),
    );
    await assert.rejects(tool.mergeReports("nightly", { overwrite: false }), /already exists/);
    tool.append({ reportFilePath: file, reportAttributes: attrs("again") });
    assert.equal(await tool.mergeReports("nightly.html", { overwrite: true }), plain);
    assert.equal((await parse(plain!)).sources.length, 2, "replaced by the new merge");
    assert.equal(await tool.mergeReports("Weekly.HTML"), join(dir, "report", "Weekly.html"));

    for (const name of ["a/b", "..", "", "  ", "x\\y"]) {
      await assert.rejects(tool.mergeReports(name), TypeError, `name ${JSON.stringify(name)}`);
    }
    await assert.rejects(
      tool.mergeReports("x", { overwrite: "yes" as unknown as boolean }),
      /'opts.overwrite' must be a boolean/,
    );
    await assert.rejects(tool.mergeReports("x", { outputDir: "" }), /'opts.outputDir'/);
  });
});

test("mergeReports() resolves a relative outputDir from the working directory", async () => {
  await withRunDir(async (dir) => {
    const file = await writeReport("src");
    const tool = new ReportMergingTool();
    tool.append({ reportFilePath: relative(process.cwd(), file), reportAttributes: attrs("one") });
    const outDir = relative(process.cwd(), join(dir, "elsewhere", "merged"));
    assert.ok(!outDir.startsWith("/"), "a relative path");
    const out = await tool.mergeReports("rel", { outputDir: outDir });
    assert.equal(out, join(dir, "elsewhere", "merged", "rel.html"));
    assert.equal((await parse(out!)).executions.length, 2);
  });
});

test("an html-and-external-assets source makes a directory output with index.html and screenshots named after their real format", async () => {
  const a = await images(3), b = await images(4), c = await images(5);
  await withRunDir(async (dir) => {
    // One single-html source (inline JPEG and PNG) and one external source (JPEG file).
    const single = await writeReport("inline", { shots: [a.jpeg, b.png] });
    const external = await writeReport("ext", {
      format: "html-and-external-assets",
      shots: [c.jpeg, a.jpeg],
    });
    assert.equal(basename(external), "index.html");
    const tool = new ReportMergingTool();
    tool.append({ reportFilePath: single, reportAttributes: attrs("one") });
    tool.append({ reportFilePath: dirname(external), reportAttributes: attrs("two") });
    const out = (await tool.mergeReports("mixed.html"))!;
    assert.equal(out, join(dir, "report", "mixed", "index.html"));
    const merged = await parse(out);
    assert.equal(merged.sources.length, 2);
    assert.equal(merged.screenshots.size, 3, "the shared JPEG once");
    const files = (await readdir(join(dir, "report", "mixed", "screenshots"))).sort();
    assert.equal(files.length, 3);
    assert.deepEqual(files.map((f) => f.split(".").pop()).sort(), ["jpg", "jpg", "png"]);
    for (const [id, src] of merged.screenshots) {
      assert.match(src, /^screenshots\/[A-Za-z0-9._-]+\.(jpg|png)$/);
      assert.ok(src.startsWith(`screenshots/${id}.`));
      const bytes = await readFile(join(dir, "report", "mixed", src));
      const isJpeg = bytes[0] === 0xff && bytes[1] === 0xd8;
      assert.equal(src.endsWith(".jpg"), isJpeg, `${src} named after its bytes`);
    }
    // The same bytes as the originals.
    const pngId = (await parse(single)).executions[0].steps[1].screenshot!;
    const png = await readFile(join(dir, "report", "mixed", merged.screenshots.get(pngId)!));
    assert.equal(`data:image/png;base64,${png.toString("base64")}`, b.png);
    // The CSP lets the page load the files.
    assert.match(await readFile(out, "utf8"), /img-src data: file: http: https:/);

    // Overwriting a directory output replaces it whole.
    await writeFile(join(dirname(out), "stale.txt"), "old");
    await assert.rejects(tool.mergeReports("mixed"), /mixed already exists.*overwrite: true/s);
    assert.equal(await tool.mergeReports("mixed", { overwrite: true }), out);
    assert.equal(await exists(join(dirname(out), "stale.txt")), false);
    assert.equal((await readdir(join(dir, "report"))).filter((f) => f.includes(".tmp")).length, 0);
  });
});

test("rmOriginalReports removes the sources and their screenshot folders after a successful merge only", async () => {
  const a = await images(6);
  await withRunDir(async (dir) => {
    const single = await writeReport("gone", { shots: [a.jpeg] });
    const external = await writeReport("gone-ext", {
      format: "html-and-external-assets",
      shots: [a.png],
    });
    const foreign = join(dir, "not-a-report.html");
    await writeFile(foreign, "<!doctype html><p>hello</p>");

    const failing = new ReportMergingTool();
    failing.append({ reportFilePath: single, reportAttributes: attrs("one") });
    failing.append({ reportFilePath: foreign, reportAttributes: attrs("bad") });
    await assert.rejects(failing.mergeReports("fail", { rmOriginalReports: true }));
    assert.ok(await exists(single), "kept after a failed merge");
    assert.equal(await exists(join(dir, "report", "fail.html")), false);

    const tool = new ReportMergingTool();
    tool.append({ reportFilePath: single, reportAttributes: attrs("one") });
    tool.append({ reportFilePath: external, reportAttributes: attrs("two") });
    const out = (await tool.mergeReports("all", { rmOriginalReports: true }))!;
    assert.equal(await exists(single), false);
    assert.equal(await exists(dirname(external)), false, "the external report's directory");
    const merged = await parse(out);
    assert.equal(merged.executions.length, 4);
    for (const src of merged.screenshots.values()) {
      assert.ok(await exists(join(dirname(out), src)), `${src} copied before removal`);
    }
  });
});

test("a missing source, an HTML file of another kind and a report cut short inside its page are errors naming the file; a report cut inside a data tag merges what is complete", async () => {
  await withRunDir(async (dir) => {
    const good = await writeReport("good");
    const html = await readFile(good, "utf8");
    const cases: [string, string, RegExp][] = [
      [join(dir, "missing.html"), "", /does not exist/],
      [
        join(dir, "other.html"),
        "<!doctype html><title>x</title><p>Not a report</p>",
        /not a report of this SDK/,
      ],
      [
        join(dir, "cut-page.html"),
        html.slice(0, html.indexOf('<script type="sdk-meta"') - 50),
        /not a report of this SDK/,
      ],
      [
        join(dir, "no-header.html"),
        html.replace(/<script type="sdk-meta">[^<]*<\/script>/, ""),
        /not a report of this SDK/,
      ],
      [join(dir, "dir.html"), "", /not a file|does not exist/],
    ];
    await mkdir(join(dir, "dir.html"));
    for (const [file, text, message] of cases) {
      if (text) await writeFile(file, text);
      const tool = new ReportMergingTool();
      tool.append({ reportFilePath: good, reportAttributes: attrs("good") });
      tool.append({ reportFilePath: file, reportAttributes: attrs("broken") });
      await assert.rejects(tool.mergeReports("broken"), (e: Error) => {
        assert.match(e.message, message);
        assert.ok(e.message.includes(file), `names ${file}: ${e.message}`);
        assert.ok(e.message.includes("'broken'"), "names the test");
        return true;
      });
      assert.deepEqual(
        (await readdir(join(dir, "report"))).filter((f) =>
          f.startsWith("broken") || f.includes(".tmp")
        ),
        [],
        "nothing written",
      );
    }

    // Cut inside the last execution tag (a crash mid-append): the complete executions merge.
    const cut = join(dir, "cut-tag.html");
    const last = html.lastIndexOf('<script type="sdk-execution"');
    await writeFile(cut, html.slice(0, last + 60));
    const tool = new ReportMergingTool();
    tool.append({ reportFilePath: cut, reportAttributes: attrs("cut", "interrupted") });
    const merged = await parse((await tool.mergeReports("from-cut"))!);
    assert.deepEqual(merged.executions.map((e) => e.id), ["s1:1"]);
    assert.equal(merged.sources[0].testStatus, "interrupted");
  });
});

test("titles and descriptions are escaped in the merged file", async () => {
  const evil = `</script><img src=x onerror=alert(1)><script>alert(2)</script>`;
  await withRunDir(async () => {
    const file = await writeReport("x");
    const tool = new ReportMergingTool();
    tool.append({
      reportFilePath: file,
      reportAttributes: { ...attrs(`id" ${evil}`), testTitle: evil, testDescription: evil },
    });
    const out = (await tool.mergeReports(`name&<b>`))!;
    const html = await readFile(out, "utf8");
    assert.ok(!html.includes("<img src=x"));
    assert.ok(!html.includes("<script>alert"));
    assert.equal((html.match(/<\/script>/g) ?? []).length, (html.match(/<script/g) ?? []).length);
    const [source] = parseReportHtml(html).sources;
    assert.equal(source.testTitle, evil);
    assert.equal(source.testDescription, evil);
    assert.equal(source.testId, `id" ${evil}`);
  });
});

test("a source larger than the read chunk merges whole: tags across chunk boundaries, delta tags folded", async () => {
  await withRunDir(async () => {
    const writer = await ReportWriter.create({
      name: "big",
      meta: { sdkVersion: "0.1.0", interfaceType: "web-page" },
    });
    // 14 screenshots of 350 KB: about 5 MB, so tags straddle several 1 MB chunks.
    const act = execution({ id: "act", apiName: "aiAct", status: "running", steps: [] });
    for (let i = 0; i < 14; i++) {
      act.steps.push(
        step({ title: `Step ${i}`, screenshot: writer.addScreenshot(fakePng(i, 350_000)) }),
      );
      await writer.writeExecution(act); // a delta tag per step, as an agent writes
    }
    act.status = "passed";
    await writer.writeExecution(act);
    const file = (await writer.finalize())!;
    assert.ok((await stat(file)).size > 4_900_000);
    const tool = new ReportMergingTool();
    tool.append({ reportFilePath: file, reportAttributes: attrs("big") });
    tool.append({ reportFilePath: file, reportAttributes: attrs("again") });
    const merged = await parse((await tool.mergeReports("big-merged"))!);
    const original = await parse(file);
    assert.deepEqual(merged.executions, [
      { ...original.executions[0], id: "s1:act" },
      { ...original.executions[0], id: "s2:act" },
    ]);
    assert.equal(merged.executions[0].steps.length, 14);
    assert.deepEqual(merged.screenshots, original.screenshots, "each screenshot once, intact");
  });
});
