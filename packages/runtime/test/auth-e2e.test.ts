import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOAuthClient, headlessRedirect, memoryTokenStore } from "../src/auth/oauth-client.js";
import { createSender } from "../src/client/engine.js";
import { createEraDispatcher } from "../src/server/era-dispatcher.js";
import { createHttpTransport } from "../src/transport/http/client/client.js";
import {
  startTestAuthorizationServer,
  type TestAuthorizationServer,
} from "../../cli/test/support/oauth-server.js";
import { serveProtected } from "../../cli/test/support/protected-server.js";
import { PROTOCOL, VALIDATORS } from "./fixture.js";

// End to end: the OAuth client (src/auth/oauth-client.ts) through the client engine and the HTTP
// transport, against the HTTP server as a resource server (src/auth/resource-server.ts with the jose
// JWT verifier) and the test authorization server (JWTs whose `aud` is the `resource` asked for).

let as: TestAuthorizationServer;
let server: { url: string; close(): Promise<void> };

beforeAll(async () => {
  as = await startTestAuthorizationServer();
  const eras = { modern: { protocol: PROTOCOL, validators: VALIDATORS }, legacy: [] };
  const dispatcher = createEraDispatcher(eras, {
    "tools/call": (params: any, ctx: any) => ({
      content: [{ type: "text", text: `${params.name} for ${ctx.principal}` }],
    }),
    "tools/list": () => ({ tools: [] }),
  });
  server = await serveProtected(PROTOCOL, dispatcher, as, {
    requiredScopes: ["mcp:tools"],
    scopesSupported: ["mcp:tools", "mcp:profile"],
    toolScopes: { whoami: ["mcp:profile"] },
  });
});
afterAll(async () => {
  await server.close();
  await as.close();
});

const shape = {
  functions: { "tools/call": "callTool", "tools/list": "listTools" },
  notifications: {},
  paginated: [],
};
type Client = { callTool(params: { name: string }): Promise<{ content: { text: string }[] }> };
const hits = (path: string, grant?: string) =>
  as.requests.filter(
    (r) => r.path.endsWith(path) && (grant === undefined || r.params["grant_type"] === grant),
  ).length;

describe("the generated client's OAuth client against the resource server and an authorization server", () => {
  const store = memoryTokenStore();
  let client: Client;
  beforeAll(() => {
    const auth = createOAuthClient({
      serverUrl: server.url,
      redirect: headlessRedirect("http://127.0.0.1:9/callback"),
      store,
      insecureLoopback: true,
    });
    client = createSender<Client>(PROTOCOL, VALIDATORS, shape, {
      transport: createHttpTransport(PROTOCOL, { url: server.url, auth }),
    });
  });

  it("completes the authorization code flow on the first 401 and calls the tool", async () => {
    const result = await client.callTool({ name: "add" });
    expect(result.content[0]?.text).toMatch(/^add for /);
    expect(hits("/register")).toBe(1);
    expect(hits("/authorize")).toBe(1);
    const authorize = as.requests.find((r) => r.path.endsWith("/authorize"))!;
    expect(authorize.params).toMatchObject({
      scope: "mcp:tools",
      resource: server.url,
      code_challenge_method: "S256",
    });
  });

  it("steps up on 403 insufficient_scope for a tool needing more scope, then succeeds", async () => {
    const result = await client.callTool({ name: "whoami" });
    expect(result.content[0]?.text).toMatch(/^whoami for /);
    const scopes = as.requests
      .filter((r) => r.path.endsWith("/authorize"))
      .map((r) => r.params["scope"]);
    expect(scopes).toEqual(["mcp:tools", "mcp:tools mcp:profile"]);
  });

  it("refreshes an expired token and goes on, without a new authorization", async () => {
    const tokens = (await store.getTokens(server.url))!;
    expect(tokens.refreshToken).toBeTruthy();
    await store.setTokens(server.url, { ...tokens, expiresAt: Date.now() });
    const authorizations = hits("/authorize");
    expect((await client.callTool({ name: "add" })).content[0]?.text).toMatch(/^add for /);
    expect(hits("/token", "refresh_token")).toBe(1);
    expect(hits("/authorize")).toBe(authorizations);
  });

  it("has a token for another resource refused (401), and authorizes again for this one", async () => {
    const foreign = await as.mintToken({ aud: "https://other.example/mcp", scope: "mcp:tools" });
    await store.setTokens(server.url, {
      issuer: as.issuer,
      accessToken: foreign,
      scopes: ["mcp:tools"],
    });
    const authorizations = hits("/authorize");
    expect((await client.callTool({ name: "add" })).content[0]?.text).toMatch(/^add for /);
    expect(hits("/authorize")).toBe(authorizations + 1);
    expect((await store.getTokens(server.url))?.accessToken).not.toBe(foreign);
  });
});
