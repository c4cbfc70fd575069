/**
 * The WDA session of one `MobileBDevice`: created on first use (or the one given as `sessionId`,
 * checked), and deleted when the device is destroyed (a given one is left alive). Every route
 * but the screenshot, the screen's scale and the Home screen goes through it.
 *
 * @module
 */

import { InvalidStateError, SdkTypeError, ToolError } from "@sdk/core";
import { log, warn } from "./log.ts";
import { driverAnswerOf, WDA_TOOL, type WdaClient } from "./wda.ts";

/** The session and the device's lifetime. Private to the package. */
export class WdaSession {
  /** The WebDriverAgent service. */
  readonly client: WdaClient;
  readonly #given: string | undefined;
  #session: Promise<string> | undefined;
  #id: string | undefined;
  #destroyed = false;

  /** @param given the session to use (`sessionId`), or undefined to create one. */
  constructor(client: WdaClient, given: string | undefined) {
    this.client = client;
    this.#given = given;
  }

  /** The session in use: the given one, or the one created; before: undefined. */
  get id(): string | undefined {
    return this.#id ?? this.#given;
  }

  /** @throws {InvalidStateError} once the device was destroyed. */
  checkLive(): void {
    if (this.#destroyed) {
      throw new InvalidStateError(
        `MobileBDevice at ${this.client.where} was destroyed; create a new device`,
      );
    }
  }

  /** `/session/<id>`, creating the session (or checking the given one) the first time. */
  async path(): Promise<string> {
    this.checkLive();
    this.#session ??= this.#open().catch((error) => {
      this.#session = undefined;
      throw error;
    });
    return `/session/${encodeURIComponent(await this.#session)}`;
  }

  /**
   * Refuses every later call at once, waits for `drain` (what still uses WDA stops there), then
   * deletes the session it created. Idempotent; never rejects: failures are logged.
   */
  async close(drain: () => Promise<void>): Promise<void> {
    if (this.#destroyed) return;
    this.#destroyed = true;
    await drain();
    const created = this.#given === undefined ? this.#session : undefined;
    this.#session = undefined;
    if (!created) return;
    try {
      const id = await created.catch(() => undefined);
      if (id !== undefined) {
        await this.client.request("DELETE", `/session/${encodeURIComponent(id)}`, undefined, {
          timeoutMs: 10_000,
        });
      }
    } catch (error) {
      // WDA keeps one session: a later session on the same WDA already ended this one.
      if (driverAnswerOf(error)?.error === "invalid session id") {
        log("the WDA session had already ended", { error: (error as Error).message });
        return;
      }
      warn(`deleting the WDA session at ${this.client.where} failed`, error);
    }
  }

  async #open(): Promise<string> {
    const given = this.#given;
    if (given !== undefined) {
      try {
        await this.client.request("GET", `/session/${encodeURIComponent(given)}`);
      } catch (error) {
        if (!driverAnswerOf(error)) throw error;
        throw new SdkTypeError(
          `The WDA session ${JSON.stringify(given)} given as sessionId is not usable on ` +
            `WebDriverAgent at ${this.client.where}: ${(error as Error).message}. Leave ` +
            `sessionId out to create a session.`,
          { cause: error },
        );
      }
      this.#id = given;
      return given;
    }
    const value = await this.client.request("POST", "/session", {
      capabilities: { alwaysMatch: {}, firstMatch: [{}] },
    });
    const id = (value as { sessionId?: unknown } | null)?.sessionId;
    if (typeof id !== "string" || id === "") {
      const answer = JSON.stringify(value)?.slice(0, 200) ?? "";
      throw new ToolError(
        `WebDriverAgent at ${this.client.where} answered POST /session without a sessionId: ` +
          answer,
        { tool: WDA_TOOL, output: answer },
      );
    }
    this.#id = id;
    return id;
  }
}
