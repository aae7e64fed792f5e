import type { IncomingMessage, ServerResponse } from "node:http";
import { describe, expect, it, vi } from "vitest";
import { checkTokenBinding, type TokenBindingSettings } from "../src/auth/dpop-binding.js";
import { readCredential } from "../src/auth/request-authentication.js";
import {
  protectedResourceMetadata,
  serveProtectedResourceMetadata,
} from "../src/auth/resource-metadata.js";
import { resolveResourceServerConfig } from "../src/auth/resource-server-config.js";
import {
  AuthChallenge,
  InvalidDPoPProofError,
  type Principal,
  type ResourceServerOptions,
} from "../src/auth/resource-server-types.js";
import { insufficientScope, scopesNeeded } from "../src/auth/scope-policy.js";
import { challenge, type ChallengeSettings } from "../src/auth/www-authenticate.js";

// The resource server's parts on their own, without an HTTP server or a token issuer: what
// each decides from its explicit inputs (resource-server.test.ts covers them assembled).

const RESOURCE = "https://mcp.example.com/mcp";
const METADATA_URL = "https://mcp.example.com/.well-known/oauth-protected-resource/mcp";
const bearerOnly: ChallengeSettings = { metadataUrl: METADATA_URL, dpopAlgorithms: undefined };
const withDPoP: ChallengeSettings = {
  metadataUrl: METADATA_URL,
  dpopAlgorithms: ["ES256", "EdDSA"],
};
const options = (extra: Partial<ResourceServerOptions> = {}): ResourceServerOptions => ({
  resource: RESOURCE,
  authorizationServers: ["https://as.example.com"],
  verifyToken: () => Promise.reject(new Error("not called")),
  ...extra,
});
const principal = (scopes: string[], claims?: Record<string, unknown>): Principal => ({
  subject: "alice",
  scopes,
  audience: RESOURCE,
  ...(claims ? { claims } : {}),
});
const wwwAuthenticate = (refusal: unknown) => {
  expect(refusal).toBeInstanceOf(AuthChallenge);
  return (refusal as AuthChallenge).headers["www-authenticate"] ?? "";
};

describe("challenges (www-authenticate.ts)", () => {
  it("answers in Bearer alone without DPoP, whatever scheme is asked", () => {
    for (const scheme of ["Bearer", "DPoP", "any"] as const)
      expect(wwwAuthenticate(challenge(bearerOnly, 401, "Unauthorized", [], scheme))).toBe(
        `Bearer resource_metadata="${METADATA_URL}"`,
      );
  });

  it("with DPoP offers both schemes to 'any', the DPoP one with its algs, and errors in the request's scheme", () => {
    expect(
      wwwAuthenticate(challenge(withDPoP, 401, "Unauthorized", [["scope", "a b"]], "any")),
    ).toBe(
      `Bearer scope="a b", resource_metadata="${METADATA_URL}", ` +
        `DPoP algs="ES256 EdDSA", resource_metadata="${METADATA_URL}"`,
    );
    expect(
      wwwAuthenticate(challenge(withDPoP, 401, "x", [["error", "invalid_token"]], "DPoP")),
    ).toBe(`DPoP algs="ES256 EdDSA", error="invalid_token", resource_metadata="${METADATA_URL}"`);
  });

  it("drops the characters that could break out of a quoted auth-param", () => {
    const header = wwwAuthenticate(
      challenge(bearerOnly, 401, "x", [["error_description", 'a"b\\c\r\nd\u00e9']], "Bearer"),
    );
    expect(header).toBe(`Bearer error_description="abcd", resource_metadata="${METADATA_URL}"`);
  });
});

describe("reading the Authorization header (request-authentication.ts)", () => {
  it("finds no credential without a header or in a scheme the server does not take", () => {
    expect(readCredential(undefined, true)).toBeUndefined();
    expect(readCredential("Basic YTpi", true)).toBeUndefined();
    expect(readCredential("DPoP abc", false)).toBeUndefined();
    expect(readCredential("Bearerabc", false)).toBeUndefined();
  });

  it("reads the scheme case-insensitively and the b64token, and no token from a malformed one", () => {
    expect(readCredential("bearer abc.def-_~+/==", false)).toEqual({
      scheme: "Bearer",
      token: "abc.def-_~+/==",
    });
    expect(readCredential("dpop abc", true)).toEqual({ scheme: "DPoP", token: "abc" });
    expect(readCredential("Bearer a b", false)).toEqual({ scheme: "Bearer", token: undefined });
    expect(readCredential("Bearer", false)).toEqual({ scheme: "Bearer", token: undefined });
  });
});

describe("scopes (scope-policy.ts)", () => {
  const extra = {
    methodScopes: { "resources/read": ["files:read"], "tools/call": ["mcp:tools"] },
    toolScopes: { deploy: ["mcp:deploy", "mcp:tools"] },
  };

  it("needs the required scopes, then the method's, then the tool's, each once", () => {
    const deploy = { method: "tools/call", params: { name: "deploy" } };
    expect(scopesNeeded(deploy, ["mcp:tools"], extra)).toEqual(["mcp:tools", "mcp:deploy"]);
    expect(scopesNeeded({ method: "resources/read" }, [], extra)).toEqual(["files:read"]);
    // A tool's scopes only for tools/call, and only from own properties.
    expect(
      scopesNeeded({ method: "resources/read", params: { name: "deploy" } }, [], extra),
    ).toEqual(["files:read"]);
    expect(scopesNeeded({ method: "constructor" }, [], extra)).toEqual([]);
    expect(scopesNeeded({ method: "tools/call", params: { name: "toString" } }, [], extra)).toEqual(
      ["mcp:tools"],
    );
  });

  it("refuses with 403 naming every needed scope, not just the missing ones, by scopeSatisfies", () => {
    const includes = (granted: readonly string[], needed: string) => granted.includes(needed);
    expect(
      insufficientScope(bearerOnly, includes, principal(["a", "b"]), "Bearer", ["a", "b"]),
    ).toBe(undefined);
    const refusal = insufficientScope(bearerOnly, includes, principal(["a"]), "Bearer", ["a", "b"]);
    expect(refusal?.status).toBe(403);
    expect(wwwAuthenticate(refusal)).toMatch(/error="insufficient_scope", scope="a b"/);
    // A hierarchy: "admin" satisfies everything.
    const hierarchy = (granted: readonly string[], needed: string) =>
      granted.includes("admin") || granted.includes(needed);
    expect(insufficientScope(bearerOnly, hierarchy, principal(["admin"]), "Bearer", ["b"])).toBe(
      undefined,
    );
  });
});

describe("DPoP binding (dpop-binding.ts)", () => {
  const TOKEN = "the.access.token";
  const request = (headers: Record<string, string>) =>
    ({ method: "POST", headers }) as unknown as IncomingMessage;
  const settings = (verifyProof: (proof: string) => Promise<string>): TokenBindingSettings => ({
    resource: RESOURCE,
    dpop: { verifyProof },
    challenges: withDPoP,
    principalKey: (p) => `principal ${p.subject}`,
  });
  const refusal = async (promise: Promise<void>) => {
    const error = await promise.then(
      () => undefined,
      (e: unknown) => e,
    );
    const header = wwwAuthenticate(error);
    return {
      status: (error as AuthChallenge).status,
      error: /error="([^"]*)"/.exec(header)?.[1],
      description: /error_description="([^"]*)"/.exec(header)?.[1],
    };
  };

  it("refuses a bound token as a bearer one, and lets an unbound one through", async () => {
    const never = settings(() => Promise.reject(new Error("not called")));
    expect(
      await refusal(
        checkTokenBinding(
          never,
          request({}),
          "Bearer",
          TOKEN,
          principal([], { cnf: { jkt: "k" } }),
        ),
      ),
    ).toMatchObject({ status: 401, error: "invalid_token" });
    await expect(
      checkTokenBinding(never, request({}), "Bearer", TOKEN, principal([])),
    ).resolves.toBeUndefined();
  });

  it("needs exactly one proof, checked against this request and token, by the token's key", async () => {
    const verifyProof = vi.fn(() => Promise.resolve("k"));
    const bound = principal([], { cnf: { jkt: "k" } });
    for (const headers of [{}, { dpop: "" }, { dpop: "p1,p2" }])
      expect(
        await refusal(
          checkTokenBinding(settings(verifyProof), request(headers), "DPoP", TOKEN, bound),
        ),
      ).toMatchObject({
        error: "invalid_dpop_proof",
        description: "Exactly one DPoP proof is needed",
      });
    expect(verifyProof).not.toHaveBeenCalled();
    await checkTokenBinding(settings(verifyProof), request({ dpop: "p" }), "DPoP", TOKEN, bound);
    // The principal key goes with it: the replay cache counts proofs per principal.
    expect(verifyProof).toHaveBeenCalledWith("p", {
      method: "POST",
      url: RESOURCE,
      accessToken: TOKEN,
      principal: "principal alice",
    });
    // A proof by another key, or for an unbound token.
    for (const other of [principal([], { cnf: { jkt: "other" } }), principal([])])
      expect(
        await refusal(
          checkTokenBinding(settings(verifyProof), request({ dpop: "p" }), "DPoP", TOKEN, other),
        ),
      ).toMatchObject({
        error: "invalid_token",
        description: "The access token is not bound to the proof's key",
      });
  });

  it("passes on the verifier's reason, unless it quotes the token or is not an InvalidDPoPProofError", async () => {
    const failing = (error: Error) => settings(() => Promise.reject(error));
    const bound = principal([], { cnf: { jkt: "k" } });
    const descriptionFor = async (error: Error) =>
      (
        await refusal(
          checkTokenBinding(failing(error), request({ dpop: "p" }), "DPoP", TOKEN, bound),
        )
      ).description;
    expect(await descriptionFor(new InvalidDPoPProofError("The proof is too old"))).toBe(
      "The proof is too old",
    );
    expect(await descriptionFor(new InvalidDPoPProofError(`bad ath for ${TOKEN}`))).toBe(
      "The DPoP proof is not valid",
    );
    expect(await descriptionFor(new Error("internal detail"))).toBe("The DPoP proof is not valid");
  });
});

describe("options (resource-server-config.ts)", () => {
  it("refuses a bad resource, no authorization server, and offline_access", () => {
    expect(() => resolveResourceServerConfig(options({ resource: "mcp" }))).toThrow(
      'auth.resource must be an absolute URL, not "mcp"',
    );
    for (const resource of [
      "ftp://mcp.example.com/",
      "https://mcp.example.com/mcp#",
      `${RESOURCE}#x`,
    ])
      expect(() => resolveResourceServerConfig(options({ resource }))).toThrow(
        /without a fragment/,
      );
    expect(() => resolveResourceServerConfig(options({ authorizationServers: [] }))).toThrow(
      /at least one authorization server/,
    );
    expect(() =>
      resolveResourceServerConfig(options({ scopesSupported: ["offline_access"] })),
    ).toThrow(/offline_access/);
  });

  it("challenges with the required scopes, else the supported ones; keys principals by issuer and subject", () => {
    const supportedOnly = resolveResourceServerConfig(options({ scopesSupported: ["a", "b"] }));
    expect(supportedOnly.challengeScopes).toEqual(["a", "b"]);
    expect(supportedOnly.dpopAlgorithms).toEqual(["ES256"]);
    const both = resolveResourceServerConfig(
      options({ requiredScopes: ["a"], scopesSupported: ["a", "b"] }),
    );
    expect(both.challengeScopes).toEqual(["a"]);
    expect(both.principalKey({ ...principal([]), issuer: "https://as" })).toBe("https://as alice");
    expect(both.principalKey(principal([]))).toBe("alice");
  });
});

describe("protected resource metadata (resource-metadata.ts)", () => {
  const response = () => {
    const sent = { status: 0, headers: {} as Record<string, unknown>, body: undefined as unknown };
    const fake = {
      writeHead(status: number, headers: Record<string, unknown>) {
        Object.assign(sent, { status, headers });
        return fake;
      },
      end(body?: unknown) {
        sent.body = body;
        return fake;
      },
    };
    return { sent, response: fake as unknown as ServerResponse };
  };
  const get = (method: string) => ({ method }) as unknown as IncomingMessage;

  it("puts the well-known string between the host and the path, and is served there, at the root and beside the endpoint", () => {
    const metadata = protectedResourceMetadata(
      options({ resource: "https://mcp.example.com/tenant/", metadata: { resource_name: "n" } }),
      new URL("https://mcp.example.com/tenant/"),
      "/mcp",
      [],
      ["ES256"],
    );
    expect(metadata.url).toBe(
      "https://mcp.example.com/.well-known/oauth-protected-resource/tenant",
    );
    expect([...metadata.paths].sort()).toEqual([
      "/.well-known/oauth-protected-resource",
      "/.well-known/oauth-protected-resource/mcp",
      "/.well-known/oauth-protected-resource/tenant",
    ]);
    // No scopes_supported when there are none, and no DPoP fields without DPoP.
    expect(JSON.parse(metadata.document)).toEqual({
      resource_name: "n",
      resource: "https://mcp.example.com/tenant/",
      authorization_servers: ["https://as.example.com"],
      bearer_methods_supported: ["header"],
    });

    const served = response();
    expect(serveProtectedResourceMetadata(metadata, "/other", get("GET"), served.response)).toBe(
      false,
    );
    expect(served.sent.status).toBe(0);
    expect(
      serveProtectedResourceMetadata(
        metadata,
        "/.well-known/oauth-protected-resource",
        get("GET"),
        served.response,
      ),
    ).toBe(true);
    expect(served.sent).toMatchObject({ status: 200, body: metadata.document });
    expect(served.sent.headers["access-control-allow-origin"]).toBe("*");
    const head = response();
    serveProtectedResourceMetadata(
      metadata,
      "/.well-known/oauth-protected-resource",
      get("HEAD"),
      head.response,
    );
    expect(head.sent).toMatchObject({ status: 200, body: undefined });
    const post = response();
    serveProtectedResourceMetadata(
      metadata,
      "/.well-known/oauth-protected-resource",
      get("POST"),
      post.response,
    );
    expect(post.sent).toMatchObject({ status: 405, headers: { allow: "GET, HEAD" } });
  });

  it("declares DPoP: its algorithms, and whether bound tokens are required", () => {
    const metadata = protectedResourceMetadata(
      options({ dpop: { verifyProof: () => Promise.resolve(""), required: true } }),
      new URL(RESOURCE),
      "/mcp",
      ["a"],
      ["ES256", "EdDSA"],
    );
    expect(JSON.parse(metadata.document)).toMatchObject({
      scopes_supported: ["a"],
      dpop_signing_alg_values_supported: ["ES256", "EdDSA"],
      dpop_bound_access_tokens_required: true,
    });
  });
});
