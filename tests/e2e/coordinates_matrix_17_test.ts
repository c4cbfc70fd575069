/**
 * The coordinate matrix, part 17 of `MATRIX_PARTS` (_coordinates.ts; see coordinates_test.ts):
 * with family vlm-ui-tars-doubao-1.5, at every device pixel ratio and shrink factor, each action lands on its
 * target across the whole viewport.
 *
 * @module
 */

import { defineMatrixPart } from "./_coordinates.ts";

await defineMatrixPart(17);
