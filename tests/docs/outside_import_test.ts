/**
 * docs/architecture.md "Using the packages": a Deno program in a folder outside this workspace
 * imports `jsr:@sdk/computer` (and `@sdk/web`, `@sdk/core/report`) from a checkout by linking it in
 * its `deno.json`: the checkout's folder, or one member's folder (the workspace brings the rest).
 *
 * @module
 */

import { test } from "../helpers/test.ts";
import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

const MAIN = `import { agentForComputer } from "jsr:@sdk/computer@^0.1.0";
import { DriverBPageAgent } from "jsr:@sdk/web@^0.1.0";
import { ReportMergingTool } from "jsr:@sdk/core@^0.1.0/report";
console.log(typeof agentForComputer, typeof DriverBPageAgent, typeof ReportMergingTool);
`;

/** Runs main.ts in a fresh folder outside the workspace whose deno.json links `members`. */
async function runOutside(members: string[]) {
  const dir = await mkdtemp(join(tmpdir(), "sdk-outside-"));
  try {
    await writeFile(
      join(dir, "deno.json"),
      JSON.stringify({ links: members.map((m) => join(ROOT, m)) }),
    );
    await writeFile(join(dir, "main.ts"), MAIN);
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "--allow-all", "main.ts"],
      cwd: dir,
      stdin: "null",
    }).output();
    const decode = (b: Uint8Array) => new TextDecoder().decode(b);
    return { code: out.code, stdout: decode(out.stdout), stderr: decode(out.stderr) };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

test(
  "a Deno program outside the workspace imports the members by jsr: specifiers, linked to this checkout",
  {
    timeout: 180_000,
  },
  async () => {
    for (const links of [["."], ["computer"]]) {
      const run = await runOutside(links);
      assert.equal(run.code, 0, `links ${links}: ${run.stderr}`);
      assert.equal(run.stdout, "function function function\n", `links ${links}`);
    }
  },
);
