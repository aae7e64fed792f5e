// tools/call dispatch throughput, in one process with interleaved rounds and the same requests:
// mcp-gen's generated dispatcher (handle, and handleText with the JSON parse) beside the v2
// TypeScript SDK 2.4.0's McpServer, driven at the JSON-RPC level over its InMemoryTransport
// (no high-level Client: the bench plays the client by sending raw messages and matching ids).
import { spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { InMemoryTransport, McpServer } from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import * as z from "zod";
import { ROOT, SPEC, median, transpileDir, workDir } from "./common.mjs";

const REVISION = "2026-07-28";
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const TIME_PER_SAMPLE_MS = Number(process.env.BENCH_SAMPLE_MS ?? 150);
const BATCH = 100;
// Both servers stamp the same identity into result _meta, so their replies carry the same fields.
const SERVER_INFO = { name: "bench", version: "1.0.0" };

/** A fresh request per call (new id, new objects), so neither side can cache by identity. */
const request = (id) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: {
    name: "echo",
    arguments: { text: "hi" },
    _meta: {
      "io.modelcontextprotocol/protocolVersion": REVISION,
      "io.modelcontextprotocol/clientCapabilities": {},
    },
  },
});

async function loadGenerated(work) {
  const out = join(work, "mcp-gen");
  const r = spawnSync(
    process.execPath,
    [
      join(ROOT, "packages/cli/dist/cli/main.js"),
      "generate",
      "--spec",
      SPEC,
      "--revision",
      REVISION,
      "--out",
      out,
    ],
    { encoding: "utf8" },
  );
  if (r.status !== 0) throw new Error(r.stderr);
  const js = transpileDir(out, join(work, "mcp-gen-js"));
  return {
    dispatcher: await import(join(js, "dispatcher.js")),
    validators: await import(join(js, "validators.js")),
  };
}

function echoServer() {
  const server = new McpServer(SERVER_INFO);
  server.registerTool(
    "echo",
    { description: "Echoes its text", inputSchema: z.object({ text: z.string() }) },
    ({ text }) => ({
      content: [{ type: "text", text }],
    }),
  );
  return server;
}

/** The client end of a linked pair as id -> Promise<response>; responses are matched by id. */
async function rawClient(clientEnd, errors) {
  const pending = new Map();
  clientEnd.onmessage = (message) => {
    const resolve = pending.get(message.id);
    if (!resolve)
      return void errors.push(new Error(`unmatched message ${JSON.stringify(message)}`));
    pending.delete(message.id);
    resolve(message);
  };
  await clientEnd.start();
  return (id) =>
    new Promise((resolve, reject) => {
      pending.set(id, resolve);
      clientEnd.send(request(id)).catch(reject);
    });
}

/**
 * Two ways to put McpServer on an InMemoryTransport. The SDK's era is instance state: a
 * hand-connected instance serves the 2025 wire (initialize can only bind a 2025 version), and
 * only a serving entry pins it to 2026-07-28. serveStdio is that entry for stream transports
 * and takes any Transport, so it runs over the in-memory pair; neither path needs initialize.
 */
async function loadSdk() {
  const errors = [];
  const [modernClient, modernServer] = InMemoryTransport.createLinkedPair();
  const entry = serveStdio(echoServer, {
    transport: modernServer,
    legacy: "reject",
    onerror: (e) => errors.push(e),
  });
  const modern = await rawClient(modernClient, errors);

  const [plainClient, plainServer] = InMemoryTransport.createLinkedPair();
  const plain = echoServer();
  plain.server.onerror = (e) => errors.push(e);
  await plain.connect(plainServer);
  const connected = await rawClient(plainClient, errors);

  return { modern, connected, errors, close: () => Promise.all([entry.close(), plain.close()]) };
}

// ---- measuring -------------------------------------------------------------------------

let nextId = 1;
const SEQUENTIAL_CHUNK = 10; // awaits between clock reads, so reading the clock stays noise

/** Requests per second of op, one in flight (batch 1) or `batch` at once via Promise.all. */
async function sample(op, batch) {
  let requests = 0;
  let failed = 0;
  const start = performance.now();
  let now = start;
  while (now - start < TIME_PER_SAMPLE_MS) {
    if (batch === 1) {
      for (let i = 0; i < SEQUENTIAL_CHUNK; i++) if (!(await op(nextId++))?.result) failed++;
      requests += SEQUENTIAL_CHUNK;
    } else {
      const replies = await Promise.all(Array.from({ length: batch }, () => op(nextId++)));
      for (const r of replies) if (!r?.result) failed++;
      requests += batch;
    }
    now = performance.now();
  }
  if (failed > 0) throw new Error(`${failed} of ${requests} requests got no result while timed`);
  return (requests * 1000) / (now - start);
}

export async function benchDispatch() {
  const work = workDir("mcp-gen-bench-dispatch-");
  let sdk;
  try {
    const ours = await loadGenerated(work);
    const dispatcher = ours.dispatcher.createServerDispatcher(
      {
        "tools/call": (params) => ({
          content: [{ type: "text", text: String(params.arguments?.text) }],
        }),
      },
      { serverInfo: SERVER_INFO },
    );
    sdk = await loadSdk();

    const SDK = "SDK McpServer, serveStdio entry";
    const contestants = {
      "mcp-gen handle": (id) => dispatcher.handle(request(id)),
      "mcp-gen handleText (parse incl.)": (id) =>
        dispatcher.handleText(JSON.stringify(request(id))),
      [SDK]: sdk.modern,
      "SDK McpServer.connect": sdk.connected,
    };

    console.log(
      `\ndispatch (tools/call, ${REVISION}), requests/s, median of ${ROUNDS} interleaved rounds; ratio to "${SDK}":`,
    );
    // Sanity: each answers the echo once before being timed; a reply that is not a valid
    // 2026-07-28 tools/call response (by mcp-gen's validators) is marked, not compared.
    const v = ours.validators;
    const notes = {};
    for (const [name, op] of Object.entries(contestants)) {
      const reply = await op(nextId++);
      if (reply?.result?.content?.[0]?.text !== "hi")
        throw new Error(`${name}: ${JSON.stringify(reply)}`);
      const envelope = (v.validateJSONRPCResultResponse(reply).errors ?? []).filter(
        (e) => !e.path.startsWith("/result"),
      );
      const result = (v.validateMethodResult("tools/call", reply.result).errors ?? []).map((e) => ({
        ...e,
        path: `/result${e.path}`,
      }));
      const found = [...envelope, ...result].map((e) => `${e.path} ${e.message}`);
      if (found.length > 0) notes[name] = `not a valid ${REVISION} reply: ${found.join("; ")}`;
      console.log(`  sanity ${name}: ${JSON.stringify(reply)}`);
    }
    if (sdk.errors.length > 0) throw sdk.errors[0];

    const modes = [
      { name: "sequential (one request in flight)", batch: 1 },
      { name: `batch of ${BATCH} concurrent (Promise.all)`, batch: BATCH },
    ];
    const results = new Map();
    // Round -1 is a warm-up (JIT, SDK schema memos) for every contestant, and is not recorded.
    for (let round = -1; round < ROUNDS; round++) {
      for (const mode of modes) {
        for (const [name, op] of Object.entries(contestants)) {
          const key = `${mode.name}\u0000${name}`;
          if (!results.has(key)) results.set(key, []);
          const rps = await sample(op, mode.batch);
          if (round >= 0) results.get(key).push(rps);
        }
      }
    }
    if (sdk.errors.length > 0) throw sdk.errors[0];

    for (const mode of modes) {
      console.log(`  ${mode.name}`);
      const base = median(results.get(`${mode.name}\u0000${SDK}`));
      for (const name of Object.keys(contestants)) {
        const rps = median(results.get(`${mode.name}\u0000${name}`));
        const note = notes[name] ? `  (${notes[name]}: not comparable)` : "";
        console.log(
          `    ${name.padEnd(34)} ${Math.round(rps).toLocaleString("en-US").padStart(12)}  ${(rps / base).toFixed(2).padStart(7)}x${note}`,
        );
      }
    }
    console.log("  goal: >= 5x the SDK's requests per second");
  } finally {
    await sdk?.close();
    rmSync(work, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchDispatch();
