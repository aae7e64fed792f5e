import { GeneratedFile } from "../../print/generated-file.js";
import { objectKey, quote } from "../../print/printer.js";
import { writeTools } from "./handlers-tools.js";
import { comment, type Scaffold } from "./view.js";

/**
 * src/handlers.ts: the server's tools, prompts and resources, the user's from the start
 * (generate never rewrites it), and an entry set to notImplemented for each method the
 * dispatcher routes that it does not serve.
 */
export const handlersScaffold: Scaffold = {
  path: "src/handlers.ts",
  print: ({ name, auth, unserved }) => {
    const w = new GeneratedFile("src/handlers.ts");
    for (const value of [
      "definePrompts",
      "defineResources",
      "defineTool",
      "defineTools",
      "inputRequired",
      ...(unserved.length > 0 ? ["notImplemented"] : []),
      "openStateFor",
      "prompt",
      "resource",
      "resourceTemplate",
      "sealStateFor",
    ])
      w.import("./mcp/dispatcher.js", value);
    w.import("./mcp/dispatcher.js", "ServerHandlers", true);
    w.import("./mcp/dispatcher.js", "StateSecret", true);
    w.import("./mcp/types.js", "InputRequest", true);
    w.import("./validate.js", "validate");
    comment(w, [
      "Your server's handlers: edit freely. mcp-gen created this file and never touches it;",
      "`npm run generate` rewrites only the generated code in src/mcp/ (its files' first line says",
      "so) and notes here any request method a newer spec adds that this file does not name.",
    ]);
    w.line();
    w.importsHere();
    w.line();
    comment(w, [
      "Every handler here serves every client: modern ones (2026-07-28) call them per request;",
      "legacy ones (initialize-based) reach them through their session, and an input_required",
      "answer is sent to them as a server-initiated request by the generated runtime.",
    ]);
    w.line();
    w.line('const cache = { ttlMs: 0, cacheScope: "private" } as const;');
    w.line();
    w.line(
      "/** greet's question. Its answer is read with it, so the answer is checked against this form. */",
    );
    w.line("const askName = {");
    w.indented(() => {
      w.line('method: "elicitation/create",');
      w.line("params: {");
      w.indented(() => {
        w.line('mode: "form",');
        w.line('message: "What is your name?",');
        w.line("requestedSchema: {");
        w.indented(() => {
          w.line('type: "object",');
          w.line('properties: { name: { type: "string", minLength: 1, maxLength: 100 } },');
          w.line('required: ["name"],');
        });
        w.line("},");
      });
      w.line("},");
    });
    w.line("} satisfies InputRequest;");
    w.line();
    w.line(
      "/** What greet seals into its question's requestState, and checks when the answer brings it back. */",
    );
    w.line("const greetState = {");
    w.indented(() => {
      w.line('type: "object",');
      w.line('properties: { asked: { const: "name" } },');
      w.line('required: ["asked"],');
    });
    w.line("} as const;");
    w.line();
    w.line(
      "/** What the handlers need from the server: the secret(s) sealing input_required state. */",
    );
    w.line("export interface HandlerOptions {");
    w.indented(() => {
      w.line("stateSecret: StateSecret;");
    });
    w.line("}");
    w.line();
    w.line("export function createHandlers({ stateSecret }: HandlerOptions): ServerHandlers {");
    w.indented(() => {
      writeTools(w, auth);
      w.line();
      writePromptsAndResources(w, name);
      w.line();
      w.line("return {");
      w.indented(() => {
        w.line("...tools,");
        w.line("...prompts.handlers,");
        w.line("...resources.handlers,");
        writeUnserved(w, unserved);
      });
      w.line("};");
    });
    w.line("}");
    return w.emit("", { kind: "scaffold" });
  },
};

/** The welcome resource's contents, naming the project (as a string literal, escaped). */
function writeWelcome(w: GeneratedFile, name: string): void {
  const text = quote(`Welcome to ${name}.`);
  const one = `contents: [{ uri, mimeType: "text/plain", text: ${text} }],`;
  if (w.fits(one)) {
    w.line(one);
    return;
  }
  w.block(
    "contents: [",
    () =>
      w.block(
        "{",
        () => {
          w.line("uri,");
          w.line('mimeType: "text/plain",');
          w.line(`text: ${text},`);
        },
        "},",
      ),
    "],",
  );
}

/** The entries of the methods handlers.ts does not serve, keyed as the printer writes a key. */
function writeUnserved(w: GeneratedFile, unserved: readonly string[]): void {
  if (unserved.length === 0) return;
  comment(w, [
    'Not served here, so answered "method not found". `mcp-gen generate` reads this file\'s',
    "code and notes each method the server routes that it neither serves nor lists here (as",
    "one a spec bump adds); a comment naming a method does not count.",
  ]);
  for (const method of unserved) w.line(`${objectKey(method)}: notImplemented,`);
}

/** The prompts and resources tables: a haiku prompt, a welcome resource naming the project, a template. */
function writePromptsAndResources(w: GeneratedFile, name: string): void {
  comment(w, [
    "The prompts, one table serving prompts/list and prompts/get: prompt() types `get`'s",
    "arguments from their declarations, and prompts/get refuses (-32602) an unknown prompt, a",
    'required argument left out and an argument not declared (server/prompts, "Error Handling").',
  ]);
  w.line("const prompts = definePrompts(");
  w.indented(() => {
    w.line("[");
    w.indented(() => {
      w.line("prompt({");
      w.indented(() => {
        w.line("prompt: {");
        w.indented(() => {
          w.line('name: "haiku",');
          w.line('description: "Asks for a haiku about a topic",');
          w.line('arguments: [{ name: "topic", required: true }],');
        });
        w.line("},");
        w.line("get: ({ topic }) => ({");
        w.indented(() => {
          w.line("messages: [");
          w.indented(() => {
            w.line(
              '{ role: "user", content: { type: "text", text: `Write a haiku about ${topic}.` } },',
            );
          });
          w.line("],");
        });
        w.line("}),");
      });
      w.line("}),");
    });
    w.line("],");
    w.line("{ list: cache },");
  });
  w.line(");");
  w.line();
  comment(w, [
    "The resources, one table serving resources/list, resources/templates/list and",
    "resources/read: resourceTemplate() types `read`'s variables from the URI template, and a",
    'URI no entry serves is answered -32602 "Resource <uri> not found" (server/resources).',
  ]);
  w.line("const resources = defineResources(");
  w.indented(() => {
    w.line("[");
    w.indented(() => {
      w.line("resource({");
      w.indented(() => {
        w.line('resource: { uri: "memo://welcome", name: "welcome", mimeType: "text/plain" },');
        w.line("read: (uri) => ({");
        w.indented(() => {
          writeWelcome(w, name);
          w.line("...cache,");
        });
        w.line("}),");
      });
      w.line("}),");
      w.line("resourceTemplate({");
      w.indented(() => {
        w.line(
          'template: { uriTemplate: "memo://notes/{name}", name: "note", mimeType: "text/plain" },',
        );
        w.line("read: (uri, { name }) => ({");
        w.indented(() => {
          w.line('contents: [{ uri, mimeType: "text/plain", text: `A note called ${name}.` }],');
          w.line("...cache,");
        });
        w.line("}),");
      });
      w.line("}),");
    });
    w.line("],");
    w.line("{ list: cache },");
  });
  w.line(");");
}
