import { headerValue } from "../../core/tool-headers.js";
import { isObject, own, type ProtocolDescriptor } from "../../core/protocol.js";

// Streamable HTTP repeats routing facts of the body in headers (2026-07-28
// transports/streamable-http, "Standard Headers"): both sides compute them here.

const LOCAL_HOSTNAMES = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * A Host header naming this machine, spelled exactly (`localhost`, `127.0.0.1` or `[::1]`,
 * with an optional port). URL parsing would also accept `127.1` or `0x7f000001`; a DNS
 * rebinding page controls the name, so only the plain spellings pass.
 */
export function isLocalHost(host: string): boolean {
  // Every request of a server names the same Host: the last answer is kept.
  if (host === lastHost.host) return lastHost.local;
  const match = /^(\[[^\]]*\]|[^:]*)(:\d{1,5})?$/.exec(host.toLowerCase());
  const local = match !== null && LOCAL_HOSTNAMES.has(match[1]!);
  lastHost = { host, local };
  return local;
}

let lastHost = { host: "", local: false };

export function isLocalOrigin(origin: string): boolean {
  const match = /^https?:\/\/(.*)$/i.exec(origin);
  return match !== null && isLocalHost(match[1]!);
}

/** Base64 as UTF-8 text, or undefined when it is not Base64 or not UTF-8. */
function utf8FromBase64(base64: string): string | undefined {
  try {
    const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/** `=?base64?...?=` with canonical Base64 (padding included), or not an encoded value at all. */
const ENCODED = /^=\?base64\?(.*)\?=$/s;
const CANONICAL_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
/** What a plain header value may hold: visible ASCII and inner spaces (Value Encoding). */
const PLAIN = /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$|^$/;

/**
 * The value an Mcp-Name or Mcp-Param-* header carries (Value Encoding: the same rule for
 * both; Server Behavior for Custom Headers: invalid characters are refused): a plain value
 * must be visible ASCII without edge spaces, an encoded one canonical Base64 of UTF-8;
 * undefined otherwise, which the caller reports as a mismatch.
 */
export function decodeHeaderValue(raw: string): string | undefined {
  const encoded = ENCODED.exec(raw);
  if (!encoded) return PLAIN.test(raw) ? raw : undefined;
  return CANONICAL_BASE64.test(encoded[1]!) ? utf8FromBase64(encoded[1]!) : undefined;
}

/** The headers that repeat a message's routing facts, so servers and proxies need not parse bodies. */
export function routingHeaders(
  protocol: ProtocolDescriptor,
  message: { method: string; params?: unknown },
): Record<string, string> {
  const { http } = protocol;
  const headers: Record<string, string> = { [http.methodHeader]: message.method };
  const params = isObject(message.params) ? message.params : {};
  const meta = isObject(params["_meta"]) ? params["_meta"] : {};
  const versionKey = protocol.requestMeta.protocolVersion;
  const version = versionKey === null ? undefined : own(meta, versionKey);
  if (typeof version === "string") headers[http.versionHeader] = version;
  const nameParam = own(http.nameParams, message.method);
  const name = nameParam === undefined ? undefined : params[nameParam];
  if (typeof name === "string") headers[http.nameHeader] = headerValue(name) ?? "";
  return headers;
}

/** A header's value, repeated ones joined as HTTP joins them. */
const joined = (value: string | string[] | undefined) =>
  Array.isArray(value) ? value.join(",") : value;

/**
 * Checks the routing headers against the body: each must be present and equal to what the
 * body says. Returns what is wrong, or undefined.
 */
export function checkRoutingHeaders(
  protocol: ProtocolDescriptor,
  header: (name: string) => string | string[] | undefined,
  message: Record<string, unknown>,
): string | undefined {
  const { http } = protocol;
  const method = joined(header(http.methodHeader));
  if (method === undefined) return `missing ${http.methodHeader} header`;
  if (method !== message["method"])
    return `${http.methodHeader} header "${method}" does not match the body's method "${String(message["method"])}"`;
  const params = isObject(message["params"]) ? message["params"] : {};
  const versionKey = protocol.requestMeta.protocolVersion;
  if (versionKey !== null && message["id"] !== undefined) {
    const meta = isObject(params["_meta"]) ? params["_meta"] : {};
    const version = own(meta, versionKey);
    const versionHeader = joined(header(http.versionHeader));
    if (versionHeader === undefined) return `missing ${http.versionHeader} header`;
    if (typeof version === "string" && versionHeader !== version) {
      return `${http.versionHeader} header "${versionHeader}" does not match the body's protocol version "${version}"`;
    }
  }
  const nameParam = own(http.nameParams, String(message["method"]));
  if (nameParam !== undefined) {
    const raw = joined(header(http.nameHeader));
    const expected = params[nameParam];
    if (raw === undefined) return `missing ${http.nameHeader} header`;
    const name = decodeHeaderValue(raw);
    if (name === undefined) return `${http.nameHeader} header is not a valid value`;
    if (typeof expected === "string" && name !== expected)
      return `${http.nameHeader} header "${raw}" does not match the body's ${nameParam} "${expected}"`;
  }
  return undefined;
}
