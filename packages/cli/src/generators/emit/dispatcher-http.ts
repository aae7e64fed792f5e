import type { EmittedFile } from "./plugin.js";
import { CodeWriter, str } from "../print/printer.js";
import { SCHEMA_FREE_HEADER } from "./headers.js";
import type { RuntimeImports } from "./runtime.js";

// http-server.ts: Streamable HTTP for a stateless revision, over the runtime's fetch handler
// and node:http host.

/** The same for every schema (the revision reaches it through protocol.ts): SCHEMA_FREE_HEADER. */
export function httpServerFile(runtime: RuntimeImports): EmittedFile {
  const w = new CodeWriter();
  w.import("./protocol.js", "PROTOCOL");
  w.import(runtime.from("fetch"), "* as web");
  w.import(runtime.from("node/http"), "* as http");
  w.line("// Streamable HTTP for this revision: a web-standard fetch handler (Workers, Deno, Bun,");
  w.line("// Next.js, Hono) and the node:http host of the same core (Node.js, Express, Fastify).");
  w.line();
  w.list(
    "export type {",
    ["CorsOptions", "FetchHandler", "FetchHandlerOptions", "MessageHandler"],
    `} from ${str(runtime.from("fetch"))};`,
    true,
  );
  w.list(
    "export type {",
    ["HttpHandlerOptions", "NodeHttpHandler", "ServeHttpOptions"],
    `} from ${str(runtime.from("node/http"))};`,
    true,
  );
  w.list(
    "export {",
    ["InvalidTokenError", "type Principal", "type ResourceServerOptions"],
    `} from ${str(runtime.from("auth"))};`,
    true,
  );
  w.line();
  w.doc(
    "A fetch handler, `(request: Request) => Promise<Response>`, serving MCP at `options.path` (default /mcp).",
  );
  w.list(
    "export function createFetchHandler(",
    ["dispatcher: web.MessageHandler", "options: web.FetchHandlerOptions = {}"],
    "): web.FetchHandler {",
  );
  w.indented(() => w.line("return web.createFetchHandler(PROTOCOL, dispatcher, options);"));
  w.line("}");
  w.line();
  w.doc(
    "A node:http request listener `(req, res, parsedBody?)` serving MCP at `options.path` (default /mcp).",
  );
  w.list(
    "export function createHttpHandler(",
    ["dispatcher: http.MessageHandler", "options: http.HttpHandlerOptions = {}"],
    "): http.NodeHttpHandler {",
  );
  w.indented(() => w.line("return http.createHttpHandler(PROTOCOL, dispatcher, options);"));
  w.line("}");
  w.line();
  w.doc(
    "Starts an HTTP server for `dispatcher` (127.0.0.1 and a free port unless told otherwise); resolves once it listens.",
  );
  w.block(
    "export function serveHttp(dispatcher: http.MessageHandler, options: http.ServeHttpOptions = {}) {",
    () => w.line("return http.serveHttp(PROTOCOL, dispatcher, options);"),
  );
  return {
    path: "http-server.ts",
    kind: "generated",
    code: w.toString(SCHEMA_FREE_HEADER),
    nodeOnly: true,
    preformatted: w.exact,
  };
}
