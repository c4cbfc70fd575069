/**
 * A process of agents sharing one cache, for cache_store_test.ts: `agents` agents with the same
 * cache id each tap `records` elements the model locates, so each writes a location after every
 * call, all at once.
 *
 *     deno run -A cache_writers.ts <cacheDir> <id> <tag> <agents> <records>
 *
 * @module
 */

import { Agent } from "../../agent/agent.ts";
import { tapAction } from "../../device/actions.ts";
import type { AbstractInterface, LocatedElement } from "../../device/types.ts";
import { createTestPng, startTestModel } from "../../testing/mod.ts";

const [cacheDir, id, tag, agents, records] = Deno.args;
const png = await createTestPng(400, 400);

/** Element `i` is a 10 px square at row `i`: its xpath names the row. */
function device(): AbstractInterface {
  const element = (i: number): LocatedElement => ({
    description: `${i}`,
    rect: { left: 0, top: i * 10, width: 10, height: 10 },
    center: [5, i * 10 + 5],
  });
  return {
    interfaceType: "test",
    screenshotBase64: () => Promise.resolve(png),
    size: () => Promise.resolve({ width: 400, height: 400, dpr: 1 }),
    actionSpace: () => [tapAction(() => Promise.resolve())],
    xpathsAt: ([, y]) => Promise.resolve([`//row[${Math.floor(y / 10)}]`]),
    locateByXpath: (xpath) => Promise.resolve(element(Number(/\d+/.exec(xpath)![0]))),
  };
}

const model = await startTestModel({
  script: {
    locate: ({ target }) => {
      const i = Number(/element (\d+)/.exec(target)![1]);
      return { left: 0, top: i * 10, width: 10, height: 10 };
    },
  },
  viewport: { width: 400, height: 400 },
});
await Promise.all(
  Array.from({ length: Number(agents) }, async (_, a) => {
    const agent = new Agent(device(), {
      modelConfig: model.modelConfig(),
      cache: { id, cacheDir },
      waitAfterAction: 0,
      generateReport: false,
    });
    for (let i = 0; i < Number(records); i++) {
      await agent.aiTap(`${tag} agent ${a} element ${i}`);
    }
    await agent.destroy();
  }),
);
await model.close();
console.log("done");
