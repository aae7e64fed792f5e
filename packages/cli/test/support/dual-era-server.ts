// The dual-era server of dual-era.test.ts and sdk-peers.test.ts: ONE generated server
// (2026-07-28 handlers, legacy revisions 2025-11-25 .. 2025-03-26 through `initialize`) on
// loopback HTTP, from either generate target: the `ts` output type-stripped, or the `js+dts`
// output's JavaScript as emitted (what an `init` project runs).
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { generate } from "../../src/generators/emit/index.js";
import { applyTarget, type Target } from "../../src/generators/output/target.js";
import { loadRevision } from "../../src/schema/index.js";
import { SPEC_DIR, tempDir, writeGenerated } from "../helpers.js";

type Any = any;
export const LEGACY = ["2025-11-25", "2025-06-18", "2025-03-26"];
export const WORDS = Array.from({ length: 150 }, (_, i) => `w${i}`);

export interface DualEraServer {
  url: string;
  close(): Promise<void>;
  /** The folder of the generated JavaScript (dispatcher.js, stdio.js, ...). */
  dir: string;
  /** The server's dispatcher. */
  dispatcher: Any;
  /** The generated modules, imported from `dir`. */
  generated: { client: Any; http: Any; dispatcher: Any; httpClient: Any };
}

let printed: ReturnType<typeof generate> | undefined;

/** The 2026-07-28 generation with the legacy revisions, in `target`'s form, as a folder of JavaScript. */
export async function generatedDualEra(target: Target): Promise<string> {
  // Generated once per test worker (test files share its module cache); the js+dts form is the
  // same step `generate --target js+dts` takes after printing.
  printed ??= generate(loadRevision(SPEC_DIR, "2026-07-28"), undefined, {
    legacy: LEGACY.map((r) => loadRevision(SPEC_DIR, r)),
  });
  const files = applyTarget(await printed, target);
  if (target === "ts") return writeGenerated(files);
  // js+dts: the files as a user's disk holds them, run without any transpiling here.
  const dir = tempDir("mcp-gen-js-dts-");
  writeFileSync(join(dir, "package.json"), '{ "type": "module" }\n');
  for (const f of files) {
    mkdirSync(dirname(join(dir, f.path)), { recursive: true });
    writeFileSync(join(dir, f.path), f.content);
  }
  return dir;
}

/** The server's handlers: tools (one asks for an elicitation), a prompt, capped completions. */
export function dualEraHandlers(dispatcher: Any): Any {
  const { inputRequired } = dispatcher;
  return {
    "tools/list": () => ({
      tools: [
        {
          name: "echo",
          inputSchema: { type: "object", properties: { text: { type: "string" } } },
        },
        { name: "greet", inputSchema: { type: "object" } },
      ],
      ttlMs: 0,
      cacheScope: "public",
    }),
    "tools/call": async (params: Any, ctx: Any) => {
      if (params.name === "fail") throw new Error("the backend is down");
      if (params.name === "nope") throw new dispatcher.McpError(-32602, "Unknown tool: nope");
      if (params.name === "echo") {
        await ctx.sendProgress(1, 1, "done");
        await ctx.log("info", `echo ${params.arguments?.text}`);
        return { content: [{ type: "text", text: String(params.arguments?.text) }] };
      }
      const answer = ctx.inputResponse("who", "elicitation/create");
      if (!answer) {
        const ask = {
          mode: "form",
          message: "Your name?",
          requestedSchema: { type: "object", properties: { name: { type: "string" } } },
        };
        return inputRequired(ctx, {
          inputRequests: { who: { method: "elicitation/create", params: ask } },
        });
      }
      return {
        content: [
          { type: "text", text: `Hello, ${answer.content?.name} (${ctx.protocolVersion})` },
        ],
      };
    },
    "prompts/list": () => ({ prompts: [{ name: "hi" }], ttlMs: 0, cacheScope: "public" }),
    "prompts/get": () => ({
      messages: [{ role: "user", content: { type: "text", text: "hi" } }],
    }),
    "completion/complete": () => ({ completion: { values: WORDS } }),
  };
}

/** Generates `target`'s output and serves the dual-era dispatcher over its node:http host. */
export async function startDualEraServer(target: Target): Promise<DualEraServer> {
  const dir = await generatedDualEra(target);
  const [dispatcher, http, client, httpClient] = await Promise.all(
    ["dispatcher.js", "http-server.js", "client.js", "http-client.js"].map(
      (m) => import(join(dir, m)),
    ),
  );
  const d = dispatcher.createServerDispatcher(dualEraHandlers(dispatcher), {
    serverInfo: { name: "dual", version: "1.0.0" },
  });
  const served = await http.serveHttp(d);
  return {
    url: served.url,
    close: () => served.close(),
    dir,
    dispatcher: d,
    generated: { dispatcher, http, client, httpClient },
  };
}
