import { createHash, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from "jose";

// A small OAuth 2.1 authorization server for tests (not for production): it signs JWT
// access tokens (RFC 9068 shape) with an ES256 key, publishes the key as a JWKS and its
// metadata (RFC 8414, and at the OpenID Connect discovery path), auto-approves authorization
// code requests with PKCE S256 (redirecting back with code, state and iss, RFC 9207), and
// answers the token endpoint for authorization_code and refresh_token (rotated) grants, the
// `resource` parameter (RFC 8707) becoming the token's `aud`. Dynamic client registration
// (RFC 7591) is there too. Tests may also mint tokens directly.

export interface TestAuthorizationServerOptions {
  /** A path after the origin, for a path-aware issuer (`/tenant1`); default none. */
  issuerPath?: string;
  /** Lifetime of issued access tokens (default 300 s). */
  accessTokenTtlSeconds?: number;
  /** The scopes of the metadata (default ["mcp:tools", "mcp:profile"]). */
  scopesSupported?: string[];
  /** The subject that "logs in" at the authorization endpoint (default "alice"). */
  subject?: string;
}

export interface MintOptions {
  sub?: string;
  /** The resource the token is for (`aud`); omit for a token without one. */
  aud?: string | string[];
  scope?: string;
  /** Seconds until expiry; negative for an already expired token (default 300). */
  expiresIn?: number;
  iss?: string;
  clientId?: string;
  /** Sign with a key the JWKS does not publish. */
  foreignKey?: boolean;
  /** More claims (e.g. `cnf` for a DPoP-bound token). */
  claims?: Record<string, unknown>;
  /** The `typ` header (default "at+jwt", RFC 9068); null for none. */
  typ?: string | null;
}

/** One request the server received (form or query parameters), for tests to assert on. */
export interface LoggedRequest {
  method: string;
  path: string;
  params: Record<string, string>;
  authorization?: string;
}

export interface TestAuthorizationServer {
  issuer: string;
  jwksUri: string;
  metadata: Record<string, unknown>;
  requests: LoggedRequest[];
  mintToken(options?: MintOptions): Promise<string>;
  close(): Promise<void>;
}

interface Grant {
  clientId: string;
  scope: string;
  resource: string | undefined;
  sub: string;
}

const b64url = (bytes: Buffer) => bytes.toString("base64url");
const random = () => b64url(randomBytes(24));

function json(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) {
  res
    .writeHead(status, {
      "content-type": "application/json",
      "cache-control": "no-store",
      ...headers,
    })
    .end(JSON.stringify(body));
}

async function readForm(
  req: IncomingMessage,
): Promise<{ form: Record<string, string>; raw: string }> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const raw = Buffer.concat(chunks).toString("utf8");
  return { form: Object.fromEntries(new URLSearchParams(raw)), raw };
}

/** Starts the server on 127.0.0.1 and an ephemeral port. */
export async function startTestAuthorizationServer(
  options: TestAuthorizationServerOptions = {},
): Promise<TestAuthorizationServer> {
  const { privateKey, publicKey } = await generateKeyPair("ES256");
  const foreign = await generateKeyPair("ES256");
  const jwk: JWK = { ...(await exportJWK(publicKey)), kid: "test-key-1", alg: "ES256", use: "sig" };
  const ttl = options.accessTokenTtlSeconds ?? 300;
  const issuerPath = options.issuerPath ?? "";
  const codes = new Map<string, Grant & { redirectUri: string; challenge: string }>();
  const refreshTokens = new Map<string, Grant>();
  const clients = new Map<string, { secret?: string; redirectUris: string[] }>();
  const requests: LoggedRequest[] = [];

  const server = createServer(
    (req, res) => void route(req, res).catch(() => json(res, 500, { error: "server_error" })),
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const origin = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
  const issuer = `${origin}${issuerPath}`;
  const metadata = {
    issuer,
    authorization_endpoint: `${issuer}/authorize`,
    token_endpoint: `${issuer}/token`,
    registration_endpoint: `${issuer}/register`,
    jwks_uri: `${issuer}/jwks`,
    scopes_supported: options.scopesSupported ?? ["mcp:tools", "mcp:profile"],
    response_types_supported: ["code"],
    grant_types_supported: ["authorization_code", "refresh_token"],
    code_challenge_methods_supported: ["S256"],
    token_endpoint_auth_methods_supported: ["none", "client_secret_basic", "client_secret_post"],
    authorization_response_iss_parameter_supported: true,
  };

  async function mintToken(m: MintOptions = {}): Promise<string> {
    const now = Math.floor(Date.now() / 1000);
    const claims: Record<string, unknown> = {
      scope: m.scope ?? "",
      client_id: m.clientId ?? "test-client",
      ...m.claims,
    };
    const jwt = new SignJWT(claims)
      .setProtectedHeader({
        alg: "ES256",
        ...(m.typ === null ? {} : { typ: m.typ ?? "at+jwt" }),
        kid: m.foreignKey ? "foreign-key" : jwk.kid!,
      })
      .setIssuer(m.iss ?? issuer)
      .setSubject(m.sub ?? options.subject ?? "alice")
      .setIssuedAt(now)
      .setExpirationTime(now + (m.expiresIn ?? ttl))
      .setJti(random());
    if (m.aud !== undefined) jwt.setAudience(m.aud);
    return jwt.sign((m.foreignKey ? foreign.privateKey : privateKey) as CryptoKey);
  }

  async function tokens(res: ServerResponse, grant: Grant) {
    const refresh = random();
    refreshTokens.set(refresh, grant);
    const access = await mintToken({
      sub: grant.sub,
      scope: grant.scope,
      clientId: grant.clientId,
      ...(grant.resource ? { aud: grant.resource } : {}),
    });
    json(res, 200, {
      access_token: access,
      token_type: "Bearer",
      expires_in: ttl,
      refresh_token: refresh,
      ...(grant.scope ? { scope: grant.scope } : {}),
    });
  }

  /** Client authentication at the token endpoint: none for public clients, basic or post for those with a secret. */
  function clientOf(req: IncomingMessage, form: Record<string, string>): string | undefined {
    const basic = /^Basic (.+)$/i.exec(req.headers.authorization ?? "");
    const [id, secret] = basic
      ? Buffer.from(basic[1]!, "base64").toString("utf8").split(":").map(decodeURIComponent)
      : [form["client_id"], form["client_secret"]];
    if (id === undefined) return undefined;
    const registered = clients.get(id);
    if (registered?.secret !== undefined && registered.secret !== secret) return undefined;
    return id;
  }

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", origin);
    const isPost = req.method === "POST";
    const { form, raw } = isPost
      ? await readForm(req)
      : { form: Object.fromEntries(url.searchParams), raw: "" };
    requests.push({
      method: req.method ?? "",
      path: url.pathname,
      params: form,
      ...(req.headers.authorization ? { authorization: req.headers.authorization } : {}),
    });
    const path = url.pathname;
    if (
      path === `/.well-known/oauth-authorization-server${issuerPath}` ||
      path === `${issuerPath}/.well-known/openid-configuration` ||
      path === `/.well-known/openid-configuration${issuerPath}`
    ) {
      return json(res, 200, metadata);
    }
    if (path === `${issuerPath}/jwks`) return json(res, 200, { keys: [jwk] });
    if (path === `${issuerPath}/register` && isPost) {
      let body: Record<string, any>;
      try {
        body = JSON.parse(raw);
        if (typeof body !== "object" || body === null || Array.isArray(body))
          throw new Error("not an object");
      } catch {
        return json(res, 400, { error: "invalid_client_metadata" });
      }
      const clientId = `client-${random()}`;
      const method =
        typeof body["token_endpoint_auth_method"] === "string"
          ? body["token_endpoint_auth_method"]
          : "client_secret_basic";
      const secret = method === "none" ? undefined : random();
      const redirectUris = Array.isArray(body["redirect_uris"])
        ? body["redirect_uris"].map(String)
        : [];
      clients.set(clientId, { ...(secret ? { secret } : {}), redirectUris });
      return json(res, 201, {
        ...body,
        client_id: clientId,
        ...(secret ? { client_secret: secret } : {}),
        token_endpoint_auth_method: method,
        client_id_issued_at: Math.floor(Date.now() / 1000),
      });
    }
    if (path === `${issuerPath}/authorize` && req.method === "GET") {
      const {
        response_type,
        client_id,
        redirect_uri,
        code_challenge,
        code_challenge_method,
        state,
        scope,
        resource,
      } = form;
      if (!redirect_uri || !client_id)
        return json(res, 400, {
          error: "invalid_request",
          error_description: "client_id and redirect_uri are required",
        });
      const registered = clients.get(client_id);
      if (registered && !registered.redirectUris.includes(redirect_uri))
        return json(res, 400, {
          error: "invalid_request",
          error_description: "redirect_uri not registered",
        });
      const back = new URL(redirect_uri);
      const fail = (error: string) => {
        back.searchParams.set("error", error);
        if (state !== undefined) back.searchParams.set("state", state);
        back.searchParams.set("iss", issuer);
        res.writeHead(302, { location: back.href }).end();
      };
      if (response_type !== "code") return fail("unsupported_response_type");
      if (!code_challenge || code_challenge_method !== "S256") return fail("invalid_request");
      const code = random();
      codes.set(code, {
        clientId: client_id,
        redirectUri: redirect_uri,
        challenge: code_challenge,
        scope: scope ?? "",
        resource,
        sub: options.subject ?? "alice",
      });
      back.searchParams.set("code", code);
      if (state !== undefined) back.searchParams.set("state", state);
      back.searchParams.set("iss", issuer);
      return void res.writeHead(302, { location: back.href }).end();
    }
    if (path === `${issuerPath}/token` && isPost) {
      const clientId = clientOf(req, form);
      if (clientId === undefined) return json(res, 401, { error: "invalid_client" });
      if (form["grant_type"] === "authorization_code") {
        const grant = codes.get(form["code"] ?? "");
        codes.delete(form["code"] ?? "");
        const verifier = form["code_verifier"] ?? "";
        if (!grant || grant.clientId !== clientId || grant.redirectUri !== form["redirect_uri"])
          return json(res, 400, { error: "invalid_grant" });
        if (b64url(createHash("sha256").update(verifier).digest()) !== grant.challenge)
          return json(res, 400, {
            error: "invalid_grant",
            error_description: "PKCE verification failed",
          });
        if (
          form["resource"] !== undefined &&
          grant.resource !== undefined &&
          form["resource"] !== grant.resource
        )
          return json(res, 400, { error: "invalid_target" });
        return tokens(res, {
          clientId,
          scope: grant.scope,
          resource: form["resource"] ?? grant.resource,
          sub: grant.sub,
        });
      }
      if (form["grant_type"] === "refresh_token") {
        const grant = refreshTokens.get(form["refresh_token"] ?? "");
        if (!grant || grant.clientId !== clientId)
          return json(res, 400, { error: "invalid_grant" });
        // Public clients' refresh tokens rotate (2026-07-28 authorization security considerations).
        refreshTokens.delete(form["refresh_token"]!);
        const narrowed = form["scope"]
          ? form["scope"]
              .split(" ")
              .filter((s) => grant.scope.split(" ").includes(s))
              .join(" ")
          : grant.scope;
        return tokens(res, {
          ...grant,
          scope: narrowed,
          resource: form["resource"] ?? grant.resource,
        });
      }
      return json(res, 400, { error: "unsupported_grant_type" });
    }
    json(res, 404, { error: "not_found" });
  }

  return {
    issuer,
    jwksUri: metadata.jwks_uri,
    metadata,
    requests,
    mintToken,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
