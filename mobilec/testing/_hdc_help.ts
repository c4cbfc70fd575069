/**
 * The help texts of HarmonyOS's device tools that the hdc front's shell prints (private to
 * `@sdk/mobilec/testing`): uitest's, aa's and bm's, as the tools print them for `help`, and after
 * an unknown command (`aa: 'x' is not a valid aa command. See 'aa help'.`).
 *
 * @module
 */

/** uitest's help (arkxtest's uitest HELP_MSG): each line's description right-aligned to 108. */
export const UITEST_HELP = ([
  ["usage: uitest <command> [options]", ""],
  ["help", "print help messages"],
  ["screenCap", "capture the current screen"],
  ["  -p", "savepath"],
  ["dumpLayout", "get the current layout information"],
  ["  -p", "savepath"],
  ["  -i", "not merge windows and filter nodes"],
  ["  -a", "include font attributes"],
  ["start-daemon <token>", "start the test process"],
  ["uiRecord", ""],
  ["  record", "wirte location coordinates of events into files"],
  ["  read", "print file content to the console"],
  ["uiInput", ""],
  ["  help", "print uiInput usage"],
  ["--version", "print current tool version"],
] as const).map(([left, right]) => left.padEnd(108 - right.length) + right + "\n").join("");

/** aa's help (ability_runtime's ability_command HELP_MSG), as `aa help` prints it. */
export const AA_HELP = "usage: aa <command> <options>\n" +
  "These are common aa commands list:\n" +
  [
    ["help", "list available commands"],
    ["start", "start ability with options"],
    ["stop-service", "stop service with options"],
    ["dump", "dump the ability info"],
    ["force-stop <bundle-name>", "force stop the process with bundle name"],
    ["attach", "attach application to enter debug mode"],
    ["detach", "detach application to exit debug mode"],
    ["test", "start the test framework with options"],
    ["appdebug", "set / cancel / get waiting debug status"],
  ].map(([name, what]) => `  ${name.padEnd(28)}${what}\n`).join("");
/** aa's commands besides start, force-stop and help, which the simulator does not run. */
export const KNOWN_AA = new Set([
  "stop-service",
  "dump",
  "attach",
  "detach",
  "test",
  "appdebug",
  "process",
]);

const BM_HELP_LINES: readonly (readonly [string, string])[] = [
  ["help", "list available commands"],
  ["install", "install a bundle with options"],
  ["uninstall", "uninstall a bundle with options"],
  ["dump", "dump the bundle info"],
  ["get", "obtain device udid"],
  ["quickfix", "quick fix, including query and install"],
  ["compile", "Compile the software package"],
  ["dump-overlay", "dump overlay info of the specific overlay bundle"],
  ["dump-target-overlay", "dump overlay info of the specific target bundle"],
  ["dump-dependencies", "dump dependencies by given bundle name and module name"],
  ["dump-shared", "dump inter-application shared library information by bundle name"],
  ["clean", "clean the bundle data"],
];
/** bm's commands (bundle_framework's bundle_command). */
export const BM_COMMANDS = [...BM_HELP_LINES.map(([name]) => name), "enable", "disable", "copy-ap"];
/** bm's help (bundle_framework's bundle_command HELP_MSG), as `bm help` prints it. */
export const BM_HELP = "usage: bm <command> <options>\nThese are common bm commands list:\n" +
  BM_HELP_LINES.map(([name, what]) => `  ${name.padEnd(12)} ${what}\n`).join("");
