// Log messages: a call asks for those of a level and above, and hears them on its onLog. On a
// legacy session the client sends logging/setLevel first; a 2026-07-28 request carries the
// level in its _meta.
//   node logging.js [URL]   (default: http://127.0.0.1:3000/mcp)
import { createClient } from "./mcp/client.js";
import { createHttpTransport } from "./mcp/http-client.js";

const url = process.argv[2] ?? "http://127.0.0.1:3000/mcp";
// #region client
const client = createClient({
  transport: createHttpTransport({ url }),
  // Log messages that belong to no call (a legacy server's GET stream) come here.
  onNotification: (n) => {
    if (n.method === "notifications/message")
      console.log(`unrelated log: ${JSON.stringify(n.params)}`);
  },
});
// #endregion client

// #region on-log
const logs: unknown[] = [];
await client.callTool(
  { name: "tidy", arguments: {} },
  // "info" and above: the tool's debug message is not sent.
  { logLevel: "info", onLog: (message) => logs.push(message) },
);
console.log(`logs: ${JSON.stringify(logs)}`);
// #endregion on-log

// #region set-level
// A legacy session can set the level for every later message; a modern server has no
// logging/setLevel, and the call throws EraUnsupportedError before anything is sent.
if ((await client.era()) === "legacy") {
  await client.setLevel({ level: "warning" });
  console.log("setLevel: warning");
}
// #endregion set-level

await client.close();
