// @mcp-gen/runtime/auth: authorization without dependencies: the HTTP client's
// authorization hook and the resource-server checks of the HTTP server. Token verification
// with jose is @mcp-gen/runtime/auth/verify; the OAuth client (oauth4webapi) is
// @mcp-gen/runtime/auth/client.
export * from "./http-auth.js";
export * from "./resource-server.js";
