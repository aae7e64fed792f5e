import type { ProtocolModel } from "../schema/protocol.js";

/**
 * Streamable HTTP (2026-07-28) repeats routing facts of the body in headers. The
 * transport spec defines them, not schema.ts, so they are kept here: the header names,
 * and for methods acting on a named thing, the param that names it.
 */
export const HTTP_HEADERS = {
  versionHeader: "MCP-Protocol-Version",
  methodHeader: "Mcp-Method",
  nameHeader: "Mcp-Name",
  nameParams: { "tools/call": "name", "prompts/get": "name", "resources/read": "uri" } as Record<string, string>,
};

/** Error codes the transport answers with 400 Bad Request, where the schema has them. */
const BAD_REQUEST_ERRORS = ["HEADER_MISMATCH", "UNSUPPORTED_PROTOCOL_VERSION", "MISSING_REQUIRED_CLIENT_CAPABILITY"];

export function httpView(protocol: ProtocolModel) {
  const code = (name: string) => protocol.errors.find((e) => e.name === name)?.code;
  return {
    ...HTTP_HEADERS,
    nameParams: Object.fromEntries(Object.entries(HTTP_HEADERS.nameParams).filter(([m]) => protocol.methods.some((x) => x.method === m))),
    headerMismatchCode: code("HEADER_MISMATCH"),
    badRequestCodes: BAD_REQUEST_ERRORS.map(code).filter((c): c is number => c !== undefined),
  };
}
