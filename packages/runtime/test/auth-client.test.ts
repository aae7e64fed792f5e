import { afterEach, describe, expect, it, vi } from "vitest";
import { createOAuthClient, headlessRedirect, memoryTokenStore } from "../src/auth/oauth-client.js";
import { metadataUrls, resourceMatches } from "../src/auth/discovery.js";
import { AuthorizationError } from "../src/auth/http-auth.js";
import { createSender } from "../src/client/engine.js";
import { RequestTimeoutError } from "../src/client/errors.js";
import { createHttpTransport } from "../src/transport/http/client/client.js";
import type { Transport } from "../src/core/transport.js";
import { failure, REDIRECT } from "./auth-common.js";
import {
  startFake,
  startFakeWithClient,
  type ClientOptions,
  type Fake,
  type FakeOptions,
} from "./auth-fixture.js";
import { within } from "../../cli/test/support/wait.js";
import { PROTOCOL, VALIDATORS } from "./fixture.js";

// The OAuth client (src/auth/oauth-client.ts) through the HTTP transport's auth hook, against a
// fake authorization server and resource server (auth-fixture.ts).

let fake: Fake | undefined;
afterEach(async () => {
  vi.useRealTimers();
  await fake?.close();
});

async function setup(options: FakeOptions = {}, client: ClientOptions = {}) {
  const started = await startFakeWithClient(options, client);
  fake = started.fake;
  return started;
}

describe("the OAuth client", () => {
  it("answers a 401 with discovery, registration, the code grant with PKCE, state and resource, then retries", async () => {
    const { fake, call } = await setup();
    const first = await call();
    expect(first.result?.token).toMatch(/^tok-/);
    const [authorize] = fake.authorizeRequests;
    expect(authorize?.get("code_challenge_method")).toBe("S256");
    expect(authorize?.get("resource")).toBe(fake.url);
    expect(authorize?.get("state")).toBeTruthy();
    expect(authorize?.get("client_id")).toBe("client-1");
    expect(fake.registrations[0]).toMatchObject({
      redirect_uris: [REDIRECT],
      application_type: "native",
      grant_types: ["authorization_code", "refresh_token"],
    });
    const token = fake.tokenRequests[0]!.body;
    expect(token.get("resource")).toBe(fake.url);
    expect(token.get("code_verifier")).toBeTruthy();
    // The token is kept: the next call authorizes nothing.
    expect((await call()).result?.token).toBe(first.result?.token);
    expect(fake.authorizeRequests).toHaveLength(1);
  });

  it("discovers in the spec's order: path-specific then root resource metadata, then path-aware issuer metadata", async () => {
    const { fake, call } = await setup({
      prmInHeader: false,
      prmPaths: ["/.well-known/oauth-protected-resource"],
      resource: (base) => base,
      issuerPath: "/tenant1",
      asMetadataPaths: (p) => [`${p}/.well-known/openid-configuration`],
    });
    await call();
    const gets = fake.log.filter((l) => l.startsWith("GET /.well-known") || l.includes("openid"));
    expect(gets).toEqual([
      "GET /.well-known/oauth-protected-resource/mcp",
      "GET /.well-known/oauth-protected-resource",
      "GET /.well-known/oauth-authorization-server/tenant1",
      "GET /.well-known/openid-configuration/tenant1",
      "GET /tenant1/.well-known/openid-configuration",
    ]);
    // The resource goes out exactly as the metadata publishes it (no trailing slash added).
    expect(fake.authorizeRequests[0]?.get("resource")).toBe(fake.base);
  });

  it("refuses plain http to the authorization server, naming it and the test-only way out", async () => {
    const { fake, call } = await setup({}, { insecureLoopback: false });
    const error = await failure(call());
    expect(error.message).toMatch(
      new RegExp(
        `only https URLs are allowed \\(${fake.base.replace(/\./g, "\\.")}\\); insecureLoopback: true allows http to localhost`,
      ),
    );
    expect(fake.tokenRequests).toEqual([]);
  });

  it("refuses an authorization server without PKCE S256 before sending the user to it", async () => {
    const { fake, call } = await setup({ noPkce: true });
    expect((await failure(call())).message).toMatch(/does not support PKCE with S256/);
    expect(fake.authorizeRequests).toEqual([]);
    expect(fake.tokenRequests).toEqual([]);
  });

  it("lists an issuer's metadata URLs as the spec orders them", () => {
    expect(metadataUrls(new URL("https://as.example")).map(String)).toEqual([
      "https://as.example/.well-known/oauth-authorization-server",
      "https://as.example/.well-known/openid-configuration",
    ]);
  });

  it("selects scopes: the challenge's, else scopes_supported, else none; offline_access only where the server lists it", async () => {
    const asked = async (options: FakeOptions) => {
      const { fake, call } = await setup(options);
      await call();
      await fake.close();
      return fake.authorizeRequests[0]?.get("scope");
    };
    expect(await asked({ challengeScope: "files:read", scopesSupported: ["a", "b"] })).toBe(
      "files:read",
    );
    expect(await asked({ scopesSupported: ["a", "b"] })).toBe("a b");
    expect(await asked({})).toBeNull();
    expect(
      await asked({ scopesSupported: ["a"], asScopesSupported: ["a", "offline_access"] }),
    ).toBe("a offline_access");
    fake = undefined;
  });

  it("steps up on 403 insufficient_scope with the union of the scopes, and gives up on a scope it already has", async () => {
    const { fake, call } = await setup({
      challengeScope: "read",
      requiredScopes: { "tools/list": ["read"], "tools/call": ["write"], ping: ["admin"] },
      grantable: ["read", "write"],
    });
    await call("tools/list");
    await call("tools/call");
    expect(fake.authorizeRequests.map((q) => q.get("scope"))).toEqual(["read", "read write"]);
    // "admin" is asked for once, never granted: the client then stops asking.
    const error = await failure(call("ping"));
    expect(error).toBeInstanceOf(AuthorizationError);
    expect(fake.authorizeRequests.map((q) => q.get("scope"))).toEqual([
      "read",
      "read write",
      "read write admin",
    ]);
    await failure(call("ping"));
    expect(fake.authorizeRequests).toHaveLength(3);
    // Other calls go on with the token granted.
    expect((await call("tools/call")).result?.token).toBeTruthy();
  });

  it("refuses a redirect whose state is not the one sent, before any token request", async () => {
    const { fake, call } = await setup({ tamperState: true });
    expect((await failure(call())).message).toMatch(/state/);
    expect(fake.tokenRequests).toHaveLength(0);
  });

  it("refuses a wrong iss, and a missing one from a server that advertises it (RFC 9207)", async () => {
    for (const options of [
      { iss: "wrong" as const },
      { iss: "omit" as const, issSupported: true },
    ]) {
      const { fake, call } = await setup(options);
      expect((await failure(call())).message).toMatch(/iss/);
      expect(fake.tokenRequests).toHaveLength(0);
      await fake.close();
    }
    fake = undefined;
  });

  it("refuses resource metadata for another resource before authorizing", async () => {
    const { fake, call } = await setup({ resource: () => "https://evil.example/mcp" });
    expect((await failure(call())).message).toMatch(/another resource/);
    expect(fake.log.some((l) => l.includes("oauth-authorization-server"))).toBe(false);
    expect(fake.authorizeRequests).toHaveLength(0);
    expect(resourceMatches("http://a.example/mcp", new URL("http://a.example/mcp"))).toBe(true);
    expect(resourceMatches("http://a.example", new URL("http://a.example/mcp"))).toBe(true);
    expect(resourceMatches("http://a.example/mc", new URL("http://a.example/mcp"))).toBe(false);
    expect(resourceMatches("http://a.example:81/mcp", new URL("http://a.example/mcp"))).toBe(false);
  });

  it("refuses authorization server metadata for another issuer: no registration, no authorization", async () => {
    const { fake, call } = await setup({ metadataIssuer: "https://attacker.example" });
    await failure(call());
    expect(fake.registrations).toHaveLength(0);
    expect(fake.authorizeRequests).toHaveLength(0);
  });

  it("never puts a token, secret, code or server text in an error", async () => {
    const secret = "s3cr3t-value";
    const { fake, call } = await setup(
      {
        authMethods: ["client_secret_post"],
        tokenError: { error: "invalid_grant", error_description: `echo ${secret}` },
      },
      (issuer) => ({ preRegistered: { clientId: "app", clientSecret: secret, issuer } }),
    );
    const error = await failure(call());
    expect(fake.tokenRequests[0]?.body.get("client_secret")).toBe(secret);
    const code = fake.tokenRequests[0]?.body.get("code") ?? "";
    const shown = `${String(error)} ${error.stack} ${JSON.stringify(error)} ${String((error as { cause?: unknown }).cause)}`;
    for (const leak of [secret, code]) expect(shown).not.toContain(leak);
    expect(error.message).toMatch(/invalid_grant/);
  });

  it("does not show the access token when the server keeps refusing it", async () => {
    const { fake, call } = await setup({
      requiredScopes: { "tools/list": ["never"] },
      grantable: [],
    });
    const error = await failure(call());
    for (const token of fake.issued.keys())
      expect(`${String(error)} ${error.stack}`).not.toContain(token);
  });

  it("refreshes an expiring token instead of authorizing again", async () => {
    const store = memoryTokenStore();
    const { fake, call } = await setup({ refreshTokens: true }, { store });
    await call();
    const tokens = await store.getTokens(fake.url);
    await store.setTokens(fake.url, { ...tokens!, expiresAt: Date.now() });
    const after = await call();
    expect(fake.authorizeRequests).toHaveLength(1);
    expect(fake.tokenRequests.map((t) => t.body.get("grant_type"))).toEqual([
      "authorization_code",
      "refresh_token",
    ]);
    expect(fake.tokenRequests[1]?.body.get("resource")).toBe(fake.url);
    expect(fake.tokenRequests[1]?.body.get("refresh_token")).toBe(tokens?.refreshToken);
    expect(after.result?.token).not.toBe(tokens?.accessToken);
    // A later run with the same store (nothing discovered yet) refreshes for the same resource.
    const kept = await store.getTokens(fake.url);
    await store.setTokens(fake.url, { ...kept!, expiresAt: Date.now() });
    const later = createOAuthClient({
      serverUrl: fake.url,
      redirect: headlessRedirect(REDIRECT),
      insecureLoopback: true,
      store,
    });
    await createHttpTransport(PROTOCOL, { url: fake.url, auth: later }).request({
      jsonrpc: "2.0",
      id: 9,
      method: "tools/list",
      params: {},
    });
    expect(fake.tokenRequests.map((t) => t.body.get("grant_type"))).toEqual([
      "authorization_code",
      "refresh_token",
      "refresh_token",
    ]);
    expect(fake.tokenRequests[2]?.body.get("resource")).toBe(fake.url);
  });

  it("authorizes again once a token without a refresh token has expired", async () => {
    const store = memoryTokenStore();
    const { fake, call } = await setup({}, { store });
    await call();
    const tokens = await store.getTokens(fake.url);
    await store.setTokens(fake.url, { ...tokens!, expiresAt: Date.now() });
    // The expired token is not sent, and not taken for one obtained meanwhile: a new grant.
    expect((await call()).result?.token).not.toBe(tokens?.accessToken);
    expect(fake.authorizeRequests).toHaveLength(2);
  });

  it("re-registers with a new authorization server and never presents the old one's client", async () => {
    const store = memoryTokenStore();
    const { fake, call } = await setup({}, { store });
    await call();
    expect((await store.getTokens(fake.url))?.issuer).toBe(fake.base);
    // The server's metadata now names another issuer, and the old tokens are refused.
    fake.options.issuerPath = "/as2";
    fake.issued.clear();
    await call();
    expect(fake.registrations).toHaveLength(2);
    expect(fake.authorizeRequests[1]?.get("client_id")).toBe("client-2");
    expect((await store.getTokens(fake.url))?.issuer).toBe(`${fake.base}/as2`);
    expect(await store.getClient(fake.base)).toMatchObject({ clientId: "client-1" });
    expect(await store.getClient(`${fake.base}/as2`)).toMatchObject({ clientId: "client-2" });
  });

  it("falls back to the 2025-03-26 discovery when the server publishes no resource metadata", async () => {
    const { fake, call } = await setup({
      prmPaths: [],
      prmInHeader: false,
      asMetadataPaths: () => ["/.well-known/oauth-authorization-server"],
    });
    await call();
    expect(fake.authorizeRequests[0]?.get("resource")).toBeNull();
    expect(fake.log).toContain("GET /.well-known/oauth-protected-resource");
  });

  it("uses its client metadata document URL as client_id where supported, and refuses one that is not https", async () => {
    expect(() => createOAuthClient({ serverUrl: "https://a.example/mcp" })).toThrow(
      /redirect handler/,
    );
    const document = "https://app.example/client.json";
    const { fake, call } = await setup({ cimd: true }, { clientMetadataUrl: document });
    await call();
    expect(fake.authorizeRequests[0]?.get("client_id")).toBe(document);
    expect(fake.registrations).toHaveLength(0);
    await fake.close();
    const insecure = await setup(
      { cimd: true },
      { clientMetadataUrl: "http://app.example/client.json" },
    );
    expect((await failure(insecure.call())).message).toMatch(/https/);
  });

  it("pauses the request's timeout while the user is at the authorization server", async () => {
    fake = await startFake({});
    // The request's timeout and the user's 400 ms at the authorization server run on fake
    // timers: the test lets the 400 ms pass once the user is there.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const headless = headlessRedirect(REDIRECT);
    let atServer!: () => void;
    const userAway = () => new Promise<void>((resolve) => (atServer = resolve));
    const slow = {
      redirectUri: REDIRECT,
      authorize: async (url: URL) => (
        atServer(),
        await new Promise((r) => setTimeout(r, 400)),
        headless.authorize(url)
      ),
    };
    const shape = { functions: { "tools/list": "listTools" }, notifications: {}, paginated: [] };
    const sender = (transport: Transport) =>
      createSender(PROTOCOL, VALIDATORS, shape, {
        transport,
        requestTimeoutMs: 150,
        validateResults: false,
      }) as unknown as { listTools(): Promise<{ token: string }> };
    const transport = () =>
      createHttpTransport(PROTOCOL, {
        url: fake!.url,
        auth: createOAuthClient({ serverUrl: fake!.url, redirect: slow, insecureLoopback: true }),
      });
    let away = userAway();
    const paused = sender(transport()).listTools();
    await within(away, "the user reaching the authorization server");
    await vi.advanceTimersByTimeAsync(400);
    expect((await paused).token).toMatch(/^tok-/);
    // The same, with the pause taken away: the 400 ms at the authorization server time it out.
    const unpaused = transport();
    const blind: Transport = {
      ...unpaused,
      request: (message, options = {}) =>
        unpaused.request(message, { ...options, onAuthorizing: () => undefined }),
    };
    away = userAway();
    const timedOut = expect(sender(blind).listTools()).rejects.toBeInstanceOf(RequestTimeoutError);
    await within(away, "the user reaching the authorization server");
    await vi.advanceTimersByTimeAsync(400);
    await timedOut;
  });
});
