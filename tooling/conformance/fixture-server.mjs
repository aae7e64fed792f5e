// The server the official suite's server scenarios expect, built on mcp-gen's generated
// dispatcher and Streamable HTTP server: ONE dual-era server for both requirement sets (the
// 2026-07-28 scenarios talk to it statelessly, the 2025-11-25 ones through initialize; its
// tools ask for input with input_required either way). `startFixtureServer(dir)` takes the
// folder of generated JavaScript and resolves to { url, close }. The server is the generated
// web-standard fetch handler (createFetchHandler: Request in, Response out, SSE as a
// ReadableStream) on node:http through @hono/node-server, so the suite exercises the core
// every platform runs; `host: "node"` serves the node:http host (serveHttp) instead.

import { readFileSync } from "node:fs";

// The server names itself with mcp-gen's version, so a client's log tells which release ran.
const { version } = JSON.parse(
  readFileSync(new URL("../../packages/cli/package.json", import.meta.url), "utf8"),
);
const PNG_1x1 =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
const WAV = "UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAEAfAAABAAgAZGF0YQAAAAA=";
const STATE_SECRET = "conformance-fixture-state-secret-0123456789";

export async function startFixtureServer(dir, options = {}) {
  const d = await import(`${dir}/dispatcher.js`);
  const { createFetchHandler, serveHttp } = await import(`${dir}/http-server.js`);
  const {
    McpError,
    inputRequired,
    requireClientCapability,
    sealStateFor,
    openStateFor,
    createTaskStore,
  } = d;
  // The tasks extension (io.modelcontextprotocol/tasks): the task-supporting tools below
  // answer with a task handle when the request declares the extension.
  const tasks = createTaskStore({ pollIntervalMs: 200 });
  /** Waits `ms`, or rejects when `signal` fires (a cancelled task stops waiting). */
  const sleep = (ms, signal) =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(resolve, ms);
      timer.unref?.();
      signal?.addEventListener("abort", () => (clearTimeout(timer), reject(signal.reason)), {
        once: true,
      });
    });

  const text = (t) => ({ type: "text", text: t });
  const caps = (ctx) => ctx.clientCapabilities ?? {};
  const elicit = (message, properties) => ({
    method: "elicitation/create",
    params: { mode: "form", message, requestedSchema: { type: "object", properties } },
  });
  const sample = (question) => ({
    method: "sampling/createMessage",
    params: { messages: [{ role: "user", content: text(question) }], maxTokens: 100 },
  });
  const roots = { method: "roots/list" };

  const tools = {
    test_simple_text: {
      description: "Returns simple text",
      run: () => ({ content: [text("This is a simple text response for testing.")] }),
    },
    test_image_content: {
      description: "Returns an image",
      run: () => ({ content: [{ type: "image", data: PNG_1x1, mimeType: "image/png" }] }),
    },
    test_audio_content: {
      description: "Returns audio",
      run: () => ({ content: [{ type: "audio", data: WAV, mimeType: "audio/wav" }] }),
    },
    test_embedded_resource: {
      description: "Returns an embedded resource",
      run: () => ({
        content: [
          {
            type: "resource",
            resource: {
              uri: "test://embedded-resource",
              mimeType: "text/plain",
              text: "This is an embedded resource content.",
            },
          },
        ],
      }),
    },
    test_multiple_content_types: {
      description: "Returns text, image and resource",
      run: () => ({
        content: [
          text("Multiple content types test:"),
          { type: "image", data: PNG_1x1, mimeType: "image/png" },
          {
            type: "resource",
            resource: {
              uri: "test://mixed-content-resource",
              mimeType: "application/json",
              text: '{"test":"data","value":123}',
            },
          },
        ],
      }),
    },
    // SEP-1613 / SEP-2106: a 2020-12 inputSchema goes out as written ($schema, $defs with an
    // $anchor, $ref, allOf/anyOf, if/then/else, additionalProperties).
    json_schema_2020_12_tool: {
      description: "Takes a contact, described with JSON Schema 2020-12",
      inputSchema: {
        $schema: "https://json-schema.org/draft/2020-12/schema",
        type: "object",
        $defs: {
          address: {
            $anchor: "addressDef",
            type: "object",
            properties: { street: { type: "string" }, city: { type: "string" } },
          },
        },
        properties: {
          name: { type: "string" },
          address: { $ref: "#/$defs/address" },
          contactMethod: { type: "string", enum: ["phone", "email"] },
          phone: { type: "string" },
          email: { type: "string" },
        },
        allOf: [{ anyOf: [{ required: ["phone"] }, { required: ["email"] }] }],
        if: { properties: { contactMethod: { const: "phone" } }, required: ["contactMethod"] },
        then: { required: ["phone"] },
        else: { required: ["email"] },
        additionalProperties: false,
      },
      run: () => ({ content: [text("ok")] }),
    },
    // SEP-2243: an argument mirrored in a Mcp-Param-Region header, which the server checks.
    test_header_param: {
      description: "Echoes a region that clients also send as Mcp-Param-Region",
      inputSchema: {
        type: "object",
        properties: { region: { type: "string", "x-mcp-header": "Region" } },
        required: ["region"],
      },
      run: (args) => ({ content: [text(`region ${args.region}`)] }),
    },
    test_error_handling: {
      description: "Always fails",
      run: () => ({
        isError: true,
        content: [text("This tool intentionally returns an error for testing")],
      }),
    },
    test_tool_with_progress: {
      description: "Reports progress",
      async run(args, ctx) {
        for (const progress of [0, 50, 100]) {
          await ctx.sendProgress(progress, 100, `step ${progress}`);
          await new Promise((r) => setTimeout(r, 10));
        }
        return { content: [text("Progress complete")] };
      },
    },
    test_missing_capability: {
      description: "Needs the sampling capability",
      run(args, ctx) {
        requireClientCapability(ctx, "sampling");
        return { content: [text("sampling declared")] };
      },
    },
    test_streaming_elicitation: {
      description: "Asks for input through the result, never on the stream",
      run: (args, ctx) =>
        ctx.inputResponse("answer", "elicitation/create")
          ? { content: [text("thanks")] }
          : inputRequired(ctx, {
              inputRequests: { answer: elicit("Continue?", { ok: { type: "boolean" } }) },
            }),
    },
    test_logging_tool: {
      description: "Logs if the client asked for a log level",
      async run(args, ctx) {
        await ctx.log("info", "logging tool ran");
        return { content: [text("logged")] };
      },
    },
    // 2025-11-25 scenarios: on a legacy session the input requests below reach the client
    // as server-initiated requests, sent by the runtime.
    test_tool_with_logging: {
      description: "Logs three messages while it runs",
      async run(args, ctx) {
        for (const [i, data] of [
          "Tool execution started",
          "Tool processing data",
          "Tool execution completed",
        ].entries()) {
          if (i > 0) await new Promise((r) => setTimeout(r, 50));
          await ctx.log("info", data);
        }
        return { content: [text("Logging tool completed")] };
      },
    },
    test_sampling: {
      description: "Asks the client's model",
      inputSchema: {
        type: "object",
        properties: { prompt: { type: "string" } },
        required: ["prompt"],
      },
      run(args, ctx) {
        const answer = ctx.inputResponse("sample", "sampling/createMessage");
        if (!answer)
          return inputRequired(ctx, {
            inputRequests: { sample: sample(String(args.prompt ?? "")) },
          });
        return { content: [text(`LLM response: ${answer.content?.text ?? ""}`)] };
      },
    },
    test_elicitation: {
      description: "Asks the user",
      inputSchema: {
        type: "object",
        properties: { message: { type: "string" } },
        required: ["message"],
      },
      run(args, ctx) {
        const answer = ctx.inputResponse("user", "elicitation/create");
        if (!answer) {
          const properties = {
            username: { type: "string", description: "User's response" },
            email: { type: "string", description: "User's email address" },
          };
          const ask = {
            method: "elicitation/create",
            params: {
              message: String(args.message ?? ""),
              requestedSchema: { type: "object", properties, required: ["username", "email"] },
            },
          };
          return inputRequired(ctx, { inputRequests: { user: ask } });
        }
        return {
          content: [
            text(
              `User response: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`,
            ),
          ],
        };
      },
    },
    test_elicitation_sep1034_defaults: {
      description: "Asks with defaults for every primitive type",
      run(args, ctx) {
        const answer = ctx.inputResponse("defaults", "elicitation/create");
        if (!answer) {
          const properties = {
            name: { type: "string", default: "John Doe" },
            age: { type: "integer", default: 30 },
            score: { type: "number", default: 95.5 },
            status: { type: "string", enum: ["active", "inactive", "pending"], default: "active" },
            verified: { type: "boolean", default: true },
          };
          return inputRequired(ctx, {
            inputRequests: { defaults: elicit("Your details?", properties) },
          });
        }
        return {
          content: [
            text(
              `Elicitation completed: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`,
            ),
          ],
        };
      },
    },
    test_elicitation_sep1330_enums: {
      description: "Asks with every enum variant",
      run(args, ctx) {
        const answer = ctx.inputResponse("enums", "elicitation/create");
        if (!answer) {
          const options = ["option1", "option2", "option3"];
          const properties = {
            untitledSingle: { type: "string", enum: options },
            titledSingle: {
              type: "string",
              oneOf: [
                { const: "value1", title: "First Option" },
                { const: "value2", title: "Second Option" },
                { const: "value3", title: "Third Option" },
              ],
            },
            legacyEnum: {
              type: "string",
              enum: ["opt1", "opt2", "opt3"],
              enumNames: ["Option One", "Option Two", "Option Three"],
            },
            untitledMulti: { type: "array", items: { type: "string", enum: options } },
            titledMulti: {
              type: "array",
              items: {
                anyOf: [
                  { const: "value1", title: "First Choice" },
                  { const: "value2", title: "Second Choice" },
                  { const: "value3", title: "Third Choice" },
                ],
              },
            },
          };
          return inputRequired(ctx, {
            inputRequests: { enums: elicit("Pick options", properties) },
          });
        }
        return {
          content: [
            text(
              `Elicitation completed: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`,
            ),
          ],
        };
      },
    },
    test_input_required_result_elicitation: {
      description: "Asks for the user's name",
      run(args, ctx) {
        const answer = ctx.inputResponse("user_name", "elicitation/create");
        if (!answer)
          return inputRequired(ctx, {
            inputRequests: {
              user_name: elicit("What is your name?", { name: { type: "string" } }),
            },
          });
        return { content: [text(`Hello, ${answer.content?.name ?? "stranger"}!`)] };
      },
    },
    test_input_required_result_sampling: {
      description: "Asks the client's model",
      run(args, ctx) {
        const answer = ctx.inputResponse("capital_question", "sampling/createMessage");
        if (!answer)
          return inputRequired(ctx, {
            inputRequests: { capital_question: sample("What is the capital of France?") },
          });
        return { content: [text(`The model said: ${answer.content?.text ?? ""}`)] };
      },
    },
    test_input_required_result_list_roots: {
      description: "Asks for the client's roots",
      run(args, ctx) {
        const answer = ctx.inputResponse("client_roots", "roots/list");
        if (!answer) return inputRequired(ctx, { inputRequests: { client_roots: roots } });
        return { content: [text(`Roots: ${answer.roots.map((r) => r.uri).join(", ")}`)] };
      },
    },
    test_input_required_result_request_state: {
      description: "Keeps state across rounds",
      async run(args, ctx) {
        const state = await openStateFor(ctx, { secret: STATE_SECRET });
        const answer = ctx.inputResponse("confirm", "elicitation/create");
        if (!state || !answer) {
          return inputRequired(ctx, {
            inputRequests: { confirm: elicit("Confirm?", { ok: { type: "boolean" } }) },
            requestState: await sealStateFor(ctx, { step: 1 }, { secret: STATE_SECRET }),
          });
        }
        return { content: [text(`state-ok (step ${state.step})`)] };
      },
    },
    test_input_required_result_multiple_inputs: {
      description: "Asks for three inputs at once",
      async run(args, ctx) {
        const name = ctx.inputResponse("user_name", "elicitation/create");
        const model = ctx.inputResponse("capital_question", "sampling/createMessage");
        const rootList = ctx.inputResponse("client_roots", "roots/list");
        if (!name || !model || !rootList) {
          return inputRequired(ctx, {
            inputRequests: {
              user_name: elicit("Your name?", { name: { type: "string" } }),
              capital_question: sample("Capital of France?"),
              client_roots: roots,
            },
            requestState: await sealStateFor(ctx, { round: 1 }, { secret: STATE_SECRET }),
          });
        }
        return { content: [text("all three inputs received")] };
      },
    },
    test_input_required_result_multi_round: {
      description: "Asks twice",
      async run(args, ctx) {
        const state = await openStateFor(ctx, { secret: STATE_SECRET });
        const round = state?.round ?? 0;
        if (round === 0) {
          return inputRequired(ctx, {
            inputRequests: { step_one: elicit("Step one?", { value: { type: "string" } }) },
            requestState: await sealStateFor(ctx, { round: 1 }, { secret: STATE_SECRET }),
          });
        }
        if (round === 1) {
          return inputRequired(ctx, {
            inputRequests: { step_two: elicit("Step two?", { value: { type: "string" } }) },
            requestState: await sealStateFor(ctx, { round: 2 }, { secret: STATE_SECRET }),
          });
        }
        return { content: [text("multi-round complete")] };
      },
    },
    test_input_required_result_tampered_state: {
      description: "Refuses tampered state",
      async run(args, ctx) {
        const state = await openStateFor(ctx, { secret: STATE_SECRET });
        if (!state) {
          return inputRequired(ctx, {
            inputRequests: { confirm: elicit("Confirm?", { ok: { type: "boolean" } }) },
            requestState: await sealStateFor(ctx, { trusted: true }, { secret: STATE_SECRET }),
          });
        }
        return { content: [text("state verified")] };
      },
    },
    // Tasks extension scenarios (tasks-*): `greet` is synchronous, the others run as tasks.
    greet: {
      description: "Greets synchronously",
      inputSchema: { type: "object", properties: { name: { type: "string" } } },
      run: (args) => ({ content: [text(`Hello, ${args.name}!`)] }),
    },
    slow_compute: {
      description: "Sleeps `seconds`, then answers; a task when the client supports tasks",
      inputSchema: {
        type: "object",
        properties: { seconds: { type: "number" }, label: { type: "string" } },
      },
      run: (args, ctx) =>
        tasks.run(ctx, async (task) => {
          await sleep(Number(args.seconds ?? 0) * 1000, task.signal);
          return { content: [text(`computed ${args.label ?? ""} after ${args.seconds ?? 0}s`)] };
        }),
    },
    failing_job: {
      description: "Needs a task; ends with a tool error",
      run: (args, ctx) =>
        tasks.run(
          ctx,
          async (task) => {
            await sleep(500, task.signal);
            return { isError: true, content: [text("the job failed")] };
          },
          { required: true },
        ),
    },
    protocol_error_job: {
      description: "A task that fails with a JSON-RPC error",
      run: (args, ctx) =>
        tasks.run(ctx, async () => {
          throw new McpError(-32603, "the job crashed");
        }),
    },
    confirm_delete: {
      description: "A task that asks for confirmation mid-way",
      inputSchema: { type: "object", properties: { filename: { type: "string" } } },
      run: (args, ctx) =>
        tasks.run(ctx, async (task) => {
          const { confirm } = await task.input({
            confirm: elicit(`Delete ${args.filename}?`, { confirm: { type: "boolean" } }),
          });
          return {
            content: [
              text(
                confirm.action === "accept" ? `deleted ${args.filename}` : `kept ${args.filename}`,
              ),
            ],
          };
        }),
    },
    multi_input: {
      description: "A task that asks for two inputs at once",
      run: (args, ctx) =>
        tasks.run(ctx, async (task) => {
          const answers = await task.input({
            name: elicit("Your name?", { name: { type: "string" } }),
            confirm: elicit("Proceed?", { confirm: { type: "boolean" } }),
          });
          return { content: [text(`got ${Object.keys(answers).sort().join(" and ")}`)] };
        }),
    },
    test_tool_with_task: {
      description: "Asks for a name (input_required), then works on it as a task",
      run(args, ctx) {
        const answer = ctx.inputResponse("user_name", "elicitation/create");
        if (!answer)
          return inputRequired(ctx, {
            inputRequests: {
              user_name: elicit("What is your name?", { name: { type: "string" } }),
            },
          });
        const name = answer.content?.name ?? "stranger";
        return tasks.run(ctx, () => ({ content: [text(`Hello, ${name}!`)] }), { required: true });
      },
    },
    test_input_required_result_capabilities: {
      description: "Asks only for what the client declared",
      run(args, ctx) {
        const c = caps(ctx);
        const done =
          ctx.inputResponse("question", "sampling/createMessage") ??
          ctx.inputResponse("name", "elicitation/create") ??
          ctx.inputResponse("roots", "roots/list");
        if (done) return { content: [text("capabilities respected")] };
        const inputRequests = {};
        if (c.sampling) inputRequests.question = sample("Capital of France?");
        else if (c.elicitation)
          inputRequests.name = elicit("Your name?", { name: { type: "string" } });
        else if (c.roots) inputRequests.roots = roots;
        else
          throw new McpError(-32021, "this tool needs sampling, elicitation or roots", {
            requiredCapabilities: { sampling: {} },
          });
        return inputRequired(ctx, { inputRequests });
      },
    },
  };

  const prompts = {
    test_simple_prompt: {
      description: "A simple prompt",
      run: () => [{ role: "user", content: text("This is a simple prompt for testing.") }],
    },
    test_prompt_with_arguments: {
      description: "A prompt with arguments",
      arguments: [
        { name: "arg1", description: "First argument", required: true },
        { name: "arg2", description: "Second argument", required: true },
      ],
      run: (args) => [
        {
          role: "user",
          content: text(`Prompt with arguments: arg1='${args.arg1}', arg2='${args.arg2}'`),
        },
      ],
    },
    test_prompt_with_embedded_resource: {
      description: "A prompt with a resource",
      arguments: [{ name: "resourceUri", description: "The resource", required: true }],
      run: (args) => [
        {
          role: "user",
          content: {
            type: "resource",
            resource: {
              uri: args.resourceUri,
              mimeType: "text/plain",
              text: "Embedded resource content for testing.",
            },
          },
        },
        { role: "user", content: text("Please process the embedded resource above.") },
      ],
    },
    test_prompt_with_image: {
      description: "A prompt with an image",
      run: () => [
        { role: "user", content: { type: "image", data: PNG_1x1, mimeType: "image/png" } },
        { role: "user", content: text("Please analyze the image above.") },
      ],
    },
  };

  const cache = { ttlMs: 60_000, cacheScope: "public" };
  const staticResources = {
    "test://static-text": {
      name: "static-text",
      mimeType: "text/plain",
      text: "This is the content of the static text resource.",
    },
    "test://static-binary": { name: "static-binary", mimeType: "image/png", blob: PNG_1x1 },
  };

  const handlers = {
    "tools/list": () => ({
      tools: Object.entries(tools).map(([name, t]) => ({
        name,
        description: t.description,
        inputSchema: t.inputSchema ?? { type: "object", properties: {} },
      })),
      ...cache,
    }),
    "tools/call": async (params, ctx) => {
      const tool = tools[params.name];
      if (!tool) throw new McpError(-32602, `Unknown tool: ${params.name}`);
      return tool.run(params.arguments ?? {}, ctx);
    },
    "prompts/list": () => ({
      prompts: [
        ...Object.entries(prompts).map(([name, p]) => ({
          name,
          description: p.description,
          ...(p.arguments ? { arguments: p.arguments } : {}),
        })),
        { name: "test_input_required_result_prompt", description: "Asks for context first" },
      ],
      ...cache,
    }),
    "prompts/get": (params, ctx) => {
      if (params.name === "test_input_required_result_prompt") {
        const answer = ctx.inputResponse("user_context", "elicitation/create");
        if (!answer)
          return inputRequired(ctx, {
            inputRequests: {
              user_context: elicit("Some context?", { context: { type: "string" } }),
            },
          });
        return {
          messages: [{ role: "user", content: text(`Context: ${answer.content?.context ?? ""}`) }],
        };
      }
      const prompt = prompts[params.name];
      if (!prompt) throw new McpError(-32602, `Unknown prompt: ${params.name}`);
      return { messages: prompt.run(params.arguments ?? {}) };
    },
    "resources/list": () => ({
      resources: Object.entries(staticResources).map(([uri, r]) => ({
        uri,
        name: r.name,
        mimeType: r.mimeType,
      })),
      ...cache,
    }),
    "resources/templates/list": () => ({
      resourceTemplates: [
        {
          uriTemplate: "test://template/{id}/data",
          name: "template",
          mimeType: "application/json",
        },
      ],
      ...cache,
    }),
    "resources/read": (params) => {
      const fixed = staticResources[params.uri];
      if (fixed)
        return {
          contents: [
            {
              uri: params.uri,
              mimeType: fixed.mimeType,
              ...(fixed.text ? { text: fixed.text } : { blob: fixed.blob }),
            },
          ],
          ...cache,
        };
      const match = /^test:\/\/template\/([^/]+)\/data$/.exec(params.uri);
      if (match) {
        const body = JSON.stringify({
          id: match[1],
          templateTest: true,
          data: `Data for ID: ${match[1]}`,
        });
        return {
          contents: [{ uri: params.uri, mimeType: "application/json", text: body }],
          ...cache,
        };
      }
      throw new McpError(-32602, `Resource not found: ${params.uri}`, { uri: params.uri });
    },
    "completion/complete": (params) => ({
      completion: {
        values: params.argument?.value ? [`${params.argument.value}-completion`] : [],
        hasMore: false,
      },
    }),
  };

  const dispatcher = d.createServerDispatcher(handlers, {
    serverInfo: { name: "mcp-gen-conformance-fixture", version },
    instructions: "The conformance fixture server of mcp-gen.",
    onError: options.onError ?? (() => undefined),
    extensions: [tasks],
  });
  if (options.host === "node") return serveHttp(dispatcher, { port: options.port ?? 0 });
  return serveFetch(createFetchHandler(dispatcher), options.port ?? 0);
}

/** A fetch handler on node:http (127.0.0.1), through Hono's maintained node adapter. */
async function serveFetch(fetch, port) {
  const { createAdaptorServer } = await import("@hono/node-server");
  const server = createAdaptorServer({ fetch });
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", resolve);
  });
  return {
    url: `http://127.0.0.1:${server.address().port}/mcp`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
