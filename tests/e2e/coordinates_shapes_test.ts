/**
 * Each family's own ways of writing a box or a point, end to end, part 1 of `SHAPE_PARTS`
 * (_coordinate_shapes.ts; see coordinates_test.ts): families gpt-5, kimi, kimi3, doubao-vision and doubao-seed. aiTap clicks every
 * shape the family's models write, and aiAct its planned box, at dpr 2.
 *
 * @module
 */

import { defineShapePart } from "./_coordinate_shapes.ts";

await defineShapePart(1);
