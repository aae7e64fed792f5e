import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import ts from "typescript";
import { beforeAll, describe, expect, it } from "vitest";
import { generate, type OutputFile } from "../src/generators/emit/index.js";
import { buildProtocol } from "../src/schema/protocol.js";
import { readSchemaText } from "../src/schema/reader.js";
import type { LoadedRevision } from "../src/schema/index.js";
import {
  ALL_OFF,
  ALL_ON,
  FEATURES,
  FIXTURE_VERSION,
  featureSchema,
  withFeature,
  type Feature,
  type FeatureSet,
} from "./fixtures/feature-schema.js";
import { STRICT_OPTIONS, tempDir, writeFiles } from "./helpers.js";
import { transpileForTest } from "./support/transpile.js";

// Spec drafts between releases combine protocol features in ways no published revision does.
// Each feature is turned off alone (everything else on), then everything off: every
// combination must generate, compile under the strict flags, and run a round trip.

type Any = any;

interface Variant {
  name: string;
  on: FeatureSet;
}

/**
 * A feature on alone adds a state only where no variant above has it already; each variant
 * costs a generation and a type-check, so only those are kept. The others are covered:
 * discover without the version key (once emitted an undeclared variable), and the error code or
 * the capabilities key without the version key, by without-versionMeta; the version key without
 * its error code by without-versionError; multi round-trip without the capabilities key by
 * without-capabilitiesMeta; cache hints without discover by without-discover; pagination without
 * cache hints by without-cacheHints; batches and subscriptions without `resultType` by without-mrtr.
 */
const ONLY: Feature[] = [
  // A log level key in an optional _meta (no required key beside it).
  "logging",
  // Server-to-client requests with no _meta keys at all (2025-11-25's shape).
  "serverRequests",
];

const VARIANTS: Variant[] = [
  { name: "all-on", on: ALL_ON },
  ...FEATURES.map((f) => ({ name: `without-${f}`, on: withFeature(ALL_ON, f, false) })),
  { name: "all-off", on: ALL_OFF },
  ...ONLY.map((f) => ({ name: `only-${f}`, on: withFeature(ALL_OFF, f, true) })),
];

function load(variant: Variant, dir: string): LoadedRevision {
  const schemaTs = join(dir, "schema.ts");
  const model = readSchemaText(schemaTs, featureSchema(variant.on));
  return {
    revision: { name: FIXTURE_VERSION, dir, schemaTs, schemaJson: "", examplesDir: "" },
    model,
    protocol: buildProtocol(model),
  };
}

/** The emitted runtime module names (`runtime/server/router.ts` -> `server/router`). */
const runtimeModules = (files: readonly OutputFile[]) =>
  new Set(
    files
      .filter((f) => f.path.startsWith("runtime/"))
      .map((f) => f.path.slice("runtime/".length, -".ts".length)),
  );

/** A file's content without its first line (the generated header, which names the schema's hash). */
const withoutHeader = (content: string) => content.slice(content.indexOf("\n") + 1);

/**
 * Type-checks every variant in one program. The runtime modules are byte-identical copies in
 * every output (checked below), so one copy of them is checked for all: a variant's
 * `./runtime/x.js` resolves to the shared copy only if the variant emitted that module.
 */
function typecheckVariants(
  root: string,
  outputs: Map<string, OutputFile[]>,
): Map<string, string[]> {
  const shared = join(root, "runtime");
  // skipLibCheck skips only the .d.ts files of TypeScript's libs and @types/node, not generated code.
  const options: ts.CompilerOptions = { ...STRICT_OPTIONS, skipLibCheck: true };
  const host = ts.createCompilerHost(options);
  const resolveOne = (name: string, containingFile: string): ts.ResolvedModuleFull | undefined => {
    const variant = relative(root, containingFile).split("/")[0]!;
    const files = outputs.get(variant);
    const runtimeImport = /^\.\/runtime\/([\w-]+)\.js$/.exec(name);
    if (files && runtimeImport && !containingFile.startsWith(shared)) {
      const module = runtimeImport[1]!;
      return runtimeModules(files).has(module)
        ? { resolvedFileName: join(shared, `${module}.ts`), extension: ts.Extension.Ts }
        : undefined;
    }
    return ts.resolveModuleName(name, containingFile, options, host).resolvedModule;
  };
  host.resolveModuleNameLiterals = (literals, containingFile) =>
    literals.map((literal) => ({ resolvedModule: resolveOne(literal.text, containingFile) }));
  const rootNames = [...outputs].flatMap(([name, files]) =>
    files.filter((f) => !f.path.startsWith("runtime/")).map((f) => join(root, name, f.path)),
  );
  const program = ts.createProgram({ rootNames, options, host });
  const byVariant = new Map<string, string[]>([...outputs.keys()].map((n) => [n, []]));
  for (const d of ts.getPreEmitDiagnostics(program)) {
    const text = ts.flattenDiagnosticMessageText(d.messageText, "\n");
    const where =
      d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start) : undefined;
    const file = d.file ? relative(root, d.file.fileName) : "(global)";
    const line = where
      ? `${file}:${where.line + 1}:${where.character + 1}: ${text}`
      : `${file}: ${text}`;
    // A problem in the shared runtime belongs to every variant.
    const owner = byVariant.get(file.split("/")[0]!);
    for (const list of owner ? [owner] : [...byVariant.values()]) list.push(line);
  }
  return byVariant;
}

const outputs = new Map<string, OutputFile[]>();
/** Variants whose generation failed, with the error: each fails its own tests, not the others'. */
const refused = new Map<string, string>();
/** Every variant in one program, made by the first test that asks (tagged compile). */
let diagnostics: Map<string, string[]> | undefined;
let root: string;

beforeAll(async () => {
  root = tempDir("mcp-gen-matrix-");
  for (const variant of VARIANTS) {
    try {
      const files = await generate(load(variant, join(root, variant.name)));
      outputs.set(variant.name, files);
      writeFiles(
        join(root, variant.name),
        files.filter((f) => !f.path.startsWith("runtime/")),
      );
    } catch (error) {
      refused.set(variant.name, String(error));
    }
  }
  // All-on reaches every runtime module (the HTTP transports need per-request versions).
  writeFiles(
    root,
    outputs.get("all-on")!.filter((f) => f.path.startsWith("runtime/")),
  );
}, 300_000);

describe("feature matrix: generated code compiles", () => {
  it("runtime modules are the same copy in every variant, with every module they import", () => {
    const reference = new Map(
      outputs
        .get("all-on")!
        .filter((f) => f.path.startsWith("runtime/"))
        .map((f) => [f.path, withoutHeader(f.content)]),
    );
    for (const [name, files] of outputs) {
      const modules = runtimeModules(files);
      for (const f of files.filter((f) => f.path.startsWith("runtime/"))) {
        expect(withoutHeader(f.content), `${name}/${f.path}`).toBe(reference.get(f.path));
        for (const [, imported] of f.content.matchAll(/from "\.\/([\w-]+)\.js"/g))
          expect(modules, `${name}/${f.path} imports ${imported}`).toContain(imported);
      }
    }
  });

  it.each(VARIANTS.map((v) => v.name))(
    "%s compiles under --strict --noUncheckedIndexedAccess --exactOptionalPropertyTypes",
    { tags: "compile" },
    (name) => {
      expect(refused.get(name)).toBeUndefined();
      diagnostics ??= typecheckVariants(root, outputs);
      expect(diagnostics.get(name)).toEqual([]);
    },
  );
});

describe("feature matrix: round trips", () => {
  it.each(VARIANTS)("$name: dispatcher and client round trip", async ({ name, on }) => {
    expect(refused.get(name)).toBeUndefined();
    await roundTrip(outputs.get(name)!, on);
  });
});

/** The `_meta` a hand-written request needs to pass the dispatcher's checks. */
function rawRequest(
  on: FeatureSet,
  method: string,
  id: number,
  params: Record<string, unknown> = {},
) {
  const meta: Record<string, unknown> = {};
  if (on.versionMeta) meta["io.modelcontextprotocol/protocolVersion"] = FIXTURE_VERSION;
  if (on.capabilitiesMeta) meta["io.modelcontextprotocol/clientCapabilities"] = {};
  return {
    jsonrpc: "2.0",
    id,
    method,
    params: { ...params, ...(Object.keys(meta).length > 0 ? { _meta: meta } : {}) },
  };
}

/** Modules the round trip imports (the transports and handlers.ts are left out). */
const RUNNABLE =
  /^(dispatcher|client|protocol|methods|validators|eras|legacy\/[\w-]+\/[\w-]+|runtime\/(?!stdio|http-)[\w-]+)\.ts$/;
const transpiledRuntime = new Map<string, string>();

/** Writes what the round trip imports as JavaScript; runtime modules are transpiled once for all variants. */
function writeRunnable(files: OutputFile[]): string {
  const dir = tempDir("mcp-gen-matrix-js-");
  writeFileSync(join(dir, "package.json"), '{ "type": "module" }\n');
  for (const f of files.filter((f) => RUNNABLE.test(f.path))) {
    const cached = f.path.startsWith("runtime/")
      ? transpiledRuntime.get(withoutHeader(f.content))
      : undefined;
    const js = cached ?? transpileForTest(f.path, f.content);
    if (f.path.startsWith("runtime/")) transpiledRuntime.set(withoutHeader(f.content), js);
    mkdirSync(dirname(join(dir, f.path)), { recursive: true });
    writeFileSync(join(dir, f.path.replace(/\.ts$/, ".js")), js);
  }
  return dir;
}

async function roundTrip(files: OutputFile[], on: FeatureSet): Promise<void> {
  const dir = writeRunnable(files);
  const d: Any = await import(join(dir, "dispatcher.js"));
  const c: Any = await import(join(dir, "client.js"));
  // Multi round-trip needs the client's capabilities on each request: without them the
  // runtime treats the revision as having none (PROTOCOL.features.mrtr).
  const mrtr = on.mrtr && on.capabilitiesMeta;
  const cache = on.cacheHints ? { ttlMs: 5000, cacheScope: "private" } : {};
  const seen: { version?: string; capabilities?: unknown; state?: string; levels: string[] } = {
    levels: [],
  };

  const server = d.createServerDispatcher(
    {
      "tools/call": async (params: Any, ctx: Any) => {
        seen.version = ctx.protocolVersion;
        seen.capabilities = ctx.clientCapabilities;
        if (on.logging) await ctx.log("warning", "careful");
        if (params.name === "ask") {
          const answer = ctx.inputResponse("who", "elicitation/create");
          if (!answer)
            return d.inputRequired(ctx, {
              inputRequests: {
                who: {
                  method: "elicitation/create",
                  params: { message: "Name?", requestedSchema: {} },
                },
              },
              requestState: "s1",
            });
          seen.state = ctx.requestState;
          return { content: [{ type: "text", text: `Hello, ${answer.content.name}` }] };
        }
        return { content: [{ type: "text", text: `called ${params.name}` }] };
      },
      "tools/list": (params: Any) => {
        const tool = (n: string) => ({ name: n, inputSchema: { type: "object" } });
        if (!on.pagination) return { tools: [tool("a"), tool("b")], ...cache };
        return params?.cursor === "2"
          ? { tools: [tool("b")], ...cache }
          : { tools: [tool("a")], nextCursor: "2", ...cache };
      },
      ...(on.subscriptions && {
        "resources/subscribe": async (params: Any, ctx: Any) => {
          await ctx.notify({
            jsonrpc: "2.0",
            method: "notifications/resources/updated",
            params: { uri: params.uri },
          });
          return {};
        },
      }),
      ...(on.logging && {
        "logging/setLevel": (params: Any) => (seen.levels.push(params.level), {}),
      }),
    },
    { serverInfo: { name: "matrix", version: "1.0.0" } },
  );

  const elicited: unknown[] = [];
  const client = c.createClient({
    transport: c.createDirectTransport((m: Any, ctx: Any) => server.handle(m, ctx)),
    clientInfo: { name: "matrix-client", version: "1.0.0" },
    capabilities: { experimental: { probe: {} } },
    // An older version first: the server's refusal must lead to one retry with the version it supports.
    ...(on.versionMeta &&
      on.versionError && {
        protocolVersion: "1999-01-01",
        supportedVersions: ["1999-01-01", FIXTURE_VERSION],
      }),
    ...(on.mrtr && {
      inputHandlers: {
        "elicitation/create": (p: Any) => (
          elicited.push(p),
          { action: "accept", content: { name: "Ada" } }
        ),
      },
    }),
  });

  // The plain call, with what each _meta key carries.
  const logs: Any[] = [];
  const called = await client.callTool(
    { name: "plain" },
    on.logging ? { logLevel: "info", onLog: (p: Any) => logs.push(p) } : {},
  );
  expect(called.content).toEqual([{ type: "text", text: "called plain" }]);
  expect(called.resultType).toBe(on.mrtr ? "complete" : undefined);
  expect(called._meta?.["io.modelcontextprotocol/serverInfo"]).toEqual({
    name: "matrix",
    version: "1.0.0",
  });
  expect(seen.version).toBe(on.versionMeta ? FIXTURE_VERSION : undefined);
  expect(seen.capabilities).toEqual(
    on.capabilitiesMeta
      ? {
          experimental: { probe: {} },
          ...(on.mrtr && { elicitation: {} }),
          // Stateless revisions with tools/call declare the Tasks extension (tasks are on).
          ...(on.versionMeta &&
            on.versionError && { extensions: { "io.modelcontextprotocol/tasks": {} } }),
        }
      : {},
  );
  if (on.versionMeta) {
    const old: Any = rawRequest(on, "ping", 7);
    old.params._meta["io.modelcontextprotocol/protocolVersion"] = "1999-01-01";
    const refused = await server.handle(old);
    // Without the schema's unsupported-version code, the refusal is invalid params.
    const code = on.versionError ? -32022 : -32602;
    expect(refused).toMatchObject({
      id: 7,
      error: { code, data: { supported: [FIXTURE_VERSION], requested: "1999-01-01" } },
    });
  }

  // Multi round-trip: one input_required round, answered by the input handler.
  expect(typeof d.inputRequired).toBe(mrtr ? "function" : "undefined");
  if (mrtr) {
    const asked = await client.callTool({ name: "ask" });
    expect(asked.content).toEqual([{ type: "text", text: "Hello, Ada" }]);
    expect(elicited).toEqual([{ message: "Name?", requestedSchema: {} }]);
    expect(seen.state).toBe("s1");
  }

  // Logging: a log message about the call, and logging/setLevel.
  expect(logs).toEqual(on.logging ? [{ level: "warning", data: "careful" }] : []);
  expect(typeof client.setLevel).toBe(on.logging ? "function" : "undefined");
  if (on.logging) {
    await client.setLevel({ level: "debug" });
    expect(seen.levels).toEqual(["debug"]);
  }

  // Discover: answered by the dispatcher from its options and handlers.
  expect(typeof client.discover).toBe(on.discover ? "function" : "undefined");
  if (on.discover) {
    const discovered = await client.discover();
    expect(discovered.supportedVersions).toEqual([FIXTURE_VERSION]);
    // resources/subscribe is gated by the boolean resources.subscribe: declared `true` at its path.
    expect(discovered.capabilities).toEqual({
      tools: {},
      ...(on.subscriptions && { resources: { subscribe: true } }),
      ...(on.logging && { logging: {} }),
    });
    // The hints come from the model: added only where the revision's DiscoverResult declares them.
    if (on.cacheHints) expect(discovered).toMatchObject({ ttlMs: 0, cacheScope: "public" });
    else
      expect(Object.keys(discovered).filter((k) => k === "ttlMs" || k === "cacheScope")).toEqual(
        [],
      );
  } else {
    expect(await server.handle(rawRequest(on, "server/discover", 8))).toMatchObject({
      id: 8,
      error: { code: -32601 },
    });
  }

  // Pagination and cache hints on tools/list.
  const listed = await client.listTools();
  expect(listed.tools.map((t: Any) => t.name)).toEqual(on.pagination ? ["a"] : ["a", "b"]);
  expect(listed.ttlMs).toBe(on.cacheHints ? 5000 : undefined);
  expect(typeof client.listToolsPages).toBe(on.pagination ? "function" : "undefined");
  if (on.pagination) {
    const names: string[] = [];
    for await (const page of client.listToolsPages())
      names.push(...page.tools.map((t: Any) => t.name));
    expect(names).toEqual(["a", "b"]);
  }

  // Subscriptions: the notification sent while the request runs reaches the caller.
  expect(typeof client.subscribeResource).toBe(on.subscriptions ? "function" : "undefined");
  if (on.subscriptions) {
    const notes: Any[] = [];
    const subscribed = await client.subscribeResource(
      { uri: "file:///x" },
      { onNotification: (n: Any) => notes.push(n) },
    );
    expect(subscribed.resultType).toBe(on.mrtr ? "complete" : undefined);
    expect(notes).toEqual([
      { jsonrpc: "2.0", method: "notifications/resources/updated", params: { uri: "file:///x" } },
    ]);
  }

  // Batches: an array of requests gets an array of responses, or is not a request at all.
  const batch = await server.handle([rawRequest(on, "ping", 1), rawRequest(on, "ping", 2)]);
  if (on.batch) expect(batch.map((r: Any) => r.id)).toEqual([1, 2]);
  else expect(batch).toMatchObject({ error: { code: -32600 } });

  // Server-to-client requests: a server requester against a client dispatcher.
  expect(typeof c.createServerRequester).toBe(on.serverRequests ? "function" : "undefined");
  expect(typeof d.createClientDispatcher).toBe(on.serverRequests ? "function" : "undefined");
  if (on.serverRequests) {
    const clientSide = d.createClientDispatcher({
      "roots/list": () => ({ roots: [{ uri: "file:///root" }] }),
    });
    const requester = c.createServerRequester({
      transport: c.createDirectTransport((m: Any, ctx: Any) => clientSide.handle(m, ctx)),
    });
    expect((await requester.listRoots()).roots).toEqual([{ uri: "file:///root" }]);
    expect(await requester.ping()).toEqual(on.mrtr ? { resultType: "complete" } : {});
  }
}
