/**
 * The README and docs/*.md as a reader meets them: every code fence closes where it was meant to
 * (a fence-like line that neither opens nor closes one turns prose into code), every relative link
 * names a file that exists and an anchor that one of its headings makes, and every TypeScript
 * sample that imports something type-checks as it is written, with the workspace's `deno check`
 * (no DOM lib, the lockfile frozen: a sample that would add to `deno.lock`, such as an unversioned
 * `npm:` import, fails).
 *
 * @module
 */

import { test } from "../helpers/test.ts";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, dirname, join, relative, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { CHROMIUM_CANDIDATES } from "@sdk/web/chromium";
import {
  MEMBER_OPTIONAL_PEERS,
  OPTIONAL_PEER_DEPENDENCIES,
} from "../../scripts/npm_build/config.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** README.md and every page of docs/. */
export async function markdownFiles(): Promise<string[]> {
  const docs = (await readdir(join(ROOT, "docs"))).filter((f) => f.endsWith(".md")).sort();
  return [join(ROOT, "README.md"), ...docs.map((f) => join(ROOT, "docs", f))];
}

/** A fenced code block of a Markdown file. */
export interface CodeBlock {
  /** The info string's first word (`ts`, `yaml`, ...), or "". */
  lang: string;
  /** 1-based line of the opening fence. */
  line: number;
  /** The lines between the fences, with the fence's indentation removed. */
  body: string;
}

/** What {@link scanMarkdown} finds: the code blocks, the prose lines, and broken fences. */
export interface ScannedMarkdown {
  blocks: CodeBlock[];
  /** Lines outside code blocks, with their 1-based numbers. */
  prose: { line: number; text: string }[];
  /** Each problem, `line N: ...`. */
  problems: string[];
}

const FENCE = /^( {0,3})(`{3,}|~{3,})(.*)$/;

/**
 * Reads the fences of a Markdown text as CommonMark does: a block closes at a line of the same
 * character, at least as long, with nothing after it. A line that starts like a fence but neither
 * opens nor closes one (```` ``` `x` text ````: backticks in a backtick fence's info string), inside
 * or outside a block, is a problem: it is what a fence meant to close something looks like.
 */
export function scanMarkdown(text: string): ScannedMarkdown {
  const lines = text.split("\n");
  const out: ScannedMarkdown = { blocks: [], prose: [], problems: [] };
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i]);
    if (!open) {
      out.prose.push({ line: i + 1, text: lines[i] });
      continue;
    }
    const [, indent, fence, info] = open;
    const start = i + 1;
    if (fence[0] === "`" && info.includes("`")) {
      out.problems.push(
        `line ${i + 1}: ${JSON.stringify(lines[i])} neither opens nor closes a fence`,
      );
      out.prose.push({ line: i + 1, text: lines[i] });
      continue;
    }
    const body: string[] = [];
    let closed = false;
    for (i++; i < lines.length; i++) {
      const close = FENCE.exec(lines[i]);
      if (close && close[2][0] === fence[0]) {
        if (close[2].length >= fence.length && close[3].trim() === "") {
          closed = true;
          break;
        }
        // A shorter fence with an info string may open a sample inside a longer block; with a
        // backtick in it, it can be neither.
        if (!(fence[0] === "`" && close[3].includes("`"))) {
          body.push(lines[i].startsWith(indent) ? lines[i].slice(indent.length) : lines[i]);
          continue;
        }
        out.problems.push(
          `line ${i + 1}: ${JSON.stringify(lines[i])} inside the ${fence} block of line ${start} ` +
            `neither closes it nor opens a sample: text after a fence cannot hold a backtick`,
        );
      }
      body.push(lines[i].startsWith(indent) ? lines[i].slice(indent.length) : lines[i]);
    }
    if (!closed) out.problems.push(`line ${start}: the ${fence} block never closes`);
    out.blocks.push({
      lang: info.trim().split(/\s+/)[0] ?? "",
      line: start,
      body: body.join("\n"),
    });
  }
  return out;
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
export function headingSlug(heading: string): string {
  return heading.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, "").replace(/\s/g, "-");
}

/** The anchors of a Markdown text's headings (a repeated heading gets `-1`, `-2`, ...). */
export function anchorsOf(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const { text: line } of scanMarkdown(text).prose) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const slug = headingSlug(heading[1]);
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    anchors.add(n === 0 ? slug : `${slug}-${n}`);
  }
  for (const m of text.matchAll(/<a (?:id|name)="([^"]+)"/g)) anchors.add(m[1]);
  return anchors;
}

/** The link targets of the prose of a Markdown text (inline code spans left out). */
export function linksOf(text: string): { line: number; target: string }[] {
  const links: { line: number; target: string }[] = [];
  for (const { line, text: prose } of scanMarkdown(text).prose) {
    const plain = prose.replace(/(`+)[^`]*?\1/g, "");
    for (const m of plain.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      links.push({ line, target: m[1] });
    }
  }
  return links;
}

test("the docs' code fences each close where they were meant to", async () => {
  const problems: string[] = [];
  for (const file of await markdownFiles()) {
    const scanned = scanMarkdown(await readFile(file, "utf8"));
    for (const p of scanned.problems) problems.push(`${relative(ROOT, file)} ${p}`);
  }
  assert.deepEqual(problems, []);
});

test("the fence check: a four-backtick block closed by a three-backtick line with text is found", () => {
  const broken = "````yaml\na: 1\n``` `computer:` is recognised\nprose\n````\n";
  assert.equal(scanMarkdown(broken).problems.length, 1, scanMarkdown(broken).problems.join());
  assert.match(scanMarkdown("```ts\nx\n").problems[0], /never closes/);
  const nested = "````md\n```ts\nx\n```\n````\n";
  assert.deepEqual(scanMarkdown(nested).problems, []);
  assert.equal(scanMarkdown(nested).blocks[0].body, "```ts\nx\n```");
});

test("every relative link of the docs names a file that exists and an anchor of it", async () => {
  const problems: string[] = [];
  const anchorCache = new Map<string, Set<string>>();
  const anchors = async (file: string) => {
    if (!anchorCache.has(file)) anchorCache.set(file, anchorsOf(await readFile(file, "utf8")));
    return anchorCache.get(file)!;
  };
  for (const file of await markdownFiles()) {
    for (const { line, target } of linksOf(await readFile(file, "utf8"))) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:: not checked offline
      const [path, anchor] = target.split("#");
      const where = `${relative(ROOT, file)}:${line}: (${target})`;
      const linked = path ? resolve(dirname(file), decodeURIComponent(path)) : file;
      if (!existsSync(linked)) {
        problems.push(`${where}: no such file ${relative(ROOT, linked)}`);
        continue;
      }
      if (anchor !== undefined && linked.endsWith(".md") && !(await anchors(linked)).has(anchor)) {
        problems.push(`${where}: ${basename(linked)} has no heading with the anchor #${anchor}`);
      }
    }
  }
  assert.deepEqual(problems, []);
});

test("the anchors are GitHub's", () => {
  const text = "# A `x.y` title\n## Private displays and the children's environment\n## A\n## A\n";
  assert.deepEqual([...anchorsOf(text)], [
    "a-xy-title",
    "private-displays-and-the-childrens-environment",
    "a",
    "a-1",
  ]);
});

/**
 * The names a sample may use without declaring them, as the docs' prose gives them: the page a
 * user opened and the agent they made.
 */
const GIVEN: Record<string, string> = {
  page: `import type { Page as __Page } from "playwright-core";\ndeclare const page: __Page;`,
  agent: `import type { Agent as __Agent } from "@sdk/core";\ndeclare const agent: __Agent;`,
};

/**
 * A sample as a module of this workspace: `jsr:@sdk/x@^0.1.0` and `npm:@sdk/x` (how a program
 * outside the workspace names a member) become `@sdk/x`; `page` and `agent` are declared when the
 * sample uses them without declaring them.
 */
function sampleModule(body: string): string {
  const code = body.replace(
    /(["'])(?:jsr|npm):(@sdk\/[a-z]+)(?:@[^/"']*)?(\/[^"']*)?\1/g,
    "$1$2$3$1",
  );
  const prelude = Object.entries(GIVEN)
    .filter(([name]) =>
      new RegExp(`\\b${name}\\b`).test(code) &&
      !new RegExp(`\\b(const|let|var|function)\\s+${name}\\b|\\{[^}]*\\b${name}\\b[^}]*\\}\\s*=`)
        .test(code)
    )
    .map(([, declaration]) => declaration);
  // Declarations after the code: the sample's line numbers stay its own.
  return `${code}\n${prelude.join("\n")}\n`;
}

test("every TypeScript sample of the docs that imports something type-checks as written", {
  timeout: 240_000,
}, async () => {
  const dir = await mkdtemp(join(tmpdir(), "sdk-doc-samples-"));
  try {
    const samples: { file: string; where: string }[] = [];
    for (const md of await markdownFiles()) {
      for (const block of scanMarkdown(await readFile(md, "utf8")).blocks) {
        if (!["ts", "typescript"].includes(block.lang) || !/^import /m.test(block.body)) continue;
        if (/^\s*```/m.test(block.body)) continue;
        // A sample that names its file (`// fixtures.ts`) is written under that name beside the
        // page's other named samples, so one may import another (`./fixtures.ts`).
        const named = /^\/\/ ([\w.-]+\.ts)\n/.exec(block.body)?.[1];
        const file = named
          ? join(dir, basename(md, ".md"), named)
          : join(dir, `${basename(md, ".md")}_${block.line}.ts`);
        await mkdir(dirname(file), { recursive: true });
        await writeFile(file, sampleModule(block.body));
        samples.push({ file, where: `${relative(ROOT, md)}:${block.line}` });
      }
    }
    assert.ok(samples.length >= 30, `found ${samples.length} samples`);
    const output = await new Promise<string>((done) => {
      execFile(
        Deno.execPath(),
        [
          "check",
          "--frozen",
          "--quiet",
          "--config",
          join(ROOT, "deno.json"),
          ...samples.map((s) => s.file),
        ],
        { cwd: ROOT, maxBuffer: 16 * 1024 * 1024, env: { ...Deno.env.toObject(), NO_COLOR: "1" } },
        (error, stdout, stderr) => done(error ? `${stdout}${stderr}` : ""),
      );
    });
    // Each sample named by its page and the line of its fence; line numbers count from there.
    let shown = output;
    for (const sample of samples) {
      shown = shown.split(pathToFileURL(sample.file).href).join(`${sample.where} (the sample)`);
    }
    assert.equal(shown, "", "every sample type-checks, and none adds to deno.lock");
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test("the Playwright Test config of docs/playwright-test.md launches the system Chromium, not a download", async () => {
  const page = join(ROOT, "docs/playwright-test.md");
  const sample = scanMarkdown(await readFile(page, "utf8")).blocks
    .find((b) => b.body.startsWith("// playwright.config.ts"));
  assert.ok(sample, "docs/playwright-test.md has a playwright.config.ts sample");
  const dir = await mkdtemp(join(tmpdir(), "sdk-pw-config-"));
  const saved = Deno.env.get("SDK_CHROMIUM_PATH");
  try {
    const file = join(dir, "playwright.config.ts");
    await writeFile(file, sample.body);
    Deno.env.delete("SDK_CHROMIUM_PATH");
    const config = (await import(pathToFileURL(file).href)).default as {
      use?: { launchOptions?: { executablePath?: string } };
    };
    assert.equal(config.use?.launchOptions?.executablePath, "/usr/bin/chromium");
    assert.equal((CHROMIUM_CANDIDATES as readonly string[])[0], "/usr/bin/chromium");
  } finally {
    if (saved !== undefined) Deno.env.set("SDK_CHROMIUM_PATH", saved);
    await rm(dir, { recursive: true, force: true });
  }
});

/** Each member's package name and folder. */
const MEMBERS = ["core", "web", "mobilea", "mobileb", "mobilec", "computer", "cli"];

/**
 * The SDK packages each package needs installed beside it, closed over (what npm must be given in
 * one install while the registry has none of them): the `@sdk/*` its product files import, less
 * its optional peers.
 */
async function requiredSdkPackages(): Promise<Map<string, Set<string>>> {
  const direct = new Map<string, Set<string>>();
  for (const member of MEMBERS) {
    const name = `@sdk/${member}`;
    const needs = new Set<string>();
    const walk = async (dir: string): Promise<void> => {
      for (const entry of await readdir(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) await walk(path);
        else if (entry.name.endsWith(".ts") && !entry.name.endsWith("_test.ts")) {
          const source = await readFile(path, "utf8");
          for (const m of source.matchAll(/(?:from |import\()\s*"(@sdk\/[a-z]+)/g)) needs.add(m[1]);
        }
      }
    };
    await walk(join(ROOT, member));
    needs.delete(name);
    for (const peer of [...OPTIONAL_PEER_DEPENDENCIES, ...(MEMBER_OPTIONAL_PEERS[name] ?? [])]) {
      needs.delete(peer);
    }
    direct.set(name, needs);
  }
  const closed = new Map<string, Set<string>>();
  for (const name of direct.keys()) {
    const all = new Set<string>();
    const visit = (n: string) => {
      for (const d of direct.get(n) ?? []) if (!all.has(d)) all.add(d) && visit(d);
    };
    visit(name);
    closed.set(name, all);
  }
  return closed;
}

/** The SDK packages a text names: `@sdk/x`, or the tarball `sdk-x-<version>.tgz`. */
function sdkPackagesNamed(text: string): Set<string> {
  const names = new Set<string>();
  for (const m of text.matchAll(/@sdk\/([a-z]+)|\bsdk-([a-z]+)-\d[\w.-]*\.tgz/g)) {
    names.add(`@sdk/${m[1] ?? m[2]}`);
  }
  return names;
}

test("every npm install of SDK packages the docs give names the SDK packages they need (npm has none of them yet)", async () => {
  const required = await requiredSdkPackages();
  assert.deepEqual([...required.get("@sdk/cli")!].sort(), ["@sdk/core", "@sdk/web"]);
  assert.deepEqual([...required.get("@sdk/computer")!], ["@sdk/core"]);
  const problems: string[] = [];
  for (const file of await markdownFiles()) {
    const text = await readFile(file, "utf8");
    // An install command (in code or inline code), or prose naming the packages to have installed.
    const installs = [
      ...text.matchAll(/npm install[^`\n]*/g),
      ...text.matchAll(/npm packages? [^.;\n]*installed/g),
    ];
    for (const install of installs) {
      const named = sdkPackagesNamed(install[0]);
      const missing = [...named].flatMap((n) => [...(required.get(n) ?? [])])
        .filter((n, i, all) => !named.has(n) && all.indexOf(n) === i);
      if (missing.length > 0) {
        const line = text.slice(0, install.index).split("\n").length;
        problems.push(
          `${relative(ROOT, file)}:${line}: "${install[0].trim()}" leaves out ${
            missing.join(", ")
          }`,
        );
      }
    }
  }
  assert.deepEqual(problems, []);
});
