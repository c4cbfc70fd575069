/**
 * Opens the page a script runs on: the `web` section of a YAML script, or the tags of a Gherkin
 * feature (`@url:<address>`, `@serve:<folder>`, `@viewport:<width>x<height>`). Paths in it
 * (`serve`, `cookie`, `output`) are relative to the script's folder.
 *
 * @module
 */

import { mkdir, readFile } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import type { ScriptWebTarget } from "@sdk/core/script";
import { DEFAULT_VIEWPORT } from "@sdk/web/chromium";
import { serveStatic, type StaticServer } from "./serve.ts";
import { NavigationError, SdkTypeError } from "@sdk/core";
import { openUrl } from "@sdk/web";

/** A page opened for one script file, in its own browser context. */
export interface OpenedTarget {
  /** The page the agent drives. */
  page: Page;
  /**
   * Resolves a target's `url` (under its `serve` folder when it has one) and opens it.
   *
   * @throws {NavigationError} when the page does not open, or its network does not go idle as
   * `waitForNetworkIdle` asks.
   */
  open(target: Pick<ScriptWebTarget, "url" | "serve" | "waitForNetworkIdle">): Promise<void>;
  /** Closes the context and any server it started. */
  close(): Promise<void>;
}

/**
 * A browser context sized and set up as a `web` section asks (viewport, device scale factor, user
 * agent, extra HTTP headers, certificates the browser cannot verify, downloads).
 */
export function newScriptContext(
  browser: Browser,
  web: Partial<ScriptWebTarget>,
): Promise<BrowserContext> {
  return browser.newContext({
    viewport: {
      width: web.viewportWidth ?? DEFAULT_VIEWPORT.width,
      height: web.viewportHeight ?? DEFAULT_VIEWPORT.height,
    },
    deviceScaleFactor: web.deviceScaleFactor,
    userAgent: web.userAgent,
    ...(web.extraHTTPHeaders && { extraHTTPHeaders: web.extraHTTPHeaders }),
    ...(web.acceptInsecureCerts && { ignoreHTTPSErrors: true }),
    acceptDownloads: web.downloadPath !== undefined,
  });
}

/**
 * Creates a browser context for a script file and its page, sized and set up as `web` asks
 * (viewport, device scale factor, user agent, cookies, extra HTTP headers, certificates the
 * browser cannot verify, a download folder), without opening the URL yet. In a `shared` context
 * (`--share-browser-context`) it opens a page of its own, sized as `web` asks, with its headers,
 * and closing it closes that page only; the context's other settings are the shared context's.
 *
 * @param scriptFile the script's path: relative paths in `web` resolve from its folder.
 * @throws {SdkTypeError} naming the cookie file when it cannot be read or is not a JSON array of
 * cookies.
 */
export async function openTarget(
  browser: Browser,
  web: Partial<ScriptWebTarget>,
  scriptFile: string,
  shared?: BrowserContext,
): Promise<OpenedTarget> {
  const base = dirname(scriptFile);
  const context: BrowserContext = shared ?? await newScriptContext(browser, web);
  const servers = new Map<string, Promise<StaticServer>>();
  let page: Page | undefined;
  const closeOwn = () => shared ? page?.close() : context.close();
  const downloads = web.downloadPath === undefined
    ? undefined
    : saveDownloads(resolve(base, web.downloadPath));
  // A context of the file's own: every page of it; a shared one: the file's page only.
  if (!shared) downloads?.follow(context);
  try {
    if (web.cookie) await context.addCookies(await readCookies(resolve(base, web.cookie)));
    page = await context.newPage();
    if (shared) downloads?.watch(page);
    if (shared && web.extraHTTPHeaders) await page.setExtraHTTPHeaders(web.extraHTTPHeaders);
    if (shared && (web.viewportWidth || web.viewportHeight)) {
      await page.setViewportSize({
        width: web.viewportWidth ?? DEFAULT_VIEWPORT.width,
        height: web.viewportHeight ?? DEFAULT_VIEWPORT.height,
      });
    }
    const opened = page;
    return {
      page: opened,
      async open(target) {
        let url = target.url;
        if (target.serve) {
          const folder = resolve(base, target.serve);
          if (!servers.has(folder)) servers.set(folder, serveStatic(folder));
          url = new URL(target.url.replace(/^\/+/, ""), (await servers.get(folder)!).url).href;
        }
        await openUrl(opened, url);
        const idle = target.waitForNetworkIdle;
        if (idle) {
          const options = typeof idle === "object" ? idle : {};
          const timeout = options.timeout ?? 5000;
          try {
            await opened.waitForLoadState("networkidle", { timeout });
          } catch (e) {
            if (options.continueOnNetworkIdleError) return;
            throw new NavigationError(
              `${url} opened, but its network did not go idle within ${timeout} ms ` +
                `(waitForNetworkIdle): raise its timeout, or set continueOnNetworkIdleError: true ` +
                `to go on anyway`,
              { url, reason: "network-idle-timeout" },
              { cause: e },
            );
          }
        }
      },
      async close() {
        // A download is gone with its context: each is saved first.
        await downloads?.settled();
        await closeOwn();
        for (const server of servers.values()) await (await server).close();
      },
    };
  } catch (e) {
    await closeOwn();
    throw e;
  }
}

/**
 * Saves the downloads of the pages it watches into `folder` (created when needed) under the name
 * the page suggests: `watch` one page, `follow` a context (its pages and those it opens later);
 * `settled()` waits for the saves begun so far.
 */
function saveDownloads(folder: string): {
  watch(page: Page): void;
  follow(context: BrowserContext): void;
  settled(): Promise<void>;
} {
  const saves: Promise<unknown>[] = [];
  const watch = (page: Page) =>
    void page.on("download", (download) => {
      saves.push(
        mkdir(folder, { recursive: true })
          .then(() => download.saveAs(join(folder, basename(download.suggestedFilename()))))
          // A download the page cancels, or that fails, has nothing to save.
          .catch(() => {}),
      );
    });
  return {
    watch,
    follow(context) {
      context.pages().forEach(watch);
      context.on("page", watch);
    },
    settled: async () => void await Promise.all(saves),
  };
}

/** Cookies as Playwright takes them: each needs `name`, `value` and a `url` or `domain`. */
async function readCookies(file: string): Promise<Parameters<BrowserContext["addCookies"]>[0]> {
  let cookies: unknown;
  try {
    cookies = JSON.parse(await readFile(file, "utf8"));
  } catch (e) {
    throw new SdkTypeError(`cannot read the cookie file ${file}: ${(e as Error).message}`, {
      cause: e,
    });
  }
  if (!Array.isArray(cookies)) {
    throw new SdkTypeError(
      `the cookie file ${file} must hold a JSON array of { name, value, url or domain }`,
    );
  }
  return cookies;
}

/** What the tags of a Gherkin scenario ask for. */
export interface FeatureTags {
  /** `@url:<address>`: the page each scenario starts on. */
  url?: string;
  /** `@serve:<folder>`: a folder served over HTTP; `url` is a path in it. */
  serve?: string;
  /** `@viewport:<width>x<height>`. */
  viewport?: { width: number; height: number };
}

/**
 * Reads the command line's tags from a scenario's tags (feature, rule and scenario tags; a later
 * tag wins).
 *
 * @throws {SdkTypeError} for a malformed `@viewport:` tag.
 */
export function readFeatureTags(tags: readonly string[]): FeatureTags {
  const out: FeatureTags = {};
  for (const tag of tags) {
    const m = /^@(url|serve|viewport):(.+)$/.exec(tag);
    if (!m) continue;
    if (m[1] === "viewport") {
      const size = /^(\d+)x(\d+)$/.exec(m[2]);
      if (!size) throw new SdkTypeError(`${tag}: write the viewport as @viewport:<width>x<height>`);
      out.viewport = { width: Number(size[1]), height: Number(size[2]) };
    } else {
      out[m[1] as "url" | "serve"] = m[2];
    }
  }
  return out;
}

/**
 * Where a YAML script's `url` of its `web` (or `target`, `page`, `browser`) section is, for errors about the
 * page it names: the 1-based line and column of the value.
 */
export function urlPosition(text: string): { line: number; column: number } | undefined {
  const lines = text.split("\n");
  const section = lines.findIndex((l) => /^(web|target|page|browser)\s*:\s*(#.*)?$/.test(l));
  if (section < 0) return undefined;
  for (let i = section + 1; i < lines.length; i++) {
    if (/^\S/.test(lines[i]) && !lines[i].startsWith("#")) return undefined;
    const m = /^(\s+url\s*:\s*)\S/.exec(lines[i]);
    if (m) return { line: i + 1, column: m[1].length + 1 };
  }
  return undefined;
}

/**
 * A {@link NavigationError} with `where` (`file:line:col`) before its message; any other error
 * as it is.
 */
export function locatedNavigationError(error: unknown, where: string): unknown {
  if (!(error instanceof NavigationError)) return error;
  return new NavigationError(`${where}: ${error.message}`, error, { cause: error.cause });
}
