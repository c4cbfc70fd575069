/**
 * The fixture app and the static server (cli/serve.ts) that tests and the demo serve it with.
 *
 * @module
 */

import { fileURLToPath } from "node:url";

export { serveStatic, type ServeStaticOptions, type StaticServer } from "../../cli/serve.ts";

/** The bundled fixture app (`tests/fixtures/app`). */
export const FIXTURE_APP_DIR: string = fileURLToPath(new URL("../fixtures/app/", import.meta.url));
