// Prompts and completions: list the prompts, complete an argument as the user types it, then
// get the prompt's messages with the argument filled in. Both eras alike.
//   node prompts.js [URL]   (default: http://127.0.0.1:3000/mcp)
import { createClient } from "./mcp/client.js";
import { createHttpTransport } from "./mcp/http-client.js";

const url = process.argv[2] ?? "http://127.0.0.1:3000/mcp";
const client = createClient({ transport: createHttpTransport({ url }) });

// #region prompts
const { prompts } = await client.listPrompts();
for (const prompt of prompts)
  console.log(`prompt: ${prompt.name}(${(prompt.arguments ?? []).map((a) => a.name).join(", ")})`);
// #endregion prompts

// #region complete
// What the server suggests for the `language` argument of the `review` prompt, given "ja".
const { completion } = await client.complete({
  ref: { type: "ref/prompt", name: "review" },
  argument: { name: "language", value: "ja" },
});
console.log(`completions: ${completion.values.join(", ")}`);
// #endregion complete

// #region get
const { messages } = await client.getPrompt({
  name: "review",
  arguments: { language: completion.values[0] ?? "typescript" },
});
for (const message of messages)
  console.log(
    `${message.role}: ${message.content.type === "text" ? message.content.text : message.content.type}`,
  );
// #endregion get

await client.close();
