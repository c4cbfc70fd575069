/**
 * What a script marked `untrusted` may not do, checked on its text before anything runs
 * (docs/security.md, "Running scripts you did not write"). Each refusal is a
 * {@link YamlScriptError} with the file, line and column, gathered with the file's other errors:
 *
 * - items that reach past the screen: `runBridgeShell`, `runToolShell`, `runDriverRequest` (any
 *   form, `{ command }` included) and `javascript`;
 * - section keys that add powers beyond the screen to the model's action space
 *   (`exposeRunBridgeShellAction: true`, ...) or name a program to run (`bridgePath`, ...), as
 *   each platform's section schema lists them ({@link ScriptSectionSchema.untrusted});
 * - the `agent` section's `modelConfig` (it would send the screens to an endpoint the script
 *   names) and a `reportFileName` with a folder in it;
 * - a `web` `url` other than `http:` / `https:` (without `serve`);
 * - files outside the working folder: `output`, `serve`, `cookie`, `cache.cacheDir`,
 *   `fileChooserAccept`, `fileChooserAllowedDir` and local prompt images, after `..` and
 *   symlinks.
 *
 * Environment variables are refused where they are read (./script_trust.ts).
 *
 * @module
 */

import { cwd, nodePath, realPathInfo } from "../runtime/runtime.ts";
import { interpolateEnvVars } from "./env_vars.ts";
import { FORMER_WEB_KEYS, type ScriptSectionSchema, WEB_SECTION_KEY } from "./script_sections.ts";
import type { ScriptTrustOptions } from "./script_trust.ts";
import { childAt, collect, failAt, type ReadContext } from "./value_readers.ts";
import type { SourcePosition, YamlMapNode, YamlNode } from "./yaml_parse.ts";

/** Flow items an untrusted script may not use, and why. */
export const UNTRUSTED_REFUSED_ITEMS: Readonly<Record<string, string>> = {
  runBridgeShell: "runs a command in the device's shell",
  runToolShell: "runs a command in the device's shell",
  runDriverRequest: "sends a raw request to the device's driver",
  javascript: "runs JavaScript in the page",
};

type PathModule = Awaited<ReturnType<typeof nodePath>>;

/** What the check needs besides the tree. */
interface CheckScope {
  readonly at: ReadContext;
  readonly trust: ScriptTrustOptions;
  readonly path: PathModule;
  /** The working folder. */
  readonly workDir: string;
  /** The script's folder (its relative paths resolve from here). */
  readonly scriptDir: string;
}

const HOW = "(run it without untrusted / --untrusted only if you trust it)";

/**
 * Checks a whole script's tree for what an untrusted script may not do; every refusal joins the
 * file's errors in `at`'s collector.
 *
 * @param node the script's top-level mapping.
 * @param at the file's read context (with a collector).
 * @param trust the trust options (`untrusted` is set).
 * @param platform the platform section's schema, when the script runs on a device platform.
 */
export async function checkUntrustedScript(
  node: YamlMapNode,
  at: ReadContext,
  trust: ScriptTrustOptions,
  platform?: ScriptSectionSchema<Record<string, unknown>>,
): Promise<void> {
  const path = await nodePath();
  const workDir = path.resolve(cwd(), trust.workDir ?? ".");
  const scope: CheckScope = {
    at,
    trust,
    path,
    workDir,
    // A file named as typed is relative to the working folder.
    scriptDir: path.dirname(path.resolve(workDir, at.fileName)),
  };
  for (const entry of node.entries) {
    const sectionAt = childAt(at, entry.key, "the script");
    if (entry.key === "tasks") await checkTasks(entry.value, scope);
    else if (entry.key === "agent") await checkAgent(entry.value, sectionAt, scope);
    else if (entry.key === WEB_SECTION_KEY || Object.hasOwn(FORMER_WEB_KEYS, entry.key)) {
      await checkWeb(entry.value, sectionAt, scope);
    } else if (platform && entry.key === platform.key) {
      await checkPlatform(entry.value, sectionAt, scope, platform);
    }
  }
}

function refuse(at: ReadContext, pos: SourcePosition, message: string): void {
  collect(at, () => failAt(at, pos, `${message} ${HOW}`));
}

/** A scalar's text with the variables it may read; `undefined` when it reads one it may not. */
function textOf(node: YamlNode, scope: CheckScope): string | undefined {
  if (node.kind !== "scalar" || node.value === null) return undefined;
  if (typeof node.value !== "string") return node.source;
  let refused = false;
  const r = interpolateEnvVars(node.value, (name) => {
    if (scope.at.refuseEnv?.(name) !== undefined) {
      refused = true;
      return "";
    }
    return scope.at.env(name);
  });
  return refused || r.missing.length ? undefined : r.value;
}

/**
 * Whether the path `p` lies inside `folder`, after `..` and the symlinks of the part of `p` that
 * exists (a symlink inside that leads out is outside).
 *
 * @param p a path; relative paths resolve from the working directory.
 * @param folder the folder; relative to the working directory too.
 */
export async function isInsideFolder(p: string, folder: string): Promise<boolean> {
  const path = await nodePath();
  const dir = path.resolve(cwd(), folder);
  const real = (await realPathInfo(dir))?.real ?? dir;
  const full = path.resolve(cwd(), p);
  const within = (d: string, q: string) => {
    const rel = path.relative(d, q);
    return rel === "" ||
      (rel !== ".." && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel));
  };
  if (!within(dir, full) && !within(real, full)) return false;
  // The deepest part that exists, with its symlinks resolved, and the rest after it.
  let existing = full;
  const rest: string[] = [];
  for (;;) {
    const info = await realPathInfo(existing);
    if (info) return within(real, path.join(info.real, ...rest));
    const parent = path.dirname(existing);
    if (parent === existing) return false;
    rest.unshift(path.basename(existing));
    existing = parent;
  }
}

const inside = (p: string, scope: CheckScope) => isInsideFolder(p, scope.workDir);

/** Refuses a path value (or each of a list) that leads outside the working folder. */
async function checkPaths(
  node: YamlNode,
  at: ReadContext,
  scope: CheckScope,
  base: string,
  what: string,
): Promise<void> {
  for (const item of node.kind === "seq" ? node.items : [node]) {
    const text = textOf(item, scope);
    if (text === undefined) continue;
    const local = /^file:/i.test(text) ? safeFileUrlPath(text) : text;
    if (local === undefined) continue;
    const full = scope.path.resolve(base, local);
    if (!(await inside(full, scope))) {
      refuse(
        at,
        item.pos,
        `'${at.key}' of ${at.owner} is ${what} outside the working folder ${scope.workDir}: ` +
          `${JSON.stringify(text)} leads to ${full}; an untrusted script keeps its files inside it`,
      );
    }
  }
}

function safeFileUrlPath(text: string): string | undefined {
  try {
    return decodeURIComponent(new URL(text).pathname);
  } catch {
    return undefined;
  }
}

const entryOf = (node: YamlNode, key: string) =>
  node.kind === "map" ? node.entries.find((e) => e.key === key) : undefined;

async function checkTasks(tasks: YamlNode, scope: CheckScope): Promise<void> {
  if (tasks.kind !== "seq") return;
  for (const [ti, task] of tasks.items.entries()) {
    const flow = entryOf(task, "flow")?.value;
    if (!flow || flow.kind !== "seq") continue;
    for (const [ii, item] of flow.items.entries()) {
      if (item.kind !== "map") continue;
      const itemAt = { ...scope.at, path: `tasks[${ti}].flow[${ii}]` };
      for (const entry of item.entries) {
        const at = childAt(itemAt, entry.key, "the flow item");
        const why = UNTRUSTED_REFUSED_ITEMS[entry.key];
        if (why && Object.hasOwn(UNTRUSTED_REFUSED_ITEMS, entry.key)) {
          refuse(at, entry.keyPos, `'${entry.key}' ${why}: an untrusted script may not use it`);
        } else if (entry.key === "fileChooserAccept") {
          await checkPaths(entry.value, at, scope, scope.workDir, "a file to upload");
        } else if (entry.key === "fileChooserAllowedDir") {
          await checkPaths(entry.value, at, scope, scope.workDir, "a folder to upload from");
        }
        await checkPromptImages(entry.value, at, scope);
      }
    }
  }
}

/** Local image files of a prompt mapping (`images: [{ name, url }]`). */
async function checkPromptImages(
  value: YamlNode,
  at: ReadContext,
  scope: CheckScope,
): Promise<void> {
  const images = entryOf(value, "images")?.value;
  if (!images || images.kind !== "seq") return;
  for (const image of images.items) {
    const url = entryOf(image, "url");
    const text = url && textOf(url.value, scope);
    if (!url || text === undefined || /^(https?|data):/i.test(text.trim())) continue;
    const local = /^file:/i.test(text) ? safeFileUrlPath(text) : text;
    // Base64 image data is not a path; a path that exists is checked.
    if (local === undefined || !(await realPathInfo(scope.path.resolve(scope.workDir, local)))) {
      continue;
    }
    await checkPaths(
      url.value,
      childAt(at, "url", "a prompt image"),
      scope,
      scope.workDir,
      "an image",
    );
  }
}

async function checkAgent(agent: YamlNode, at: ReadContext, scope: CheckScope): Promise<void> {
  if (agent.kind !== "map") return;
  for (const entry of agent.entries) {
    const keyAt = childAt(at, entry.key, "the agent section");
    if (entry.key === "modelConfig") {
      refuse(
        keyAt,
        entry.keyPos,
        `'modelConfig' in an untrusted script would send the screens and what is typed to a ` +
          `model endpoint the script names: give the model with SDK_MODEL_* or --model-config`,
      );
    } else if (entry.key === "reportFileName") {
      const text = textOf(entry.value, scope);
      if (text !== undefined && (/[\\/]/.test(text) || text.includes(".."))) {
        refuse(
          keyAt,
          entry.value.pos,
          `'reportFileName' of an untrusted script names a file, not a folder: got ${
            JSON.stringify(text)
          }`,
        );
      }
    } else if (entry.key === "cache") {
      const dir = entryOf(entry.value, "cacheDir");
      if (dir) {
        await checkPaths(
          dir.value,
          childAt(keyAt, "cacheDir", "the cache mapping"),
          scope,
          scope.workDir,
          "a cache folder",
        );
      }
    }
  }
}

async function checkWeb(web: YamlNode, at: ReadContext, scope: CheckScope): Promise<void> {
  if (web.kind !== "map") return;
  const serve = entryOf(web, "serve");
  for (const entry of web.entries) {
    const keyAt = childAt(at, entry.key, "the web section");
    if (entry.key === "url" && !serve) {
      const text = textOf(entry.value, scope);
      if (text !== undefined && !/^https?:/i.test(text.trim())) {
        refuse(
          keyAt,
          entry.value.pos,
          `'url' of an untrusted script must be an http: or https: address: got ${
            JSON.stringify(text)
          }`,
        );
      }
    } else if (["serve", "cookie", "output", "downloadPath"].includes(entry.key)) {
      await checkPaths(entry.value, keyAt, scope, scope.scriptDir, `a file or folder`);
    } else if (entry.key === "unstableLogContent" && typeof scalarOf(entry.value) === "string") {
      await checkPaths(entry.value, keyAt, scope, scope.scriptDir, `a file`);
    } else if (Object.hasOwn(REFUSED_WEB_KEYS, entry.key)) {
      refuse(
        keyAt,
        entry.keyPos,
        `'${entry.key}' of an untrusted script ${REFUSED_WEB_KEYS[entry.key]}`,
      );
    } else if (entry.key === "bridgeMode" && textOf(entry.value, scope) !== "false") {
      refuse(
        keyAt,
        entry.keyPos,
        `'bridgeMode' drives your own Chrome, with your logins and cookies: an untrusted script ` +
          `may not use it`,
      );
    }
  }
}

/** Keys of the `web` section an untrusted script may not give, each with why. */
const REFUSED_WEB_KEYS: Readonly<Record<string, string>> = {
  chromeArgs: "passes arguments to the browser's process (--renderer-cmd-prefix runs a program)",
  cdpEndpoint: "attaches to a running browser, with its sessions and files",
};

const scalarOf = (node: YamlNode) => node.kind === "scalar" ? node.value : undefined;

async function checkPlatform(
  section: YamlNode,
  at: ReadContext,
  scope: CheckScope,
  schema: ScriptSectionSchema<Record<string, unknown>>,
): Promise<void> {
  if (section.kind !== "map") return;
  const owner = `the ${schema.key} section`;
  const switches = schema.untrusted?.switches ?? [];
  const refused = schema.untrusted?.refused ?? {};
  for (const entry of section.entries) {
    const keyAt = childAt(at, entry.key, owner);
    if (entry.key === "output") {
      await checkPaths(entry.value, keyAt, scope, scope.scriptDir, "a file");
    } else if (switches.includes(entry.key)) {
      const text = textOf(entry.value, scope);
      if (text === "true") {
        refuse(
          keyAt,
          entry.keyPos,
          `'${entry.key}: true' gives the model powers beyond the screen: an untrusted script ` +
            `may not turn it on (the caller's own options may)`,
        );
      }
    }
    for (const [key, why] of Object.entries(refused)) {
      const [head, inner] = key.split(".");
      if (head !== entry.key) continue;
      const target = inner === undefined ? entry : entryOf(entry.value, inner);
      if (!target) continue;
      refuse(
        inner === undefined ? keyAt : childAt(keyAt, inner, `'${head}'`),
        target.keyPos,
        `'${key}' ${why}: an untrusted script may not set it`,
      );
    }
  }
}
