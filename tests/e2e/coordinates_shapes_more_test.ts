/**
 * Each family's own ways of writing a box or a point, end to end, part 2 of `SHAPE_PARTS`
 * (_coordinate_shapes.ts; see coordinates_test.ts): families qwen3, qwen3.5, qwen3.6, glm-v and xiaomi-mimo. aiTap clicks every
 * shape the family's models write, and aiAct its planned box, at dpr 2.
 *
 * @module
 */

import { defineShapePart } from "./_coordinate_shapes.ts";

await defineShapePart(2);
