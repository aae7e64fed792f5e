// One replica of the deployed server (deploy/cluster/deploy.test.ts starts three): a generated
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
// MAX_ANONYMOUS_SESSIONS: the fault suite holds 1,000 sessions without authentication, all
// in the anonymous bucket (whose default cap is 1,000).
const store = await connectRedisSessionStore({
  url: process.env.REDIS_URL,
  prefix: "deploy:",
  ...(process.env.MAX_ANONYMOUS_SESSIONS
    ? { maxAnonymousSessions: Number(process.env.MAX_ANONYMOUS_SESSIONS) }
    : {}),
});
// The events of every resumable SSE stream, and the history of session notices, in Redis:
// a client whose replica dies resumes its stream on another with Last-Event-ID.
// Leases shorter than the default 15 s: a replica killed mid-call is found out within seconds
// (deploy/cluster/replica-death.test.ts).
const events = await connectRedisEventStore({
  url: process.env.REDIS_URL,
  keyPrefix: "deploy:events:",
  leaseMs: 2_000,
  leaseRefreshMs: 500,
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
  { name: "ask-answer", inputSchema: { type: "object" } },
  { name: "wait-cancel", inputSchema: { type: "object" } },
  { name: "progress-then-hang", inputSchema: { type: "object" } },
  { name: "steps", inputSchema: { type: "object" } },
  { name: "memory", inputSchema: { type: "object" } },
];

// One question to the client (deploy/cluster/roaming-requests.test.ts): a legacy client's answer
// may reach another replica, which forwards it here over the bus (`messageBus`, below).
async function askAnswer(params, ctx) {
  const nonce = params.arguments?.nonce;
  const answer = ctx.inputResponse("answer", "elicitation/create");
  if (!answer) {
    // The fault suite kills the replica that asked, before the client answers.
    console.log(`ASKING ${me} ${nonce}`);
    return inputRequired(ctx, { inputRequests: ask("answer", `Answer ${nonce}?`) });
  }
  console.log(`ANSWERED ${me} ${nonce}`);
  return text({ instance: me, answer: answer.content?.v });
}

// Runs until cancelled, saying when it starts and when its cancellation arrives.
async function waitCancel(params, ctx) {
  const nonce = params.arguments?.nonce;
  console.log(`WAITING ${me} ${nonce}`);
  await new Promise((resolve) => ctx.signal.addEventListener("abort", resolve, { once: true }));
  console.log(`CANCELLED ${me} ${nonce} ${String(ctx.signal.reason)}`);
  return text({ instance: me, cancelled: true });
}
// A call that takes a while (the fault suite, faults/): `count` steps `ms` apart, each one a
// log message and a progress notification, each printed (so the suite knows which replica
// runs the call and how far it got), then its result.
async function steps(params, ctx) {
  const { nonce, count = 5, ms = 200 } = params.arguments ?? {};
  for (let step = 1; step <= count; step++) {
    console.log(`STEP ${me} ${nonce} ${step}`);
    await ctx.log("info", { nonce, step });
    await ctx.sendProgress(step, count, `step ${step}`);
    await new Promise((resolve) => setTimeout(resolve, ms));
  }
  return text({ instance: me, nonce, steps: count });
}

// This replica's memory after a full collection (replicas started with --expose-gc), so that
// the fault suite's soak compares like with like.
function memory() {
  globalThis.gc?.();
  const { rss, heapUsed } = process.memoryUsage();
  return text({ instance: me, rss, heapUsed, collected: typeof globalThis.gc === "function" });
}

const dispatcher = createServerDispatcher(
  {
    "tools/list": () => ({ tools }),
    "resources/list": () => ({ resources: [] }),
    "tools/call": async (params, ctx) => {
      if (params.name === "whoami") return text({ instance: me, client: ctx.clientInfo?.name });
      if (params.name === "two-rounds") return twoRounds(ctx);
      if (params.name === "ask-answer") return askAnswer(params, ctx);
      if (params.name === "wait-cancel") return waitCancel(params, ctx);
      // Opens the call's resumable stream (a progress event), then never answers: the test
      // kills this replica and the client resumes elsewhere.
      if (params.name === "progress-then-hang") {
        await ctx.sendProgress(1);
        console.log(`HANGING ${me}`);
        return new Promise(() => {});
      }
      if (params.name === "steps") return steps(params, ctx);
      if (params.name === "memory") return memory();
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
// Legacy clients' answers and cancellations that reach this replica for another travel over
// Redis pub/sub; each publish and delivery is printed, so the test sees which replicas took part.
const relayBus = await connectRedisMessageBus({ url: process.env.REDIS_URL });
const messageBus = {
  publish: (channel, message) => (
    console.log(`RELAY ${me} publish ${channel} ${message}`),
    relayBus.publish(channel, message)
  ),
  subscribe: (channel, listener) =>
    relayBus.subscribe(channel, (message) => {
      console.log(`RELAY ${me} receive ${channel} ${message}`);
      listener(message);
    }),
};
// PORT: a replica restarted by the test listens where HAProxy expects it.
// REQUEST_TIMEOUT_MS: the fault suite's bound on a request (the default is 60 s).
const server = await serveHttp(dispatcher, {
  sessionStore: store,
  eventStore: events,
  port: Number(process.env.PORT ?? 0),
  messageBus,
  ...(process.env.REQUEST_TIMEOUT_MS
    ? { requestTimeoutMs: Number(process.env.REQUEST_TIMEOUT_MS) }
    : {}),
});
console.log(`LISTENING ${server.url}`);
// SIGTERM (a rolling restart): stop taking connections, let the calls in flight finish
// (serveHttp's close), then go. Printed so that the suite sees the drain begin and end.
process.once("SIGTERM", async () => {
  console.log(`DRAINING ${me}`);
  await server.close();
  console.log(`DRAINED ${me}`);
  process.exit(0);
});
