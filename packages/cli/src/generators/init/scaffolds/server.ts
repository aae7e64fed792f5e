import { GeneratedFile } from "../../print/generated-file.js";
import { comment, type Scaffold } from "./view.js";

/** src/server.ts: the dispatcher both entry points serve, named after the project. */
export const serverScaffold: Scaffold = {
  path: "src/server.ts",
  print: ({ name }) => {
    const w = new GeneratedFile("src/server.ts");
    w.import("./mcp/dispatcher.js", "createServerDispatcher");
    w.import("./mcp/dispatcher.js", "StateSecret", true);
    w.import("./handlers.js", "createHandlers");
    w.doc(
      "The dispatcher both entry points serve; `stateSecret` seals input_required state (src/request-state.ts).",
    );
    w.block("export function createDispatcher(stateSecret: StateSecret) {", () => {
      w.block(
        "return createServerDispatcher(createHandlers({ stateSecret }), {",
        () => {
          w.value("serverInfo: ", { name, version: "0.1.0" }, ",");
          w.line("onError: (error, { method }) => console.error(`${method} failed:`, error),");
          comment(w, [
            "Once a handler calls ctx.log, declare it: a server that logs MUST (server/utilities/logging),",
            "and clients (the Inspector) ask for log messages only from one that does.",
            "capabilities: { logging: {} },",
          ]);
        },
        "});",
      );
    });
    return w.emit("", { kind: "scaffold" });
  },
};
