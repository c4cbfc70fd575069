/**
 * Reads a chat-completions request the way a model would (docs/model-protocol.md): the call kind
 * from the system prompt's first line, the tagged blocks of the user text, the image size from the
 * image header. Private to `@sdk/core/testing`.
 *
 * @module
 */

import {
  type ImageSize,
  readAnyDataUriImage,
  type ReceivedScreenshot,
  receivedScreenshot,
} from "./_image.ts";

/** The four kinds of model call the SDK makes. */
export type CallKind = "plan" | "locate" | "extract" | "assert";

/**
 * A named image of the prompt (spec 2.5) as the request carried it: a text part
 * `Image "<name>":` followed by its image part (docs/model-protocol.md, "Prompt images").
 */
export interface ReceivedPromptImage {
  /** The name, from the text part before the image. */
  name: string;
  /**
   * Pixel size read from the image's PNG, JPEG, GIF or WebP header; `null` when the image was
   * sent as an http(s) link.
   */
  size: ImageSize | null;
  /** Media type of the data URI, e.g. `"image/gif"`; unset for a link. */
  mime?: string;
  /** The http(s) link, when the image was sent as a link instead of inlined data. */
  url?: string;
  /**
   * The inlined image's data URI as sent (unset for a link), e.g. to decode an observed frame's
   * pixels. Not enumerable, so it stays out of `deepEqual` comparisons and of JSON.
   */
  readonly dataUri?: string;
}

/** Fields every call kind carries. */
export interface CallBase {
  /** The model name the request asked for. */
  model: string;
  /** The whole system prompt. */
  systemPrompt: string;
  /**
   * The whole text of the first user message (for dialect planning, of the message with the
   * instruction), without the `Image "<name>":` parts of prompt images.
   */
  userText: string;
  /** The `<context>` block, when the request has one. */
  context?: string;
  /**
   * The `<page-dom>` block of an extract or assert call sent with `domIncluded`: the device's
   * element description, one element per line (docs/model-protocol.md). Unset without it.
   */
  dom?: string;
  /**
   * The screenshot the model was sent: its size read from its PNG or JPEG header, its format
   * and its byte count; `null` when the request carried no image.
   */
  image: ReceivedScreenshot | null;
  /**
   * The prompt's named images, in order (the message that holds the current screenshot carries
   * them after it); empty when the prompt has none.
   */
  promptImages: ReceivedPromptImage[];
  /**
   * Text of the last user message when the conversation has more than one user turn: the SDK's
   * feedback on an unusable earlier answer.
   */
  feedback?: string;
}

/** A planning call (`aiAct`). */
export interface PlanCall extends CallBase {
  /** Call kind. */
  kind: "plan";
  /** The `<instruction>` block. */
  instruction: string;
  /** Logs of the actions already done, oldest first, without their numbers; empty at the start. */
  history: string[];
  /**
   * How many actions one answer may carry, as the system prompt says (`"actions": at most N`);
   * 1 when it asks for a single `"action"`.
   */
  maxActions: number;
}

/** A locate call (instant actions, `aiLocate`, deep-think locating). */
export interface LocateCall extends CallBase {
  /** Call kind. */
  kind: "locate";
  /** The `<target>` block: the element's description. */
  target: string;
}

/** An extract call (`aiQuery`, `aiBoolean`, `aiNumber`, `aiString`, `aiAsk`). */
export interface ExtractCall extends CallBase {
  /** Call kind. */
  kind: "extract";
  /** The `<demand>` block. */
  demand: string;
  /** The `<return-type>` block: `any`, `boolean`, `number` or `string`. */
  returnType: string;
}

/** An assertion call (`aiAssert`, `aiWaitFor`). */
export interface AssertCall extends CallBase {
  /** Call kind. */
  kind: "assert";
  /** The `<assertion>` block. */
  assertion: string;
}

/** Any call the test model answers. */
export type TestModelCall = PlanCall | LocateCall | ExtractCall | AssertCall;

/** A request that breaks the model protocol; answered with HTTP 400. */
export class ProtocolError extends Error {
  /** Creates the error. */
  constructor(message: string) {
    super(message);
    this.name = "ProtocolError";
  }
}

const KIND_BY_FIRST_LINE: ReadonlyArray<[string, CallKind]> = [
  ["You are a UI automation planner.", "plan"],
  ["You are a UI element locator.", "locate"],
  ["You are a UI data extractor.", "extract"],
  ["You are a UI assertion checker.", "assert"],
];

interface ContentPart {
  type?: unknown;
  text?: unknown;
  image_url?: { url?: unknown } | unknown;
}

interface Message {
  role?: unknown;
  content?: unknown;
}

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return (content as ContentPart[])
    .filter((p) => p && p.type === "text" && typeof p.text === "string")
    .map((p) => p.text as string)
    .join("\n");
}

function imageUrlsOf(content: unknown): string[] {
  if (!Array.isArray(content)) return [];
  const urls: string[] = [];
  for (const part of content as ContentPart[]) {
    if (part?.type !== "image_url") continue;
    const holder = part.image_url as { url?: unknown } | string | undefined;
    const url = typeof holder === "string" ? holder : holder?.url;
    if (typeof url === "string") urls.push(url);
  }
  return urls;
}

const IMAGE_NAME = /^Image ("(?:[^"\\]|\\.)*"):$/;

/** A user message's content split into its text, its unnamed images and its named images. */
export interface SplitContent {
  /** The text parts joined by `\n`, without the naming parts of prompt images. */
  text: string;
  /** URLs of the images no naming part precedes (the screenshot), in order. */
  unnamed: string[];
  /** The named prompt images, in order. */
  promptImages: ReceivedPromptImage[];
}

/**
 * Splits a message's content: a text part `Image "<name>":` names the image part right after it.
 *
 * @throws {ProtocolError} when a naming part is not followed by an image, a name is used twice,
 * or a named image is neither a readable data URI image nor an http(s) link.
 */
export function splitContent(content: unknown): SplitContent {
  const out: SplitContent = { text: "", unnamed: [], promptImages: [] };
  if (typeof content === "string") return { ...out, text: content };
  if (!Array.isArray(content)) return out;
  const texts: string[] = [];
  const parts = content as ContentPart[];
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i];
    if (part?.type === "text" && typeof part.text === "string") {
      const named = IMAGE_NAME.exec(part.text);
      if (!named) {
        texts.push(part.text);
        continue;
      }
      const name = JSON.parse(named[1]) as string;
      const url = imageUrlsOf([parts[i + 1]])[0];
      if (url === undefined) {
        throw new ProtocolError(
          `the text part ${part.text} names an image, but no image follows it`,
        );
      }
      if (out.promptImages.some((p) => p.name === name)) {
        throw new ProtocolError(`two prompt images are named ${named[1]}`);
      }
      out.promptImages.push(readPromptImage(name, url));
      i++;
    } else {
      out.unnamed.push(...imageUrlsOf([part]));
    }
  }
  out.text = texts.join("\n");
  return out;
}

function readPromptImage(name: string, url: string): ReceivedPromptImage {
  if (/^https?:\/\//i.test(url)) return { name, size: null, url };
  try {
    const found = readAnyDataUriImage(url);
    const image = { name, size: { width: found.width, height: found.height }, mime: found.mime };
    return Object.defineProperty(image, "dataUri", { value: url, enumerable: false });
  } catch (error) {
    throw new ProtocolError(
      `prompt image ${JSON.stringify(name)} is neither an http(s) link nor a readable image: ${
        (error as Error).message
      }`,
    );
  }
}

/**
 * The text between `<tag>` and `</tag>` (each on a line of its own in the protocol; tolerated
 * inline), trimmed of the surrounding newlines; `undefined` when the block is missing.
 */
export function readBlock(text: string, tag: string): string | undefined {
  const open = `<${tag}>`;
  const close = `</${tag}>`;
  const start = text.indexOf(open);
  if (start < 0) return undefined;
  const end = text.indexOf(close, start + open.length);
  if (end < 0) return undefined;
  return text.slice(start + open.length, end).replace(/^\r?\n/, "").replace(/\r?\n$/, "");
}

function requireBlock(text: string, tag: string, kind: CallKind): string {
  const block = readBlock(text, tag);
  if (block === undefined) {
    throw new ProtocolError(`${kind} call without a <${tag}> block in the user text`);
  }
  return block;
}

/** Splits a `<history>` block into logs: `(none)` is empty, `N. ` prefixes are dropped. */
function parseHistory(block: string): string[] {
  const trimmed = block.trim();
  if (trimmed === "" || trimmed === "(none)") return [];
  return trimmed.split(/\r?\n/).filter((l) => l.trim() !== "").map((l) =>
    l.replace(/^\s*\d+\.\s?/, "")
  );
}

const STATED_SIZE = /The screenshot is (\d+) x (\d+) pixels\./;

/** Result of {@link parseRequest}. */
export interface ParsedRequest {
  /** The typed call. */
  call: TestModelCall;
  /** Number of images in the request (for usage). */
  imageCount: number;
  /** Characters of text in all messages (for usage). */
  textLength: number;
}

/** Replaces image data in a request body by a note, for logs. */
export function redactBody(body: Record<string, unknown>): Record<string, unknown> {
  const copy = structuredClone(body);
  const messages = Array.isArray(copy.messages) ? copy.messages as Message[] : [];
  for (const message of messages) {
    if (!Array.isArray(message?.content)) continue;
    for (const part of message.content as ContentPart[]) {
      if (part?.type !== "image_url") continue;
      const holder = part.image_url as { url?: unknown } | undefined;
      if (holder && typeof holder.url === "string") {
        const url = holder.url;
        const comma = url.indexOf(",");
        holder.url = comma > 0
          ? `${url.slice(0, comma + 1)}<${url.length - comma - 1} characters left out>`
          : `<${url.length} characters left out>`;
      }
    }
  }
  return copy;
}

/**
 * Turns a chat-completions request body into a typed call.
 *
 * @throws {ProtocolError} when the body breaks the protocol: no system prompt, an unknown first
 * line, a missing block, an unreadable image, or a stated image size that differs from the image.
 */
export function parseRequest(body: Record<string, unknown>): ParsedRequest {
  if (body.stream === true) {
    throw new ProtocolError("the test model does not stream; send `stream: false` or leave it out");
  }
  const messages = body.messages;
  if (!Array.isArray(messages) || messages.length < 2) {
    throw new ProtocolError("`messages` must hold a system message and a user message");
  }
  const system = (messages as Message[]).find((m) => m?.role === "system");
  if (!system) throw new ProtocolError("`messages` has no system message");
  const users = (messages as Message[]).filter((m) => m?.role === "user");
  if (users.length === 0) throw new ProtocolError("`messages` has no user message");

  const systemPrompt = textOf(system.content);
  const firstLine = systemPrompt.trimStart().split(/\r?\n/, 1)[0].trim();
  const entry = KIND_BY_FIRST_LINE.find(([line]) => firstLine.startsWith(line));
  if (!entry) {
    throw new ProtocolError(
      `cannot tell the call kind from the system prompt's first line: "${
        firstLine.slice(0, 120)
      }" (expected one of ${KIND_BY_FIRST_LINE.map(([l]) => `"${l}"`).join(", ")})`,
    );
  }
  const kind = entry[1];

  const first = splitContent(users[0].content);
  const userText = first.text;
  const urls = first.unnamed;
  if (urls.length > 1) {
    throw new ProtocolError(
      `the user message holds ${urls.length} images that no 'Image "<name>":' text part names; ` +
        `the protocol sends one screenshot`,
    );
  }
  let image: ReceivedScreenshot | null = null;
  if (urls.length === 1) {
    try {
      image = receivedScreenshot(urls[0]);
    } catch (error) {
      throw new ProtocolError((error as Error).message);
    }
  }
  const stated = STATED_SIZE.exec(userText);
  if (image) {
    if (!stated) {
      throw new ProtocolError(
        `the user text does not state the image size ("The screenshot is ${image.width} x ${image.height} pixels.")`,
      );
    }
    const w = Number(stated[1]);
    const h = Number(stated[2]);
    if (w !== image.width || h !== image.height) {
      throw new ProtocolError(
        `the user text states ${w} x ${h} pixels but the image is ${image.width} x ${image.height}`,
      );
    }
  }

  const base: CallBase = {
    model: typeof body.model === "string" ? body.model : "",
    systemPrompt,
    userText,
    image,
    promptImages: first.promptImages,
  };
  const context = readBlock(userText, "context");
  if (context !== undefined) base.context = context;
  const dom = readBlock(userText, "page-dom");
  if (dom !== undefined) base.dom = dom;
  if (users.length > 1) base.feedback = textOf(users[users.length - 1].content);

  let call: TestModelCall;
  switch (kind) {
    case "plan":
      call = {
        ...base,
        kind,
        instruction: requireBlock(userText, "instruction", kind),
        history: parseHistory(requireBlock(userText, "history", kind)),
        maxActions: Number(/"actions": at most (\d+)/.exec(systemPrompt)?.[1] ?? 1),
      };
      break;
    case "locate":
      call = { ...base, kind, target: requireBlock(userText, "target", kind) };
      break;
    case "extract":
      call = {
        ...base,
        kind,
        demand: requireBlock(userText, "demand", kind),
        returnType: requireBlock(userText, "return-type", kind).trim(),
      };
      break;
    case "assert":
      call = { ...base, kind, assertion: requireBlock(userText, "assertion", kind) };
      break;
  }
  const textLength = (messages as Message[]).reduce((n, m) => n + textOf(m?.content).length, 0);
  const imageCount = (messages as Message[]).reduce(
    (n, m) => n + imageUrlsOf(m?.content).length,
    0,
  );
  return { call, imageCount, textLength };
}
