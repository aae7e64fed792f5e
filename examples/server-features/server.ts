// The server the "Server features" guide takes its code from: one generated dual-era
// dispatcher (see mcp-gen.config.json) whose handlers use each server feature once. Modern
// clients (2026-07-28) and legacy sessions (2025-03-26 .. 2025-11-25) reach the same handlers.
import { Ajv2020 } from "ajv/dist/2020.js";
import {
  createServerDispatcher,
  createTaskStore,
  defineTools,
  inputRequired,
  McpError,
  openStateFor,
  requireClientCapability,
  sealStateFor,
  type HandlerResult,
  type SchemaValidator,
  type ServerHandlers,
  type ToolDefinition,
} from "./mcp/dispatcher.js";
import type {
  CallToolResult,
  CreateMessageRequestParams,
  ElicitRequestFormParams,
  ElicitRequestURLParams,
  SubscriptionFilter,
  TextContent,
} from "./mcp/types.js";

const ajv = new Ajv2020({ strict: false });
const validate: SchemaValidator = (schema, value) => {
  const check = ajv.compile(schema);
  if (check(value)) return undefined;
  return (check.errors ?? []).map((e) => `${e.instancePath || "/"} ${e.message ?? "is invalid"}`);
};

const text = (text: string): TextContent => ({ type: "text", text });

// #region logging
// Logs go to the client that asked for them, at the level it asked for or above.
const tidy: ToolDefinition = {
  tool: {
    name: "tidy",
    description: "Tidies up, and logs what it does",
    inputSchema: { type: "object" },
  },
  call: async (_args, ctx) => {
    await ctx.log("debug", "looking for old files"); // not sent to a client that asked for info
    await ctx.log("info", { removed: 3 }, "tidy");
    return { content: [text("tidied")] };
  },
};
// #endregion logging

// #region cancellation
/** Resolves after `ms`, or rejects with the signal's reason once it aborts. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    const stop = () => (clearTimeout(timer), reject(signal.reason));
    signal.addEventListener("abort", stop, { once: true });
  });
}
// #endregion cancellation

// #region progress
const count: ToolDefinition = {
  tool: {
    name: "count",
    description: "Counts slowly, reporting progress",
    inputSchema: {
      type: "object",
      properties: { to: { type: "integer", minimum: 1 } },
      required: ["to"],
    },
  },
  call: async (args, ctx) => {
    const to = Number(args["to"]);
    let counted = 0;
    // Cancelled (by the client, or its connection closing): sleep rejects, the loop ends.
    ctx.signal.addEventListener("abort", () => console.error(`count stopped at ${counted}`));
    while (counted < to) {
      await sleep(100, ctx.signal);
      counted++;
      await ctx.sendProgress(counted, to, `counted ${counted}`);
    }
    return { content: [text(`counted to ${to}`)] };
  },
};
// #endregion progress

// #region elicitation
const greet: ToolDefinition = {
  tool: {
    name: "greet",
    description: "Asks who you are, then greets you",
    inputSchema: { type: "object" },
  },
  call: (_args, ctx) => {
    const form: ElicitRequestFormParams = {
      mode: "form",
      message: "Who are you?",
      requestedSchema: {
        type: "object",
        properties: { name: { type: "string", title: "Your name" } },
        required: ["name"],
      },
    };
    // Given the form, the answer's content is checked against it (invalid params if not).
    const answer = ctx.inputResponse("who", "elicitation/create", { params: form });
    if (answer === undefined)
      return inputRequired(ctx, {
        inputRequests: { who: { method: "elicitation/create", params: form } },
      });
    if (answer.action !== "accept") return { content: [text("Hello, stranger")] };
    return { content: [text(`Hello, ${String(answer.content?.["name"])}`)] };
  },
};
// #endregion elicitation

// #region url-elicitation
const connectCalendar: ToolDefinition = {
  tool: {
    name: "connect_calendar",
    description: "Links your calendar",
    inputSchema: { type: "object" },
  },
  call: (_args, ctx) => {
    const answer = ctx.inputResponse("consent", "elicitation/create");
    if (answer === undefined) {
      // inputRequired checks `elicitation`; URL mode also needs `elicitation.url`.
      requireClientCapability(ctx, ["elicitation", "url"]);
      const params: ElicitRequestURLParams = {
        mode: "url",
        message: "Sign in to your calendar to link it",
        url: "https://calendar.example.com/link?client=mcp",
      };
      return inputRequired(ctx, {
        inputRequests: { consent: { method: "elicitation/create", params } },
      });
    }
    return { content: [text(`calendar link: ${answer.action}`)] };
  },
};
// #endregion url-elicitation

// #region sampling
const haiku: ToolDefinition = {
  tool: {
    name: "haiku",
    description: "Has the client's model write a haiku",
    inputSchema: { type: "object", properties: { topic: { type: "string" } }, required: ["topic"] },
  },
  call: (args, ctx) => {
    const answer = ctx.inputResponse("poem", "sampling/createMessage");
    if (answer === undefined) {
      const prompt = text(`Write a haiku about ${String(args["topic"])}`);
      const params: CreateMessageRequestParams = {
        messages: [{ role: "user", content: prompt }],
        maxTokens: 100,
      };
      return inputRequired(ctx, {
        inputRequests: { poem: { method: "sampling/createMessage", params } },
      });
    }
    const [first] = Array.isArray(answer.content) ? answer.content : [answer.content];
    return {
      content: [text(first?.type === "text" ? first.text : `(${answer.model} wrote no text)`)],
    };
  },
};
// #endregion sampling

// #region roots
const showRoots: ToolDefinition = {
  tool: {
    name: "show_roots",
    description: "Lists the client's roots",
    inputSchema: { type: "object" },
  },
  call: (_args, ctx) => {
    const answer = ctx.inputResponse("roots", "roots/list");
    if (answer === undefined)
      return inputRequired(ctx, { inputRequests: { roots: { method: "roots/list" } } });
    return { content: [text(answer.roots.map((root) => root.uri).join(", "))] };
  },
};
// #endregion roots

// #region request-state
// The HMAC key that signs request state: 32 random bytes, the same on every instance that
// may serve a retry (one process here; a list of keys rotates them, newest first).
const secret = process.env["STATE_SECRET"] ?? crypto.getRandomValues(new Uint8Array(32));

const form = (field: string, message: string): ElicitRequestFormParams => ({
  mode: "form",
  message,
  requestedSchema: { type: "object", properties: { [field]: { type: "string" } } },
});
const sizeForm = form("size", "Which size?");
// What round 2 seals for round 3. Opened with this schema, the state comes back typed
// ({ size: string }), and state of another shape is refused.
const pizzaState = {
  type: "object",
  properties: { size: { type: "string" } },
  required: ["size"],
} as const;
const toppingForm = form("topping", "Which topping?");

const orderPizza: ToolDefinition = {
  tool: {
    name: "order_pizza",
    description: "Asks for a size, then a topping",
    inputSchema: { type: "object" },
  },
  call: async (_args, ctx) => {
    // A retry carries only the latest round's answers: the size, answered in round 2, is
    // sealed into requestState there and comes back in round 3.
    const sealed = await openStateFor(ctx, { secret, schema: pizzaState, validate });
    const sizeAnswer = ctx.inputResponse("size", "elicitation/create", { params: sizeForm });
    const toppingAnswer = ctx.inputResponse("topping", "elicitation/create", {
      params: toppingForm,
    });
    for (const answer of [sizeAnswer, toppingAnswer])
      if (answer && answer.action !== "accept") return { content: [text("no pizza, then")] };
    const size = sealed?.size ?? sizeAnswer?.content?.["size"];
    if (size === undefined)
      return inputRequired(ctx, {
        inputRequests: { size: { method: "elicitation/create", params: sizeForm } },
      });
    const topping = toppingAnswer?.content?.["topping"];
    if (topping === undefined)
      return inputRequired(ctx, {
        inputRequests: { topping: { method: "elicitation/create", params: toppingForm } },
        requestState: await sealStateFor(
          ctx,
          { size: String(size) },
          { secret, schema: pizzaState },
        ),
      });
    return { content: [text(`ordered: ${String(size)} pizza, ${String(topping)}`)] };
  },
};
// #endregion request-state

// #region prompts
const prompts: Pick<ServerHandlers, "prompts/list" | "prompts/get"> = {
  "prompts/list": () => ({
    prompts: [{ name: "review", arguments: [{ name: "language", required: true }] }],
    ttlMs: 60_000,
    cacheScope: "public",
  }),
  "prompts/get": (params) => ({
    messages: [
      { role: "user", content: text(`Review this ${params.arguments?.["language"]} code.`) },
    ],
  }),
};
// #endregion prompts

// #region completions
const LANGUAGES = ["go", "java", "javascript", "python", "rust", "typescript"];

// Values for the argument being typed (the review prompt's `language`), from what is typed.
const completions: Pick<ServerHandlers, "completion/complete"> = {
  "completion/complete": (params) => {
    const { ref, argument } = params;
    if (ref.type !== "ref/prompt" || ref.name !== "review" || argument.name !== "language")
      return { completion: { values: [] } };
    const values = LANGUAGES.filter((language) => language.startsWith(argument.value));
    return { completion: { values, total: values.length, hasMore: false } };
  },
};
// #endregion completions

// #region resources
const notes = new Map<string, string>([["note://welcome", "Hello"]]);

const resources: Pick<ServerHandlers, "resources/list" | "resources/read"> = {
  "resources/list": () => ({
    resources: [...notes.keys()].map((uri) => ({ uri, name: uri.slice("note://".length) })),
    ttlMs: 0,
    cacheScope: "private",
  }),
  "resources/read": (params) => {
    const note = notes.get(params.uri);
    if (note === undefined) throw new McpError(-32602, `no note ${params.uri}`);
    return { contents: [{ uri: params.uri, text: note }], ttlMs: 0, cacheScope: "private" };
  },
};
// #endregion resources

// #region listen
// Modern clients (2026-07-28) open a subscriptions/listen stream; this handler keeps it open
// and sends what each one asked for (write_note tells legacy sessions through the dispatcher).
const SUBSCRIPTION_ID = "io.modelcontextprotocol/subscriptionId";
type Send = (method: string, params?: object) => Promise<void>;
const listeners = new Map<Send, SubscriptionFilter>();

const listen: Pick<ServerHandlers, "subscriptions/listen"> = {
  "subscriptions/listen": async (params, ctx) => {
    const _meta = { [SUBSCRIPTION_ID]: ctx.id };
    const send: Send = (method, fields) =>
      ctx.notify({ jsonrpc: "2.0", method, params: { ...fields, _meta } });
    // What this server honors of the filter: resources (it has no list of tools or prompts
    // that changes).
    const { resourcesListChanged, resourceSubscriptions } = params.notifications;
    const honored: SubscriptionFilter = {
      ...(resourcesListChanged ? { resourcesListChanged } : {}),
      ...(resourceSubscriptions ? { resourceSubscriptions } : {}),
    };
    await send("notifications/subscriptions/acknowledged", { notifications: honored });
    listeners.set(send, honored);
    // Open until the client closes it (or the HTTP server's requestTimeoutMs passes).
    if (!ctx.signal.aborted)
      await new Promise((resolve) => ctx.signal.addEventListener("abort", resolve, { once: true }));
    listeners.delete(send);
    return { _meta };
  },
};
// #endregion listen

// #region subscriptions
const writeNote: ToolDefinition = {
  tool: {
    name: "write_note",
    description: "Writes a note (a resource)",
    inputSchema: {
      type: "object",
      properties: { name: { type: "string", pattern: "^[a-z]+$" }, text: { type: "string" } },
      required: ["name", "text"],
    },
  },
  call: (args) => {
    const uri = `note://${String(args["name"])}`;
    const added = !notes.has(uri);
    notes.set(uri, String(args["text"]));
    // Legacy sessions: on their GET stream, those subscribed to `uri` (resources/subscribe).
    dispatcher.resourceUpdated?.(uri);
    if (added)
      dispatcher.notifySessions?.({
        jsonrpc: "2.0",
        method: "notifications/resources/list_changed",
      });
    // Modern clients: on their subscriptions/listen streams, as each one asked.
    for (const [send, filter] of listeners) {
      if (filter.resourceSubscriptions?.includes(uri))
        void send("notifications/resources/updated", { uri });
      if (added && filter.resourcesListChanged) void send("notifications/resources/list_changed");
    }
    return { content: [text(`${added ? "added" : "updated"} ${uri}`)] };
  },
};
// #endregion subscriptions

// #region tasks
// The Tasks extension: a tools/call may answer with a task handle and go on working; the
// client polls tasks/get. Clients that do not declare the extension get the result itself.
const tasks = createTaskStore({ pollIntervalMs: 100 });

const buildReport: ToolDefinition = {
  tool: {
    name: "build_report",
    description: "Builds a report, as a task",
    inputSchema: { type: "object" },
  },
  call: (_args, ctx) =>
    tasks.run(ctx, async (task): Promise<HandlerResult<CallToolResult>> => {
      task.setStatusMessage("collecting figures");
      await sleep(300, task.signal); // tasks/cancel aborts task.signal
      return { content: [text("report: 42 sales")] };
    }),
};
// #endregion tasks

// #region dispatcher
export const dispatcher = createServerDispatcher(
  {
    ...defineTools(
      [tidy, count, greet, connectCalendar, haiku, showRoots, orderPizza, writeNote, buildReport],
      { validate, list: { ttlMs: 60_000, cacheScope: "public" } },
    ),
    ...prompts,
    ...completions,
    ...resources,
    ...listen,
  },
  {
    serverInfo: { name: "server-features", version: "1.0.0" },
    // What no handler implies: logging (handlers call ctx.log), resource updates and list changes.
    capabilities: { logging: {}, resources: { subscribe: true, listChanged: true } },
    extensions: [tasks],
  },
);
// #endregion dispatcher
