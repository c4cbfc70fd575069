/**
 * What the phone agents share (spec 4.8-4.10): app names (`appNameMapping`) and the recorded
 * `launch` and `terminate` calls, over any device that launches and stops apps.
 *
 * @module
 */

import { AppNameMapping, requireTarget } from "../device/app_names.ts";
import type { AbstractInterface } from "../device/types.ts";
import { Agent } from "./agent.ts";
import type { AgentOptions } from "../session/options.ts";

/** A device with apps: what an {@link AppAgent} needs of it. */
export interface AppDevice extends AbstractInterface {
  /** Opens an app or a page (the platform's targets: package, bundle id, URL, ...). */
  launch(target: string): Promise<void>;
  /** Force-stops an app. */
  terminate(target: string): Promise<unknown>;
  /** Lets the planner's `Launch` and `Terminate` resolve app names as the agent does. */
  useAppNameMapping(resolve: (target: string) => string): void;
}

/** Options of an {@link AppAgent}: the shared agent options (spec 2.1) plus `appNameMapping`. */
export interface AppAgentOptions extends AgentOptions {
  /**
   * App name -> what the platform launches (package, bundle id, `bundle/Ability`), for `launch`,
   * `terminate` and the planner's `Launch` and `Terminate`. Names match case-insensitively; an
   * unmapped target is used as given. These mappings outrank the platform's defaults.
   */
  appNameMapping?: Record<string, string>;
}

/** An agent over a device with apps: app names, and `launch` / `terminate` in the report. */
export class AppAgent<I extends AppDevice> extends Agent<I> {
  readonly #apps: AppNameMapping;

  /**
   * An agent over `device` whose app names resolve through the platform's and the user's mapping.
   *
   * @param device the device.
   * @param options agent options and `appNameMapping`.
   * @param defaults the platform's own app names (the user's outrank them).
   * @param targets what the mapping's values are, for its error: `"package name"`, ...
   * @throws {TypeError} for an `appNameMapping` that is not an object of non-empty strings, and
   * the errors of the shared options (see `Agent`).
   */
  constructor(
    device: I,
    options: AppAgentOptions,
    defaults: Readonly<Record<string, string>>,
    targets: string,
  ) {
    const apps = new AppNameMapping(defaults, options.appNameMapping, targets);
    super(device, options);
    this.#apps = apps;
    device.useAppNameMapping((target) => this.resolveApp(target));
  }

  /** What an app name maps to, or `target` itself (trimmed) when it is no app name. */
  resolveApp(target: string): string {
    return this.#apps.resolve(target);
  }

  /**
   * Opens an app or a page: an app name of `appNameMapping`, or a target of the platform (see its
   * agent). Recorded in the report as a `launch` call.
   *
   * @throws {TypeError} for an empty target; the device's error when the app does not exist.
   */
  async launch(target: string): Promise<void> {
    const resolved = this.resolveApp(requireTarget("launch", target));
    await this.recordedCall(
      "launch",
      target,
      "Launch",
      { uri: resolved },
      () => this.interface.launch(resolved),
    );
  }

  /**
   * Force-stops an app: an app name of `appNameMapping`, or the platform's app identifier.
   * Recorded in the report as a `terminate` call.
   *
   * @throws {TypeError} for an empty target; the device's error when the app does not exist.
   */
  async terminate(target: string): Promise<void> {
    const resolved = this.resolveApp(requireTarget("terminate", target));
    await this.recordedCall(
      "terminate",
      target,
      "Terminate",
      { uri: resolved },
      async () => {
        await this.interface.terminate(resolved);
      },
    );
  }
}
