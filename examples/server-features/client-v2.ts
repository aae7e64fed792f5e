// What each server feature looks like to a modern client: the official TypeScript SDK v2
// (2.4.0) in its auto mode, which speaks 2026-07-28 (stateless: no initialize, no session).
// It prints one line per feature.
//   node client-v2.js [URL]   (default: http://127.0.0.1:3000/mcp)
import {
  Client,
  LOG_LEVEL_META_KEY,
  StreamableHTTPClientTransport,
} from "@modelcontextprotocol/client";
import { promptsResourcesCompletions, textOf, url } from "./client-common.js";

// #region connect
// The server asks for input in its answers (input_required); the SDK fulfils the requests
// with the handlers below and retries the call. It declares what it can answer.
const client = new Client(
  { name: "features-v2", version: "1.0.0" },
  {
    capabilities: { elicitation: { form: {}, url: {} }, sampling: {}, roots: {} },
    versionNegotiation: { mode: "auto" },
  },
);
await client.connect(new StreamableHTTPClientTransport(url));
console.log(
  `connected: ${client.getServerVersion()?.name}, ${client.getNegotiatedProtocolVersion()}`,
);
// #endregion connect

// #region logging
const logs: unknown[] = [];
client.setNotificationHandler("notifications/message", (n) => void logs.push(n.params));
// Log messages come only for a request that asks for them, in its _meta.
await client.callTool({ name: "tidy", arguments: {}, _meta: { [LOG_LEVEL_META_KEY]: "info" } });
console.log(`logging: ${JSON.stringify(logs)}`);
// #endregion logging

// #region progress
const steps: string[] = [];
const counted = await client.callTool(
  { name: "count", arguments: { to: 3 } },
  { onprogress: (p) => void steps.push(`${p.progress}/${p.total} ${p.message}`) },
);
console.log(`progress: ${steps.join(", ")}; ${textOf(counted)}`);
// #endregion progress

// #region cancellation
// Aborting closes the request's response stream, which is the cancellation in 2026-07-28.
const controller = new AbortController();
let progressBeforeCancel = 0;
const cancelled = await client
  .callTool(
    { name: "count", arguments: { to: 50 } },
    {
      signal: controller.signal,
      onprogress: () => (progressBeforeCancel++, controller.abort("enough")),
    },
  )
  .then(
    () => "not cancelled",
    (error: unknown) => `cancelled (${String(error)})`,
  );
console.log(`cancellation: ${cancelled} after ${progressBeforeCancel} progress`);
// #endregion cancellation

// #region elicitation
client.setRequestHandler("elicitation/create", (request) => {
  const { params } = request;
  if (params.mode === "url") {
    // Show params.url and ask the user before opening it; the server learns only the action.
    return { action: "accept" };
  }
  // A form: show params.message and params.requestedSchema to the user.
  const [field = "value"] = Object.keys(params.requestedSchema.properties);
  const answers: Record<string, string> = { name: "Grace", size: "small", topping: "olives" };
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
client.setRequestHandler("sampling/createMessage", (request) => {
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
client.setRequestHandler("roots/list", () => ({
  roots: [{ uri: "file:///home/grace/project", name: "project" }],
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
  client.setNotificationHandler("notifications/message", (n) => void logged.push(n.params.data));
  const steps: string[] = [];
  const args = { topic: "tides", file: "file:///home/grace/project/tides.md" };
  const result = await client.callTool(
    { name, arguments: args, _meta: { [LOG_LEVEL_META_KEY]: "info" } },
    // The SDK reports each input_required round it fulfils as progress too, without a total.
    { onprogress: (p) => void (p.total !== undefined && steps.push(`${p.progress}/${p.total}`)) },
  );
  return `${textOf(result)}; progress ${steps.join(" ")}; logs ${logged.join(", ")}`;
}
console.log(`one tool: ${await research("research")}`);
console.log(`one tool, straight: ${await research("research_straight")}`);
// #endregion one-tool

// Prompts, resources and completions: the same calls in both SDKs (client-common.ts).
await promptsResourcesCompletions(client);

// #region subscriptions
// Change notifications come on a subscriptions/listen stream the client opens, as it asked.
const updated = new Promise<string>((resolve) =>
  client.setNotificationHandler("notifications/resources/updated", (n) => resolve(n.params.uri)),
);
const listChanged = new Promise<string>((resolve) =>
  client.setNotificationHandler("notifications/resources/list_changed", (n) => resolve(n.method)),
);
const subscription = await client.listen({
  resourceSubscriptions: ["note://welcome"],
  resourcesListChanged: true,
  toolsListChanged: true,
});
await client.callTool({ name: "write_note", arguments: { name: "welcome", text: "Hello again" } });
await client.callTool({ name: "write_note", arguments: { name: "modern", text: "v2" } });
console.log(`subscriptions: ${await updated}, ${await listChanged}`);
console.log(`honored: ${JSON.stringify(subscription.honoredFilter)}`);
await subscription.close();
// #endregion subscriptions

// #region tasks
// The client does not declare the Tasks extension: the call answers the result itself.
const report = await client.callTool({ name: "build_report", arguments: {} });
console.log(`tasks: ${textOf(report)}`);
// #endregion tasks

await client.close();
