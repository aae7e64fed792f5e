// The typed tools called by the official TypeScript SDK v1 (1.32.2), which opens a
// 2025-11-25 session with initialize; one line per call.
//   node client-v1.js [URL]   (default: http://127.0.0.1:3000/mcp)
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CALLS, line } from "./calls.js";

const url = new URL(process.argv[2] ?? "http://127.0.0.1:3000/mcp");
const client = new Client({ name: "typed-v1", version: "1.0.0" });
const transport = new StreamableHTTPClientTransport(url);
await client.connect(transport);
console.log(`connected: ${transport.protocolVersion}`);
const { tools } = await client.listTools();
console.log(`tools: ${tools.map((t) => t.name).join(", ")}`);
for (const [name, args] of CALLS)
  console.log(line(name, args, await client.callTool({ name, arguments: args })));
await client.close();
