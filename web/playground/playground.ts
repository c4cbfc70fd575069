/**
 * The playground: a local web page to try agent calls on a live target by hand (`sdk
 * playground <url>`, or {@link startPlayground} in code). docs/playground.md describes it.
 *
 * @module
 */

import http from "node:http";
import process from "node:process";
import type { Agent } from "@sdk/core";
import type { WebPageAgentOptions } from "../agent/page_agent.ts";
import { readModelInfo } from "./model_info.ts";
import { playgroundRoutes, type PlaygroundRoutesContext } from "./server.ts";
import { ScreenFeed } from "./screen_feed.ts";
import {
  DEFAULT_PLAYGROUND_HOST,
  isWildcardHost,
  newToken,
  PLAYGROUND_HOST_ENV,
  playgroundHostWarning,
} from "./security.ts";
import type { PlaygroundTarget } from "./target.ts";
import { launchPageTarget } from "./web_target.ts";
import { ConnectionError, SdkRangeError, SdkTypeError } from "@sdk/core";

/** The port a playground listens on unless told otherwise. */
export const DEFAULT_PLAYGROUND_PORT = 5800;

/** Options of {@link startPlayground}. */
export interface PlaygroundOptions {
  /**
   * The page to open in a new headless Chromium (the system's, as `sdk run` finds it) with a
   * DriverB page agent. Required unless `target` is given.
   */
  url?: string;
  /** Another target instead of `url`: a page you opened, another platform's agent. */
  target?: PlaygroundTarget;
  /**
   * Host to listen on. Default: the `SDK_PLAYGROUND_HOST` variable, else `127.0.0.1`. A host
   * other than loopback (`0.0.0.0`: every interface) makes `onWarning` say so.
   */
  host?: string;
  /** Port to listen on; `0` takes any free port. Default {@link DEFAULT_PLAYGROUND_PORT}. */
  port?: number;
  /** Run the browser of `url` without a window. Default `true`. */
  headless?: boolean;
  /**
   * The sandbox of the browser of `url` (`launchChromium`'s option of `@sdk/web/chromium`).
   * Default: on, unless `SDK_CHROMIUM_NO_SANDBOX=1` or the process runs as root (then off, and
   * `onWarning` says so); `false` turns it off without a warning.
   */
  sandbox?: boolean;
  /** Viewport of the page of `url`, CSS pixels. Default 1280 x 800. */
  viewport?: { width: number; height: number };
  /** Options of the agent, `modelConfig` included; default: the `SDK_MODEL_*` variables. */
  agentOptions?: WebPageAgentOptions;
  /** Receives warnings (the host one, the sandbox one). Default `console.warn`. */
  onWarning?: (message: string) => void;
}

/** A running playground. */
export interface Playground {
  /** The page's address with its token, e.g. `http://127.0.0.1:5800/?token=...`. */
  readonly url: string;
  /** The host it listens on. */
  readonly host: string;
  /** The port it listens on. */
  readonly port: number;
  /** The agent the calls go to. */
  readonly agent: Agent;
  /**
   * Why no model is usable (the configuration error naming the variables to set), or `undefined`
   * when the model configuration is valid. With an error every call fails.
   */
  readonly modelError: string | undefined;
  /**
   * Stops the server, destroys the agent (its report is finalized) and closes the target. Safe
   * to call twice.
   */
  close(): Promise<void>;
}

function listen(server: http.Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (e: Error & { code?: string }) => {
      reject(
        e.code === "EADDRINUSE"
          ? new ConnectionError(
            `Cannot start the playground: port ${port} on ${host} is in use; choose another ` +
              `port (--port N, or 0 for any free port)`,
            { kind: "refused", endpoint: `${host}:${port}` },
            { cause: e },
          )
          : e,
      );
    };
    server.once("error", onError);
    server.listen(port, host, () => {
      server.off("error", onError);
      const address = server.address();
      resolve(typeof address === "object" && address ? address.port : port);
    });
  });
}

/**
 * Starts a playground: an HTTP server on `host:port` serving one page that shows the target's
 * live screen, runs `aiAct`, `aiTap`, `aiInput`, `aiQuery`, `aiAssert` and `aiLocate` on it, and
 * shows the model in use (never its key), each result, its duration and its report. Every request
 * needs the run's random token (only in {@link Playground.url}); requests from another origin
 * are refused; calls run one at a time.
 *
 * @throws {SdkTypeError} without `url` or `target`, or for a `url` that is not an absolute URL.
 * @throws {SdkRangeError} for a port outside 0-65535.
 * @throws {ConnectionError} (`refused`) when the port is in use.
 * @throws {MissingDependencyError} when no Chromium (or no playwright-core) is found.
 * @throws {NavigationError} when the browser does not open the page: the URL, the browser's
 * reason and what to check.
 *
 * @example
 * ```ts ignore
 * const playground = await startPlayground({ url: "https://example.com", port: 0 });
 * console.log(`Open ${playground.url}`);
 * // ... later
 * await playground.close();
 * ```
 */
export async function startPlayground(options: PlaygroundOptions): Promise<Playground> {
  if (!options.target && !options.url) {
    throw new SdkTypeError("startPlayground needs a url (or a target) to drive");
  }
  if (options.url && !URL.canParse(options.url)) {
    throw new SdkTypeError(`startPlayground: url must be an absolute URL, got "${options.url}"`);
  }
  const port = options.port ?? DEFAULT_PLAYGROUND_PORT;
  if (!(Number.isInteger(port) && port >= 0 && port <= 65535)) {
    throw new SdkRangeError(`startPlayground: port must be an integer 0-65535, got ${port}`);
  }
  const host = options.host ?? (process.env[PLAYGROUND_HOST_ENV] || DEFAULT_PLAYGROUND_HOST);
  const warning = playgroundHostWarning(host);
  if (warning) (options.onWarning ?? console.warn)(warning);

  const agentOptions: WebPageAgentOptions = { autoPrintReportMsg: false, ...options.agentOptions };
  const ctx: PlaygroundRoutesContext = {
    guard: { token: newToken(), host, port },
    model: readModelInfo(agentOptions.modelConfig),
    reportFolder: agentOptions.outputFormat === "html-and-external-assets",
  };
  const routes = playgroundRoutes(ctx);
  const server = http.createServer(routes.handle);
  ctx.guard.port = await listen(server, port, host);
  const stopServer = () =>
    new Promise<void>((resolve) => {
      routes.endStreams();
      server.close(() => resolve());
      server.closeAllConnections?.();
    });

  const target = options.target ??
    await launchPageTarget(options.url!, options).catch(async (e) => {
      await stopServer();
      throw e;
    });
  let agent: Agent;
  try {
    agent = await target.createAgent(agentOptions);
  } catch (e) {
    await stopServer();
    await target.close?.();
    throw e;
  }
  const feed = new ScreenFeed(agent.interface);
  ctx.agent = agent;
  ctx.feed = feed;

  // A wildcard host is reached through some address of the machine; loopback works from here.
  const shownHost = isWildcardHost(host) ? "127.0.0.1" : host.includes(":") ? `[${host}]` : host;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${shownHost}:${ctx.guard.port}/?token=${ctx.guard.token}`,
    host,
    port: ctx.guard.port,
    agent,
    modelError: ctx.model.error,
    close(): Promise<void> {
      return closing ??= (async () => {
        await feed.close();
        await stopServer();
        try {
          await agent.destroy();
        } finally {
          await target.close?.();
        }
      })();
    },
  };
}
