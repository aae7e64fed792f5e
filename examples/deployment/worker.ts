// Cloudflare Workers: the module's default export answers fetch events. A Worker keeps no
// memory it can rely on between requests, so it serves 2026-07-28 only: generate with
// `--revisions 2026-07-28` (legacy sessions would need a Durable Object to live in).
import { createFetchHandler } from "./mcp/http-server.js";
import { dispatcher } from "./server.js";

// #region recipe
const handler = createFetchHandler(dispatcher, {
  // The Host a deployed Worker answers to (the default admits only localhost).
  allowedHosts: ["localhost", "127.0.0.1", "mcp.example.workers.dev"],
});
export default { fetch: (request: Request) => handler(request) };
// #endregion recipe
