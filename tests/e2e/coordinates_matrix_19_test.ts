/**
 * The coordinate matrix, part 19 of `MATRIX_PARTS` (_coordinates.ts; see coordinates_test.ts):
 * with family auto-glm-multilingual, at every device pixel ratio and shrink factor, each action lands on its
 * target across the whole viewport.
 *
 * @module
 */

import { defineMatrixPart } from "./_coordinates.ts";

await defineMatrixPart(19);
