// Declining: an input handler that returns DECLINE ends the call with InputDeclinedError (a
// modern server is not retried); a legacy server is told `decline` and its tool decides.
//   node decline.js [URL]   (default: http://127.0.0.1:3000/mcp)
import { createClient, DECLINE, InputDeclinedError } from "./mcp/client.js";
import { createHttpTransport } from "./mcp/http-client.js";

const url = process.argv[2] ?? "http://127.0.0.1:3000/mcp";

// #region decline
const client = createClient({
  transport: createHttpTransport({ url }),
  inputHandlers: { "elicitation/create": () => DECLINE },
});
try {
  const { content } = await client.callTool({ name: "greet", arguments: {} });
  const [answer] = content;
  console.log(`declined, the server answered: ${answer?.type === "text" ? answer.text : ""}`);
} catch (error) {
  if (!(error instanceof InputDeclinedError)) throw error;
  console.log(`declined: ${error.name}`);
}
// #endregion decline
await client.close();
