// One replica of the scale benchmark (tooling/bench/scale.mjs), in a child process of its own:
// `node tooling/bench/scale-server.mjs <dir> <memory|redis> [redis-url]`. The generated dual-era
// server (dir) with one `echo` tool; legacy sessions in memory or in Redis. Sends { url } once
// it listens, its CPU time ({ cpu: process.cpuUsage() }) on "cpu", and exits on "exit".
import { join } from "node:path";

const [dir, store, redisUrl] = process.argv.slice(2);
const dispatcher = await import(join(dir, "dispatcher.js"));
const http = await import(join(dir, "http-server.js"));
const d = dispatcher.createServerDispatcher(
  {
    "tools/call": (params) => ({
      content: [{ type: "text", text: String(params.arguments?.text ?? "") }],
    }),
  },
  { serverInfo: { name: "bench", version: "1.0.0" } },
);
const { connectRedisSessionStore } = await import("@mcp-gen/runtime/redis");
const sessionStore =
  store === "redis"
    ? await connectRedisSessionStore({ url: redisUrl, prefix: "bench:" })
    : undefined;
const served = await http.serveHttp(d, sessionStore ? { sessionStore } : {});
process.send({ url: served.url });
process.on("message", async (message) => {
  if (message === "cpu") process.send({ cpu: process.cpuUsage() });
  if (message !== "exit") return;
  await served.close();
  await sessionStore?.close();
  process.exit(0);
});
