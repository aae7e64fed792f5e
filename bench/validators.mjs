// Validation throughput, in one process with interleaved rounds and the same messages:
// mcp-gen's generated is*/validate*, ajv in the spec's configuration, zod (the v2
// TypeScript SDK's schemas) where comparable, and typia (9.7.2's `typia generate`).
import { spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import ts from "typescript";
import { ROOT, SPEC, median, transpileDir, workDir } from "./common.mjs";

const REVISION = "2026-07-28";
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const TIME_PER_SAMPLE_MS = Number(process.env.BENCH_SAMPLE_MS ?? 150);

async function loadGenerated(work) {
  const out = join(work, "mcp-gen");
  const r = spawnSync(process.execPath, [join(ROOT, "dist/cli/main.js"), "generate", "--spec", SPEC, "--revision", REVISION, "--out", out], { encoding: "utf8" });
  if (r.status !== 0) throw new Error(r.stderr);
  return import(join(transpileDir(out, join(work, "mcp-gen-js")), "validators.js"));
}

function loadAjv() {
  const json = JSON.parse(readFileSync(join(SPEC, "schema", REVISION, "schema.json"), "utf8"));
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema({ ...json, $id: "mcp" });
  return (type) => ajv.getSchema(`mcp#/$defs/${type}`);
}

/** typia generate over the spec's own types; undefined (with the reason) if it cannot run. */
async function loadTypia(types) {
  // Inside the project, so the sources resolve typia and its runtime from node_modules.
  const work = join(ROOT, "bench", `.work-typia-${process.pid}`);
  const src = join(work, "src");
  const gen = join(work, "gen");
  mkdirSync(src, { recursive: true });
  const schemaImport = join(SPEC, "schema", REVISION, "schema.js");
  const lines = [`import typia from "typia";`, `import type * as S from ${JSON.stringify(schemaImport)};`];
  for (const t of types) {
    lines.push(`export const is${t} = typia.createIs<S.${t}>();`, `export const validate${t} = typia.createValidate<S.${t}>();`);
  }
  writeFileSync(join(src, "validators.ts"), lines.join("\n") + "\n");
  writeFileSync(
    join(work, "tsconfig.typia.json"),
    JSON.stringify({ compilerOptions: { strict: true, target: "ES2022", module: "NodeNext", moduleResolution: "NodeNext", skipLibCheck: true }, include: [src] }),
  );
  const r = spawnSync(
    process.execPath,
    [join(ROOT, "node_modules/typia/lib/executable/typia.js"), "generate", "--input", src, "--output", gen, "--project", join(work, "tsconfig.typia.json")],
    { encoding: "utf8", cwd: ROOT },
  );
  if (r.status !== 0) {
    rmSync(work, { recursive: true, force: true });
    return { reason: (r.stderr || r.stdout).trim().split("\n").slice(-3).join(" ") };
  }
  const js = ts.transpileModule(readFileSync(join(gen, "validators.ts"), "utf8"), {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
  }).outputText;
  const file = join(work, "validators.mjs");
  writeFileSync(file, js);
  try {
    return { module: await import(file) };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

async function loadZod() {
  const core = await import("@modelcontextprotocol/core");
  return (name) => core[`${name}Schema`];
}

// ---- workloads -------------------------------------------------------------------------

const meta = { "io.modelcontextprotocol/protocolVersion": REVISION, "io.modelcontextprotocol/clientCapabilities": {} };

function corpus() {
  const dir = join(SPEC, "schema", REVISION, "examples");
  return readdirSync(dir).flatMap((type) =>
    readdirSync(join(dir, type)).map((f) => ({ type, value: JSON.parse(readFileSync(join(dir, type, f), "utf8")) })),
  );
}

function bigToolList() {
  const tools = Array.from({ length: 1000 }, (_, i) => ({
    name: `tool_${i}`,
    title: `Tool number ${i}`,
    description: `Does thing ${i}: reads the input, looks things up and returns a summary of what it found.`,
    inputSchema: {
      type: "object",
      properties: { query: { type: "string", description: "What to look for" }, limit: { type: "integer", minimum: 1 } },
      required: ["query"],
    },
    annotations: { readOnlyHint: i % 2 === 0, openWorldHint: true, title: `Tool ${i}` },
    icons: [{ src: `https://example.com/icons/${i}.png`, mimeType: "image/png", sizes: ["48x48"] }],
    _meta: { "com.example/rank": i },
  }));
  return { jsonrpc: "2.0", id: 1, result: { resultType: "complete", ttlMs: 60000, cacheScope: "public", tools } };
}

const callTool = {
  jsonrpc: "2.0",
  id: 42,
  method: "tools/call",
  params: { name: "get_weather", arguments: { location: "Paris", units: "metric" }, _meta: meta },
};

const clientRequests = [
  { jsonrpc: "2.0", id: 1, method: "server/discover", params: { _meta: meta } },
  { jsonrpc: "2.0", id: 2, method: "tools/list", params: { _meta: meta, cursor: "abc" } },
  callTool,
  { jsonrpc: "2.0", id: 3, method: "resources/list", params: { _meta: meta } },
  { jsonrpc: "2.0", id: 4, method: "resources/read", params: { _meta: meta, uri: "file:///project/README.md" } },
  { jsonrpc: "2.0", id: 5, method: "resources/templates/list", params: { _meta: meta } },
  { jsonrpc: "2.0", id: 6, method: "prompts/list", params: { _meta: meta } },
  { jsonrpc: "2.0", id: 7, method: "prompts/get", params: { _meta: meta, name: "review", arguments: { code: "x = 1" } } },
  { jsonrpc: "2.0", id: 8, method: "completion/complete", params: { _meta: meta, ref: { type: "ref/prompt", name: "review" }, argument: { name: "code", value: "x" } } },
  { jsonrpc: "2.0", id: 9, method: "subscriptions/listen", params: { _meta: meta, notifications: { toolsListChanged: true } } },
];

const messages = [
  ...clientRequests.slice(0, 4),
  { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 3, reason: "user" } },
  { jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: "p", progress: 0.5, total: 1 } },
  { jsonrpc: "2.0", id: 2, result: { resultType: "complete", content: [{ type: "text", text: "hi" }] } },
  { jsonrpc: "2.0", id: 3, error: { code: -32602, message: "Unknown tool" } },
];

const invalid = [
  { jsonrpc: "2.0", id: 42, method: "tools/call", params: { name: 7, arguments: [], _meta: {} } },
  { jsonrpc: "1.0", id: {}, method: "tools/call", params: { name: "x", _meta: { ...meta, "io.modelcontextprotocol/clientCapabilities": 3 } } },
  { jsonrpc: "2.0", id: 42, method: "tools/call" },
];

// ---- measuring -------------------------------------------------------------------------

/** Operations per second of fn over the inputs (each call = one op), for about a sample's time. */
function sample(fn, inputs) {
  let ops = 0;
  let sink = 0;
  const start = performance.now();
  let now = start;
  while (now - start < TIME_PER_SAMPLE_MS) {
    for (let i = 0; i < inputs.length; i++) if (fn(inputs[i])) sink++;
    ops += inputs.length;
    now = performance.now();
  }
  if (sink < 0) console.log(sink);
  return (ops * 1000) / (now - start);
}

export async function benchValidators() {
  const work = workDir("mcp-gen-bench-validators-");
  const ours = await loadGenerated(work);
  const ajvFor = loadAjv();
  const zodFor = await loadZod();
  const examples = corpus();
  const typeNames = [...new Set([...examples.map((e) => e.type), "ListToolsResultResponse", "CallToolRequest", "ClientRequest", "JSONRPCMessage"])];
  const typia = await loadTypia(typeNames);

  const big = bigToolList();
  const zodParse = (schema) => (schema ? (v) => schema.safeParse(v).success : undefined);
  const bySample = (make) => (value) => make(value.type)(value.value);
  const workloads = [
    {
      name: "examples corpus (129)",
      inputs: examples,
      contestants: {
        "mcp-gen is*": bySample((t) => ours[`is${t}`]),
        "mcp-gen validate*": bySample((t) => (v) => ours[`validate${t}`](v).ok),
        ajv: bySample((t) => ajvFor(t)),
        ...(typia.module ? { "typia is": bySample((t) => typia.module[`is${t}`]) } : {}),
      },
    },
    {
      name: "ListToolsResultResponse, 1,000 tools",
      inputs: [big],
      contestants: {
        "mcp-gen is*": ours.isListToolsResultResponse,
        "mcp-gen validate*": (v) => ours.validateListToolsResultResponse(v).ok,
        ajv: ajvFor("ListToolsResultResponse"),
        ...(typia.module ? { "typia is": typia.module.isListToolsResultResponse } : {}),
        "zod (SDK ListToolsResultSchema)": ((s) => (v) => s.safeParse(v.result).success)(zodFor("ListToolsResult")),
      },
    },
    {
      name: "CallToolRequest",
      inputs: [callTool],
      contestants: {
        "mcp-gen is*": ours.isCallToolRequest,
        "mcp-gen validate*": (v) => ours.validateCallToolRequest(v).ok,
        ajv: ajvFor("CallToolRequest"),
        ...(typia.module ? { "typia is": typia.module.isCallToolRequest } : {}),
        "zod (SDK)": zodParse(zodFor("CallToolRequest")),
      },
    },
    {
      name: "ClientRequest union (10 methods)",
      inputs: clientRequests,
      contestants: {
        "mcp-gen is*": ours.isClientRequest,
        "mcp-gen validate*": (v) => ours.validateClientRequest(v).ok,
        ajv: ajvFor("ClientRequest"),
        ...(typia.module ? { "typia is": typia.module.isClientRequest } : {}),
        "zod (SDK)": zodParse(zodFor("ClientRequest")),
      },
    },
    {
      name: "JSONRPCMessage (mixed)",
      inputs: messages,
      contestants: {
        "mcp-gen is*": ours.isJSONRPCMessage,
        "mcp-gen validate*": (v) => ours.validateJSONRPCMessage(v).ok,
        ajv: ajvFor("JSONRPCMessage"),
        ...(typia.module ? { "typia is": typia.module.isJSONRPCMessage } : {}),
        "zod (SDK)": zodParse(zodFor("JSONRPCMessage")),
      },
    },
    {
      name: "invalid CallToolRequest, all errors (error path)",
      inputs: invalid,
      contestants: {
        "mcp-gen validate*": (v) => (ours.validateCallToolRequest(v).errors?.length ?? 0) > 0,
        ajv: ((f) => (v) => (f(v), f.errors.length > 0))(ajvFor("CallToolRequest")),
        ...(typia.module ? { "typia validate": (v) => (typia.module.validateCallToolRequest(v).errors?.length ?? 0) > 0 } : {}),
        "zod (SDK)": ((s) => (v) => (s.safeParse(v).error?.issues.length ?? 0) > 0)(zodFor("CallToolRequest")),
      },
    },
  ];

  // Sanity: every contestant gives the expected verdict before being timed.
  for (const w of workloads) {
    for (const [name, fn] of Object.entries(w.contestants)) {
      if (!fn) throw new Error(`${w.name}: ${name} missing`);
      const verdicts = w.inputs.map((i) => Boolean(fn(i)));
      if (!verdicts.every(Boolean)) w.contestants[name] = Object.assign(fn, { disagrees: verdicts.filter((x) => !x).length });
    }
  }

  const results = new Map();
  for (let round = 0; round < ROUNDS; round++) {
    for (const w of workloads) {
      for (const [name, fn] of Object.entries(w.contestants)) {
        const key = `${w.name}\u0000${name}`;
        if (!results.has(key)) results.set(key, []);
        results.get(key).push(sample(fn, w.inputs));
      }
    }
  }

  console.log(`\nvalidation (${REVISION}), ops/s, median of ${ROUNDS} interleaved rounds; ratio to ajv:`);
  if (!typia.module) console.log(`  (typia could not run here: ${typia.reason})`);
  for (const w of workloads) {
    console.log(`  ${w.name}`);
    const ajv = median(results.get(`${w.name}\u0000ajv`));
    for (const [name, fn] of Object.entries(w.contestants)) {
      const ops = median(results.get(`${w.name}\u0000${name}`));
      const note = fn.disagrees ? `  (rejects ${fn.disagrees} of ${w.inputs.length} inputs: not comparable)` : "";
      console.log(`    ${name.padEnd(34)} ${Math.round(ops).toLocaleString("en-US").padStart(14)}  ${(ops / ajv).toFixed(2).padStart(7)}x${note}`);
    }
  }
  console.log("  goals: corpus >= 5x ajv, ClientRequest >= 25x ajv, big list >= 1.5x ajv, invalid (validate*) >= 2x ajv; at least typia everywhere");
  rmSync(work, { recursive: true, force: true });
}

if (import.meta.url === `file://${process.argv[1]}`) await benchValidators();
