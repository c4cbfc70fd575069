/**
 * What every MCP tool of `sdk mcp` is made of (docs/mcp.md): its definition as `tools/list` shows
 * it (a JSON Schema input), the arguments as a call gives them, checked by kind, and its result.
 *
 * @module
 */

import { SdkTypeError } from "@sdk/core";

/** A JSON Schema of a tool's input: an object of named properties. */
export interface ToolInputSchema {
  /** Always `"object"`. */
  type: "object";
  /** The arguments, each with its type and description. */
  properties: Record<string, Record<string, unknown>>;
  /** The arguments that must be given. */
  required?: string[];
  /** No argument beyond `properties`. */
  additionalProperties: false;
}

/** One tool as `tools/list` shows it. */
export interface ToolDefinition {
  /** The tool's name, snake_case. */
  name: string;
  /** What it does, for the assistant. */
  description: string;
  /** Its arguments. */
  inputSchema: ToolInputSchema;
}

/** A string argument's schema. */
export const str = (description: string) => ({ type: "string", description });
/** An integer argument's schema. */
export const int = (description: string) => ({ type: "integer", description });
/** A boolean argument's schema. */
export const bool = (description: string) => ({ type: "boolean", description });

/** A tool's input schema: `properties`, of which `required` must be given, and no other. */
export const schema = (
  properties: ToolInputSchema["properties"],
  required: string[] = [],
): ToolInputSchema => ({
  type: "object",
  properties,
  ...(required.length > 0 && { required }),
  additionalProperties: false,
});

/** A content block of a tool result (MCP `tools/call`). */
export type ToolContent =
  | { type: "text"; text: string }
  | { type: "image"; data: string; mimeType: string };

/** A tool result: its content, and whether it is an error. */
export interface ToolResult {
  /** What the tool returns. */
  content: ToolContent[];
  /** Set for a failed call. */
  isError?: boolean;
}

/** A text result. */
export function text(value: string): ToolResult {
  return { content: [{ type: "text", text: value }] };
}

/** The arguments of a call, read by kind: `undefined` when left out. */
export interface ToolArgs {
  /** A string argument; `required` throws when it is left out. */
  s(key: string, required?: boolean): string | undefined;
  /** A number argument. */
  n(key: string): number | undefined;
  /** A boolean argument. */
  b(key: string): boolean | undefined;
}

/**
 * Reads a call's arguments.
 *
 * @throws {SdkTypeError} (from each reader) for an argument of another kind, or a required one
 * left out.
 */
export function toolArgs(args: Record<string, unknown>): ToolArgs {
  return {
    s: (key, required = false) => arg(args, key, "string", required) as string | undefined,
    n: (key) => arg(args, key, "number") as number | undefined,
    b: (key) => arg(args, key, "boolean") as boolean | undefined,
  };
}

/** A tool argument that must be of `kind` when given; `undefined` when left out. */
function arg(
  args: Record<string, unknown>,
  name: string,
  kind: "string" | "number" | "boolean",
  required = false,
) {
  const v = args[name];
  if (v === undefined || v === null) {
    if (required) throw new SdkTypeError(`The argument "${name}" is required`);
    return undefined;
  }
  const ok = kind === "string"
    ? typeof v === "string"
    : kind === "number"
    ? typeof v === "number"
    : typeof v === "boolean";
  if (!ok) {
    throw new SdkTypeError(`The argument "${name}" must be a ${kind}, got ${JSON.stringify(v)}`);
  }
  return v;
}
