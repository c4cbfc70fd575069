/**
 * The chat messages of a model request, as the OpenAI chat-completions API takes them, and the size
 * of the image a request carries. Types only, so that every part of the model layer can use them
 * without importing the caller or the families.
 *
 * @module
 */

/** A chat message part: text, or an image given as a data URI or URL. */
export type ChatContentPart =
  | { type: "text"; text: string }
  | { type: "image_url"; image_url: { url: string } };

/** A chat message as sent to the model. */
export interface ChatMessage {
  /** Who speaks. */
  role: "system" | "user" | "assistant";
  /** Text, or text and images. */
  content: string | ChatContentPart[];
}

/** Sizes of the image the model saw, in image pixels. */
export interface ModelImageSize {
  /** Width of the image sent (after shrink and padding). */
  width: number;
  /** Height of the image sent (after shrink and padding). */
  height: number;
  /** Width of the screenshot content inside it (before padding). */
  contentWidth: number;
  /** Height of the screenshot content inside it (before padding). */
  contentHeight: number;
}
