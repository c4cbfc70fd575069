/**
 * A static file server on 127.0.0.1 for the `serve` option of script files (a local folder the
 * script's `url` is relative to), and for the project's tests. GET and HEAD only; `..` and paths
 * outside the folder are refused; a folder serves its `index.html`.
 *
 * @module
 */

import http from "node:http";
import { readFile, stat } from "node:fs/promises";
import path from "node:path";
import { SdkTypeError } from "@sdk/core";

/** Options of {@link serveStatic}. */
export interface ServeStaticOptions {
  /** Host to listen on. Default `"127.0.0.1"`. */
  host?: string;
  /** Port to listen on. Default `0`: any free port. */
  port?: number;
}

/** A running static server. */
export interface StaticServer {
  /** Base URL with a trailing slash, e.g. `"http://127.0.0.1:40123/"`. */
  url: string;
  /** Stops the server and drops open connections. Safe to call twice. */
  close(): Promise<void>;
}

const CONTENT_TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".htm": "text/html; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".txt": "text/plain; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
  ".ico": "image/x-icon",
  ".woff2": "font/woff2",
};

/**
 * Serves the files under `dir` over HTTP: `GET`/`HEAD` only, `index.html` for directories,
 * content types by extension, `Cache-Control: no-store`. Paths with a `..` segment (raw or
 * percent-encoded) get 403; missing files 404.
 *
 * @param dir directory to serve (absolute, or relative to the working directory).
 * @param options host and port.
 * @returns the base URL and a `close()` function.
 *
 * @example
 * ```ts ignore
 * const app = await serveStatic(FIXTURE_APP_DIR);
 * await page.goto(`${app.url}login.html`);
 * await app.close();
 * ```
 */
export async function serveStatic(
  dir: string,
  options: ServeStaticOptions = {},
): Promise<StaticServer> {
  const root = path.resolve(dir);
  const rootStat = await stat(root).catch(() => undefined);
  if (!rootStat?.isDirectory()) {
    throw new SdkTypeError(`Cannot serve '${dir}': it is not a directory (resolved to ${root})`);
  }

  const server = http.createServer(async (req, res) => {
    const send = (status: number, text: string) => {
      res.writeHead(status, { "content-type": "text/plain; charset=utf-8" });
      res.end(req.method === "HEAD" ? undefined : text);
    };
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.setHeader("allow", "GET, HEAD");
      return send(405, "Method not allowed");
    }
    const rawPath = (req.url ?? "/").split(/[?#]/, 1)[0];
    let decoded: string;
    try {
      decoded = decodeURIComponent(rawPath);
    } catch {
      return send(400, "Bad path encoding");
    }
    const segments = decoded.split(/[\\/]/);
    if (segments.includes("..") || decoded.includes("\0")) {
      return send(403, "Forbidden: '..' is not allowed in paths");
    }
    let file = path.join(root, ...segments.filter((s) => s !== "" && s !== "."));
    if (file !== root && !file.startsWith(root + path.sep)) {
      return send(403, "Forbidden: outside the served directory");
    }
    try {
      let info = await stat(file);
      if (info.isDirectory()) {
        file = path.join(file, "index.html");
        info = await stat(file);
      }
      if (!info.isFile()) return send(404, "Not found");
      const body = await readFile(file);
      const type = CONTENT_TYPES[path.extname(file).toLowerCase()] ?? "application/octet-stream";
      res.writeHead(200, {
        "content-type": type,
        "content-length": String(body.byteLength),
        "cache-control": "no-store",
      });
      res.end(req.method === "HEAD" ? undefined : body);
    } catch {
      send(404, "Not found");
    }
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : options.port ?? 0;
  const host = options.host ?? "127.0.0.1";
  const urlHost = host.includes(":") ? `[${host}]` : host;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${urlHost}:${port}/`,
    close(): Promise<void> {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections?.();
      });
      return closing;
    },
  };
}
