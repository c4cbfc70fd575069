/**
 * The coordinate matrix (see coordinates_test.ts) for the planning-dialect families (UI-TARS and AutoGLM), whose locate answers use their own box conventions: at every device pixel ratio and
 * shrink factor, each action lands on its target across the whole viewport. A file of its own so
 * the matrix runs in parallel with the rest.
 *
 * @module
 */

import { after } from "../helpers/test.ts";
import { startE2e } from "./_setup.ts";
import { defineMatrixTests, DIALECT_MATRIX_FAMILIES } from "./_coordinates.ts";

const env = await startE2e();
after(() => env.close());

defineMatrixTests(env, DIALECT_MATRIX_FAMILIES);
