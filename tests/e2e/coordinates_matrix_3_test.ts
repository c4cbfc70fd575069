/**
 * The coordinate matrix, part 3 of `MATRIX_PARTS` (_coordinates.ts; see coordinates_test.ts):
 * with family qwen2.5-vl, at every device pixel ratio and shrink factor, each action lands on its
 * target across the whole viewport.
 *
 * @module
 */

import { defineMatrixPart } from "./_coordinates.ts";

await defineMatrixPart(3);
