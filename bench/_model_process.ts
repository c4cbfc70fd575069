/**
 * The bench's test model, in its own process as a real model endpoint would be, so the bench's
 * memory numbers are the SDK's alone. Argument: JSON `{ box, viewport?, imagePixelsPerCssPixel? }`
(how the model maps the screenshot to CSS pixels). Prints the agent's
 * `modelConfig` as one JSON line, then serves until its stdin closes.
 *
 * @module
 */

import { startTestModel } from "@sdk/core/testing";
import type { TargetBox, ViewportSize } from "@sdk/core/testing";

const { box, viewport, imagePixelsPerCssPixel } = JSON.parse(Deno.args[0]) as {
  box: TargetBox;
  viewport?: ViewportSize;
  imagePixelsPerCssPixel?: number;
};
const model = await startTestModel({
  script: { locate: () => box },
  viewport,
  imagePixelsPerCssPixel,
});
console.log(JSON.stringify(model.modelConfig()));
for await (const _ of Deno.stdin.readable) {
  // Nothing is sent; the loop ends when the parent closes stdin.
}
await model.close();
