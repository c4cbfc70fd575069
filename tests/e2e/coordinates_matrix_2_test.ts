/**
 * The coordinate matrix, part 2 of `MATRIX_PARTS` (_coordinates.ts; see coordinates_test.ts):
 * with family qwen3-vl, at every device pixel ratio and shrink factor, each action lands on its
 * target across the whole viewport.
 *
 * @module
 */

import { defineMatrixPart } from "./_coordinates.ts";

await defineMatrixPart(2);
