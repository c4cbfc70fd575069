/// <reference lib="dom" />
/**
 * Prompt objects with images (spec 2.5) end to end, on both drivers: the images reach every model
 * request of a call (locate, deepLocate, extract, planning, UI-TARS planning), in the form given
 * (local file, data URI, raw base64, http link, downloaded link), and the test model answers from
 * what it received; the page's real state shows the result. A bad image fails the call before
 * the page or the model is touched, and the report shows the images.
 *
 * The fixture `images.html` has four tiles, each showing an image of its own size; the scripts
 * pick the tile whose image has the size of the prompt image they were sent.
 *
 * @module
 */

import { after } from "../helpers/test.ts";
import assert from "node:assert/strict";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { PromptImageError } from "@sdk/core";
import { createTestPng } from "@sdk/core/testing";
import type { ReceivedPromptImage, TargetBox, TestModelCall } from "@sdk/core/testing";
import { driverTest, type E2ePage } from "./_drivers.ts";
import { serveStatic } from "../helpers/static_server.ts";

const dir = await mkdtemp(join(tmpdir(), "sdk-prompt-images-"));
const images = serveStatic(dir);
after(async () => {
  await (await images).close();
  await rm(dir, { recursive: true, force: true });
});

/** Writes a PNG of `width` x `height` into the temp dir; returns its path and data URI. */
async function pngFile(name: string, width: number, height: number) {
  const uri = await createTestPng(width, height, { color: [120, 60, 200] });
  const file = join(dir, name);
  await writeFile(file, Uint8Array.from(atob(uri.split(",")[1]), (c) => c.charCodeAt(0)));
  return { file, uri, url: `${(await images).url}${name}` };
}

/** The size of a prompt image as the model learns it: its header, or by fetching its link. */
async function sizeOf(image: ReceivedPromptImage): Promise<{ width: number; height: number }> {
  if (image.size) return image.size;
  // A model fetches a link itself, and so does this one (a PNG's size is at bytes 16-23).
  const bytes = new Uint8Array(await (await fetch(image.url!)).arrayBuffer());
  const view = new DataView(bytes.buffer);
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

/** The prompt image the text names (`"name"` in quotes), or the first one. */
function named(call: TestModelCall, text: string): ReceivedPromptImage | undefined {
  return call.promptImages.find((i) => text.includes(`"${i.name}"`)) ?? call.promptImages[0];
}

/** The box of the tile whose image has that image's size, or null. */
async function tileFor(page: E2ePage, image: ReceivedPromptImage | undefined) {
  if (!image) return null;
  const { width, height } = await sizeOf(image);
  return await page.box(`.tile[data-w="${width}"][data-h="${height}"]`);
}

/** A locate script that finds the tile showing the prompt image the target names. */
function locateTile(page: E2ePage) {
  return (call: TestModelCall & { target: string }): Promise<TargetBox | null> =>
    tileFor(page, named(call, call.target));
}

driverTest(
  "aiTap with a local PNG file taps the tile showing an image of that size, and the report shows it",
  async (e2e) => {
    const page = await e2e.open("images.html");
    const { file } = await pngFile("tall.png", 32, 64);
    const { agent, model } = await e2e.agent(page, { locate: locateTile(page) });
    await agent.aiTap({
      prompt: 'the tile that shows the image "target"',
      images: [{ name: "target", url: file }],
    });
    assert.equal(await page.state("tapped"), "tall");
    assert.equal(model.calls.length, 1);
    const call = model.calls[0].call!;
    assert.deepEqual(
      [call.image?.width, call.image?.height, call.image?.format],
      [1280, 800, "jpeg"],
      "the screenshot is still the image",
    );
    assert.deepEqual(call.promptImages, [
      { name: "target", size: { width: 32, height: 64 }, mime: "image/png" },
    ]);

    const [record] = agent._unstableLogContent().executions;
    assert.equal(record.prompt, 'the tile that shows the image "target"');
    assert.equal(record.promptImages?.length, 1);
    const { name, screenshot } = record.promptImages![0];
    assert.equal(name, "target");
    assert.equal(typeof screenshot, "string");
    const html = await readFile(agent.reportFile!, "utf8");
    assert.ok(html.includes(`data-id="${screenshot}"`), "the image is stored in the report");

    // A person opening the report sees the image with its name.
    const report = await e2e.open(pathToFileURL(agent.reportFile!).href);
    const shown = await report.evaluate(() => {
      const figure = document.querySelector(".pimgs figure");
      const img = figure?.querySelector("img") as HTMLImageElement | null;
      return img?.decode().then(() => ({
        caption: figure!.querySelector("figcaption")!.textContent,
        width: img.naturalWidth,
        height: img.naturalHeight,
      }));
    });
    assert.deepEqual(shown, { caption: "target", width: 32, height: 64 });
  },
);

driverTest(
  "aiBoolean and aiQuery answer from the images they were sent (raw base64 and data URI)",
  async (e2e) => {
    const page = await e2e.open("images.html");
    const wide = await createTestPng(64, 32);
    const square = await createTestPng(48, 48);
    const odd = await createTestPng(10, 90);
    const { agent, model } = await e2e.agent(page, {
      extract: async (call) => {
        if (call.returnType === "boolean") {
          return (await tileFor(page, call.promptImages[0])) !== null;
        }
        const labels = [];
        for (const image of call.promptImages) {
          const { width, height } = await sizeOf(image);
          labels.push(
            await page.evaluate(
              (sel: string) => document.querySelector(sel)?.querySelector(".label")?.textContent,
              `.tile[data-w="${width}"][data-h="${height}"]`,
            ),
          );
        }
        return labels;
      },
    });
    const ask = (url: string) =>
      agent.aiBoolean({
        prompt: 'does a tile show the image "probe"?',
        images: [{ name: "probe", url }],
      });
    assert.equal(await ask(square.split(",")[1]), true);
    assert.equal(await ask(odd), false);
    assert.deepEqual(
      await agent.aiQuery<string[]>({
        prompt: 'the labels of the tiles showing "a" and "b", as an array of strings',
        images: [{ name: "a", url: wide.split(",")[1] }, { name: "b", url: square }],
      }),
      ["Wide", "Square"],
    );
    assert.deepEqual(model.calls.map((c) => c.call!.promptImages.map((i) => [i.name, i.size])), [
      [["probe", { width: 48, height: 48 }]],
      [["probe", { width: 10, height: 90 }]],
      [["a", { width: 64, height: 32 }], ["b", { width: 48, height: 48 }]],
    ]);
  },
);

driverTest(
  "an http image is sent as its link, or downloaded and inlined with convertHttpImage2Base64",
  async (e2e) => {
    const page = await e2e.open("images.html");
    const strip = await pngFile("strip.png", 80, 20);
    const square = await pngFile("square.png", 48, 48);
    const { agent, model } = await e2e.agent(page, { locate: locateTile(page) });
    const prompt = 'the tile showing "remote"';
    await agent.aiTap({ prompt, images: [{ name: "remote", url: strip.url }] });
    assert.equal(await page.state("tapped"), "strip");
    assert.deepEqual(model.calls[0].call!.promptImages, [
      { name: "remote", size: null, url: strip.url },
    ]);

    await agent.aiTap({
      prompt,
      images: [{ name: "remote", url: square.url }],
      convertHttpImage2Base64: true,
    });
    assert.equal(await page.state("tapped"), "square");
    assert.deepEqual(model.calls[1].call!.promptImages, [
      { name: "remote", size: { width: 48, height: 48 }, mime: "image/png" },
    ]);
    assert.deepEqual(
      agent._unstableLogContent().executions.map((e) => e.promptImages?.map((i) => i.url)),
      [[strip.url], [undefined]],
      "the report keeps the link of a linked image",
    );
  },
);

driverTest("a bad image fails the call before the page or the model is touched", async (e2e) => {
  const page = await e2e.open("images.html");
  const { agent, model } = await e2e.agent(page, { locate: locateTile(page) });
  await assert.rejects(
    agent.aiTap({
      prompt: 'the tile showing "logo"',
      images: [{ name: "logo", url: join(dir, "no-such-file.png") }],
    }),
    (e: Error) =>
      e instanceof PromptImageError && e.imageName === "logo" && /no such file/.test(e.message),
  );
  await assert.rejects(
    agent.aiAct({
      prompt: 'tap the tile showing "logo"',
      images: [{ name: "logo", url: `${(await images).url}missing.png` }],
      convertHttpImage2Base64: true,
    }),
    /Prompt image "logo": downloading .*missing\.png failed: HTTP 404/,
  );
  await assert.rejects(
    agent.aiQuery({
      prompt: 'the "a" and the "a"',
      images: [{ name: "a", url: await createTestPng(4, 4) }, { name: "a", url: "x.png" }],
    }),
    /two images are named "a"/,
  );
  assert.equal(await page.state("tapped"), null);
  assert.equal(model.calls.length, 0);
});

driverTest(
  "aiAct with deepThink sends the images with every planning and locate request",
  async (e2e) => {
    const page = await e2e.open("images.html");
    const { uri } = await pngFile("wide.png", 64, 32);
    const { agent, model } = await e2e.agent(page, {
      plan: async (call) =>
        await page.state("tapped")
          ? { log: "done", finished: true, output: String(await page.state("tapped")) }
          : {
            log: "Tap the tile",
            // deepThink: the planner names the element; the SDK locates it in a separate call.
            action: {
              type: "Tap",
              param: { locate: { prompt: `the tile like "${call.promptImages[0].name}"` } },
            },
          },
      locate: locateTile(page),
    });
    const output = await agent.aiAct({
      prompt: 'tap the tile that shows the image "goal"',
      images: [{ name: "goal", url: uri }],
    }, { deepThink: true });
    assert.equal(output, "wide");
    assert.deepEqual(await page.state("taps"), ["wide"]);
    assert.deepEqual(model.calls.map((c) => c.kind), ["plan", "locate", "plan"]);
    for (const c of model.calls) {
      assert.deepEqual(c.call!.promptImages, [
        { name: "goal", size: { width: 64, height: 32 }, mime: "image/png" },
      ]);
    }
  },
);

driverTest("aiLocate with deepLocate sends the images with both locate calls", async (e2e) => {
  const page = await e2e.open("images.html", { dpr: 2 });
  const { agent, model } = await e2e.agent(page, {
    locate: (call) =>
      // The second call sees a crop centered on the first box: answering the whole crop keeps
      // that center.
      call.image!.width === 2560
        ? locateTile(page)(call)
        : { left: 0, top: 0, width: 1280, height: 800 },
  });
  const found = await agent.aiLocate({
    prompt: 'the tile showing "t"',
    images: [{ name: "t", url: await createTestPng(80, 20) }],
  }, { deepLocate: true });
  assert.equal(model.calls.length, 2);
  for (const c of model.calls) {
    assert.deepEqual(c.call!.promptImages.map((i) => i.size), [{ width: 80, height: 20 }]);
  }
  const tile = await page.measure("#tile-strip");
  const [x, y] = found.center;
  assert.ok(
    x / 2 > tile.left && x / 2 < tile.left + tile.width && y / 2 > tile.top &&
      y / 2 < tile.top + tile.height,
    `center ${found.center} (physical px) is inside the strip tile ${
      JSON.stringify(tile)
    } (CSS px)`,
  );
});

driverTest(
  "UI-TARS planning carries the images after the current screenshot of every turn",
  async (e2e) => {
    const page = await e2e.open("images.html");
    const { agent, model } = await e2e.agent(page, {
      plan: async (call) => {
        if (await page.state("tapped")) return { log: "done", output: "tapped" };
        const box = await tileFor(page, call.promptImages[0]);
        return { log: "Tap", action: { type: "Tap", param: { locate: { prompt: "tile", box } } } };
      },
    }, { model: { family: "vlm-ui-tars" } });
    await agent.aiAct({
      prompt: 'tap the tile like "pic"',
      images: [{ name: "pic", url: await createTestPng(48, 48) }],
    });
    assert.equal(await page.state("tapped"), "square");
    assert.equal(model.calls.length, 2);
    for (const c of model.calls) {
      assert.deepEqual(c.call!.promptImages.map((i) => [i.name, i.size]), [
        ["pic", { width: 48, height: 48 }],
      ]);
    }
  },
);

driverTest("a WebP the browser encodes is sent as image/webp with its size", async (e2e) => {
  const page = await e2e.open("images.html");
  const webp = await page.evaluate(() => {
    const canvas = document.createElement("canvas");
    canvas.width = 64;
    canvas.height = 32;
    canvas.getContext("2d")!.fillRect(0, 0, 64, 32);
    return canvas.toDataURL("image/webp");
  });
  assert.match(webp, /^data:image\/webp;base64,/);
  const { agent, model } = await e2e.agent(page, {
    extract: async (call) => (await tileFor(page, call.promptImages[0])) !== null,
  });
  assert.equal(
    await agent.aiBoolean({ prompt: 'a tile like "w"?', images: [{ name: "w", url: webp }] }),
    true,
  );
  assert.deepEqual(model.calls[0].call!.promptImages, [
    { name: "w", size: { width: 64, height: 32 }, mime: "image/webp" },
  ]);
});
