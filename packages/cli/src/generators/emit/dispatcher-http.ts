import type { EmittedFile } from "./plugin.js";
import { GeneratedFile, member } from "../print/generated-file.js";
import { SCHEMA_FREE_HEADER } from "./headers.js";
import type { RuntimeImports } from "./runtime.js";
import { RT } from "./runtime-symbols.js";

// http-server.ts: Streamable HTTP for a stateless revision, over the runtime's fetch handler
// and node:http host.

/** The same for every schema (the revision reaches it through protocol.ts): SCHEMA_FREE_HEADER. */
export function httpServerFile(runtime: RuntimeImports): EmittedFile {
  const w = new GeneratedFile("http-server.ts", runtime);
  const web = RT.fetch;
  const http = RT["node/http"];
  w.import("./protocol.js", "PROTOCOL");
  const webNs = w.useNamespace("fetch", "web");
  const httpNs = w.useNamespace("node/http", "http");
  w.line("// Streamable HTTP for this revision: a web-standard fetch handler (Workers, Deno, Bun,");
  w.line("// Next.js, Hono) and the node:http host of the same core (Node.js, Express, Fastify).");
  w.line();
  w.reexport([web.CorsOptions, web.FetchHandler, web.FetchHandlerOptions, web.MessageHandler]);
  w.reexport([http.HttpHandlerOptions, http.NodeHttpHandler, http.ServeHttpOptions]);
  w.reexport([RT.auth.InvalidTokenError, RT.auth.Principal, RT.auth.ResourceServerOptions]);
  w.line();
  w.doc(
    "A fetch handler, `(request: Request) => Promise<Response>`, serving MCP at `options.path` (default /mcp).",
  );
  w.list(
    "export function createFetchHandler(",
    [
      `dispatcher: ${member(webNs, web.MessageHandler)}`,
      `options: ${member(webNs, web.FetchHandlerOptions)} = {}`,
    ],
    `): ${member(webNs, web.FetchHandler)} {`,
  );
  w.indented(() =>
    w.line(`return ${member(webNs, web.createFetchHandler)}(PROTOCOL, dispatcher, options);`),
  );
  w.line("}");
  w.line();
  w.doc(
    "A node:http request listener `(req, res, parsedBody?)` serving MCP at `options.path` (default /mcp).",
  );
  w.list(
    "export function createHttpHandler(",
    [
      `dispatcher: ${member(httpNs, http.MessageHandler)}`,
      `options: ${member(httpNs, http.HttpHandlerOptions)} = {}`,
    ],
    `): ${member(httpNs, http.NodeHttpHandler)} {`,
  );
  w.indented(() =>
    w.line(`return ${member(httpNs, http.createHttpHandler)}(PROTOCOL, dispatcher, options);`),
  );
  w.line("}");
  w.line();
  w.doc(
    "Starts an HTTP server for `dispatcher` (127.0.0.1 and a free port unless told otherwise); resolves once it listens.",
  );
  const params = `dispatcher: ${member(httpNs, http.MessageHandler)}, options: ${member(httpNs, http.ServeHttpOptions)} = {}`;
  w.block(`export function serveHttp(${params}) {`, () =>
    w.line(`return ${member(httpNs, http.serveHttp)}(PROTOCOL, dispatcher, options);`),
  );
  return w.emit(SCHEMA_FREE_HEADER, { nodeOnly: true });
}
