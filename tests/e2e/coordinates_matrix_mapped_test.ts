/**
 * The coordinate matrix (see coordinates_test.ts) for the families that map like one of the families of coordinates_test.ts (qwen3, qwen3.5, qwen3.6, doubao-vision, doubao-seed, glm-v, xiaomi-mimo, kimi3): at every device pixel ratio and
 * shrink factor, each action lands on its target across the whole viewport. A file of its own so
 * the matrix runs in parallel with the rest.
 *
 * @module
 */

import { after } from "../helpers/test.ts";
import { startE2e } from "./_setup.ts";
import { defineMatrixTests, HARDEST_SCALE_FAMILIES } from "./_coordinates.ts";

const env = await startE2e();
after(() => env.close());

defineMatrixTests(env, HARDEST_SCALE_FAMILIES);
