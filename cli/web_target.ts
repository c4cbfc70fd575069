/**
 * Opens the page a script runs on: the `web` section of a YAML script, or the tags of a Gherkin
 * feature (`@url:<address>`, `@serve:<folder>`, `@viewport:<width>x<height>`). Paths in it
 * (`serve`, `cookie`, `output`) are relative to the script's folder.
 *
 * @module
 */

import { readFile } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import type { ScriptWebTarget } from "@sdk/core/script";
import { DEFAULT_VIEWPORT } from "@sdk/web/chromium";
import { serveStatic, type StaticServer } from "./serve.ts";
import { SdkTypeError } from "@sdk/core";

/** A page opened for one script file, in its own browser context. */
export interface OpenedTarget {
  /** The page the agent drives. */
  page: Page;
  /** Resolves a target's `url` (under its `serve` folder when it has one) and opens it. */
  open(target: Pick<ScriptWebTarget, "url" | "serve" | "waitForNetworkIdle">): Promise<void>;
  /** Closes the context and any server it started. */
  close(): Promise<void>;
}

/**
 * Creates a browser context for a script file and its page, sized and set up as `web` asks
 * (viewport, device scale factor, user agent, cookies), without opening the URL yet.
 *
 * @param scriptFile the script's path: relative paths in `web` resolve from its folder.
 * @throws {SdkTypeError} naming the cookie file when it cannot be read or is not a JSON array of
 * cookies.
 */
export async function openTarget(
  browser: Browser,
  web: Partial<ScriptWebTarget>,
  scriptFile: string,
): Promise<OpenedTarget> {
  const base = dirname(scriptFile);
  const context: BrowserContext = await browser.newContext({
    viewport: {
      width: web.viewportWidth ?? DEFAULT_VIEWPORT.width,
      height: web.viewportHeight ?? DEFAULT_VIEWPORT.height,
    },
    deviceScaleFactor: web.deviceScaleFactor,
    userAgent: web.userAgent,
  });
  const servers = new Map<string, Promise<StaticServer>>();
  try {
    if (web.cookie) await context.addCookies(await readCookies(resolve(base, web.cookie)));
    const page = await context.newPage();
    return {
      page,
      async open(target) {
        let url = target.url;
        if (target.serve) {
          const folder = resolve(base, target.serve);
          if (!servers.has(folder)) servers.set(folder, serveStatic(folder));
          url = new URL(target.url.replace(/^\/+/, ""), (await servers.get(folder)!).url).href;
        }
        await page.goto(url, { waitUntil: "load" });
        const idle = target.waitForNetworkIdle;
        if (idle) {
          const options = typeof idle === "object" ? idle : {};
          try {
            await page.waitForLoadState("networkidle", { timeout: options.timeout ?? 5000 });
          } catch (e) {
            if (!options.continueOnNetworkIdleError) throw e;
          }
        }
      },
      async close() {
        await context.close();
        for (const server of servers.values()) await (await server).close();
      },
    };
  } catch (e) {
    await context.close();
    throw e;
  }
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
