import { createHash, randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createJwtVerifier } from "../../runtime/src/auth/jwt.js";
import {
  startTestAuthorizationServer,
  type TestAuthorizationServer,
} from "./support/oauth-server.js";

// The test authorization server is shared by the resource-server tests and the client's
// OAuth tests: what it promises (PKCE S256, iss in the redirect, resource -> aud, refresh
// rotation, client authentication) is checked here once, with the runtime's JWT verifier.

let as: TestAuthorizationServer;
beforeAll(async () => void (as = await startTestAuthorizationServer({ issuerPath: "/tenant1" })));
afterAll(() => as.close());

const RESOURCE = "http://127.0.0.1:9/mcp";
const REDIRECT = "http://127.0.0.1:9/callback";
const form = (params: Record<string, string>, headers: Record<string, string> = {}) => ({
  method: "POST",
  headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
  body: new URLSearchParams(params).toString(),
});

/** Runs the authorization endpoint; the code, state and iss it redirects back with. */
async function authorize(clientId: string, verifier: string, extra: Record<string, string> = {}) {
  const challenge = createHash("sha256").update(verifier).digest("base64url");
  const url = new URL(as.metadata["authorization_endpoint"] as string);
  const params = {
    response_type: "code",
    client_id: clientId,
    redirect_uri: REDIRECT,
    code_challenge: challenge,
    code_challenge_method: "S256",
    state: "st4te",
    scope: "mcp:tools",
    resource: RESOURCE,
    ...extra,
  };
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  const r = await fetch(url, { redirect: "manual" });
  expect(r.status).toBe(302);
  return new URL(r.headers.get("location")!).searchParams;
}

describe("the test authorization server", () => {
  it("serves RFC 8414 metadata at the path-aware well-known URL and OpenID discovery, for a path issuer", async () => {
    const origin = new URL(as.issuer).origin;
    for (const url of [
      `${origin}/.well-known/oauth-authorization-server/tenant1`,
      `${as.issuer}/.well-known/openid-configuration`,
    ]) {
      const metadata = await (await fetch(url)).json();
      expect(metadata).toMatchObject({
        issuer: as.issuer,
        code_challenge_methods_supported: ["S256"],
        authorization_response_iss_parameter_supported: true,
      });
    }
  });

  it("runs authorization code + PKCE: the code redirects with state and iss, the token's aud is the resource, the verifier accepts it", async () => {
    const verifier = randomBytes(32).toString("base64url");
    const back = await authorize("public-client", verifier);
    expect(back.get("state")).toBe("st4te");
    expect(back.get("iss")).toBe(as.issuer);
    const token = await (
      await fetch(
        as.metadata["token_endpoint"] as string,
        form({
          grant_type: "authorization_code",
          code: back.get("code")!,
          code_verifier: verifier,
          redirect_uri: REDIRECT,
          client_id: "public-client",
          resource: RESOURCE,
        }),
      )
    ).json();
    expect(token).toMatchObject({
      token_type: "Bearer",
      scope: "mcp:tools",
      refresh_token: expect.any(String),
    });
    const principal = await createJwtVerifier({
      jwksUrl: as.jwksUri,
      issuer: as.issuer,
      resource: RESOURCE,
    })(token.access_token);
    expect(principal).toMatchObject({
      subject: "alice",
      scopes: ["mcp:tools"],
      clientId: "public-client",
      audience: RESOURCE,
    });
    // A code is good once; a wrong verifier is refused.
    const again = await fetch(
      as.metadata["token_endpoint"] as string,
      form({
        grant_type: "authorization_code",
        code: back.get("code")!,
        code_verifier: verifier,
        redirect_uri: REDIRECT,
        client_id: "public-client",
      }),
    );
    expect((await again.json()).error).toBe("invalid_grant");
    const other = await authorize("public-client", verifier);
    const wrong = await fetch(
      as.metadata["token_endpoint"] as string,
      form({
        grant_type: "authorization_code",
        code: other.get("code")!,
        code_verifier: "x".repeat(43),
        redirect_uri: REDIRECT,
        client_id: "public-client",
      }),
    );
    expect((await wrong.json()).error).toBe("invalid_grant");
  });

  it("refuses a request without S256 PKCE by redirecting with an error, state and iss", async () => {
    const back = await authorize("public-client", "v".repeat(43), {
      code_challenge_method: "plain",
    });
    expect([back.get("error"), back.get("state"), back.get("iss"), back.get("code")]).toEqual([
      "invalid_request",
      "st4te",
      as.issuer,
      null,
    ]);
  });

  it("rotates refresh tokens, and authenticates a registered confidential client (basic)", async () => {
    const registered = await (
      await fetch(as.metadata["registration_endpoint"] as string, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ redirect_uris: [REDIRECT], client_name: "c" }),
      })
    ).json();
    expect(registered).toMatchObject({
      client_id: expect.any(String),
      client_secret: expect.any(String),
      token_endpoint_auth_method: "client_secret_basic",
    });
    const basic = {
      authorization: `Basic ${Buffer.from(`${registered.client_id}:${registered.client_secret}`).toString("base64")}`,
    };
    const verifier = randomBytes(32).toString("base64url");
    const back = await authorize(registered.client_id, verifier);
    const tokenUrl = as.metadata["token_endpoint"] as string;
    const exchange = {
      grant_type: "authorization_code",
      code: back.get("code")!,
      code_verifier: verifier,
      redirect_uri: REDIRECT,
    };
    expect((await fetch(tokenUrl, form(exchange))).status).toBe(401); // no client authentication
    const first = await (await fetch(tokenUrl, form(exchange, basic))).json();
    const second = await (
      await fetch(
        tokenUrl,
        form({ grant_type: "refresh_token", refresh_token: first.refresh_token }, basic),
      )
    ).json();
    expect(second.access_token).toEqual(expect.any(String));
    expect(second.refresh_token).not.toBe(first.refresh_token);
    const reused = await fetch(
      tokenUrl,
      form({ grant_type: "refresh_token", refresh_token: first.refresh_token }, basic),
    );
    expect((await reused.json()).error).toBe("invalid_grant");
  });
});
