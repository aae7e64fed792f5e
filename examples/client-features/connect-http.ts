// Connecting over Streamable HTTP: one client for servers of either era. It asks the server
// which era it speaks (server/discover), then speaks it: per-request `_meta` to a 2026-07-28
// server, an initialize-based session to a 2025-xx one.
//   node connect-http.js [URL]   (default: http://127.0.0.1:3000/mcp)
// #region connect
import { createClient } from "./mcp/client.js";
import { createHttpTransport } from "./mcp/http-client.js";

const url = process.argv[2] ?? "http://127.0.0.1:3000/mcp";
const client = createClient({
  transport: createHttpTransport({ url }),
  clientInfo: { name: "client-features", version: "1.0.0" },
});
// #endregion connect

// #region era
// "modern" (2026-07-28) or "legacy" (initialize-based), found once per transport.
console.log(`era: ${await client.era()}`);
// server/discover: on a legacy server, answered from what initialize said.
const discovered = await client.discover();
const server = discovered._meta?.["io.modelcontextprotocol/serverInfo"] as { name: string };
console.log(`server: ${server.name}, speaks ${discovered.supportedVersions.join(", ")}`);
// #endregion era

await client.close();
