// CORS for browser clients: the origins allowed (the Origin check, unchanged) are the ones CORS
// answers; preflights get the MCP request headers, and responses expose Mcp-Session-Id and
// WWW-Authenticate.
import { createFetchHandler } from "./mcp/http-server.js";
import { dispatcher } from "./server.js";

// #region recipe
export const handler = createFetchHandler(dispatcher, {
  allowedHosts: ["mcp.example.com"],
  allowedOrigins: ["https://app.example.com"],
  cors: { maxAgeSeconds: 3600 },
});
// #endregion recipe
