// Starts one of the two servers on 127.0.0.1 (PORT, default 3000), then calls every tool
// with the SDK v2 client and prints what each call answered, one line each.
//   node main.js mcp-gen|sdk
import { callTools, INVALID, VALID } from "./calls.js";
import * as withMcpGen from "./with-mcp-gen.js";
import * as withSdk from "./with-sdk.js";

const which = process.argv[2];
if (which !== "mcp-gen" && which !== "sdk") {
  console.error("usage: node main.js mcp-gen|sdk");
  process.exit(2);
}
const server = await (which === "sdk" ? withSdk : withMcpGen).serve(
  Number(process.env["PORT"] ?? 3000),
);
console.log(`MCP server listening on ${server.url}`);
const calls = [...VALID, ...INVALID];
const { tools, answers } = await callTools(server.url, calls);
console.log(`tools: ${tools.join(", ")}`);
calls.forEach(([name, args], i) =>
  console.log(`${name}(${JSON.stringify(args)}): ${JSON.stringify(answers[i])}`),
);
await server.close();
