/**
 * The coordinate matrix, part 11 of `MATRIX_PARTS` (_coordinates.ts; see coordinates_test.ts):
 * with family qwen3.6, at every device pixel ratio and shrink factor, each action lands on its
 * target across the whole viewport.
 *
 * @module
 */

import { defineMatrixPart } from "./_coordinates.ts";

await defineMatrixPart(11);
