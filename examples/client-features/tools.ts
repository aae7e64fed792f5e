// Calling tools: list them, call one, read its structured result, and tell a tool's own failure
// (a result with isError) from a refused call (a JSON-RPC error). Both eras alike.
//   node tools.js [URL]   (default: http://127.0.0.1:3000/mcp)
import { createClient, McpError } from "./mcp/client.js";
import { createHttpTransport } from "./mcp/http-client.js";

const url = process.argv[2] ?? "http://127.0.0.1:3000/mcp";
const client = createClient({ transport: createHttpTransport({ url }) });

// #region list
const { tools } = await client.listTools();
console.log(`tools: ${tools.map((tool) => tool.name).join(", ")}`);
// #endregion list

// #region call
const sum = await client.callTool({ name: "add", arguments: { a: 2, b: 3 } });
const [first] = sum.content;
console.log(`add: ${first?.type === "text" ? first.text : first?.type}`);
// #endregion call

// #region structured
// A tool with an outputSchema answers structuredContent too; the client checks it is an object.
const weather = await client.callTool({ name: "weather", arguments: { city: "Oslo" } });
console.log(`weather: ${JSON.stringify(weather.structuredContent)}`);
// #endregion structured

// #region errors
// The tool ran and failed: a result, with isError, that the model may read and correct.
const divided = await client.callTool({ name: "divide", arguments: { a: 1, b: 0 } });
const [reason] = divided.content;
console.log(`divide: isError ${divided.isError}, ${reason?.type === "text" ? reason.text : ""}`);
// The call itself was refused: a JSON-RPC error, thrown as McpError. For a tool it does not
// have, a server may answer either way: the v1 SDK answers with isError, the v2 SDK with -32602.
try {
  const unknown = await client.callTool({ name: "no_such_tool", arguments: {} });
  const [why] = unknown.content;
  console.log(`no_such_tool: isError ${unknown.isError}, ${why?.type === "text" ? why.text : ""}`);
} catch (error) {
  if (!(error instanceof McpError)) throw error;
  console.log(`no_such_tool: McpError ${error.code}`);
}
// #endregion errors

await client.close();
