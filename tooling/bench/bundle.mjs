// BENCH=size, second table: the minified bundle a user deploys. Each server is bundled by
// rolldown (vite's bundler, already installed) with the same settings: ESM, tree-shaken,
// minified, every package inlined; for Workers platform "browser" with Node's built-ins left
// external (a Worker without nodejs_compat cannot load them, so the table names any a bundle
// still imports, statically or by import()), for Node platform "node". Sizes are of the bundle's bytes and of their gzip
// (zlib's default level). The peers:
// - mcp-gen init: an `mcp-gen init` project (its revisions: 2026-07-28 plus the three
//   initialize-based ones), for Workers a fetch-handler entry as the deployment guide's Workers
//   recipe writes it (examples/deployment/worker.ts), for Node the project's own src/http.ts;
// - mcp-gen init --modern-only: the same, 2026-07-28 only (what the Workers recipe serves);
// - bookshop mcp-gen / bookshop SDK: examples/side-by-side's three-tool server, written with
//   mcp-gen (with-mcp-gen.ts) and with the v2 SDK 2.4.0 (with-sdk.ts: createMcpHandler, zod),
//   for Workers the handler's fetch as the default export, for Node its own serve().
// Size does not depend on the machine's load: one run is the figure.
import { spawnSync } from "node:child_process";
import { builtinModules } from "node:module";
import { copyFileSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { build } from "rolldown";
import { initProject, MCP_GEN, ROOT, SPEC } from "./common.mjs";

const SIDE_BY_SIDE = join(ROOT, "examples", "side-by-side");
const NODE_BUILTINS = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));
const isBuiltin = (id) => NODE_BUILTINS.has(id) || id.startsWith("node:");

function mcpGen(args, cwd) {
  const r = spawnSync(process.execPath, [MCP_GEN, ...args], { cwd, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`mcp-gen ${args.join(" ")} failed:\n${r.stderr}`);
}

/** The Workers entry of an init project: the deployment guide's recipe around its dispatcher. */
const initWorker = `import { createFetchHandler } from "./mcp/http-server.js";
import { createDispatcher } from "./server.js";

// A Worker reads its secrets from the env of a request, so the handler is made at the first.
let handler: ((request: Request) => Promise<Response>) | undefined;
export default {
  fetch: (request: Request, env: { MCP_REQUEST_STATE_SECRETS: string }) =>
    (handler ??= createFetchHandler(createDispatcher(env.MCP_REQUEST_STATE_SECRETS.split(",")), {
      allowedHosts: ["mcp.example.workers.dev"],
    }))(request),
};
`;

function initWithWorker(work, name, extra) {
  const dir = initProject(work, name, extra);
  writeFileSync(join(dir, "src", "worker.ts"), initWorker);
  return { workers: join(dir, "src", "worker.ts"), node: join(dir, "src", "http.ts") };
}

function bookshopMcpGen(work) {
  const dir = join(work, "bookshop-mcp-gen");
  mkdirSync(dir);
  for (const file of ["with-mcp-gen.ts", "shop.ts", "mcp-gen.config.json"])
    copyFileSync(join(SIDE_BY_SIDE, file), join(dir, file));
  symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"), "dir");
  mcpGen(["generate", "--spec", SPEC, "--config", "mcp-gen.config.json"], dir);
  writeFileSync(
    join(dir, "worker.ts"),
    `import { createFetchHandler } from "./mcp/http-server.js";
import { server } from "./with-mcp-gen.js";
const handler = createFetchHandler(server.dispatcher, { allowedHosts: ["mcp.example.workers.dev"] });
export default { fetch: (request: Request) => handler(request) };
`,
  );
  writeFileSync(
    join(dir, "node.ts"),
    `import { serve } from "./with-mcp-gen.js";
console.log((await serve(Number(process.env["PORT"] ?? 3000))).url);
`,
  );
  return { workers: join(dir, "worker.ts"), node: join(dir, "node.ts") };
}

function bookshopSdk(work) {
  const dir = join(work, "bookshop-sdk");
  mkdirSync(dir);
  copyFileSync(join(SIDE_BY_SIDE, "shop.ts"), join(dir, "shop.ts"));
  const source = readFileSync(join(SIDE_BY_SIDE, "with-sdk.ts"), "utf8");
  writeFileSync(join(dir, "with-sdk.ts"), source);
  symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"), "dir");
  // For Workers: the same tools without the Node server (@hono/node-server) around them.
  const fetchOnly = source
    .replace(/^import \{ serve as serveNode \} from "@hono\/node-server";\n/m, "")
    .replace(/\/\/ #region serve[\s\S]*\/\/ #endregion serve\n/, "");
  if (fetchOnly.includes("serveNode") || !fetchOnly.includes("function bookshop"))
    throw new Error("with-sdk.ts changed shape: update tooling/bench/bundle.mjs");
  writeFileSync(
    join(dir, "worker.ts"),
    `${fetchOnly}
const handler = createMcpHandler(bookshop);
export default { fetch: (request: Request) => handler.fetch(request) };
`,
  );
  writeFileSync(
    join(dir, "node.ts"),
    `import { serve } from "./with-sdk.js";
console.log((await serve(Number(process.env["PORT"] ?? 3000))).url);
`,
  );
  return { workers: join(dir, "worker.ts"), node: join(dir, "node.ts") };
}

/** One bundle: its bytes, gzip bytes and the Node built-ins it still imports. */
async function bundle(input, platform) {
  const { output } = await build({
    input,
    platform,
    external: isBuiltin,
    treeshake: true,
    resolve: { extensionAlias: { ".js": [".ts", ".js"] } },
    logLevel: "silent",
    write: false,
    output: { format: "esm", minify: true, codeSplitting: false, comments: false },
  });
  const chunk = output.find((o) => o.type === "chunk" && o.isEntry);
  const bytes = Buffer.from(chunk.code);
  // A dynamic import() of a built-in is loaded only when that path runs (serveHttp's node:http).
  const builtins = [
    ...new Set([
      ...chunk.imports.filter(isBuiltin),
      ...chunk.dynamicImports.filter(isBuiltin).map((id) => `${id} (dynamic)`),
    ]),
  ].sort();
  return { raw: bytes.length, gzip: gzipSync(bytes).length, builtins };
}

const kib = (n) => (n / 1024).toFixed(1).padStart(8);

export async function benchBundles(work) {
  const peers = {
    "mcp-gen init": initWithWorker(work, "init", []),
    "mcp-gen init --modern-only": initWithWorker(work, "init-modern", ["--modern-only"]),
    "bookshop mcp-gen": bookshopMcpGen(work),
    "bookshop SDK 2.4.0": bookshopSdk(work),
  };
  console.log("\nminified bundle (rolldown, tree-shaken, ESM; KiB; gzip at zlib's default level)");
  console.log("target   server                       raw KiB  gzip KiB   Node built-ins imported");
  const figures = {};
  for (const [target, platform] of [
    ["workers", "browser"],
    ["node", "node"],
  ]) {
    for (const [name, entries] of Object.entries(peers)) {
      const b = await bundle(entries[target], platform);
      figures[`${target} ${name}`] = b;
      console.log(
        `${target.padEnd(8)} ${name.padEnd(26)} ${kib(b.raw)}  ${kib(b.gzip)}   ${b.builtins.join(" ") || "-"}`,
      );
    }
  }
  for (const target of ["workers", "node"]) {
    const sdk = figures[`${target} bookshop SDK 2.4.0`];
    for (const name of ["mcp-gen init", "mcp-gen init --modern-only", "bookshop mcp-gen"]) {
      const b = figures[`${target} ${name}`];
      console.log(
        `${target} ${name} / SDK: ${(b.raw / sdk.raw).toFixed(2)}x raw, ${(b.gzip / sdk.gzip).toFixed(2)}x gzip`,
      );
    }
  }
  return figures;
}
