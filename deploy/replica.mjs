// One replica of the deployed server (deploy/deploy.test.ts starts three): a generated
// dual-era server whose legacy sessions live in Redis and whose request state is sealed with
// a secret every replica shares. Copied beside the generated code, which it imports.
import { createServerDispatcher, inputRequired, openStateFor, sealStateFor } from "./dispatcher.js";
import { serveHttp } from "./http-server.js";
import { shareSessionNotices } from "@mcp-gen/runtime/server";
import {
  connectRedisEventStore,
  connectRedisMessageBus,
  connectRedisSessionStore,
} from "@mcp-gen/runtime/redis";

const me = process.env.INSTANCE;
const secret = process.env.STATE_SECRET;
const store = await connectRedisSessionStore({ url: process.env.REDIS_URL, prefix: "deploy:" });
// The events of every resumable SSE stream, and the history of session notices, in Redis:
// a client whose replica dies resumes its stream on another with Last-Event-ID.
const events = await connectRedisEventStore({
  url: process.env.REDIS_URL,
  keyPrefix: "deploy:events:",
});
const text = (value) => ({ content: [{ type: "text", text: JSON.stringify(value) }] });
const ask = (key, message) => ({
  [key]: {
    method: "elicitation/create",
    params: {
      mode: "form",
      message,
      requestedSchema: { type: "object", properties: { v: { type: "string" } } },
    },
  },
});

// Two rounds of input, each recording the replica that served it in sealed request state.
async function twoRounds(ctx) {
  const state = await openStateFor(ctx, { secret });
  const first = ctx.inputResponse("first", "elicitation/create");
  const second = ctx.inputResponse("second", "elicitation/create");
  if (!state) {
    const requestState = await sealStateFor(ctx, { rounds: [me] }, { secret });
    return inputRequired(ctx, { inputRequests: ask("first", "First?"), requestState });
  }
  if (!second) {
    const next = { rounds: [...state.rounds, me], first: first?.content?.v };
    const requestState = await sealStateFor(ctx, next, { secret });
    return inputRequired(ctx, { inputRequests: ask("second", "Second?"), requestState });
  }
  return text({ first: state.first, second: second.content?.v, rounds: [...state.rounds, me] });
}

const tools = [
  { name: "whoami", inputSchema: { type: "object" } },
  { name: "two-rounds", inputSchema: { type: "object" } },
  { name: "never-answers", inputSchema: { type: "object" } },
  { name: "announce", inputSchema: { type: "object" } },
  { name: "update-resource", inputSchema: { type: "object" } },
];
const dispatcher = createServerDispatcher(
  {
    "tools/list": () => ({ tools }),
    "resources/list": () => ({ resources: [] }),
    "tools/call": async (params, ctx) => {
      if (params.name === "whoami") return text({ instance: me, client: ctx.clientInfo?.name });
      if (params.name === "two-rounds") return twoRounds(ctx);
      // A tools list change, told to every legacy session wherever its stream is open.
      if (params.name === "announce")
        return text({
          instance: me,
          here: dispatcher.notifySessions({
            jsonrpc: "2.0",
            method: "notifications/tools/list_changed",
          }),
        });
      // A resource's update, told to every legacy session subscribed to it, wherever.
      if (params.name === "update-resource")
        return text({ instance: me, here: dispatcher.resourceUpdated(params.arguments.uri) });
      // The test kills this replica while the call runs; it says when the call arrived.
      console.log(`CALL STARTED ${me}`);
      return new Promise(() => {});
    },
  },
  {
    serverInfo: { name: `replica-${me}`, version: "1.0.0" },
    capabilities: { tools: { listChanged: true }, resources: { subscribe: true } },
  },
);
// Session notices from any replica reach the sessions whose streams are open on the others.
// With a history, the notices sent while a client's stream had no replica are caught up.
await shareSessionNotices(
  dispatcher,
  await connectRedisMessageBus({ url: process.env.REDIS_URL }),
  {
    history: events,
  },
);
// PORT: a replica restarted by the test listens where HAProxy expects it.
const server = await serveHttp(dispatcher, {
  sessionStore: store,
  eventStore: events,
  port: Number(process.env.PORT ?? 0),
});
console.log(`LISTENING ${server.url}`);
