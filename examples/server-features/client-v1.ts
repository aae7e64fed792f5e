// What each server feature looks like to a legacy client: the official TypeScript SDK v1
// (1.32.2), which opens a 2025-11-25 session with initialize. It prints one line per feature.
//   node client-v1.js [URL]   (default: http://127.0.0.1:3000/mcp)
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
  LoggingMessageNotificationSchema,
  ResourceListChangedNotificationSchema,
  ResourceUpdatedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { promptsResourcesCompletions, textOf, url } from "./client-common.js";

// #region connect
// The server asks for input with server-initiated requests on this session: the client
// declares what it can answer.
const client = new Client(
  { name: "features-v1", version: "1.0.0" },
  { capabilities: { elicitation: { form: {}, url: {} }, sampling: {}, roots: {} } },
);
const transport = new StreamableHTTPClientTransport(url);
await client.connect(transport);
console.log(`connected: ${client.getServerVersion()?.name}, ${transport.protocolVersion}`);
// #endregion connect

// #region logging
const logs: unknown[] = [];
client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void logs.push(n.params));
// A legacy session gets every level until it sets one.
await client.setLoggingLevel("info");
await client.callTool({ name: "tidy", arguments: {} });
console.log(`logging: ${JSON.stringify(logs)}`);
// #endregion logging

// #region progress
const steps: string[] = [];
const counted = await client.callTool({ name: "count", arguments: { to: 3 } }, undefined, {
  onprogress: (p) => void steps.push(`${p.progress}/${p.total} ${p.message}`),
});
console.log(`progress: ${steps.join(", ")}; ${textOf(counted)}`);
// #endregion progress

// #region cancellation
// Aborting sends notifications/cancelled; the server's handler sees its signal abort.
const controller = new AbortController();
let progressBeforeCancel = 0;
const cancelled = await client
  .callTool({ name: "count", arguments: { to: 50 } }, undefined, {
    signal: controller.signal,
    onprogress: () => (progressBeforeCancel++, controller.abort("enough")),
  })
  .then(
    () => "not cancelled",
    (error: unknown) => `cancelled (${String(error)})`,
  );
console.log(`cancellation: ${cancelled} after ${progressBeforeCancel} progress`);
// #endregion cancellation

// #region elicitation
client.setRequestHandler(ElicitRequestSchema, (request) => {
  const { params } = request;
  if (params.mode === "url") {
    // Show params.url and ask the user before opening it; the server learns only the action.
    return { action: "accept" };
  }
  // A form: show params.message and params.requestedSchema to the user.
  const [field = "value"] = Object.keys(params.requestedSchema.properties);
  const answers: Record<string, string> = { name: "Ada", size: "large", topping: "basil" };
  return { action: "accept", content: { [field]: answers[field] ?? "?" } };
});
const greeting = await client.callTool({ name: "greet", arguments: {} });
console.log(`elicitation: ${textOf(greeting)}`);
// #endregion elicitation

// #region url-elicitation
const linked = await client.callTool({ name: "connect_calendar", arguments: {} });
console.log(`url elicitation: ${textOf(linked)}`);
// #endregion url-elicitation

// #region sampling
client.setRequestHandler(CreateMessageRequestSchema, (request) => {
  // Hand request.params.messages to a model (with the user's consent); here, a canned answer.
  const asked = request.params.messages.length;
  return {
    role: "assistant",
    model: "canned-model",
    content: { type: "text", text: `a haiku for ${asked} message(s)` },
  };
});
const poem = await client.callTool({ name: "haiku", arguments: { topic: "autumn" } });
console.log(`sampling: ${textOf(poem)}`);
// #endregion sampling

// #region roots
client.setRequestHandler(ListRootsRequestSchema, () => ({
  roots: [{ uri: "file:///home/ada/project", name: "project" }],
}));
const roots = await client.callTool({ name: "show_roots", arguments: {} });
console.log(`roots: ${textOf(roots)}`);
// #endregion roots

// #region request-state
const order = await client.callTool({ name: "order_pizza", arguments: {} });
console.log(`request state: ${textOf(order)}`);
// #endregion request-state

// The same order, from the tool written in straight-line code: the same questions and answer.
const straightOrder = await client.callTool({ name: "order_pizza_straight", arguments: {} });
console.log(`straight line: ${textOf(straightOrder)}`);

// #region one-tool
// research and research_straight (research.ts): the same tool in both styles, called alike.
/** A research tool's answer, the progress it reported and what it logged. */
async function research(name: string): Promise<string> {
  const logged: unknown[] = [];
  client.setNotificationHandler(
    LoggingMessageNotificationSchema,
    (n) => void logged.push(n.params.data),
  );
  const steps: string[] = [];
  const args = { topic: "tides", file: "file:///home/ada/project/tides.md" };
  const result = await client.callTool({ name, arguments: args }, undefined, {
    onprogress: (p) => void steps.push(`${p.progress}/${p.total}`),
  });
  return `${textOf(result)}; progress ${steps.join(" ")}; logs ${logged.join(", ")}`;
}
console.log(`one tool: ${await research("research")}`);
console.log(`one tool, straight: ${await research("research_straight")}`);
// #endregion one-tool

// Prompts, resources and completions: the same calls in both SDKs (client-common.ts).
await promptsResourcesCompletions(client);

// #region subscriptions
// Both arrive on the session's GET stream, which the SDK opened after initialize.
const updated = new Promise<string>((resolve) =>
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => resolve(n.params.uri)),
);
const listChanged = new Promise<string>((resolve) =>
  client.setNotificationHandler(ResourceListChangedNotificationSchema, (n) => resolve(n.method)),
);
await client.subscribeResource({ uri: "note://welcome" });
await client.callTool({ name: "write_note", arguments: { name: "welcome", text: "Hi" } });
await client.callTool({ name: "write_note", arguments: { name: "legacy", text: "v1" } });
console.log(`subscriptions: ${await updated}, ${await listChanged}`);
// #endregion subscriptions

// #region tasks
// A legacy session never gets a task: the tool's work runs, and the call answers its result.
const report = await client.callTool({ name: "build_report", arguments: {} });
console.log(`tasks: ${textOf(report)}`);
// #endregion tasks

await client.close();
