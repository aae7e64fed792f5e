// The clients of the client benchmark (tooling/bench/client.mjs), each in its own process so that its
// CPU time is its own: `node tooling/bench/client-peers.mjs <kind> <url> [dir] [--once]`. Every kind
// calls the `echo` tool of the server at <url> (tooling/bench/http-servers.mjs) and checks each reply
// (the text it sent, unique per call, comes back).
//
//   mcp-gen   the generated dual-era client (dir: the transpiled output of mcp-gen generate
//             for 2026-07-28 + 2025-11-25 .. 2025-03-26), default options: it probes the
//             server's era once (server/discover) and speaks 2026-07-28 to a modern server.
//   mcp-gen-fetch  the same with the transport option `fetch: globalThis.fetch` (Node's
//             built-in fetch, undici, instead of the default node:http on Node).
//   v2        the v2 SDK client 2.4.0 as its docs connect it (default negotiation: initialize,
//             2025-11-25).
//   v2-auto   the same with versionNegotiation { mode: "auto" } (2026-07-28 where offered).
//   v1        the v1 SDK client 1.32.2 (initialize, 2025-11-25).
//
// Under child_process.fork it connects, sends { ready }, then answers { run: { lanes, ms } }
// with { calls, seconds, cpuMicros }: `lanes` calls in flight, each lane calling again as soon
// as its call returns, for `ms`. With --once (cold start) it makes one call, writes
// "first-call <ms since the process started>" to stdout and exits.
import { join } from "node:path";

const CLIENT_INFO = { name: "bench-client", version: "1.0.0" };

// Each kind imports only its own modules, so that a cold start loads what that client needs.
async function mcpGen(url, dir, transportOptions = {}) {
  const [{ createClient }, { createHttpTransport }] = await Promise.all([
    import(join(dir, "client.js")),
    import(join(dir, "http-client.js")),
  ]);
  const transport = createHttpTransport({ url, ...transportOptions });
  const client = createClient({ transport, clientInfo: CLIENT_INFO });
  return { call: (args) => client.callTool(args), close: () => client.close() };
}

async function v2(url, options) {
  const { Client, StreamableHTTPClientTransport } = await import("@modelcontextprotocol/client");
  const client = new Client(CLIENT_INFO, options);
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return { call: (args) => client.callTool(args), close: () => client.close() };
}

async function v1(url) {
  const [{ Client }, { StreamableHTTPClientTransport }] = await Promise.all([
    import("@modelcontextprotocol/sdk/client/index.js"),
    import("@modelcontextprotocol/sdk/client/streamableHttp.js"),
  ]);
  const client = new Client(CLIENT_INFO);
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return { call: (args) => client.callTool(args), close: () => client.close() };
}

const clients = {
  "mcp-gen": (url, dir) => mcpGen(url, dir),
  "mcp-gen-fetch": (url, dir) => mcpGen(url, dir, { fetch: globalThis.fetch }),
  v2: (url) => v2(url),
  "v2-auto": (url) => v2(url, { versionNegotiation: { mode: "auto" } }),
  v1,
};

const [kind, url, dir, flag] = process.argv.slice(2);
if (!clients[kind] || !url) {
  console.error(`usage: client-peers.mjs ${Object.keys(clients).join("|")} <url> [dir] [--once]`);
  process.exit(2);
}

let nextText = 0;
/** One checked call: the echoed text is this call's own. */
async function checkedCall(client) {
  const text = `t${nextText++}`;
  const result = await client.call({ name: "echo", arguments: { text } });
  if (result?.content?.[0]?.text !== text)
    throw new Error(`${kind}: wrong reply ${JSON.stringify(result).slice(0, 300)}`);
}

const client = await clients[kind](url, dir);
if (flag === "--once") {
  await checkedCall(client);
  process.stdout.write(`first-call ${performance.now().toFixed(1)}\n`);
  await client.close();
  process.exit(0);
}

async function run({ lanes, ms }) {
  const before = process.cpuUsage();
  const started = performance.now();
  const deadline = started + ms;
  let calls = 0;
  await Promise.all(
    Array.from({ length: lanes }, async () => {
      while (performance.now() < deadline) {
        await checkedCall(client);
        calls++;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const { user, system } = process.cpuUsage(before);
  return { calls, seconds, cpuMicros: user + system };
}

process.on("message", async (message) => {
  if (message === "exit") {
    await client.close();
    process.exit(0);
  }
  try {
    process.send({ result: await run(message.run) });
  } catch (error) {
    process.send({ error: String(error?.stack ?? error) });
  }
});
process.send({ ready: true });
