/**
 * Opening and force-stopping Android apps with `am` and `monkey`.
 *
 * @module
 */

import { SdkTypeError, shellQuote, ToolError } from "@sdk/core";
import type { BridgeShell } from "./bridge_shell.ts";
import { commandOutput } from "./errors.ts";

/**
 * Opens `uri`: a web URL (`am start -a android.intent.action.VIEW -d`), a `package/.Activity`
 * (`am start -n`), or a package name (its launcher activity, through `monkey`).
 *
 * @throws {SdkTypeError} for an empty target.
 * @throws {ToolError} with the device's message (monkey's echo of its arguments left out) when
 * the app or activity does not exist.
 */
export async function launchApp(shell: BridgeShell, uri: string): Promise<void> {
  const target = uri.trim();
  if (target === "") throw new SdkTypeError("Cannot launch: the target is empty");
  let command: string;
  if (/^[a-z][a-z\d+.-]*:\/\//i.test(target)) {
    command = `am start -a android.intent.action.VIEW -d ${shellQuote(target)}`;
  } else if (target.includes("/")) {
    command = `am start -n ${shellQuote(target)}`;
  } else {
    command = `monkey -p ${shellQuote(target)} -c android.intent.category.LAUNCHER 1`;
  }
  const result = await shell.shell(command);
  const output = `${result.stdout}\n${result.stderr}`;
  if (
    result.exitCode !== 0 || /^Error:|No activities found|monkey aborted/m.test(output)
  ) {
    const said = commandOutput(output);
    throw new ToolError(
      `Cannot launch ${JSON.stringify(target)} on Android device ${
        JSON.stringify(shell.deviceId)
      }: ${said || `\`${command}\` exited with ${result.exitCode}`}`,
      { tool: "adb", status: result.exitCode, output: said },
    );
  }
}

/**
 * Force-stops the app of `uri` (a package name, or `package/.Activity`).
 *
 * @throws {SdkTypeError} for an empty package name.
 * @throws {ToolError} when `am force-stop` fails.
 */
export async function terminateApp(shell: BridgeShell, uri: string): Promise<void> {
  const pkg = uri.trim().split("/")[0];
  if (pkg === "") throw new SdkTypeError("Cannot terminate: the package name is empty");
  await shell.shellOk(`am force-stop ${shellQuote(pkg)}`);
}
