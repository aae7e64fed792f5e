// 2026-07-28 requests as a client sends them: the protocol version and client capabilities
// ride in every request's _meta.

export const MODERN = "2026-07-28";

export const meta = (extra: Record<string, unknown> = {}) => ({
  "io.modelcontextprotocol/protocolVersion": MODERN,
  "io.modelcontextprotocol/clientCapabilities": {},
  ...extra,
});

export const request = (method: string, params: Record<string, unknown> = {}, id: unknown = 1) => ({
  jsonrpc: "2.0",
  id,
  method,
  params: { _meta: meta(), ...params },
});
