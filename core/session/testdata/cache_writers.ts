/**
 * A process of agents writing one cache at once, for cache_store_test.ts: `agents` caches on
 * the same id each record `records` locations, writing after every one, as an agent does after
 * each call.
 *
 *     deno run -A cache_writers.ts <cacheDir> <id> <tag> <agents> <records>
 *
 * @module
 */

import { TaskCache } from "../cache_store.ts";

const [cacheDir, id, tag, agents, records] = Deno.args;

await Promise.all(
  Array.from({ length: Number(agents) }, async (_, a) => {
    const cache = await TaskCache.open({ id, strategy: "read-write", cacheDir });
    for (let i = 0; i < Number(records); i++) {
      cache.putLocate(`${tag} agent ${a} element ${i}`, [`//*[@id="${tag}-${a}-${i}"]`]);
      await cache.flush();
    }
  }),
);
console.log("done");
