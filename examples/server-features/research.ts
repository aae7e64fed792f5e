// One tool that logs, reports progress, has the client's model write something and checks
// the client's roots, written twice: with inputRequired branches, and in straight-line code
// (withInput). The "One tool, every feature" guide page shows both; the clients call both
// and check that they answer alike, with the same progress and logs.
import { defineTool, inputRequired, withInput } from "./mcp/dispatcher.js";
import type { CreateMessageRequestParams, ListRootsResult, TextContent } from "./mcp/types.js";

// #region shared
// Arguments: what to research, and the file the notes are for (a file:// URI), which must
// lie inside one of the client's roots.
const inputSchema = {
  type: "object",
  properties: { topic: { type: "string" }, file: { type: "string" } },
  required: ["topic", "file"],
} as const;

const text = (text: string): TextContent => ({ type: "text", text });

const summaryRequest = (topic: string): CreateMessageRequestParams => ({
  messages: [{ role: "user", content: text(`Summarise what is known about ${topic}`) }],
  maxTokens: 200,
});

/** The answer, once the model's summary and the client's roots are in. */
function report(file: string, summary: TextContent["text"], { roots }: ListRootsResult) {
  const root = roots.find((r) => file.startsWith(r.uri.endsWith("/") ? r.uri : `${r.uri}/`));
  if (root === undefined)
    return { content: [text(`${file} is outside the client's roots`)], isError: true };
  return { content: [text(`${summary} (notes for ${file}, in root ${root.name ?? root.uri})`)] };
}

/** The text of a sampling answer (the model may answer other content). */
const textOf = (content: { type: string; text?: string } | readonly { type: string }[]) => {
  const [first] = Array.isArray(content) ? content : [content];
  return first?.type === "text" ? String((first as TextContent).text) : "(no text)";
};
// #endregion shared

// #region branching
// Each round runs the handler from the top; what the client answered is in inputResponses.
// The logs and the first progress are sent in the round that asks, once.
export const research = defineTool({
  tool: { name: "research", description: "Researches a topic for a file", inputSchema },
  call: async ({ topic, file }, ctx) => {
    const summary = ctx.inputResponse("summary", "sampling/createMessage");
    const roots = ctx.inputResponse("roots", "roots/list");
    if (summary === undefined || roots === undefined) {
      await ctx.log("info", `researching ${topic}`);
      await ctx.sendProgress(20, 100, "asking the client");
      // Both questions in one round: the client answers them together.
      return inputRequired(ctx, {
        inputRequests: {
          summary: { method: "sampling/createMessage", params: summaryRequest(topic) },
          roots: { method: "roots/list" },
        },
      });
    }
    await ctx.sendProgress(70, 100, "writing up");
    return report(file, textOf(summary.content), roots);
  },
});
// #endregion branching

// #region straight-line
// The same tool, each question awaited where it is needed. The handler is replayed on each
// round: the code before an ask runs again (its logs and progress are not sent twice), and
// the answers from earlier rounds ride in requestState, sealed with `secret`.
const secret = process.env["STATE_SECRET"] ?? crypto.getRandomValues(new Uint8Array(32));

export const researchStraight = defineTool({
  tool: { name: "research_straight", description: "research, in straight-line code", inputSchema },
  call: withInput(
    async ({ topic, file }, ctx, input) => {
      await ctx.log("info", `researching ${topic}`);
      await ctx.sendProgress(20, 100, "asking the client");
      // Promise.all asks both in one round, as the branching tool does.
      const [summary, roots] = await Promise.all([
        input.createMessage(summaryRequest(topic)),
        input.listRoots(),
      ]);
      await ctx.sendProgress(70, 100, "writing up");
      return report(file, textOf(summary.content), roots);
    },
    { secret },
  ),
});
// #endregion straight-line
