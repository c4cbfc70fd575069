/**
 * Which ability starts a HarmonyOS app, read from its bundle metadata (`bm dump -n <bundle>`:
 * the bundle name and a colon, then the bundle's JSON).
 *
 * @module
 */

import { ToolError } from "@sdk/core";

interface AbilityInfo {
  name?: string;
  skills?: { actions?: string[]; entities?: string[] }[];
}

interface ModuleInfo {
  moduleName?: string;
  name?: string;
  moduleType?: string | number;
  mainAbility?: string;
  mainElementName?: string;
  abilityInfos?: AbilityInfo[];
}

interface BundleInfo {
  entryModuleName?: string;
  mainEntry?: string;
  hapModuleInfos?: ModuleInfo[];
}

/** The ability that starts an app, and its module. */
export interface LaunchAbility {
  /** Ability name, for `aa start -a`. */
  ability: string;
  /** Module name, for `aa start -m`; undefined when the metadata has none. */
  module: string | undefined;
}

const isHome = (ability: AbilityInfo): boolean =>
  (ability.skills ?? []).some((skill) =>
    (skill.entities ?? []).includes("entity.system.home") &&
    (skill.actions ?? []).some((a) => a === "action.system.home" || a === "ohos.want.action.home")
  );

/**
 * The launch ability of `bundle` from the output of `bm dump -n <bundle>`: the entry module's
 * main ability (`mainElementName` or `mainAbility`), else the first ability with the home skill
 * (`entity.system.home`), the entry module first.
 *
 * @throws {ToolError} (`hdc`) naming the bundle when the output has no bundle JSON (the bundle is not
 * installed: the device's message is included) or no ability that starts the app.
 */
export function resolveLaunchAbility(bundle: string, output: string): LaunchAbility {
  const start = output.indexOf("{");
  let info: BundleInfo | undefined;
  try {
    if (start >= 0) info = JSON.parse(output.slice(start)) as BundleInfo;
  } catch {
    // Not the bundle's JSON: the device's message.
  }
  if (!info) {
    const said = output.trim().slice(0, 300);
    throw new ToolError(
      `Cannot launch ${JSON.stringify(bundle)}: it is not installed on the device, or ` +
        `\`bm dump -n ${bundle}\` printed no bundle information: ${said}`,
      { tool: "hdc", output: said },
    );
  }
  const modules = info.hapModuleInfos ?? [];
  const entryNames = new Set([info.entryModuleName, info.mainEntry].filter(Boolean));
  const moduleName = (m: ModuleInfo) => m.moduleName ?? m.name;
  const entry = modules.filter((m) =>
    entryNames.has(moduleName(m)) || m.moduleType === "entry" || m.moduleType === 1
  );
  const ordered = [...entry, ...modules.filter((m) => !entry.includes(m))];
  for (const m of entry) {
    const main = m.mainElementName ?? m.mainAbility;
    if (main) return { ability: main, module: moduleName(m) };
  }
  for (const m of ordered) {
    const home = (m.abilityInfos ?? []).find(isHome);
    if (home?.name) return { ability: home.name, module: moduleName(m) };
  }
  throw new ToolError(
    `Cannot launch ${JSON.stringify(bundle)}: its bundle metadata names no main ability and no ` +
      `ability with the home skill; launch it as bundle/Ability`,
    { tool: "hdc", output: "" },
  );
}
