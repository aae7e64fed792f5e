// The inputs of the validator benchmark (tooling/bench/validators.mjs): every workload is a set of
// distinct, deterministic inputs (seeded), so runs time the same values and the JIT cannot
// hoist work out of a loop over one object.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { SPEC } from "./common.mjs";

export const REVISION = "2026-07-28";

const meta = {
  "io.modelcontextprotocol/protocolVersion": REVISION,
  "io.modelcontextprotocol/clientCapabilities": {},
};
const freshMeta = () => ({ ...meta, "io.modelcontextprotocol/clientCapabilities": {} });

/** A small seeded PRNG, so every run times the same inputs. */
function random(seed) {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 2 ** 32;
  };
}

export function corpus() {
  const dir = join(SPEC, "schema", REVISION, "examples");
  return readdirSync(dir).flatMap((type) =>
    readdirSync(join(dir, type)).map((f) => ({
      type,
      value: JSON.parse(readFileSync(join(dir, type, f), "utf8")),
    })),
  );
}

/** Each example broken a few ways (a leaf of the wrong type, a key removed, a key's value replaced). */
export function invalidCorpus(examples, isValid) {
  const rand = random(7);
  const out = [];
  for (const { type, value } of examples) {
    for (let k = 0; k < 4; k++) {
      const copy = structuredClone(value);
      const paths = [];
      const walk = (v, path) => {
        if (typeof v === "object" && v !== null)
          for (const key of Object.keys(v)) walk(v[key], [...path, key]);
        if (path.length > 0) paths.push(path);
      };
      walk(copy, []);
      if (paths.length === 0) continue;
      const path = paths[Math.floor(rand() * paths.length)];
      const parent = path.slice(0, -1).reduce((o, key) => o[key], copy);
      const last = path[path.length - 1];
      const how = Math.floor(rand() * 3);
      if (how === 0) parent[last] = typeof parent[last] === "string" ? 17 : "seventeen";
      else if (how === 1 && !Array.isArray(parent)) delete parent[last];
      else parent[last] = [null];
      if (!isValid(type, copy)) out.push({ type, value: copy });
    }
  }
  return out;
}

export function toolList(count, seed) {
  const tools = Array.from({ length: count }, (_, i) => ({
    name: `tool_${seed}_${i}`,
    title: `Tool number ${i}`,
    description: `Does thing ${i}: reads the input, looks things up and returns a summary of what it found.`,
    inputSchema: {
      type: "object",
      properties: {
        query: { type: "string", description: "What to look for" },
        limit: { type: "integer", minimum: 1 },
      },
      required: ["query"],
    },
    annotations: { readOnlyHint: i % 2 === 0, openWorldHint: true, title: `Tool ${i}` },
    icons: [{ src: `https://example.com/icons/${i}.png`, mimeType: "image/png", sizes: ["48x48"] }],
    _meta: { "com.example/rank": i },
  }));
  return {
    jsonrpc: "2.0",
    id: seed,
    result: { resultType: "complete", ttlMs: 60000, cacheScope: "public", tools },
  };
}

const CITIES = ["Paris", "Lagos", "Lima", "Osaka", "Perth", "Quito", "Oslo", "Pune"];

export function callTools(n) {
  return Array.from({ length: n }, (_, i) => ({
    jsonrpc: "2.0",
    id: i % 3 === 0 ? `req-${i}` : i,
    method: "tools/call",
    params: {
      name: ["get_weather", "search", "read_file", "run"][i % 4],
      arguments:
        i % 5 === 0
          ? {}
          : {
              location: CITIES[i % CITIES.length],
              units: i % 2 ? "metric" : "imperial",
              days: i % 7,
            },
      _meta: freshMeta(),
    },
  }));
}

/** The ways invalidCallTools breaks a request, early and late in the object, by name. */
export const CALL_TOOL_BREAKERS = {
  "params.name a number": (r) => (r.params.name = 7),
  "arguments an array": (r) => (r.params.arguments = []),
  "_meta empty": (r) => (r.params._meta = {}),
  "jsonrpc 1.0": (r) => (r.jsonrpc = "1.0"),
  "id an object": (r) => (r.id = {}),
  "no params": (r) => delete r.params,
  "capabilities a number": (r) =>
    (r.params._meta["io.modelcontextprotocol/clientCapabilities"] = 3),
  "three errors": (r) => {
    r.params.name = null;
    r.params.arguments = "x";
    r.params._meta = { "io.modelcontextprotocol/protocolVersion": 5 };
  },
};

/** Invalid tools/call requests, broken in varied places (early and late in the object). */
export function invalidCallTools(n, breakers = Object.values(CALL_TOOL_BREAKERS)) {
  return callTools(n).map((r, i) => (breakers[i % breakers.length](r), r));
}

export function clientRequests(n) {
  const make = [
    (i) => ({ jsonrpc: "2.0", id: i, method: "server/discover", params: { _meta: freshMeta() } }),
    (i) => ({
      jsonrpc: "2.0",
      id: i,
      method: "tools/list",
      params: { _meta: freshMeta(), cursor: `c${i}` },
    }),
    () => callTools(1)[0],
    (i) => ({ jsonrpc: "2.0", id: i, method: "resources/list", params: { _meta: freshMeta() } }),
    (i) => ({
      jsonrpc: "2.0",
      id: i,
      method: "resources/read",
      params: { _meta: freshMeta(), uri: `file:///project/file${i}.md` },
    }),
    (i) => ({
      jsonrpc: "2.0",
      id: i,
      method: "resources/templates/list",
      params: { _meta: freshMeta() },
    }),
    (i) => ({ jsonrpc: "2.0", id: i, method: "prompts/list", params: { _meta: freshMeta() } }),
    (i) => ({
      jsonrpc: "2.0",
      id: i,
      method: "prompts/get",
      params: { _meta: freshMeta(), name: "review", arguments: { code: `x = ${i}` } },
    }),
    (i) => ({
      jsonrpc: "2.0",
      id: i,
      method: "completion/complete",
      params: {
        _meta: freshMeta(),
        ref: { type: "ref/prompt", name: "review" },
        argument: { name: "code", value: `x${i}` },
      },
    }),
    (i) => ({
      jsonrpc: "2.0",
      id: i,
      method: "subscriptions/listen",
      params: { _meta: freshMeta(), notifications: { toolsListChanged: i % 2 === 0 } },
    }),
  ];
  return Array.from({ length: n }, (_, i) => make[i % make.length](i));
}

export function messages(n) {
  const make = [
    (i) => clientRequests(10)[i % 4],
    (i) => ({
      jsonrpc: "2.0",
      method: "notifications/cancelled",
      params: { requestId: i, reason: "user" },
    }),
    (i) => ({
      jsonrpc: "2.0",
      method: "notifications/progress",
      params: { progressToken: `p${i}`, progress: i / 10, total: 10 },
    }),
    (i) => ({
      jsonrpc: "2.0",
      id: i,
      result: { resultType: "complete", content: [{ type: "text", text: `hi ${i}` }] },
    }),
    (i) => ({ jsonrpc: "2.0", id: i, error: { code: -32602, message: `Unknown tool ${i}` } }),
  ];
  return Array.from({ length: n }, (_, i) => make[i % make.length](i));
}

/** A tool list whose last tool is invalid (a name that is not a string, or an inputSchema that is not an object schema). */
export function toolListInvalidLast(count, seed) {
  const list = toolList(count, seed);
  const last = list.result.tools[count - 1];
  if (seed % 2 === 0) last.name = 5;
  else last.inputSchema.type = "array";
  return list;
}
