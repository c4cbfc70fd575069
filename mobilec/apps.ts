/**
 * Opening and force-stopping HarmonyOS apps with `aa`, a bundle's launch ability read from
 * `bm dump` (once per bundle).
 *
 * @module
 */

import { SdkTypeError, shellQuote } from "@sdk/core";
import { deviceFailure } from "./errors.ts";
import { type LaunchAbility, resolveLaunchAbility } from "./bundle.ts";
import type { ToolShell } from "./tool_shell.ts";

/** One device's apps. Private to the package. */
export class Apps {
  readonly #shell: ToolShell;
  readonly #abilities = new Map<string, LaunchAbility>();

  constructor(shell: ToolShell) {
    this.#shell = shell;
  }

  /**
   * Opens `uri`: an http(s) URL in the browser (`aa start -A ohos.want.action.viewData -U`), an
   * explicit `bundle/Ability` (`aa start -a Ability -b bundle`), or a bundle name, whose launch
   * ability is read from `bm dump -n <bundle>`.
   *
   * @throws {SdkTypeError} for an empty target.
   * @throws {ToolError} (`hdc`) with the device's message when the bundle or ability does not
   * exist.
   */
  async launch(uri: string): Promise<void> {
    const target = uri.trim();
    if (target === "") throw new SdkTypeError("Cannot launch: the target is empty");
    let command: string;
    if (/^https?:\/\//i.test(target)) {
      command = `aa start -A ohos.want.action.viewData -U ${shellQuote(target)}`;
    } else if (target.includes("/")) {
      const [bundle, ability] = target.split("/", 2);
      command = `aa start -a ${shellQuote(ability)} -b ${shellQuote(bundle)}`;
    } else {
      const { ability, module } = await this.#launchAbility(target);
      command = `aa start -a ${shellQuote(ability)} -b ${shellQuote(target)}${
        module ? ` -m ${shellQuote(module)}` : ""
      }`;
    }
    const output = await this.#shell.shell(command);
    if (!/start ability successfully/i.test(output)) {
      throw deviceFailure(
        `Cannot launch ${JSON.stringify(target)} on HarmonyOS device ${
          JSON.stringify(this.#shell.deviceId)
        }`,
        output,
      );
    }
  }

  /**
   * Force-stops the app of `uri` (a bundle name, or `bundle/Ability`: only the bundle is used).
   *
   * @throws {SdkTypeError} for an empty bundle name.
   * @throws {ToolError} (`hdc`) with the device's message when the bundle does not exist.
   */
  async terminate(uri: string): Promise<void> {
    const bundle = uri.trim().split("/")[0];
    if (bundle === "") throw new SdkTypeError("Cannot terminate: the bundle name is empty");
    const output = await this.#shell.shell(`aa force-stop ${shellQuote(bundle)}`);
    if (/error/i.test(output)) {
      throw deviceFailure(
        `Cannot terminate ${JSON.stringify(bundle)} on HarmonyOS device ${
          JSON.stringify(this.#shell.deviceId)
        }`,
        output,
      );
    }
  }

  /**
   * The app in front as `bundle/ability`, from `aa dump -l`; `undefined` when no mission is in
   * front (the home screen) or the list cannot be read.
   */
  async foreground(): Promise<string | undefined> {
    return foregroundMission(await this.#shell.shell("aa dump -l"));
  }

  async #launchAbility(bundle: string): Promise<LaunchAbility> {
    const known = this.#abilities.get(bundle);
    if (known) return known;
    const found = resolveLaunchAbility(
      bundle,
      await this.#shell.shell(`bm dump -n ${shellQuote(bundle)}`),
    );
    this.#abilities.set(bundle, found);
    return found;
  }
}

/**
 * The mission in front in `aa dump -l`'s list (the one whose `state` is `#FOREGROUND`) as
 * `bundle/ability`, from its `mission name #[#bundle:module:ability]`, else its `bundle name`.
 */
export function foregroundMission(list: string): string | undefined {
  for (const mission of list.split(/^\s*Mission ID #/m).slice(1)) {
    if (!/^\s*state #FOREGROUND\b/m.test(mission)) continue;
    const name = /mission name #\[#([^:\]]+):[^:\]]*:([^\]]+)\]/.exec(mission);
    if (name) return `${name[1]}/${name[2]}`;
    const bundle = /bundle name \[([^\]]+)\]/.exec(mission)?.[1];
    if (bundle) return bundle;
  }
  return undefined;
}
