/**
 * Prompt images as parts of a model request: the model layer's side of the prompt objects with
 * images (spec 2.5) that `session/prompt_input.ts` reads and checks.
 *
 * @module
 */

import type { ChatContentPart } from "./chat.ts";

/** One image of a prompt, ready to be sent to the model. */
export interface ResolvedPromptImage {
  /** The name the prompt text refers to it by (trimmed, non-empty, unique in its prompt). */
  name: string;
  /**
   * A base64 data URI with the media type read from the bytes (`data:image/webp;base64,...`), or
   * the `http(s)` link exactly as given when it is sent as a link.
   */
  url: string;
}

/**
 * The content parts that carry prompt images in a model request: for each image, a text part
 * `Image "<name>":` (the name as a JSON string) followed by its `image_url` part. Empty when there
 * are none, so requests without images stay as they were.
 */
export function promptImageParts(images: readonly ResolvedPromptImage[] = []): ChatContentPart[] {
  return images.flatMap((image): ChatContentPart[] => [
    { type: "text", text: `Image ${JSON.stringify(image.name)}:` },
    { type: "image_url", image_url: { url: image.url } },
  ]);
}
