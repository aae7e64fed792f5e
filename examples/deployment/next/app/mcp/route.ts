// Next.js (App Router): a route handler at app/mcp/route.ts exports the fetch handler for
// each method MCP uses (GET and DELETE carry legacy sessions' streams and ends).
import { createFetchHandler } from "../../../mcp/http-server.js";
import { dispatcher } from "../../../server.js";

// #region recipe
const handler = createFetchHandler(dispatcher);
export const dynamic = "force-dynamic";
export { handler as GET, handler as POST, handler as DELETE };
// #endregion recipe
