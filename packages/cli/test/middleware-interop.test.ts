// examples/middleware against real clients with bearer tokens: its generated dual-era server
// (2026-07-28, and 2025-11-25 through initialize) with an audit middleware and requireScopes
// for the `deploy` tool, as an OAuth resource server of the test authorization server, called
// by the v2 SDK client 2.4.0 (modern, per request) and the v1 SDK client 1.32.2 (a legacy
// session). A token without `mcp:deploy` gets 403 insufficient_scope naming the scopes the
// call needs, in both eras; the audit layer, outermost, sees every call, refused or not.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { join } from "node:path";
import { Client as V1Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as V1HttpTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  Client as V2Client,
  StreamableHTTPClientTransport as V2HttpTransport,
} from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { typecheck } from "./helpers.js";
import { prepareExample, transpiledExample } from "./support/example-project.js";
import {
  startTestAuthorizationServer,
  type TestAuthorizationServer,
} from "./support/oauth-server.js";

type Handler = (request: IncomingMessage, response: ServerResponse) => Promise<void>;

let as: TestAuthorizationServer;
let url: string;
let close: () => Promise<void>;
const audit: string[] = [];

beforeAll(async () => {
  const { dir, sources } = await prepareExample("middleware");
  expect(sources).toEqual(["main.ts", "server.ts"]);
  expect(typecheck(sources.map((f) => join(dir, f)))).toEqual([]);
  const js = transpiledExample(dir);
  const example = await import(join(js, "server.js"));
  as = await startTestAuthorizationServer();
  // The resource identifier names the port: listen first, serve after.
  const serving: { handler?: Handler } = {};
  const http = createServer((req, res) => void serving.handler?.(req, res));
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(http.address() as { port: number }).port}/mcp`;
  serving.handler = example.protectedHandler(
    example.createDispatcher((line: string) => audit.push(line)),
    { resource: url, issuer: as.issuer, jwksUrl: as.jwksUri },
  );
  close = () => new Promise((r) => (http.closeAllConnections(), http.close(() => r())));
}, 180_000);
afterAll(async () => {
  await close?.();
  await as?.close();
});

const bearer = async (scope: string) => ({
  headers: { authorization: `Bearer ${await as.mintToken({ aud: url, scope })}` },
});
const text = (value: string) => ({ content: [{ type: "text", text: value }] });
/** The audit lines since the last call, durations left out (they are the machine's). */
const audited = () => audit.splice(0).map((line) => line.replace(/ in \d+ ms$/, ""));

describe("requireScopes per tool, served to the SDK clients with bearer tokens", () => {
  it("a raw POST without mcp:deploy: 403 with the challenge naming every scope the call needs", async () => {
    const { headers } = await bearer("mcp:tools");
    const r = await fetch(url, {
      method: "POST",
      headers: {
        ...headers,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2026-07-28",
        "mcp-method": "tools/call",
        "mcp-name": "deploy",
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: {
          name: "deploy",
          arguments: { service: "api" },
          _meta: {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {},
          },
        },
      }),
    });
    expect(r.status).toBe(403);
    expect(r.headers.get("www-authenticate")).toMatch(
      /^Bearer error="insufficient_scope", scope="mcp:tools mcp:deploy", error_description="[^"]+", resource_metadata="[^"]+"$/,
    );
    expect(await r.json()).toMatchObject({ id: 1, error: { data: { scopes: ["mcp:deploy"] } } });
    expect(audited()).toEqual([
      "alice called deploy: refused (InsufficientScopeError: Forbidden: insufficient scope)",
    ]);
  });

  it("v2 SDK client 2.4.0 (modern): status passes, deploy is refused with 403, then served with mcp:deploy", async () => {
    const weak = new V2Client({ name: "v2", version: "1.0.0" });
    await weak.connect(
      new V2HttpTransport(new URL(url), { requestInit: await bearer("mcp:tools") }),
    );
    expect(await weak.callTool({ name: "status", arguments: {} })).toMatchObject(text("all green"));
    await expect(weak.callTool({ name: "deploy", arguments: { service: "api" } })).rejects.toThrow(
      /403|insufficient.scope|Forbidden/i,
    );
    await weak.close();
    const strong = new V2Client({ name: "v2", version: "1.0.0" });
    const stepped = await bearer("mcp:tools mcp:deploy");
    await strong.connect(new V2HttpTransport(new URL(url), { requestInit: stepped }));
    expect(await strong.callTool({ name: "deploy", arguments: { service: "api" } })).toMatchObject(
      text("deployed api"),
    );
    await strong.close();
    expect(audited()).toEqual([
      "alice called status: ok",
      "alice called deploy: refused (InsufficientScopeError: Forbidden: insufficient scope)",
      "alice called deploy: ok",
    ]);
  });

  it("v1 SDK client 1.32.2 (a 2025-11-25 session): the same refusal, and the session goes on", async () => {
    const client = new V1Client({ name: "v1", version: "1.0.0" });
    await client.connect(
      new V1HttpTransport(new URL(url), { requestInit: await bearer("mcp:tools") }),
    );
    expect(client.getServerVersion()?.name).toBe("middleware-example");
    await expect(
      client.callTool({ name: "deploy", arguments: { service: "api" } }),
    ).rejects.toThrow(/403|insufficient.scope|Forbidden/i);
    expect(await client.callTool({ name: "status", arguments: {} })).toMatchObject(
      text("all green"),
    );
    await client.close();
    expect(audited()).toEqual([
      "alice called deploy: refused (InsufficientScopeError: Forbidden: insufficient scope)",
      "alice called status: ok",
    ]);
  });
});
