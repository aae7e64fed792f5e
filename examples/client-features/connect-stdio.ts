// Connecting over stdio: the client starts the server as a child process and speaks MCP on its
// stdin and stdout. The era is found as over HTTP.
//   node connect-stdio.js COMMAND [ARG...]   (e.g. npx -y @modelcontextprotocol/server-everything)
// #region connect
import { createClient } from "./mcp/client.js";
import { createStdioTransport } from "./mcp/stdio.js";

const [command = "npx", ...args] = process.argv.slice(2);
const client = createClient({
  // "pipe" keeps the server's last stderr, for the error should it exit.
  transport: createStdioTransport({ command, args, stderr: "pipe" }),
  clientInfo: { name: "client-features", version: "1.0.0" },
  // The era probe waits this long for the server's first answer (default 10 s), and counts
  // its start-up: a server npx must download first may need more. Unanswered means legacy.
  probeTimeoutMs: 30_000,
});
console.log(`era: ${await client.era()}`);
const { tools } = await client.listTools();
console.log(`tools: ${tools.length}`);
// Ends the server process too.
await client.close();
// #endregion connect
