/**
 * The coordinate matrix, part 9 of `MATRIX_PARTS` (_coordinates.ts; see coordinates_test.ts):
 * with family qwen3, at every device pixel ratio and shrink factor, each action lands on its
 * target across the whole viewport.
 *
 * @module
 */

import { defineMatrixPart } from "./_coordinates.ts";

await defineMatrixPart(9);
