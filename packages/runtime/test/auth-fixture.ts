import { createHash } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import {
  calculateJwkThumbprint,
  decodeProtectedHeader,
  importJWK,
  jwtVerify,
  type JWTPayload,
} from "jose";
import type { OAuthClientOptions } from "../src/auth/oauth-client.js";
import { clientOf, json } from "./auth-common.js";

// A small OAuth authorization server and MCP resource server in one node:http server, for the
// OAuth client's unit tests. Every part of the flow is configurable, and everything the client
// sends is recorded, so a test can check what was asked, in which order, and what was refused.

export interface FakeOptions {
  /** Where the Protected Resource Metadata is served (default the path-specific URI of /mcp). */
  prmPaths?: string[];
  /** Name the metadata in the 401's WWW-Authenticate (default true). */
  prmInHeader?: boolean;
  /** The `resource` the metadata publishes (default the server's /mcp URL). */
  resource?: (base: string) => string;
  scopesSupported?: string[];
  /** The scope the 401 challenge names. */
  challengeScope?: string;
  /** The issuer's path ("" or "/tenant1"), and where its metadata is served (default RFC 8414's). */
  issuerPath?: string;
  asMetadataPaths?: (issuerPath: string) => string[];
  /** An `issuer` other than the real one, in the metadata. */
  metadataIssuer?: string;
  asScopesSupported?: string[];
  issSupported?: boolean;
  iss?: "correct" | "wrong" | "omit";
  /** Redirect back with another `state` than the client sent. */
  tamperState?: boolean;
  /** Scopes each JSON-RPC method needs (403 insufficient_scope without them). */
  requiredScopes?: Record<string, string[]>;
  /** Grant at most these scopes, whatever is asked. */
  grantable?: string[];
  refreshTokens?: boolean;
  expiresIn?: number;
  /** Answer the token endpoint with this OAuth error. */
  tokenError?: { error: string; error_description: string };
  /** Token endpoint authentication methods (default ["none"]). */
  authMethods?: string[];
  /** Leave `code_challenge_methods_supported` out of the metadata (default: S256 listed). */
  noPkce?: boolean;
  /** Advertise Client ID Metadata Document support. */
  cimd?: boolean;
  /** The metadata's grant_types_supported (default: none listed). */
  grantTypes?: string[];
  /**
   * DPoP (RFC 9449): ES256 listed in the metadata, tokens bound to the token request's proof
   * key and accepted only with the DPoP scheme and a valid proof; the nonces each side demands.
   */
  dpop?: { asNonce?: string; rsNonce?: string };
}

/** A DPoP proof the fake received, checked (`error` says what was wrong with it). */
export interface SeenProof {
  where: "token" | "mcp";
  payload?: JWTPayload;
  jwk?: Record<string, unknown>;
  error?: string;
}

export interface Fake {
  base: string;
  url: string;
  log: string[];
  authorizeRequests: URLSearchParams[];
  tokenRequests: {
    body: URLSearchParams;
    authorization: string | undefined;
    dpop: string | undefined;
  }[];
  proofs: SeenProof[];
  /** The Authorization header of every POST /mcp. */
  mcpAuthorizations: (string | undefined)[];
  registrations: Record<string, unknown>[];
  /** Access tokens issued, with their scopes. */
  issued: Map<string, string[]>;
  options: FakeOptions;
  close(): Promise<void>;
}

async function bodyOf(req: IncomingMessage): Promise<string> {
  let text = "";
  for await (const chunk of req) text += chunk;
  return text;
}

export async function startFake(options: FakeOptions = {}): Promise<Fake> {
  const fake = {
    log: [],
    authorizeRequests: [],
    tokenRequests: [],
    registrations: [],
    issued: new Map(),
    proofs: [],
    mcpAuthorizations: [],
    options,
  } as unknown as Fake;
  const challenges = new Map<string, string>();
  const bindings = new Map<string, string>(); // access token -> the JWK thumbprint it is bound to
  let counter = 0;
  const server: Server = createServer(
    (req, res) => void handle(req, res).catch(() => res.destroy()),
  );
  await new Promise<void>((resolve) => server.listen(0, resolve));
  fake.base = `http://localhost:${(server.address() as AddressInfo).port}`;
  fake.url = `${fake.base}/mcp`;
  fake.close = () =>
    new Promise((resolve) => (server.closeAllConnections(), server.close(() => resolve())));
  const o = () => fake.options;
  const issuer = () => `${fake.base}${o().issuerPath ?? ""}`;
  const prmUrl = () =>
    `${fake.base}${(o().prmPaths ?? ["/.well-known/oauth-protected-resource/mcp"])[0]}`;

  function challenge(status: number, params: Record<string, string>, res: ServerResponse) {
    const header = Object.entries(params)
      .map(([k, v]) => `${k}="${v}"`)
      .join(", ");
    json(
      res,
      status,
      { error: params["error"] ?? "invalid_token" },
      { "www-authenticate": `${o().dpop ? "DPoP" : "Bearer"} ${header}` },
    );
  }

  /** Checks a DPoP proof as RFC 9449 section 4.3 asks (ath: section 7.1), and records it. */
  async function checkProof(
    where: SeenProof["where"],
    proof: string | undefined,
    url: string,
    token?: string,
  ) {
    const seen: SeenProof = { where };
    fake.proofs.push(seen);
    try {
      if (proof === undefined) throw new Error("no proof");
      const { jwk, typ, alg } = decodeProtectedHeader(proof);
      if (typ !== "dpop+jwt" || alg !== "ES256" || !jwk || "d" in jwk)
        throw new Error("bad header");
      seen.jwk = jwk;
      const { payload } = await jwtVerify(proof, await importJWK(jwk, "ES256"), {
        maxTokenAge: 60,
      });
      seen.payload = payload;
      if (payload.htm !== "POST" || payload.htu !== url || typeof payload.jti !== "string")
        throw new Error("htm, htu or jti");
      if (
        token !== undefined &&
        payload.ath !== createHash("sha256").update(token).digest("base64url")
      )
        throw new Error("ath");
      return { jkt: await calculateJwkThumbprint(jwk, "sha256"), nonce: payload.nonce };
    } catch (error) {
      seen.error = (error as Error).message;
      return undefined;
    }
  }

  function issue(scopes: string[], jkt?: string) {
    const token = `tok-${++counter}`;
    if (jkt !== undefined) bindings.set(token, jkt);
    const granted = o().grantable ? scopes.filter((s) => o().grantable!.includes(s)) : scopes;
    fake.issued.set(token, granted);
    return {
      access_token: token,
      token_type: jkt !== undefined ? "DPoP" : "Bearer",
      expires_in: o().expiresIn ?? 3600,
      ...(granted.length ? { scope: granted.join(" ") } : {}),
      ...(o().refreshTokens ? { refresh_token: `refresh-${counter}` } : {}),
    };
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url!, fake.base);
    fake.log.push(`${req.method} ${url.pathname}`);
    const path = url.pathname;
    if (
      req.method === "GET" &&
      (o().prmPaths ?? ["/.well-known/oauth-protected-resource/mcp"]).includes(path)
    )
      return json(res, 200, {
        resource: o().resource?.(fake.base) ?? fake.url,
        authorization_servers: [issuer()],
        ...(o().scopesSupported ? { scopes_supported: o().scopesSupported } : {}),
      });
    const asPath = o().issuerPath ?? "";
    const metadataPaths = o().asMetadataPaths?.(asPath) ?? [
      `/.well-known/oauth-authorization-server${asPath}`,
    ];
    if (req.method === "GET" && metadataPaths.includes(path))
      return json(res, 200, {
        issuer: o().metadataIssuer ?? issuer(),
        authorization_endpoint: `${fake.base}/authorize`,
        token_endpoint: `${fake.base}/token`,
        registration_endpoint: `${fake.base}/register`,
        response_types_supported: ["code"],
        ...(o().noPkce ? {} : { code_challenge_methods_supported: ["S256"] }),
        token_endpoint_auth_methods_supported: o().authMethods ?? ["none"],
        ...(o().issSupported ? { authorization_response_iss_parameter_supported: true } : {}),
        ...(o().cimd ? { client_id_metadata_document_supported: true } : {}),
        ...(o().grantTypes ? { grant_types_supported: o().grantTypes } : {}),
        ...(o().asScopesSupported ? { scopes_supported: o().asScopesSupported } : {}),
        ...(o().dpop ? { dpop_signing_alg_values_supported: ["ES256"] } : {}),
      });
    if (req.method === "GET" && path === "/authorize") {
      fake.authorizeRequests.push(url.searchParams);
      const code = `code-${++counter}`;
      challenges.set(code, url.searchParams.get("code_challenge") ?? "");
      const back = new URL(url.searchParams.get("redirect_uri")!);
      back.searchParams.set("code", code);
      back.searchParams.set("state", o().tamperState ? "forged" : url.searchParams.get("state")!);
      const iss = o().iss ?? (o().issSupported ? "correct" : "omit");
      if (iss !== "omit")
        back.searchParams.set("iss", iss === "correct" ? issuer() : "https://evil.example");
      res.writeHead(302, { location: back.href }).end();
      return;
    }
    if (req.method === "POST" && path === "/register") {
      const metadata = JSON.parse(await bodyOf(req)) as Record<string, unknown>;
      fake.registrations.push(metadata);
      return json(res, 201, { ...metadata, client_id: `client-${fake.registrations.length}` });
    }
    if (req.method === "POST" && path === "/token") {
      const body = new URLSearchParams(await bodyOf(req));
      const dpop = req.headers.dpop as string | undefined;
      fake.tokenRequests.push({ body, authorization: req.headers.authorization, dpop });
      if (o().tokenError) return json(res, 400, o().tokenError);
      let jkt: string | undefined;
      if (o().dpop && dpop !== undefined) {
        const checked = await checkProof("token", dpop, `${fake.base}/token`);
        if (!checked) return json(res, 400, { error: "invalid_dpop_proof" });
        const nonce = o().dpop!.asNonce;
        if (nonce !== undefined && checked.nonce !== nonce)
          return json(res, 400, { error: "use_dpop_nonce" }, { "dpop-nonce": nonce });
        jkt = checked.jkt;
      }
      if (body.get("grant_type") === "authorization_code") {
        const expected = challenges.get(body.get("code") ?? "");
        const verifier = createHash("sha256")
          .update(body.get("code_verifier") ?? "")
          .digest("base64url");
        if (expected !== verifier)
          return json(res, 400, { error: "invalid_grant", error_description: "PKCE" });
      }
      const scopes = (body.get("scope") ?? fake.authorizeRequests.at(-1)?.get("scope") ?? "")
        .split(" ")
        .filter(Boolean);
      return json(res, 200, issue(scopes, jkt));
    }
    if (req.method === "POST" && path === "/mcp") {
      const message = JSON.parse(await bodyOf(req)) as { id: number; method: string };
      fake.mcpAuthorizations.push(req.headers.authorization);
      const [, scheme, token] = /^(Bearer|DPoP) (.+)$/.exec(req.headers.authorization ?? "") ?? [];
      let scopes = token === undefined ? undefined : fake.issued.get(token);
      const header: Record<string, string> = {};
      if (o().prmInHeader !== false) header["resource_metadata"] = prmUrl();
      const bound = token === undefined ? undefined : bindings.get(token);
      if (bound !== undefined) {
        // A bound token counts only with the DPoP scheme and a proof by its key.
        const checked =
          scheme === "DPoP"
            ? await checkProof("mcp", req.headers.dpop as string | undefined, fake.url, token)
            : undefined;
        if (checked?.jkt !== bound) scopes = undefined;
        else if (o().dpop?.rsNonce !== undefined && checked.nonce !== o().dpop!.rsNonce)
          return json(
            res,
            401,
            { error: "use_dpop_nonce" },
            { "www-authenticate": 'DPoP error="use_dpop_nonce"', "dpop-nonce": o().dpop!.rsNonce! },
          );
      }
      if (scopes === undefined)
        return challenge(
          401,
          { ...header, ...(o().challengeScope ? { scope: o().challengeScope! } : {}) },
          res,
        );
      const needed = o().requiredScopes?.[message.method] ?? [];
      if (!needed.every((s) => scopes.includes(s)))
        return challenge(
          403,
          { error: "insufficient_scope", scope: needed.join(" "), ...header },
          res,
        );
      return json(res, 200, { jsonrpc: "2.0", id: message.id, result: { ok: true, token } });
    }
    json(res, 404, { error: "not_found" });
  }
  return fake;
}

/** Options of the client under test; a function of the fake's base URL (its issuer) when they name it. */
export type ClientOptions =
  Partial<OAuthClientOptions> | ((base: string) => Partial<OAuthClientOptions>);

/**
 * The fake started with `options`, and an OAuth client of its MCP endpoint (clientOf: the code
 * grant through a headless redirect unless `client` says otherwise); `call` sends one request
 * and resolves to the answer, whose result names the token the resource server accepted.
 */
export async function startFakeWithClient(options: FakeOptions = {}, client: ClientOptions = {}) {
  const fake = await startFake(options);
  const { auth, call } = clientOf(
    fake.url,
    typeof client === "function" ? client(fake.base) : client,
  );
  return {
    fake,
    auth,
    call: async (method?: string) => (await call(method)) as { result?: { token: string } },
  };
}
