import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createJwtVerifier } from "../src/auth/jwt.js";
import { createEraDispatcher } from "../src/server/era-dispatcher.js";
import { routingHeaders } from "../src/transport/http/headers.js";
import {
  createResourceServer,
  InvalidTokenError,
  type ResourceServerOptions,
} from "../src/auth/resource-server.js";
import {
  startTestAuthorizationServer,
  type TestAuthorizationServer,
} from "../../cli/test/support/oauth-server.js";
import { serveProtected } from "../../cli/test/support/protected-server.js";
import { dualEras, LEGACY_INITIALIZE, PROTOCOL, request } from "./fixture.js";

// The HTTP server as an OAuth resource server (2026-07-28 basic/authorization), with the
// JWT verifier against the test authorization server's JWKS, over both eras.

let as: TestAuthorizationServer;
let server: { url: string; close(): Promise<void> };
let resource: string;
const seen: (string | undefined)[] = [];

beforeAll(async () => {
  as = await startTestAuthorizationServer();
  // The tool answers with the principal the dispatcher was given.
  const dispatcher = createEraDispatcher(dualEras(), {
    "tools/call": (_params: any, ctx: any) => (
      seen.push(ctx.principal),
      { content: [{ type: "text", text: String(ctx.principal) }] }
    ),
    "tools/list": () => ({ tools: [] }),
  });
  server = await serveProtected(PROTOCOL, dispatcher, as, {
    requiredScopes: ["mcp:tools"],
    scopesSupported: ["mcp:tools", "mcp:profile"],
    methodScopes: { "tools/list": ["mcp:list"] },
    toolScopes: { whoami: ["mcp:profile"] },
    metadata: { resource_name: "test server" },
  });
  resource = server.url;
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
      ...routingHeaders(PROTOCOL, message as any),
      ...headers,
    },
    body: JSON.stringify(message),
  });
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const token = (scope = "mcp:tools", extra: object = {}) =>
  as.mintToken({ aud: resource, scope, ...extra });
/** The auth-params of a Bearer challenge. */
const challenge = (r: Response) => {
  const header = r.headers.get("www-authenticate") ?? "";
  expect(header).toMatch(/^Bearer /);
  return Object.fromEntries([...header.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
};

describe("protected resource metadata (RFC 9728)", () => {
  it("is served at the root and at the path-specific well-known URL, naming the resource and its authorization servers", async () => {
    const origin = new URL(resource).origin;
    for (const path of [
      "/.well-known/oauth-protected-resource",
      "/.well-known/oauth-protected-resource/mcp",
    ]) {
      const r = await fetch(`${origin}${path}`);
      expect(r.status, path).toBe(200);
      expect(r.headers.get("content-type")).toBe("application/json");
      expect(await r.json()).toEqual({
        resource,
        authorization_servers: [as.issuer],
        scopes_supported: ["mcp:tools", "mcp:profile"],
        bearer_methods_supported: ["header"],
        resource_name: "test server",
      });
    }
    expect((await fetch(`${origin}/.well-known/oauth-protected-resource/other`)).status).toBe(404);
    expect(
      (await fetch(`${origin}/.well-known/oauth-protected-resource`, { method: "POST" })).status,
    ).toBe(405);
  });
});

describe("bearer challenges", () => {
  it("answers a request without a token with 401 naming the metadata and the scopes, and no error code", async () => {
    const r = await post(call("echo"));
    expect(r.status).toBe(401);
    expect(challenge(r)).toEqual({
      resource_metadata: `${new URL(resource).origin}/.well-known/oauth-protected-resource/mcp`,
      scope: "mcp:tools",
    });
    expect((await r.json()).error.message).toBe("Unauthorized");
    // Another scheme is no bearer credential either.
    expect(
      challenge(await post(call("echo"), { authorization: "Basic YTpi" })).error,
    ).toBeUndefined();
  });

  it("serves a valid token, and gives the handler the verified principal (issuer and subject)", async () => {
    const r = await post(call("echo"), bearer(await token()));
    expect(r.status).toBe(200);
    expect((await r.json()).result.content[0].text).toBe(`${as.issuer} alice`);
  });

  it("refuses invalid, foreign-signed, wrong-issuer, expired and other-resource tokens with 401 invalid_token, never echoing the token", async () => {
    const cases: [string, string, RegExp][] = [
      ["garbage", "not.a.jwt", /not valid/],
      [
        "foreign key",
        await as.mintToken({ aud: resource, scope: "mcp:tools", foreignKey: true }),
        /not signed by a known key/,
      ],
      ["wrong issuer", await token("mcp:tools", { iss: "https://evil.example" }), /iss claim/],
      ["expired", await token("mcp:tools", { expiresIn: -120 }), /expired/],
      [
        "another resource",
        await as.mintToken({ aud: "https://other.example/mcp", scope: "mcp:tools" }),
        /not issued for this resource/,
      ],
      [
        "no audience",
        await as.mintToken({ scope: "mcp:tools" }),
        /aud claim|not issued for this resource/,
      ],
    ];
    for (const [what, jwt, description] of cases) {
      const r = await post(call("echo"), bearer(jwt));
      expect(r.status, what).toBe(401);
      const params = challenge(r);
      expect(params.error, what).toBe("invalid_token");
      expect(params.error_description, what).toMatch(description);
      expect(params.resource_metadata, what).toContain("/.well-known/oauth-protected-resource");
      const text = `${r.headers.get("www-authenticate")}${await r.text()}`;
      expect(text, what).not.toContain(jwt);
    }
    expect(seen.every((p) => p === `${as.issuer} alice`)).toBe(true);
  });

  it("the JWT verifier takes only access tokens typed at+jwt unless told otherwise (RFC 9068 section 4)", async () => {
    const verifier = (typ?: string | readonly string[] | false) =>
      createJwtVerifier({
        jwksUrl: as.jwksUri,
        issuer: as.issuer,
        resource,
        ...(typ === undefined ? {} : { typ }),
      });
    const typed = (typ: string | null) => as.mintToken({ aud: resource, scope: "mcp:tools", typ });
    const strict = verifier();
    for (const typ of ["logout+jwt", "dpop+jwt", "JWT", "application/jwt", null]) {
      await expect(strict(await typed(typ)), String(typ)).rejects.toThrow(
        "The token's typ is not accepted: an access token is typed at+jwt",
      );
    }
    // The media type's prefix and case do not matter (RFC 7515 section 4.1.9).
    for (const typ of ["at+jwt", "application/at+jwt", "AT+JWT"])
      expect((await strict(await typed(typ))).scopes, typ).toEqual(["mcp:tools"]);
    // Through the server: the same 401 invalid_token.
    const r = await post(call("echo"), bearer(await typed("logout+jwt")));
    expect(r.status).toBe(401);
    expect(challenge(r)).toMatchObject({ error: "invalid_token" });
    // Relaxed for authorization servers that type their access tokens plain JWT.
    const relaxed = verifier(["at+jwt", "JWT"]);
    expect((await relaxed(await typed("JWT"))).subject).toBe("alice");
    await expect(relaxed(await typed("dpop+jwt"))).rejects.toThrow(/typ is not accepted/);
    await expect(relaxed(await typed(null))).rejects.toThrow(/typ is not accepted/);
    expect((await verifier(false)(await typed(null))).subject).toBe("alice");
    expect(() => verifier([])).toThrow(/typ/);
  });

  it("accepts a token that expired within the clock tolerance", async () => {
    expect(
      (await post(call("echo"), bearer(await token("mcp:tools", { expiresIn: -5 })))).status,
    ).toBe(200);
  });

  it("answers a malformed bearer credential with 400 invalid_request", async () => {
    const r = await post(call("echo"), { authorization: "Bearer a b" });
    expect(r.status).toBe(400);
    expect(challenge(r).error).toBe("invalid_request");
  });

  it("answers a missing per-tool, per-method or required scope with 403 insufficient_scope naming every scope the operation needs", async () => {
    const weak = bearer(await token());
    const r = await post(call("whoami", 7), weak);
    expect(r.status).toBe(403);
    expect(challenge(r)).toMatchObject({
      error: "insufficient_scope",
      scope: "mcp:tools mcp:profile",
      resource_metadata: expect.stringContaining("/.well-known/"),
    });
    expect((await r.json()).id).toBe(7);
    expect((await post(request("tools/list", 2), weak)).status).toBe(403);
    expect(challenge(await post(request("tools/list", 2), weak)).scope).toBe("mcp:tools mcp:list");
    // Stepped up: the same calls pass.
    const strong = bearer(await token("mcp:tools mcp:profile mcp:list"));
    expect((await post(call("whoami"), strong)).status).toBe(200);
    expect((await post(request("tools/list", 2), strong)).status).toBe(200);
  });

  it("names the base scopes with the method's and the tool's when a token lacks the base ones, so one step-up is enough", async () => {
    const profileOnly = bearer(await token("mcp:profile"));
    const cases: [unknown, string][] = [
      [call("whoami", 3), "mcp:tools mcp:profile"],
      [request("tools/list", 4), "mcp:tools mcp:list"],
      [call("echo", 5), "mcp:tools"],
    ];
    for (const [message, scope] of cases) {
      const r = await post(message, profileOnly);
      expect(r.status, scope).toBe(403);
      expect(challenge(r), scope).toMatchObject({ error: "insufficient_scope", scope });
    }
    // One step-up with the scopes named is enough.
    const stepped = bearer(await token("mcp:profile mcp:tools"));
    expect((await post(call("whoami", 6), stepped)).status).toBe(200);
    // Unauthenticated requests are still refused before their body is read.
    expect((await post(call("whoami"), {})).status).toBe(401);
  });
});

describe("legacy sessions under a resource server", () => {
  it("binds a session to the token's principal: another principal's valid token gets 404 on POST, GET and DELETE", async () => {
    const alice = bearer(await token());
    const bob = bearer(await as.mintToken({ aud: resource, scope: "mcp:tools", sub: "bob" }));
    expect((await post(LEGACY_INITIALIZE)).status).toBe(401);
    const opened = await post(LEGACY_INITIALIZE, alice);
    expect(opened.status).toBe(200);
    const id = opened.headers.get("mcp-session-id")!;
    const session = { "mcp-session-id": id, "MCP-Protocol-Version": "2098-01-01" };
    expect((await post(call("echo", 2), { ...bob, ...session })).status).toBe(404);
    expect((await fetch(server.url, { headers: { ...bob, ...session } })).status).toBe(404);
    expect(
      (await fetch(server.url, { method: "DELETE", headers: { ...bob, ...session } })).status,
    ).toBe(404);
    // Without a token, or with an expired one, the session is not even looked up.
    expect((await fetch(server.url, { method: "DELETE", headers: session })).status).toBe(401);
    const expired = bearer(await token("mcp:tools", { expiresIn: -120 }));
    expect(challenge(await post(call("echo", 3), { ...expired, ...session })).error).toBe(
      "invalid_token",
    );
    // Per-tool scopes hold inside a session too; a token lacking the base scopes is told
    // every scope its POST needs, and its GET and DELETE (no message) the base ones.
    expect((await post(call("whoami", 4), { ...alice, ...session })).status).toBe(403);
    const weak = { ...bearer(await token("mcp:profile")), ...session };
    expect(challenge(await post(call("whoami", 4), weak)).scope).toBe("mcp:tools mcp:profile");
    for (const method of ["GET", "DELETE"]) {
      const r = await fetch(server.url, { method, headers: weak });
      expect(r.status, method).toBe(403);
      expect(challenge(r), method).toMatchObject({
        error: "insufficient_scope",
        scope: "mcp:tools",
      });
    }
    const used = await post(call("echo", 5), { ...alice, ...session });
    expect((await used.json()).result.content[0].text).toBe(`${as.issuer} alice`);
    // A fresh token of the same principal (a refresh) keeps the session.
    const refreshed = bearer(await token());
    const stream = await fetch(server.url, { headers: { ...refreshed, ...session } });
    expect(stream.status).toBe(200);
    expect(stream.headers.get("content-type")).toBe("text/event-stream");
    await stream.body?.cancel();
    expect(
      (await fetch(server.url, { method: "DELETE", headers: { ...refreshed, ...session } })).status,
    ).toBe(200);
  });
});

describe("resource server options", () => {
  const base: ResourceServerOptions = {
    resource: "https://mcp.example.com/mcp",
    authorizationServers: ["https://auth.example.com"],
    verifyToken: async () => ({
      subject: "s",
      scopes: [],
      audience: "https://mcp.example.com/mcp",
    }),
  };

  it("refuses a resource that is not an absolute http(s) URL without fragment, no authorization server, and offline_access", () => {
    expect(() => createResourceServer({ ...base, resource: "mcp.example.com" })).toThrow(
      /absolute URL/,
    );
    expect(() =>
      createResourceServer({ ...base, resource: "https://mcp.example.com/mcp#x" }),
    ).toThrow(/fragment/);
    expect(() => createResourceServer({ ...base, authorizationServers: [] })).toThrow(
      /at least one/,
    );
    expect(() => createResourceServer({ ...base, scopesSupported: ["offline_access"] })).toThrow(
      /offline_access/,
    );
  });

  it("re-checks the audience a custom verifier returns, and never sends back a description quoting the token", async () => {
    const fakeRequest = (token: string) =>
      ({ headers: { authorization: `Bearer ${token}` } }) as any;
    const foreign = createResourceServer({
      ...base,
      verifyToken: async () => ({ subject: "s", scopes: [], audience: "https://MCP.example.com" }),
    });
    await expect(foreign.authenticate(fakeRequest("t0k3n"))).rejects.toMatchObject({
      status: 401,
      headers: { "www-authenticate": expect.stringContaining("not issued for this resource") },
    });
    // Host case is not significant (2026-07-28 authorization, Canonical Server URI).
    const upper = createResourceServer({
      ...base,
      verifyToken: async () => ({
        subject: "s",
        scopes: [],
        audience: ["x", "HTTPS://MCP.EXAMPLE.COM/mcp"],
      }),
    });
    expect(await upper.authenticate(fakeRequest("t0k3n"))).toBe("s");
    const leaky = createResourceServer({
      ...base,
      verifyToken: async (t) => Promise.reject(new InvalidTokenError(`bad token ${t}`)),
    });
    const refusal = await leaky.authenticate(fakeRequest("s3cr3t-t0k3n")).catch((e) => e);
    expect(refusal.status).toBe(401);
    expect(JSON.stringify([refusal.message, refusal.headers])).not.toContain("s3cr3t-t0k3n");
  });

  it("refuses a token without the required scopes at authentication, or, deferred, at authorization naming the message's scopes too", async () => {
    const rs = createResourceServer({
      ...base,
      requiredScopes: ["mcp:tools"],
      toolScopes: { write: ["files:write"] },
    });
    const req = () => ({ headers: { authorization: "Bearer abc" } }) as any;
    await expect(rs.authenticate(req())).rejects.toMatchObject({
      status: 403,
      headers: { "www-authenticate": expect.stringContaining('scope="mcp:tools",') },
    });
    const deferred = req();
    expect(await rs.authenticate(deferred, { deferScopeCheck: true })).toBe("s");
    expect(rs.authorize(deferred, call("write"))).toMatchObject({
      status: 403,
      headers: { "www-authenticate": expect.stringContaining('scope="mcp:tools files:write",') },
    });
  });

  it("lets a scope hierarchy satisfy a narrower scope", async () => {
    const rs = createResourceServer({
      ...base,
      toolScopes: { write: ["files:write"] },
      verifyToken: async () => ({ subject: "s", scopes: ["files:*"], audience: base.resource }),
      scopeSatisfies: (granted, needed) =>
        granted.some(
          (g) => g === needed || (g.endsWith(":*") && needed.startsWith(g.slice(0, -1))),
        ),
    });
    const req = { headers: { authorization: "Bearer abc" } } as any;
    await rs.authenticate(req);
    expect(rs.authorize(req, call("write"))).toBeUndefined();
  });
});
