/**
 * What the run log keeps of a model request: its settings and messages, each image reduced to
 * its format, pixel size and byte count (images are never logged; docs/logs.md).
 *
 * @module
 */

import { imageSizeFromDataUri } from "../image/size.ts";

/** An image of a request as the log shows it: format, size and bytes, or a URL (cut at 200). */
function describeImage(url: string): string {
  if (!url.startsWith("data:")) return url.length > 200 ? `${url.slice(0, 200)}...` : url;
  const bytes = Math.floor((url.length - url.indexOf(",") - 1) * 3 / 4);
  try {
    const { mime, width, height } = imageSizeFromDataUri(url);
    return `${mime} ${width}x${height}, ${bytes} bytes`;
  } catch {
    return `${url.slice(5, url.indexOf(";"))}, ${bytes} bytes`;
  }
}

/**
 * A request body for the log: every field as sent, except that each image part of `messages`
 * becomes `{ image: "image/jpeg 1280x800, 151234 bytes" }`.
 */
export function requestForLog(body: Record<string, unknown>): Record<string, unknown> {
  const messages = Array.isArray(body.messages) ? body.messages : [];
  return {
    ...body,
    messages: messages.map((m: { role?: unknown; content?: unknown }) => ({
      role: m.role,
      content: Array.isArray(m.content)
        ? m.content.map((part: { type?: string; text?: string; image_url?: { url?: string } }) =>
          part.type === "image_url" ? { image: describeImage(part.image_url?.url ?? "") } : part
        )
        : m.content,
    })),
  };
}
