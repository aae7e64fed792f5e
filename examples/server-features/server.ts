// The server the "Server features" guide takes its code from: one generated dual-era
// dispatcher (see mcp-gen.config.json) whose handlers use each server feature once. Modern
// clients (2026-07-28) and legacy sessions (2025-03-26 .. 2025-11-25) reach the same handlers.
import { Ajv2020 } from "ajv/dist/2020.js";
import {
  createTaskStore,
  definePrompts,
  defineResources,
  defineServer,
  defineTool,
  defineTools,
  inputRequired,
  McpError,
  openStateFor,
  prompt,
  requireClientCapability,
  resource,
  resourceTemplate,
  sealStateFor,
  withInput,
  type HandlerResult,
  type SchemaValidator,
} from "./mcp/dispatcher.js";
import type {
  CallToolResult,
  CreateMessageRequestParams,
  ElicitRequestFormParams,
  ElicitRequestURLParams,
  TextContent,
} from "./mcp/types.js";
import { research, researchStraight } from "./research.js";

const ajv = new Ajv2020({ strict: false });
const validate: SchemaValidator = (schema, value) => {
  const check = ajv.compile(schema);
  if (check(value)) return undefined;
  return (check.errors ?? []).map((e) => `${e.instancePath || "/"} ${e.message ?? "is invalid"}`);
};

const text = (text: string): TextContent => ({ type: "text", text });

// #region logging
// Logs go to the client that asked for them, at the level it asked for or above.
const tidy = defineTool({
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
});
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
// defineTool types `call`'s arguments from the inputSchema literal: `to` is a number.
const count = defineTool({
  tool: {
    name: "count",
    description: "Counts slowly, reporting progress",
    inputSchema: {
      type: "object",
      properties: { to: { type: "integer", minimum: 1 } },
      required: ["to"],
    },
  },
  call: async ({ to }, ctx) => {
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
});
// #endregion progress

// #region elicitation
const greet = defineTool({
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
});
// #endregion elicitation

// #region url-elicitation
const connectCalendar = defineTool({
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
});
// #endregion url-elicitation

// #region sampling
const haiku = defineTool({
  tool: {
    name: "haiku",
    description: "Has the client's model write a haiku",
    inputSchema: { type: "object", properties: { topic: { type: "string" } }, required: ["topic"] },
  },
  call: ({ topic }, ctx) => {
    const answer = ctx.inputResponse("poem", "sampling/createMessage");
    if (answer === undefined) {
      const prompt = text(`Write a haiku about ${topic}`);
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
});
// #endregion sampling

// #region roots
const showRoots = defineTool({
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
});
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

const orderPizza = defineTool({
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
});
// #endregion request-state

// #region straight-line
// order_pizza again, with each question awaited where it is needed. withInput replays the
// handler on each round: the code before an ask runs again (its logs and progress are not
// sent twice), and answers from earlier rounds ride in requestState, sealed with `secret`.
const orderPizzaStraight = defineTool({
  tool: {
    name: "order_pizza_straight",
    description: "Asks for a size, then a topping, in straight-line code",
    inputSchema: { type: "object" },
  },
  call: withInput(
    async (_args, ctx, input) => {
      await ctx.log("info", "taking an order");
      const size = await input.elicit(sizeForm);
      if (size.action !== "accept") return { content: [text("no pizza, then")] };
      const topping = await input.elicit(toppingForm);
      if (topping.action !== "accept") return { content: [text("no pizza, then")] };
      const chosen = `${String(size.content?.["size"])} pizza, ${String(topping.content?.["topping"])}`;
      return { content: [text(`ordered: ${chosen}`)] };
    },
    { secret },
  ),
});
// #endregion straight-line

// #region completions
const LANGUAGES = ["go", "java", "javascript", "python", "rust", "typescript"];

// Values for what the user typed so far, best first (at most 100 are sent).
const languages = (typed: string) => LANGUAGES.filter((language) => language.startsWith(typed));
// #endregion completions

// #region prompts
const review = prompt({
  prompt: {
    name: "review",
    description: "Asks for a code review",
    arguments: [{ name: "language", required: true }, { name: "focus" }],
  },
  // Typed from the declarations: `language` is a string, `focus` may be undefined. A call
  // without `language` never gets here: it is refused with -32602.
  get: ({ language, focus }) => ({
    messages: [
      {
        role: "user",
        content: text(`Review this ${language} code${focus ? `, for ${focus}` : ""}.`),
      },
    ],
  }),
  complete: { language: languages },
});

const prompts = definePrompts([review], { list: { ttlMs: 60_000, cacheScope: "public" } });
// #endregion prompts

// #region resources
const notes = new Map<string, string>([["welcome", "Hello"]]);

const resources = defineResources(
  [
    resource({
      resource: { uri: "about://notes", name: "about", mimeType: "text/plain" },
      read: (uri) => ({
        contents: [{ uri, text: "Notes, kept in memory" }],
        ttlMs: 60_000,
        cacheScope: "public",
      }),
    }),
    resourceTemplate({
      template: { uriTemplate: "note://{name}", name: "note", mimeType: "text/plain" },
      // resources/list names the notes there are now.
      list: () => [...notes.keys()].map((name) => ({ uri: `note://${name}`, name })),
      // `name` is read from the URI (`note://welcome`: "welcome").
      read: (uri, { name }) => {
        const note = notes.get(name);
        if (note === undefined) throw new McpError(-32602, `Resource ${uri} not found`, { uri });
        return { contents: [{ uri, text: note }], ttlMs: 0, cacheScope: "private" };
      },
      complete: { name: (typed) => [...notes.keys()].filter((name) => name.startsWith(typed)) },
    }),
  ],
  { list: { ttlMs: 0, cacheScope: "private" } },
);
// #endregion resources

// #region subscriptions
const writeNote = defineTool({
  tool: {
    name: "write_note",
    description: "Writes a note (a resource)",
    inputSchema: {
      type: "object",
      properties: { name: { type: "string", pattern: "^[a-z]+$" }, text: { type: "string" } },
      required: ["name", "text"],
    },
  },
  call: ({ name, text: note }) => {
    const added = !notes.has(name);
    notes.set(name, note);
    // One call per change: legacy sessions hear it on their GET stream (those subscribed to
    // the URI), modern clients on their subscriptions/listen stream (those that asked).
    server.resourceUpdated(`note://${name}`);
    if (added) server.listChanged("resources");
    return { content: [text(`${added ? "added" : "updated"} note://${name}`)] };
  },
});
// #endregion subscriptions

// #region tasks
// The Tasks extension: a tools/call may answer with a task handle and go on working; the
// client polls tasks/get. Clients that do not declare the extension get the result itself.
const tasks = createTaskStore({ pollIntervalMs: 100 });

const buildReport = defineTool({
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
});
// #endregion tasks

// #region dispatcher
export const server = defineServer(
  {
    tools: defineTools(
      [
        ...[tidy, count, greet, connectCalendar, haiku, showRoots, orderPizza, orderPizzaStraight],
        ...[writeNote, buildReport, research, researchStraight],
      ],
      { validate, list: { ttlMs: 60_000, cacheScope: "public" } },
    ),
    resources,
    prompts,
    // What the server tells clients about (server.listChanged, server.resourceUpdated).
    listChanged: ["resources"],
    subscribe: true,
  },
  {
    serverInfo: { name: "server-features", version: "1.0.0" },
    // What nothing above implies: logging (handlers call ctx.log).
    capabilities: { logging: {} },
    extensions: [tasks],
  },
);
export const dispatcher = server.dispatcher;
// #endregion dispatcher
