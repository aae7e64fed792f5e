import type { LoadedRevision } from "../../schema/index.js";
import { runtimeFacts } from "../../schema/runtime-protocol.js";
import type { EmittedFile } from "./plugin.js";
import { GeneratedFile } from "../print/generated-file.js";
import { lineCommentText, objectKey, quote } from "../print/printer.js";
import { receivingSides, serverOptionsOf } from "./dispatcher-plan.js";

// handlers.ts: the user's handlers, started for them. Written once and never overwritten, so
// it must compile as it is (placeholders, TODO values) and name what to fill in.

/** handlers.ts: a skeleton of every handler, written once (the user's from then on). */
export function handlersFile(loaded: LoadedRevision): EmittedFile {
  const facts = runtimeFacts(loaded);
  const builtIn = [facts.wellKnown.ping, facts.wellKnown.discover].filter(
    (m): m is string => m !== null,
  );
  const sides = receivingSides(loaded);
  const w = new GeneratedFile("handlers.ts");
  w.import("./dispatcher.js", "notImplemented");
  for (const s of sides) {
    w.import("./dispatcher.js", `create${s.name}Dispatcher`);
    w.import("./dispatcher.js", s.handlers, true);
  }
  w.line(
    `// Your handlers. mcp-gen wrote this skeleton once, for MCP schema ${lineCommentText(loaded.revision.name)}, and never`,
  );
  w.line(
    "// overwrites it: replace `notImplemented` with `async (params, ctx) => ...` (the TODO above",
  );
  w.line("// each names the types) for each method you serve. A method left as notImplemented (or");
  w.line('// deleted) is answered "method not found", and its capability is not advertised.');
  for (const s of sides) {
    w.line();
    w.block(
      `export const ${s.side}Handlers: ${s.handlers} = {`,
      () => {
        for (const m of builtIn)
          w.line(
            `// ${lineCommentText(m)}: answered by the dispatcher; add a handler to answer it yourself.`,
          );
        for (const m of s.requests.filter((r) => !builtIn.includes(r.method))) {
          w.line(
            `// TODO: ${lineCommentText(m.method)}: (params${m.params ? `: ${lineCommentText(m.params)}` : ""}, ctx) => ${lineCommentText(m.result ?? "result")}`,
          );
          w.line(`${objectKey(m.method)}: notImplemented,`);
        }
      },
      "};",
    );
    w.line();
    const required =
      s.direction === "client->server"
        ? serverOptionsOf(loaded).members.filter((m) => m.required)
        : [];
    if (required.length === 0) {
      w.line(`export const ${s.side}Dispatcher = create${s.name}Dispatcher(${s.side}Handlers);`);
      continue;
    }
    // Values the skeleton cannot know: TODOs that compile, as notImplemented does for handlers.
    w.import("./dispatcher.js", "ServerDispatcherOptions", true);
    w.line(
      `// TODO: what the dispatcher cannot fill in server/discover (${lineCommentText(required.map((m) => m.name).join(", "))});`,
    );
    w.line("// until it is given, server/discover answers an internal error.");
    w.block(
      `export const ${s.side}Dispatcher = create${s.name}Dispatcher(${s.side}Handlers, {`,
      () => {
        for (const m of required)
          w.line(`${m.name}: {} as ServerDispatcherOptions[${quote(m.name)}],`);
      },
      "});",
    );
  }
  // The server's methods the dispatcher routes to a handler: one the user's kept copy lacks
  // after a spec bump is answered "method not found" without a compile error, so generate says so.
  const server = sides.find((s) => s.direction === "client->server");
  const handlerMethods = (server?.requests ?? [])
    .map((m) => m.method)
    .filter((m) => !builtIn.includes(m));
  // The user's file from the start: no header.
  return w.emit("", { kind: "scaffold", handlerMethods });
}
