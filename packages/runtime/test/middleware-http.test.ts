import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEraDispatcher } from "../src/server/era-dispatcher.js";
import type { AuthInfo } from "../src/server/context.js";
import { requireScopes } from "../src/server/require-scopes.js";
import { routingHeaders } from "../src/transport/http/headers.js";
import {
  startTestAuthorizationServer,
  type TestAuthorizationServer,
} from "../../cli/test/support/oauth-server.js";
import { serveProtected } from "../../cli/test/support/protected-server.js";
import { dualEras, LEGACY_INITIALIZE, PROTOCOL, request } from "./fixture.js";

// requireScopes behind the HTTP server's resource server: a tool the token lacks a scope for
// is refused with the 403 `insufficient_scope` challenge the resource server sends for its
// own scope checks, naming every scope the call needs (the required ones and the tool's), in
// both eras; the middleware sees the verified token as `authInfo`.

let as: TestAuthorizationServer;
let server: { url: string; close(): Promise<void> };
const seen: (AuthInfo | undefined)[] = [];

beforeAll(async () => {
  as = await startTestAuthorizationServer();
  const dispatcher = createEraDispatcher(
    dualEras(),
    {
      "tools/call": (params: { name: string }) => ({
        content: [{ type: "text", text: params.name }],
      }),
    },
    {
      middleware: [
        { before: (call) => void seen.push(call.authInfo) },
        requireScopes({ deploy: ["mcp:deploy"] }),
      ],
    },
  );
  server = await serveProtected(PROTOCOL, dispatcher, as, { requiredScopes: ["mcp:tools"] });
});
afterAll(async () => {
  await server.close();
  await as.close();
});

const call = (name: string, id = 1) => request("tools/call", id, { name });
const post = (message: unknown, headers: Record<string, string> = {}) =>
  fetch(server.url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...routingHeaders(PROTOCOL, message as never),
      ...headers,
    },
    body: JSON.stringify(message),
  });
const bearer = async (scope: string) => ({
  authorization: `Bearer ${await as.mintToken({ aud: server.url, scope })}`,
});
/** The auth-params of a Bearer challenge. */
const challenge = (r: Response) => {
  const header = r.headers.get("www-authenticate") ?? "";
  expect(header).toMatch(/^Bearer error="insufficient_scope", /);
  return Object.fromEntries([...header.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
};

describe("requireScopes over HTTP", () => {
  it("modern: 403 insufficient_scope naming the scopes the call needs; with them, the call", async () => {
    const weak = await bearer("mcp:tools");
    expect((await post(call("echo"), weak)).status).toBe(200);
    const refused = await post(call("deploy", 2), weak);
    expect(refused.status).toBe(403);
    expect(challenge(refused)).toMatchObject({
      error: "insufficient_scope",
      scope: "mcp:tools mcp:deploy",
      resource_metadata: expect.stringContaining("/.well-known/oauth-protected-resource"),
    });
    expect(await refused.json()).toMatchObject({
      id: 2,
      error: { code: -32600, data: { scopes: ["mcp:deploy"] } },
    });
    const stepped = await post(call("deploy", 3), await bearer("mcp:tools mcp:deploy"));
    expect(stepped.status).toBe(200);
    expect(await stepped.json()).toMatchObject({ result: { content: [{ text: "deploy" }] } });
    expect(seen.at(-1)).toMatchObject({
      subject: expect.any(String),
      scopes: ["mcp:tools", "mcp:deploy"],
    });
  });

  it("legacy session: the same 403, and the session goes on", async () => {
    const weak = await bearer("mcp:tools");
    const opened = await post(LEGACY_INITIALIZE, weak);
    expect(opened.status).toBe(200);
    const session = {
      "mcp-session-id": opened.headers.get("mcp-session-id")!,
      "MCP-Protocol-Version": "2098-01-01",
    };
    const legacyCall = (name: string, id: number) => ({
      jsonrpc: "2.0",
      id,
      method: "tools/call",
      params: { name },
    });
    const refused = await post(legacyCall("deploy", 2), { ...weak, ...session });
    expect(refused.status).toBe(403);
    expect(challenge(refused).scope).toBe("mcp:tools mcp:deploy");
    const echoed = await post(legacyCall("echo", 3), { ...weak, ...session });
    expect(echoed.status).toBe(200);
  });
});
