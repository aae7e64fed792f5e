import { GeneratedFile } from "../../print/generated-file.js";
import { comment, type Scaffold } from "./view.js";

/** src/http.ts: the Streamable HTTP entry point (`npm start`), behind OAuth with `--auth`. */
export const httpScaffold: Scaffold = {
  path: "src/http.ts",
  print: ({ auth }) => {
    const w = new GeneratedFile("src/http.ts");
    if (auth) w.import("./auth.js", "protectedServingOrExit");
    w.import("./mcp/http-server.js", "serveHttp");
    w.import("./request-state.js", "requestStateSecretsOrExit");
    w.import("./server.js", "createDispatcher");
    w.line("// `npm start`: MCP over Streamable HTTP on 127.0.0.1 (PORT, default 3000).");
    if (auth)
      w.line(
        "// Every request needs an access token from the authorization server (see src/auth.ts).",
      );
    w.importsHere();
    w.line();
    w.doc("Bad settings and a port that cannot be had are one line on stderr and exit status 1.");
    w.block("function exitWith(line: string): never {", () => {
      w.line("console.error(`error: ${line}`);");
      w.line("process.exit(1);");
    });
    w.line();
    w.line('const portText = process.env["PORT"]?.trim() || "3000";');
    w.line("const port = Number(portText);");
    w.line("if (!/^\\d+$/.test(portText) || port > 65535)");
    w.indented(() =>
      w.block(
        "exitWith(",
        () =>
          w.line(
            "`PORT must be a port number from 0 to 65535 (0: any free port), not ${JSON.stringify(portText)}`,",
          ),
        ");",
      ),
    );
    w.line("const dispatcher = createDispatcher(requestStateSecretsOrExit());");
    if (auth) {
      w.line("const serving = await protectedServingOrExit(port);");
      w.line("const server = await serveHttp(dispatcher, { port, ...serving }).catch(");
      w.indented(() => {
        w.line("(error: NodeJS.ErrnoException) =>");
        w.indented(() => exitOnListenError(w));
      });
    } else {
      w.line(
        "const server = await serveHttp(dispatcher, { port }).catch((error: NodeJS.ErrnoException) =>",
      );
      w.indented(() => exitOnListenError(w));
    }
    w.line(");");
    w.line("console.log(`MCP server listening on ${server.url}`);");
    comment(w, [
      "SIGTERM (a rolling restart, `docker stop`) and Ctrl-C drain the server: new requests get",
      "503, GET streams end (clients resume them elsewhere), and the calls in flight finish, for",
      "10 s at most (serveHttp's drainTimeoutMs); then it exits. A second signal exits at once.",
    ]);
    w.line("let stopping = false;");
    w.block("function stop(): void {", () => {
      w.line("if (stopping) process.exit(1);");
      w.line("stopping = true;");
      w.line('console.log("shutting down: finishing the calls in flight");');
      w.block(
        "void server.close().then(",
        () => {
          w.line("() => process.exit(0),");
          w.line("(error: Error) => exitWith(`closing the server: ${error.message}`),");
        },
        ");",
      );
    });
    w.line('process.on("SIGINT", stop);');
    w.line('process.on("SIGTERM", stop);');
    return w.emit("", { kind: "scaffold" });
  },
};

/** The one line a port that cannot be had is: in use, or another error. */
function exitOnListenError(w: GeneratedFile): void {
  w.block(
    "exitWith(",
    () => {
      w.line('error.code === "EADDRINUSE"');
      w.indented(() => {
        w.line(
          "? `port ${port} is in use on 127.0.0.1: stop what holds it, or set PORT to another port`",
        );
        w.line(": `cannot listen on 127.0.0.1:${port}: ${error.message}`,");
      });
    },
    "),",
  );
}
