// serveHttp stopped without resetting the calls it runs: SIGTERM (a rolling restart, `docker
// stop`, Kubernetes ending a pod) drains the replica before the process exits.
import { serveHttp } from "./mcp/http-server.js";
import { dispatcher } from "./server.js";

const port = Number(process.env["PORT"] ?? 3000);
// #region recipe
const server = await serveHttp(dispatcher, { port, drainTimeoutMs: 10_000 });
console.log(`MCP server listening on ${server.url}`);
process.once("SIGTERM", () => {
  // New requests get 503, GET streams end (their clients resume them on another replica),
  // the calls in flight finish (10 s at most, then their connections close): then exit.
  void server.close().then(() => process.exit(0));
});
// #endregion recipe
