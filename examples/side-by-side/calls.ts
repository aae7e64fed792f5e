// The calls both servers answer, made by the official TypeScript SDK v2 client (2.4.0) in its
// auto mode (2026-07-28): every tool with valid arguments, then with invalid ones.
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";

type Arguments = Record<string, unknown>;

/** Calls whose answers the two servers must agree on exactly. */
export const VALID: [string, Arguments][] = [
  ["search_books", { query: "e" }],
  ["search_books", { query: "MA", limit: 1 }],
  ["order_pizza", { size: "small" }],
  [
    "order_pizza",
    { size: "large", toppings: ["basil", "olives"], delivery: { street: "12 Main St", floor: 3 } },
  ],
  ["divide", { dividend: 7, divisor: 2 }],
  ["divide", { dividend: 1, divisor: 0 }],
];

/** Calls each server must refuse, with the words the problem is named by. */
export const INVALID: [string, Arguments, RegExp][] = [
  ["search_books", { query: "" }, /query[\s\S]*>=1 character/],
  ["search_books", { query: "e", limit: 11 }, /limit[\s\S]*<=10/],
  ["order_pizza", { size: "huge" }, /size[\s\S]*"small"\|"medium"\|"large"/],
  ["order_pizza", { size: "small", delivery: { floor: 2 } }, /delivery[\s\S]*street/],
  ["divide", { dividend: 1 }, /divisor[\s\S]*expected number/],
];

/** What a call answered, as the client got it. */
export interface Answer {
  content: unknown;
  structuredContent?: unknown;
  isError?: boolean | undefined;
}

/** Lists the tools of the server at `url`, then makes each call in `calls` in order. */
export async function callTools(
  url: string,
  calls: [string, Arguments, ...unknown[]][],
): Promise<{ tools: string[]; answers: Answer[] }> {
  const client = new Client(
    { name: "side-by-side", version: "1.0.0" },
    { versionNegotiation: { mode: "auto" } },
  );
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  try {
    const { tools } = await client.listTools();
    const answers: Answer[] = [];
    for (const [name, args] of calls) {
      const { content, structuredContent, isError } = await client.callTool({
        name,
        arguments: args,
      });
      answers.push({ content, structuredContent, isError });
    }
    return { tools: tools.map((tool) => tool.name), answers };
  } finally {
    await client.close();
  }
}
