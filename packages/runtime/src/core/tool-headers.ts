import { isObject } from "./protocol.js";

// Mcp-Param-* headers (2026-07-28 transports/streamable-http): a tool may mark arguments
// with "x-mcp-header": "<Name>" in its input schema; over HTTP the client then repeats them
// as Mcp-Param-<Name> headers. A tool whose annotations are invalid is not called at all.

export type HeaderPlan = { headers: [property: string, header: string][] } | { invalid: string };

const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const HEADER_TYPES = new Set(["string", "integer", "boolean"]);

/** What a tool's input schema says about its header arguments. */
export function headerPlan(tool: Record<string, unknown>): HeaderPlan {
  const schema = tool["inputSchema"];
  const properties = isObject(schema) && isObject(schema["properties"]) ? schema["properties"] : {};
  const headers: [string, string][] = [];
  const seen = new Set<string>();
  for (const [property, propertySchema] of Object.entries(properties)) {
    if (!isObject(propertySchema) || !("x-mcp-header" in propertySchema)) continue;
    const name = propertySchema["x-mcp-header"];
    if (typeof name !== "string" || name === "")
      return { invalid: `"${property}": x-mcp-header must be a non-empty string` };
    if (!HEADER_NAME.test(name))
      return { invalid: `"${property}": x-mcp-header "${name}" is not a valid header name` };
    if (seen.has(name.toLowerCase()))
      return { invalid: `"${property}": x-mcp-header "${name}" is declared twice` };
    if (!HEADER_TYPES.has(propertySchema["type"] as string)) {
      return { invalid: `"${property}": x-mcp-header needs a string, integer or boolean property` };
    }
    seen.add(name.toLowerCase());
    headers.push([property, name]);
  }
  return { headers };
}

/**
 * A header value: plain when it is printable ASCII without edge spaces, else `=?base64?...?=`
 * (the spec's encoding for values a header cannot carry as they are, e.g. non-ASCII).
 */
export function headerValue(value: unknown): string | undefined {
  if (value === null || value === undefined) return undefined;
  const text = typeof value === "string" ? value : String(value);
  if (text === "" || /^[\x21-\x7e]([\x20-\x7e]*[\x21-\x7e])?$/.test(text)) return text;
  let binary = "";
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return `=?base64?${btoa(binary)}?=`;
}

/** The Mcp-Param-* headers of one tools/call, or an error message when the tool may not be called. */
export function toolHeaders(
  plan: HeaderPlan | undefined,
  params: Record<string, unknown>,
): Record<string, string> | { invalid: string } | undefined {
  if (!plan) return undefined;
  if ("invalid" in plan) return plan;
  const args = isObject(params["arguments"]) ? params["arguments"] : {};
  const headers: Record<string, string> = {};
  for (const [property, name] of plan.headers) {
    const value = headerValue(
      Object.prototype.hasOwnProperty.call(args, property) ? args[property] : undefined,
    );
    if (value !== undefined) headers[`Mcp-Param-${name}`] = value;
  }
  return headers;
}
