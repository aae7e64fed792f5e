import type { ProtocolDescriptor } from "../../../core/protocol.js";
import { isLocalHost, isLocalOrigin } from "../headers.js";
import type { CorsOptions, HttpCoreOptions } from "./options.js";

// Who may reach the endpoint: the Host and Origin checks every request passes first
// (2026-07-28 transports/streamable-http, "Security & Endpoint": an invalid Origin gets 403,
// which also guards a local server against DNS rebinding), and CORS for browser clients.

type Rule = string[] | ((value: string) => boolean) | undefined;

const allow = (
  rule: Rule,
  value: string,
  fallback: (value: string) => boolean,
  alt?: (value: string) => string,
) =>
  typeof rule === "function"
    ? rule(value)
    : rule
      ? rule.includes(value) || (alt !== undefined && rule.includes(alt(value)))
      : fallback(value);

/** Whether the Host header is one this server answers to (a list names hostname or hostname:port). */
export function hostAllowed(options: HttpCoreOptions<never>, host: string | undefined): boolean {
  return host !== undefined && allow(options.allowedHosts, host, isLocalHost, stripPort);
}

const stripPort = (host: string) => host.replace(/:\d+$/, "");

/** Whether a request's Origin (when it has one) may call. */
export function originAllowed(options: HttpCoreOptions<never>, origin: string): boolean {
  return allow(options.allowedOrigins, origin, isLocalOrigin);
}

/**
 * The CORS answers of one endpoint. Only origins that passed the Origin check get here, so
 * the allowed origin is echoed back (never `*`: with credentials browsers refuse it, and
 * echoing keeps one rule for both). Header lists are computed once.
 */
export interface Cors {
  /** The response headers of a preflight (OPTIONS with Access-Control-Request-Method). */
  preflight(origin: string, requestedHeaders: string | undefined): Record<string, string>;
  /** The headers every other response to `origin` carries. */
  response(origin: string): Record<string, string>;
}

/** The request headers MCP clients send, by revision: modern routing headers and legacy sessions. */
function mcpRequestHeaders(protocol: ProtocolDescriptor): string[] {
  const { http } = protocol;
  return [
    http.methodHeader,
    http.nameHeader,
    http.versionHeader,
    "MCP-Protocol-Version",
    "Mcp-Session-Id",
    "Last-Event-ID",
    "Authorization",
    "DPoP",
    "Content-Type",
  ];
}

/** Custom tool headers: any Mcp-Param-{Name} (2026-07-28 streamable-http, "Custom Headers"). */
const PARAM_HEADER = /^mcp-param-[\x21-\x7e]+$/i;

export function createCors(
  protocol: ProtocolDescriptor,
  setting: boolean | CorsOptions | undefined,
): Cors | undefined {
  if (!setting) return undefined;
  const options: CorsOptions = setting === true ? {} : setting;
  const allowed = new Set(
    [...mcpRequestHeaders(protocol), ...(options.allowHeaders ?? [])].map((h) => h.toLowerCase()),
  );
  const exposed = ["Mcp-Session-Id", "WWW-Authenticate", ...(options.exposeHeaders ?? [])];
  const credentials: Record<string, string> = options.credentials
    ? { "access-control-allow-credentials": "true" }
    : {};
  const maxAge = String(options.maxAgeSeconds ?? 600);
  const common = (origin: string) => ({
    "access-control-allow-origin": origin,
    vary: "Origin",
    ...credentials,
  });
  return {
    preflight(origin, requestedHeaders) {
      // Access-Control-Allow-Headers takes no prefix wildcard: the Mcp-Param-* headers a
      // preflight asks for are echoed by name, with the other allowed ones it names.
      const granted = (requestedHeaders ?? "")
        .split(",")
        .map((h) => h.trim())
        .filter((h) => h !== "" && (allowed.has(h.toLowerCase()) || PARAM_HEADER.test(h)));
      return {
        ...common(origin),
        vary: "Origin, Access-Control-Request-Headers",
        "access-control-allow-methods": "GET, POST, DELETE, OPTIONS",
        ...(granted.length > 0 ? { "access-control-allow-headers": granted.join(", ") } : {}),
        "access-control-max-age": maxAge,
      };
    },
    response(origin) {
      return { ...common(origin), "access-control-expose-headers": exposed.join(", ") };
    },
  };
}
