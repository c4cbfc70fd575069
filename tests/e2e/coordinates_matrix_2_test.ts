/**
 * The coordinate matrix, part 2 of `MATRIX_PARTS` (_coordinates.ts; see coordinates_test.ts):
 * with family qwen2.5-vl and gpt-5, at every device pixel ratio and shrink factor, each action lands on its
 * target across the whole viewport.
 *
 * @module
 */

import { defineMatrixPart } from "./_coordinates.ts";

await defineMatrixPart(2);
