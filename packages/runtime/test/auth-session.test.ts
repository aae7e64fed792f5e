import { afterEach, describe, expect, it, vi } from "vitest";
import type * as oauth from "oauth4webapi";
import { scopesToRequest } from "../src/auth/oauth-challenge.js";
import { currentHeaders, type OAuthSession } from "../src/auth/oauth-tokens.js";
import { memoryTokenStore, type StoredTokens } from "../src/auth/store.js";

// Parts of the OAuth client on their own, without a network: the scopes an authorization
// asks for, and the headers a request gets from the stored tokens as they near expiry.

const AS: oauth.AuthorizationServer = { issuer: "https://as.example" };
const WITH_OFFLINE: oauth.AuthorizationServer = { ...AS, scopes_supported: ["offline_access"] };
const PRM = { resource: "https://mcp.example/", authorizationServers: [AS.issuer] };
const token = (scopes: string[]): StoredTokens => ({ issuer: AS.issuer, accessToken: "t", scopes });
const none = { tokens: undefined, requested: [], wantsRefresh: false, prm: undefined, as: AS };

describe("the scopes an authorization asks for", () => {
  it("on a 401: the challenge's, else what the server supports, with those asked before", () => {
    const challenge = { status: 401 };
    const prm = { ...PRM, scopesSupported: ["read", "write"] };
    expect(scopesToRequest({ ...none, challenge: { ...challenge, scopes: ["x"] }, prm })).toEqual([
      "x",
    ]);
    expect(scopesToRequest({ ...none, challenge, prm, requested: ["old"] })).toEqual([
      "old",
      "read",
      "write",
    ]);
  });

  it("adds offline_access only when a refresh token is wanted, scopes are asked and the server lists it", () => {
    const challenge = { status: 401, scopes: ["a"] };
    const refresh = { ...none, challenge, wantsRefresh: true };
    expect(scopesToRequest({ ...refresh, as: WITH_OFFLINE })).toEqual(["a", "offline_access"]);
    expect(scopesToRequest({ ...refresh, as: AS })).toEqual(["a"]);
    expect(scopesToRequest({ ...none, challenge, as: WITH_OFFLINE })).toEqual(["a"]);
    const nothing = { ...refresh, challenge: { status: 401 }, as: WITH_OFFLINE };
    expect(scopesToRequest(nothing)).toEqual([]);
  });

  it("on a 403 step-up: the union, but fails for scopes the token has or that were asked already", () => {
    const stepUp = { status: 403, scopes: ["write"] };
    const tokens = token(["read"]);
    expect(scopesToRequest({ ...none, challenge: stepUp, tokens, requested: ["read"] })).toEqual([
      "read",
      "write",
    ]);
    expect(scopesToRequest({ ...none, challenge: stepUp, tokens: token(["write"]) })).toBe("fail");
    expect(scopesToRequest({ ...none, challenge: stepUp, tokens, requested: ["write"] })).toBe(
      "fail",
    );
    // A 403 without scopes asks for none (not scopes_supported): nothing new to ask.
    const bare = { ...none, challenge: { status: 403 }, prm: { ...PRM, scopesSupported: ["x"] } };
    expect(scopesToRequest({ ...bare, tokens })).toBe("fail");
  });
});

describe("the headers of a request", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  function session(tokens: StoredTokens): OAuthSession {
    const store = memoryTokenStore();
    store.setTokens("https://mcp.example/", tokens);
    return {
      serverUrl: new URL("https://mcp.example/"),
      key: "https://mcp.example/",
      grant: "authorization_code",
      store,
      http: { fetch: () => Promise.reject(new Error("no network")), insecure: () => false },
      registrar: { clientFor: () => Promise.reject(new Error("no registration")) } as never,
      assertions: undefined,
      settings: {},
      known: undefined,
      requested: [],
      reauthorizations: [],
      queue: Promise.resolve(),
      prover: undefined,
    };
  }
  const request = { method: "POST", url: new URL("https://mcp.example/") };

  it("carry the token until 30 s before its expiry; then, with no refresh token, none", async () => {
    vi.useFakeTimers({ now: 1_000_000 });
    const tokens = { ...token([]), expiresAt: 1_000_000 + 30_001 };
    const client = session(tokens);
    expect(await currentHeaders(client, request)).toEqual({ authorization: "Bearer t" });
    vi.setSystemTime(1_000_001);
    expect(await currentHeaders(client, request)).toEqual({});
  });

  it("leave out a DPoP-bound token when the client has no key for it", async () => {
    const client = session({ ...token([]), tokenType: "dpop" });
    expect(await currentHeaders(client, request)).toEqual({});
    client.store.setTokens(client.key, token([]));
    expect(await currentHeaders(client, request)).toEqual({ authorization: "Bearer t" });
  });
});
