// Several instances of one server behind a load balancer, legacy sessions shared in Redis:
// any instance serves a session any other opened, and a client's answer or cancellation
// reaching one instance for another crosses over Redis pub/sub. Needs the `redis` package
// (node-redis). connectRedis() makes the client with the runtime's failure policy: it
// reconnects after a Redis restart, refuses commands while disconnected (so requests fail
// with 503 at once instead of waiting), and reports each outage once.
import { createServer } from "node:http";
import { connectRedis, RedisMessageBus, RedisSessionStore } from "@mcp-gen/runtime/redis";
import { createHttpHandler } from "./mcp/http-server.js";
import { dispatcher } from "./server.js";

const port = Number(process.env["PORT"] ?? 3000);

async function main() {
  // #region recipe
  const url = process.env["REDIS_URL"] ?? "redis://127.0.0.1:6379";
  const redis = await connectRedis({
    url,
    // Once per outage, not per retry; the bus reports its subscriber's outages likewise.
    onError: (error) => console.error(error.message),
  });
  const handler = createHttpHandler(dispatcher, {
    // Every instance: the same Redis, the same prefix (the default), the same bounds.
    sessionStore: new RedisSessionStore({ client: redis, maxSessionsPerPrincipal: 20 }),
    // The client's answer to an elicitation another instance sent, and its cancellation of a
    // call running on another instance, go there: no sticky routing needed.
    messageBus: new RedisMessageBus({
      client: redis,
      onError: (error) => console.error(error.message),
    }),
    // The name the balancer forwards as Host.
    allowedHosts: ["mcp.example.com"],
  });
  const server = createServer((req, res) => void handler(req, res));
  // #endregion recipe
  server.listen(port, "127.0.0.1", () => {
    const { port } = server.address() as { port: number };
    console.log(`MCP server listening on http://127.0.0.1:${port}/mcp`);
  });
}

void main();
