import { comment } from "./view.js";
import type { GeneratedFile } from "../../print/generated-file.js";

/**
 * The tools table of src/handlers.ts (`const tools = defineTools(...)`, inside createHandlers):
 * add, greet (input_required rounds) and, in `--auth` projects, whoami.
 */
export function writeTools(w: GeneratedFile, auth: boolean): void {
  comment(w, [
    "The tools, one table serving both tools/list and tools/call: a new tool is one more entry.",
    "defineTool types each `call` from its tool's schemas: the arguments are of the type the",
    "inputSchema describes, and a structuredContent that does not fit the outputSchema is a",
    "compile error (a schema library's schema works too: zod, Valibot, ArkType; see the docs).",
    "Before a tool's `call` runs, its arguments are checked against its inputSchema by",
    "`validate` (src/validate.ts): servers MUST validate all tool inputs (server/tools,",
    '"Security Considerations"). Arguments that do not conform are answered as a tool execution',
    "error (isError, naming the problem), which clients show the model so it can correct them;",
    "an unknown tool name is a protocol error (-32602), as is an McpError a `call` throws",
    '(2026-07-28 server/tools, "Error Handling"). A tool with an outputSchema has its',
    "structuredContent checked against it too.",
  ]);
  w.line("const tools = defineTools(");
  w.indented(() => {
    w.line("[");
    w.indented(() => {
      w.line("defineTool({");
      w.indented(() => {
        w.line("tool: {");
        w.indented(() => {
          w.line('name: "add",');
          w.line('description: "Adds two numbers (works with any client).",');
          w.line("inputSchema: {");
          w.indented(() => {
            w.line('type: "object",');
            w.line('properties: { a: { type: "number" }, b: { type: "number" } },');
            w.line('required: ["a", "b"],');
          });
          w.line("},");
          w.line("outputSchema: {");
          w.indented(() => {
            w.line('type: "object",');
            w.line('properties: { sum: { type: "number" } },');
            w.line('required: ["sum"],');
          });
          w.line("},");
        });
        w.line("},");
        w.line("// a and b are numbers: typed so, and checked so before call runs.");
        w.line("call: ({ a, b }) => ({");
        w.indented(() => {
          w.line('content: [{ type: "text", text: String(a + b) }],');
          w.line("structuredContent: { sum: a + b },");
        });
        w.line("}),");
      });
      w.line("}),");
      writeGreet(w);
      if (auth) writeWhoami(w);
    });
    w.line("],");
    w.line("{ validate, list: cache },");
  });
  w.line(");");
}

/** whoami (`--auth` projects): the principal the transport verified. */
function writeWhoami(w: GeneratedFile): void {
  w.line("defineTool({");
  w.indented(() => {
    w.line("tool: {");
    w.indented(() => {
      w.line('name: "whoami",');
      w.line("description:");
      w.indented(() => {
        w.line(
          '"Tells who the access token speaks for (needs the extra scope mcp:profile, see src/auth.ts).",',
        );
      });
      w.line('inputSchema: { type: "object", properties: {} },');
    });
    w.line("},");
    w.line("// The verified principal (issuer and subject of the token); none over stdio.");
    w.line("call: (_args, ctx) => ({");
    w.indented(() => {
      w.line('content: [{ type: "text", text: ctx.principal ?? "nobody (no token)" }],');
    });
    w.line("}),");
  });
  w.line("}),");
}

/** greet: a tool of two rounds, asking for a name (input_required) with sealed request state. */
function writeGreet(w: GeneratedFile): void {
  w.line("defineTool({");
  w.indented(() => {
    w.line("tool: {");
    w.indented(() => {
      w.line('name: "greet",');
      w.line(
        'description: "Greets the user by name, asking for it first (a multi round-trip tool).",',
      );
      w.line('inputSchema: { type: "object", properties: {} },');
    });
    w.line("},");
    comment(w, [
      "Round one asks the client for the user's name and hands it sealed state saying so;",
      "the retry carries the answer and that state back, possibly to another instance (which",
      "opens it only with the same secret). A client that cannot elicit (no elicitation",
      "capability) gets a plain greeting instead.",
    ]);
    w.line("call: async (_args, ctx) => {");
    w.indented(() => {
      w.line("if (!ctx.clientCapabilities.elicitation)");
      w.indented(() => {
        w.line('return { content: [{ type: "text", text: "Hello, whoever you are!" }] };');
      });
      comment(w, [
        "Refuses (invalid params) state that was tampered with, expired, sealed for another",
        "request, or not of greetState's shape; what it opens is typed by greetState.",
      ]);
      w.line("const state = await openStateFor(ctx, {");
      w.indented(() => {
        w.line("secret: stateSecret,");
        w.line("schema: greetState,");
        w.line("validate,");
      });
      w.line("});");
      w.line(
        "// An accepted answer that does not fit the form (no name, not a string) is refused.",
      );
      w.line('const answer = ctx.inputResponse("name", "elicitation/create", askName);');
      w.line('if (answer && state?.asked === "name") {');
      w.indented(() => {
        w.line('const name = answer.action === "accept" ? answer.content?.["name"] : undefined;');
        w.line(
          'const text = typeof name === "string" ? `Hello, ${name}!` : "Hello, whoever you are!";',
        );
        w.line('return { content: [{ type: "text", text }] };');
      });
      w.line("}");
      w.line("return inputRequired(ctx, {");
      w.indented(() => {
        w.line("inputRequests: { name: askName },");
        w.line("requestState: await sealStateFor(");
        w.indented(() => {
          w.line("ctx,");
          w.line('{ asked: "name" },');
          w.line("{ secret: stateSecret, schema: greetState },");
        });
        w.line("),");
      });
      w.line("});");
    });
    w.line("},");
  });
  w.line("}),");
}
