import { GeneratedFile } from "../../print/generated-file.js";
import type { Scaffold } from "./view.js";

/** src/stdio.ts: the stdio entry point (`npm run start:stdio`). */
export const stdioScaffold: Scaffold = {
  path: "src/stdio.ts",
  print: () => {
    const w = new GeneratedFile("src/stdio.ts");
    w.import("./mcp/stdio.js", "serveStdio");
    w.import("./request-state.js", "requestStateSecretsOrExit");
    w.import("./server.js", "createDispatcher");
    w.line(
      "// `npm run start:stdio`: MCP over stdin/stdout (newline-delimited JSON); notes go to stderr.",
    );
    w.importsHere();
    w.line();
    w.line("serveStdio(createDispatcher(requestStateSecretsOrExit()));");
    return w.emit("", { kind: "scaffold" });
  },
};
