// The deployment recipes on Node.js (examples/deployment, shown in docs/guide/deployment.md),
// each serving one generated dual-era server (2026-07-28 handlers, 2025-11-25 .. 2025-03-26
// through initialize) and reached by the real SDK clients over both eras
// (packages/cli/test/support/platform-clients.ts): node:http; Express 5 with a mount path before
// express.json(); Fastify 5 with the route's body unparsed and a hijacked reply; Hono on
// @hono/node-server through the web-standard fetch handler. platforms/ runs the others.
// Malformed and over-size bodies, and a foreign Host, get from each recipe what node:http
// gets: JSON-RPC errors after the Host check, never a framework's error page.
import type { ChildProcess } from "node:child_process";
import { connect } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { typecheck } from "../../packages/cli/test/helpers.js";
import {
  exampleSources,
  prepareDeployment,
  startRecipe,
  stopRecipes,
  type PreparedExample,
} from "../../packages/cli/test/support/deployment-example.js";
import { expectBothEras } from "../../packages/cli/test/support/platform-clients.js";
import { within } from "../../packages/cli/test/support/wait.js";

const children: ChildProcess[] = [];
let example: PreparedExample;
beforeAll(async () => {
  example = await prepareDeployment();
});
afterAll(() => stopRecipes(children));

describe("examples/deployment", () => {
  it("type-checks with its generated code, every recipe (Deno, Bun, Workers, Next.js too)", () => {
    const sources = exampleSources(example.sources);
    expect(sources).toEqual([
      "bun.ts",
      "cors.ts",
      "deno.ts",
      "express.ts",
      "fastify.ts",
      "hono-node.ts",
      "hono.ts",
      "next/app/layout.ts",
      "next/app/mcp/route.ts",
      "node-http.ts",
      "redis-sessions.ts",
      "server.ts",
      "shutdown.ts",
      "worker.ts",
    ]);
    expect(typecheck(sources.map((f) => join(example.sources, f)))).toEqual([]);
  }, 180_000);

  for (const recipe of ["node-http", "express", "fastify", "hono-node"])
    it(`${recipe}.ts: the v1 and v2 SDK clients over both eras`, async () => {
      const url = await startRecipe(
        process.execPath,
        [join(example.js, `${recipe}.js`)],
        example.js,
        children,
      );
      await expectBothEras(url, expect);
    });
});

/**
 * A POST to `url` with `body` (and a Host header when given), answered as status, type and
 * body. Over a socket, not http.request, to send a body larger than its Content-Length says:
 * `declared` bytes are announced and none sent, so a server refusing them by the header
 * answers and closes without unread bytes (which would reset the connection, answer lost).
 */
function post(url: string, body: string, options: { host?: string; declared?: number } = {}) {
  const { hostname, port, pathname } = new URL(url);
  const head = [
    `POST ${pathname} HTTP/1.1`,
    `Host: ${options.host ?? `${hostname}:${port}`}`,
    "Content-Type: application/json",
    "Accept: application/json, text/event-stream",
    `Content-Length: ${options.declared ?? Buffer.byteLength(body)}`,
    "Connection: close",
    "",
    "",
  ].join("\r\n");
  const answered = new Promise<{ status: number; type: string; body: string }>((resolve) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.on("close", () => resolve(responseOf(Buffer.concat(chunks).toString("utf8"))));
    socket.write(options.declared === undefined ? head + body : head);
  });
  return within(answered, `the answer of ${url}`, 30_000);
}

/** Status, content type and (de-chunked) body of an HTTP/1.1 response's text. */
function responseOf(text: string) {
  const split = text.indexOf("\r\n\r\n");
  const lines = text.slice(0, split).split("\r\n");
  const header = (name: string) =>
    lines
      .find((l) => l.toLowerCase().startsWith(`${name}:`))
      ?.slice(name.length + 1)
      .trim() ?? "";
  let body = text.slice(split + 4);
  if (/chunked/i.test(header("transfer-encoding"))) {
    let joined = "";
    for (let size = 1; size > 0;) {
      const eol = body.indexOf("\r\n");
      size = parseInt(body.slice(0, eol), 16);
      joined += body.slice(eol + 2, eol + 2 + size);
      body = body.slice(eol + 4 + size);
    }
    body = joined;
  }
  return { status: Number(lines[0]!.split(" ")[1]), type: header("content-type"), body };
}

/** Bodies a framework's own parser answers with its own error page: each answered as node:http answers it. */
async function badBodies(url: string) {
  const ping = (padding: number) =>
    JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "ping",
      params: { _meta: { pad: "x".repeat(padding) } },
    });
  return {
    malformed: await post(url, '{"jsonrpc": "2.0", "id": 1,'),
    // Past express.json()'s 100 KB, within the runtime's 4 MiB.
    large: await post(url, ping(200_000)),
    tooLarge: await post(url, "", { declared: 5 * 1024 * 1024 }),
    // The Host check comes first, whatever the body.
    foreignHost: await post(url, "{not json", { host: "evil.example" }),
  };
}

describe("examples/deployment: bodies the framework's parser would answer itself", () => {
  let reference: Awaited<ReturnType<typeof badBodies>>;
  beforeAll(async () => {
    const url = await startRecipe(
      process.execPath,
      [join(example.js, "node-http.js")],
      example.js,
      children,
    );
    reference = await badBodies(url);
  }, 60_000);

  it("node-http.ts: JSON-RPC errors, no stack trace; the Host check first", () => {
    expect(reference.malformed.status).toBe(400);
    expect(JSON.parse(reference.malformed.body)).toMatchObject({ error: { code: -32700 } });
    expect(reference.tooLarge.status).toBe(413);
    expect(JSON.parse(reference.tooLarge.body)).toMatchObject({ jsonrpc: "2.0", error: {} });
    expect(reference.foreignHost.status).toBe(403);
    for (const answer of Object.values(reference)) {
      expect(answer.type).toMatch(/^application\/json/);
      expect(answer.body).not.toMatch(/<html|<pre>|at .*\.js:\d+/i);
    }
  });

  for (const recipe of ["express", "fastify", "hono-node"])
    it(`${recipe}.ts: answers them as node-http.ts does`, async () => {
      const url = await startRecipe(
        process.execPath,
        [join(example.js, `${recipe}.js`)],
        example.js,
        children,
      );
      expect(await badBodies(url)).toEqual(reference);
    });
});
