// The typed tools called by the official TypeScript SDK v2 (2.4.0) in its auto mode, which
// speaks 2026-07-28 (stateless: no initialize); one line per call.
//   node client-v2.js [URL]   (default: http://127.0.0.1:3000/mcp)
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { CALLS, line } from "./calls.js";

const url = new URL(process.argv[2] ?? "http://127.0.0.1:3000/mcp");
const client = new Client(
  { name: "typed-v2", version: "1.0.0" },
  { versionNegotiation: { mode: "auto" } },
);
await client.connect(new StreamableHTTPClientTransport(url));
console.log(`connected: ${client.getNegotiatedProtocolVersion()}`);
const { tools } = await client.listTools();
console.log(`tools: ${tools.map((t) => t.name).join(", ")}`);
for (const [name, args] of CALLS)
  console.log(line(name, args, await client.callTool({ name, arguments: args })));
await client.close();
