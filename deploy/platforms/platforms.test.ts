// The deployment recipes (examples/deployment, shown in docs/guide/deployment.md) on the
// runtimes that are not Node.js, each started from the binary its npm package ships
// (deploy/platforms/package.json; no install script, no download): Deno (Hono's web-standard app on
// Deno.serve), Bun (Bun.serve), Next.js (next dev, an App Router route handler) and
// Cloudflare's workerd. The real SDK clients (packages/cli/test/support/platform-clients.ts) run here, on
// Node, against them. `npm run test:platforms` installs the runtimes and runs this file.
import type { ChildProcess } from "node:child_process";
import { mkdirSync, readdirSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  prepareDeployment,
  startRecipe,
  stopRecipes,
} from "../../packages/cli/test/support/deployment-example.js";
import { expectBothEras, v1Legacy, v2 } from "../../packages/cli/test/support/platform-clients.js";
import { BUN, DENO, NEXT, WORKERD } from "./setup.mjs";

const children: ChildProcess[] = [];
afterAll(() => stopRecipes(children));

describe("Deno (the @deno/linux-x64-glibc binary)", () => {
  it("deno.ts, Hono's web-standard app on Deno.serve: v1 and v2 SDK clients over both eras", async () => {
    const { js } = await prepareDeployment();
    const url = await startRecipe(
      DENO,
      ["run", "--allow-net", "--allow-read", "--allow-env", "deno.js"],
      js,
      children,
    );
    await expectBothEras(url, expect);
  });
});

describe("Bun (the @oven/bun-linux-x64-baseline binary)", () => {
  it("bun.ts, Bun.serve({ fetch }): v1 and v2 SDK clients over both eras", async () => {
    const { js } = await prepareDeployment();
    const url = await startRecipe(BUN, ["bun.js"], js, children);
    await expectBothEras(url, expect);
  });
});

describe("Next.js 16 (next dev, webpack)", () => {
  it("next/app/mcp/route.ts, an App Router route handler: v1 and v2 SDK clients over both eras", async () => {
    const { js } = await prepareDeployment();
    const app = join(js, "next");
    // Turbopack compiles nothing outside the project root, and the route imports ../mcp and
    // ../server.js (and next, react come from links to platforms/node_modules): webpack follows them.
    mkdirSync(join(app, "node_modules"));
    for (const name of ["next", "react", "react-dom"])
      symlinkSync(join(import.meta.dirname, "node_modules", name), join(app, "node_modules", name));
    const origin = await startRecipe(
      process.execPath,
      [NEXT, "dev", "--webpack", "-p", "0", "-H", "127.0.0.1"],
      app,
      children,
      /Local: +(http:\/\/127\.0\.0\.1:\d+)/,
    );
    const url = `${origin}/mcp`;
    // The first request compiles the route (tens of seconds on a loaded machine).
    const warm = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    expect(warm.status).toBe(400);
    await expectBothEras(url, expect);
  });
});

/** A workerd config serving worker.js and the modules it reaches as one Worker, on a free port. */
function workerdConfig(dir: string): string {
  const modules: string[] = ["worker.js", "server.js"];
  const walk = (folder: string) => {
    for (const name of readdirSync(folder)) {
      const path = join(folder, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith(".js")) modules.push(relative(dir, path));
    }
  };
  walk(join(dir, "mcp"));
  const listed = modules.map((m) => `(name = "${m}", esModule = embed "${m}")`).join(", ");
  return `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [(name = "main", worker = .mcp)],
  sockets = [(name = "http", address = "127.0.0.1:0", http = (), service = "main")],
);
const mcp :Workerd.Worker = (compatibilityDate = "2026-07-01", modules = [${listed}]);
`;
}

describe("Cloudflare Workers (workerd from @cloudflare/workerd-linux-64)", () => {
  // The recipe serves 2026-07-28 only (worker.ts says why). workerd runs modules without a
  // bundler, so the runtime is vendored into mcp/ (--runtime vendor); wrangler's bundler
  // resolves @mcp-gen/runtime in a real project.
  let url: string;
  it("worker.ts, export default { fetch }: the v2 SDK client over 2026-07-28", async () => {
    const { js } = await prepareDeployment({ legacy: false, runtime: "vendor" });
    writeFileSync(join(js, "config.capnp"), workerdConfig(js));
    // workerd tells the port it bound on the control descriptor (fd 1 here: stdout).
    const port = await startRecipe(
      WORKERD,
      ["serve", "config.capnp", "--control-fd=1"],
      js,
      children,
      /"port":(\d+)/,
    );
    url = `http://127.0.0.1:${port}/mcp`;
    expect(await v2(url, "auto")).toBe("v2-auto via 2026-07-28");
  });

  it("a legacy-only client (v1 SDK) is told at initialize which versions the server speaks", async () => {
    await expect(v1Legacy(url)).rejects.toThrow(/2026-07-28/);
  });
});
