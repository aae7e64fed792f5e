// What client-v1.ts (the SDK v1, a 2025-11-25 session) and client-v2.ts (the SDK v2,
// 2026-07-28) ask the same way in both eras, written once: the server's URL, a tool result's
// text, and prompts, resources and completions. Each prints one line per feature.
import type { Client as V1Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Client as V2Client } from "@modelcontextprotocol/client";

/** The server: the first argument, or where main.ts listens by default. */
export const url = new URL(process.argv[2] ?? "http://127.0.0.1:3000/mcp");

/** The text blocks of a tool's result, joined. */
export const textOf = (result: object) =>
  ((result as { content?: { text?: string }[] }).content ?? []).map((b) => b.text).join(" ");

/** Prompts, resources and completions, asked alike by either SDK's client. */
export async function promptsResourcesCompletions(client: V1Client | V2Client) {
  // #region prompts
  const reviewed = await client.getPrompt({ name: "review", arguments: { language: "rust" } });
  const [message] = reviewed.messages;
  console.log(`prompts: ${message?.content.type === "text" ? message.content.text : "(no text)"}`);
  // #endregion prompts

  // #region resources
  const { resourceTemplates } = await client.listResourceTemplates();
  const [about] = (await client.readResource({ uri: "about://notes" })).contents;
  // A template's variable, completed from what the user typed.
  const names = await client.complete({
    ref: { type: "ref/resource", uri: "note://{name}" },
    argument: { name: "name", value: "w" },
  });
  console.log(
    `resources: ${resourceTemplates.map((t) => t.uriTemplate).join(", ")}; ` +
      `${about && "text" in about ? about.text : "(no text)"}; ${names.completion.values.join(", ")}`,
  );
  // #endregion resources

  // #region completions
  const { completion } = await client.complete({
    ref: { type: "ref/prompt", name: "review" },
    argument: { name: "language", value: "ja" },
  });
  console.log(`completions: ${completion.values.join(", ")} (total ${completion.total})`);
  // #endregion completions
}
