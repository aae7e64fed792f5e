// Answering the server: elicitation (a form, or a URL to visit), sampling and roots. The same
// input handlers serve both eras: a 2026-07-28 server answers `input_required` and the client
// retries with the answers; a legacy server sends requests of its own on the session.
//   node input.js [URL]   (default: http://127.0.0.1:3000/mcp)
import { createClient, DECLINE, type InputHandlers } from "./mcp/client.js";
import { createHttpTransport } from "./mcp/http-client.js";

const url = process.argv[2] ?? "http://127.0.0.1:3000/mcp";
let roots = [{ uri: "file:///home/ada/project", name: "project" }];

// #region handlers
const inputHandlers: InputHandlers = {
  // A form: the app shows params.requestedSchema to the user. Here the user says "Ada".
  // URL mode: the app opens params.url for the user, then answers.
  "elicitation/create": (params) => {
    if (params.mode === "url") return { action: "accept" };
    const fields = Object.keys(params.requestedSchema.properties);
    return fields.includes("name") ? { action: "accept", content: { name: "Ada" } } : DECLINE;
  },
  // The app's model writes the answer; the user should be able to see and change the request.
  "sampling/createMessage": (params) => ({
    role: "assistant",
    content: { type: "text", text: `a haiku for ${params.messages.length} message(s)` },
    model: "example-model",
  }),
  "roots/list": () => ({ roots }),
};
// #endregion handlers

// #region client
const client = createClient({
  transport: createHttpTransport({ url }),
  inputHandlers,
  // Beyond what the handlers imply: roots that may change, and URL-mode elicitation.
  capabilities: { roots: { listChanged: true }, elicitation: { form: {}, url: {} } },
});
// #endregion client

/** The text of a tool's answer. */
async function call(name: string, args: Record<string, unknown> = {}): Promise<string> {
  const { content } = await client.callTool({ name, arguments: args });
  return content.map((block) => (block.type === "text" ? block.text : block.type)).join(" ");
}

// #region calls
console.log(`elicitation: ${await call("greet")}`);
console.log(`url elicitation: ${await call("connect_calendar")}`);
console.log(`sampling: ${await call("haiku", { topic: "the sea" })}`);
console.log(`roots: ${await call("show_roots")}`);
// #endregion calls

// #region roots-changed
// Legacy sessions: tell the server the roots changed (a modern server asks each time).
roots = [{ uri: "file:///home/ada/other", name: "other" }];
await client.notifyRootsListChanged();
console.log(`roots now: ${await call("show_roots")}`);
// #endregion roots-changed

await client.close();
