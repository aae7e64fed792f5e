import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { decodeJwt } from "jose";
import { afterEach, describe, expect, it } from "vitest";
import { createOAuthClient, type AssertionContext } from "../src/auth/oauth-client.js";
import { AuthorizationError } from "../src/auth/http-auth.js";
import { failure as failureOf } from "./auth-common.js";
import {
  startFakeWithClient,
  type ClientOptions,
  type Fake,
  type FakeOptions,
} from "./auth-fixture.js";

// The JWT bearer grant of the OAuth client (src/auth/assertion.ts): workload identity (the
// workload's JWT as the assertion) and enterprise-managed authorization (an ID-JAG from a token
// exchange at the enterprise IdP), against the fake authorization server (auth-fixture.ts) and a
// fake IdP below.

const JWT_BEARER = "urn:ietf:params:oauth:grant-type:jwt-bearer";
const TOKEN_EXCHANGE = "urn:ietf:params:oauth:grant-type:token-exchange";
const ID_JAG = "urn:ietf:params:oauth:token-type:id-jag";
const ID_TOKEN = "urn:ietf:params:oauth:token-type:id_token";
/** Stand-ins for credentials: each must reach the server it is for, and never an error message. */
const WORKLOAD_JWT = "eyJ.workload-jwt-credential.sig";
const ID_TOKEN_VALUE = "eyJ.user-id-token-credential.sig";

let fake: Fake | undefined;
let idp: FakeIdp | undefined;
afterEach(async () => {
  await fake?.close();
  await idp?.close();
  fake = idp = undefined;
});

async function setup(options: FakeOptions, client: ClientOptions) {
  // The JWT bearer grant unless `client` names another.
  const started = await startFakeWithClient(options, (base) => ({
    grant: "jwt_bearer",
    ...(typeof client === "function" ? client(base) : client),
  }));
  fake = started.fake;
  return started;
}

/** The error a call fails with: an AuthorizationError. */
const failure = (promise: Promise<unknown>) => failureOf(promise, AuthorizationError);

const shown = (error: Error) =>
  `${String(error)} ${error.stack} ${JSON.stringify(error)} ${String((error as { cause?: unknown }).cause)}`;

interface FakeIdp {
  issuer: string;
  requests: { body: URLSearchParams; authorization: string | undefined }[];
  /** The token endpoint's answer (default: an ID-JAG). */
  answer: (n: number) => { status: number; body: Record<string, unknown> };
  close(): Promise<void>;
}

/** An enterprise IdP: OpenID Connect metadata and a token endpoint doing token exchange. */
async function startIdp(): Promise<FakeIdp> {
  const fakeIdp = {
    requests: [],
    answer: (n: number) => ({
      status: 200,
      body: {
        access_token: `id-jag-${n}`,
        issued_token_type: ID_JAG,
        token_type: "N_A",
        expires_in: 300,
      },
    }),
  } as unknown as FakeIdp;
  const server: Server = createServer(async (req, res) => {
    let text = "";
    for await (const chunk of req) text += chunk;
    const reply = (status: number, body: unknown) =>
      res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
    if (req.method === "GET" && req.url === "/idp/.well-known/openid-configuration")
      return reply(200, {
        issuer: fakeIdp.issuer,
        token_endpoint: `${fakeIdp.issuer}/token`,
        grant_types_supported: [TOKEN_EXCHANGE],
      });
    if (req.method === "POST" && req.url === "/idp/token") {
      fakeIdp.requests.push({
        body: new URLSearchParams(text),
        authorization: req.headers.authorization,
      });
      const { status, body } = fakeIdp.answer(fakeIdp.requests.length);
      return reply(status, body);
    }
    reply(404, { error: "not_found" });
  });
  await new Promise<void>((resolve) => server.listen(0, resolve));
  fakeIdp.issuer = `http://localhost:${(server.address() as AddressInfo).port}/idp`;
  fakeIdp.close = () =>
    new Promise((resolve) => (server.closeAllConnections(), server.close(() => resolve())));
  return fakeIdp;
}

describe("the JWT bearer grant: workload identity", () => {
  it("sends the workload's JWT as the assertion, with resource and scope, and no client at all", async () => {
    const contexts: AssertionContext[] = [];
    const assertion = (context: AssertionContext) => (contexts.push(context), WORKLOAD_JWT);
    const { fake, call } = await setup(
      { challengeScope: "tools:read", grantTypes: [JWT_BEARER] },
      { assertion },
    );
    expect((await call()).result?.token).toMatch(/^tok-/);
    const [request] = fake.tokenRequests;
    expect(Object.fromEntries(request!.body)).toEqual({
      grant_type: JWT_BEARER,
      assertion: WORKLOAD_JWT,
      resource: fake.url,
      scope: "tools:read",
    });
    // Workload identity federation needs no client_id and no registration.
    expect(request!.authorization).toBeUndefined();
    expect(fake.registrations).toHaveLength(0);
    expect(fake.authorizeRequests).toHaveLength(0);
    // The signal aborts when the call is aborted or the transport closes.
    expect(contexts).toEqual([
      {
        issuer: fake.base,
        tokenEndpoint: `${fake.base}/token`,
        resource: fake.url,
        scopes: ["tools:read"],
        signal: expect.any(AbortSignal),
      },
    ]);
    // The token is kept; a later grant asks the callback again (workload JWTs are short-lived).
    await call();
    expect(fake.tokenRequests).toHaveLength(1);
    fake.issued.clear();
    await call();
    expect(contexts).toHaveLength(2);
    expect(fake.tokenRequests.map((r) => r.body.get("grant_type"))).toEqual([
      JWT_BEARER,
      JWT_BEARER,
    ]);
  });

  it("works with an authorization server that has no PKCE (the grant never visits its authorization endpoint)", async () => {
    const { fake, call } = await setup(
      { noPkce: true, grantTypes: [JWT_BEARER] },
      { assertion: () => WORKLOAD_JWT },
    );
    expect((await call()).result?.token).toMatch(/^tok-/);
    expect(fake.tokenRequests.map((r) => r.body.get("grant_type"))).toEqual([JWT_BEARER]);
  });

  it("authenticates with credentials registered beforehand for that server", async () => {
    const { fake, call } = await setup({ authMethods: ["client_secret_basic"] }, (issuer) => ({
      assertion: () => WORKLOAD_JWT,
      preRegistered: { clientId: "workload-app", clientSecret: "pre-secret", issuer },
    }));
    await call();
    expect(fake.tokenRequests[0]?.authorization).toBe(`Basic ${btoa("workload-app:pre-secret")}`);
    expect(fake.tokenRequests[0]?.body.get("assertion")).toBe(WORKLOAD_JWT);
  });

  it("surfaces invalid_grant, invalid_scope and unauthorized_client at once: one token request, no other grant, nothing secret shown", async () => {
    for (const error of ["invalid_grant", "invalid_scope", "unauthorized_client"]) {
      const tokenError = { error, error_description: `refused ${WORKLOAD_JWT}` };
      const { fake, call } = await setup(
        { tokenError },
        {
          assertion: () => WORKLOAD_JWT,
          redirect: {
            redirectUri: "http://localhost:9/cb",
            authorize: async () => {
              throw new Error("never");
            },
          },
        },
      );
      const refused = await failure(call());
      expect(refused.message).toBe(`JWT bearer grant: the server answered ${error} (HTTP 400)`);
      expect(shown(refused)).not.toContain(WORKLOAD_JWT);
      expect(fake.tokenRequests.map((r) => r.body.get("grant_type"))).toEqual([JWT_BEARER]);
      expect(fake.authorizeRequests).toHaveLength(0);
      expect(fake.registrations).toHaveLength(0);
      await fake.close();
    }
  });

  it("refuses an authorization server that lists its grants without this one, before asking for an assertion", async () => {
    let asked = 0;
    const { fake, call } = await setup(
      { grantTypes: ["authorization_code"] },
      { assertion: () => (asked++, WORKLOAD_JWT) },
    );
    expect((await failure(call())).message).toMatch(/does not support the JWT bearer grant/);
    expect(fake.tokenRequests).toHaveLength(0);
    expect(asked).toBe(0);
  });

  it("reports a failing assertion callback by its error's name only, and sends nothing", async () => {
    const { fake, call } = await setup(
      {},
      { assertion: () => Promise.reject(new RangeError(`token ${WORKLOAD_JWT} expired`)) },
    );
    const error = await failure(call());
    expect(error.message).toBe("JWT bearer grant: the assertion callback failed (RangeError)");
    expect(shown(error)).not.toContain(WORKLOAD_JWT);
    expect(fake.tokenRequests).toHaveLength(0);
    await fake.close();
    const empty = await setup({}, { assertion: () => "" });
    expect((await failure(empty.call())).message).toBe(
      "JWT bearer grant: the assertion callback gave no token",
    );
  });

  it("binds the tokens with DPoP where the server takes it; a nonce demand resends the same assertion once", async () => {
    let asked = 0;
    const { fake, call } = await setup(
      { dpop: { asNonce: "as-nonce-1" } },
      { assertion: () => (asked++, WORKLOAD_JWT) },
    );
    const first = await call();
    expect(
      fake.tokenRequests.map((r) => [
        r.body.get("grant_type"),
        r.body.get("assertion"),
        decodeJwt(r.dpop!).nonce,
      ]),
    ).toEqual([
      [JWT_BEARER, WORKLOAD_JWT, undefined],
      [JWT_BEARER, WORKLOAD_JWT, "as-nonce-1"],
    ]);
    expect(asked).toBe(1);
    expect(fake.proofs.filter((p) => p.error !== undefined)).toEqual([]);
    expect(fake.mcpAuthorizations.filter(Boolean).at(-1)).toBe(`DPoP ${first.result!.token}`);
  });

  it("needs exactly one source of assertions", () => {
    const serverUrl = "https://mcp.example/mcp";
    expect(() => createOAuthClient({ serverUrl, grant: "jwt_bearer" })).toThrow(
      /assertion callback or enterprise/,
    );
    const enterprise = {
      idp: { issuer: "https://idp.example", clientId: "c" },
      idToken: () => "t",
    };
    expect(() =>
      createOAuthClient({ serverUrl, grant: "jwt_bearer", assertion: () => "a", enterprise }),
    ).toThrow(TypeError);
    expect(() => createOAuthClient({ serverUrl, grant: "jwt_bearer", enterprise })).not.toThrow();
  });
});

describe("the JWT bearer grant: enterprise-managed authorization", () => {
  const enterprise = (client: Record<string, string> = {}) => ({
    idp: { issuer: idp!.issuer, clientId: "idp-client", ...client },
    idToken: () => ID_TOKEN_VALUE,
  });

  it("exchanges the ID token at the IdP (found from its metadata) for an ID-JAG, then presents it as the registered client", async () => {
    idp = await startIdp();
    const { fake, call } = await setup(
      { challengeScope: "chat.read", authMethods: ["client_secret_basic"] },
      (issuer) => ({
        enterprise: enterprise({ clientSecret: "idp-secret" }),
        preRegistered: { clientId: "mcp-app", clientSecret: "app-secret", issuer },
      }),
    );
    expect((await call()).result?.token).toMatch(/^tok-/);
    const [exchange] = idp.requests;
    expect(Object.fromEntries(exchange!.body)).toEqual({
      grant_type: TOKEN_EXCHANGE,
      requested_token_type: ID_JAG,
      audience: fake.base, // the MCP authorization server's issuer
      resource: fake.url,
      scope: "chat.read",
      subject_token: ID_TOKEN_VALUE,
      subject_token_type: ID_TOKEN,
    });
    expect(exchange!.authorization).toBe(`Basic ${btoa("idp-client:idp-secret")}`);
    const [grant] = fake.tokenRequests;
    expect(Object.fromEntries(grant!.body)).toEqual({
      grant_type: JWT_BEARER,
      assertion: "id-jag-1",
      resource: fake.url,
      scope: "chat.read",
    });
    expect(grant!.authorization).toBe(`Basic ${btoa("mcp-app:app-secret")}`);
    expect(fake.authorizeRequests).toHaveLength(0);
  });

  it("uses a configured IdP token endpoint without discovery, and registers for the JWT bearer grant where nothing is pre-registered", async () => {
    idp = await startIdp();
    const { fake, call } = await setup(
      {},
      {
        enterprise: {
          ...enterprise(),
          idp: { ...enterprise().idp, tokenEndpoint: `${idp.issuer}/token` },
        },
      },
    );
    await call();
    expect(idp.requests[0]?.body.get("client_id")).toBe("idp-client");
    expect(fake.registrations[0]).toMatchObject({ grant_types: [JWT_BEARER], response_types: [] });
    expect(fake.registrations[0]).not.toHaveProperty("redirect_uris");
    expect(fake.tokenRequests[0]?.body.get("client_id")).toBe("client-1");
  });

  it("stops at an IdP refusal or at anything but an ID-JAG: nothing goes to the authorization server, and no token is shown", async () => {
    idp = await startIdp();
    const { fake, call } = await setup({}, { enterprise: enterprise() });
    idp.answer = () => ({
      status: 400,
      body: { error: "invalid_grant", error_description: `bad ${ID_TOKEN_VALUE}` },
    });
    const refused = await failure(call());
    expect(refused.message).toBe(
      "token exchange at the enterprise IdP: the server answered invalid_grant (HTTP 400)",
    );
    expect(shown(refused)).not.toContain(ID_TOKEN_VALUE);
    idp.answer = () => ({
      status: 200,
      body: {
        access_token: "an-access-token",
        issued_token_type: "urn:ietf:params:oauth:token-type:access_token",
        token_type: "Bearer",
      },
    });
    const wrong = await failure(call());
    expect(wrong.message).toMatch(/another token type than an ID-JAG/);
    expect(shown(wrong)).not.toContain("an-access-token");
    expect(idp.requests).toHaveLength(2);
    expect(fake.tokenRequests).toHaveLength(0);
  });

  it("reports a failing idToken callback by its error's name only, and exchanges nothing", async () => {
    idp = await startIdp();
    const idToken = () => Promise.reject(new TypeError(`stale ${ID_TOKEN_VALUE}`));
    const { fake, call } = await setup({}, { enterprise: { ...enterprise(), idToken } });
    const error = await failure(call());
    expect(error.message).toBe(
      "token exchange at the enterprise IdP: the idToken callback failed (TypeError)",
    );
    expect(shown(error)).not.toContain(ID_TOKEN_VALUE);
    expect(idp.requests).toHaveLength(0);
    expect(fake.tokenRequests).toHaveLength(0);
  });

  it("passes the authorization server's refusal of the ID-JAG on without retrying", async () => {
    idp = await startIdp();
    const { fake, call } = await setup(
      { tokenError: { error: "invalid_grant", error_description: "id-jag-1" } },
      { enterprise: enterprise() },
    );
    const refused = await failure(call());
    expect(refused.message).toBe("JWT bearer grant: the server answered invalid_grant (HTTP 400)");
    expect(shown(refused)).not.toContain("id-jag-1");
    expect(idp.requests).toHaveLength(1);
    expect(fake.tokenRequests.map((r) => r.body.get("grant_type"))).toEqual([JWT_BEARER]);
  });
});
