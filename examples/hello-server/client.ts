// A client call with the official TypeScript SDK (v1): connect, call `add`, print the answer.
//   node client.js [URL]   (default: http://127.0.0.1:3000/mcp)
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const url = new URL(process.argv[2] ?? "http://127.0.0.1:3000/mcp");
const client = new Client({ name: "hello-client", version: "1.0.0" });
await client.connect(new StreamableHTTPClientTransport(url));
const { tools } = await client.listTools();
console.log(`tools: ${tools.map((tool) => tool.name).join(", ")}`);
const result = await client.callTool({ name: "add", arguments: { a: 2, b: 3 } });
console.log(`add(2, 3): ${JSON.stringify(result.content)}`);
await client.close();
