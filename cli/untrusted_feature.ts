/**
 * What a `.feature` file run as untrusted (`sdk run --untrusted`) may not ask of the command line,
 * checked on its text before any scenario runs: a `@serve:` folder outside the working folder,
 * and a `@url:` address other than `http:` / `https:` (a path under `@serve:` is fine). Its steps
 * are prompts; the Gherkin runner refuses an agent whose model could reach past the screen.
 *
 * @module
 */

import { dirname, resolve } from "node:path";
import { SdkTypeError } from "@sdk/core";
import { isInsideFolder } from "@sdk/core/script";

/**
 * Checks the tags of a feature file for an untrusted run.
 *
 * @param text the file's text.
 * @param shown the file as the user named it (errors name it so).
 * @param file its path, for the folder `@serve:` is relative to.
 * @param workDir the working folder.
 * @throws {SdkTypeError} listing each refused tag with its `file:line:col`.
 */
export async function checkUntrustedFeature(
  text: string,
  shown: string,
  file: string,
  workDir: string,
): Promise<void> {
  const problems: string[] = [];
  for (const [i, line] of text.split(/\r?\n/).entries()) {
    if (line.trimStart().startsWith("#")) continue;
    for (const m of line.matchAll(/(?<=^|\s)@(url|serve):(\S+)/g)) {
      const where = `${shown}:${i + 1}:${m.index + 1}: ${m[0]}`;
      if (m[1] === "serve") {
        const folder = resolve(dirname(file), m[2]);
        if (!(await isInsideFolder(folder, workDir))) {
          problems.push(
            `${where} leads to ${folder}, outside the working folder ${workDir}; an untrusted ` +
              `feature serves only folders inside it`,
          );
        }
      } else if (/^[a-z][a-z0-9+.-]*:/i.test(m[2]) && !/^https?:/i.test(m[2])) {
        problems.push(`${where}: an untrusted feature opens only http: and https: addresses`);
      }
    }
  }
  if (problems.length > 0) {
    throw new SdkTypeError(
      `${problems.join("\n")}\n(run it without --untrusted only if you trust it)`,
    );
  }
}
