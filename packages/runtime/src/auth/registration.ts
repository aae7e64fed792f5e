import * as oauth from "oauth4webapi";
import { requestOptions, unlessTooLarge, type Http } from "./discovery.js";
import type { TokenStore } from "./store.js";
import { AuthorizationError } from "./http-auth.js";

// Client registration (2026-07-28 basic/authorization/client-registration), in the spec's
// order of preference: pre-registered credentials for this authorization server, a Client ID
// Metadata Document when the server supports them, a registration kept from an earlier
// Dynamic Client Registration with the same server, then a new one (RFC 7591). Credentials are
// bound to the issuer that issued them and never presented to another.

/** Credentials registered beforehand with an authorization server. */
export interface PreRegisteredClient {
  clientId: string;
  clientSecret?: string;
  /**
   * The issuer they were registered with: the identical string its metadata gives as
   * `issuer`. They go to that authorization server only. Required with a `clientSecret`
   * (createOAuthClient throws without it): a secret bound to whichever server the MCP server
   * names first would go to a hostile one (RFC 9700 section 4.4, mix-up). Without it, a
   * public client (`clientId` alone) or a `privateKey` (whose assertions name the server they
   * are for as their audience) is bound to the first authorization server it is used with.
   */
  issuer?: string;
  /** A key for `private_key_jwt` (RFC 7523): the client authenticates with signed assertions. */
  privateKey?: CryptoKey;
  /** `client_secret_basic`, `client_secret_post`, `private_key_jwt` or `none` (default: from the server's metadata). */
  tokenEndpointAuthMethod?: string;
}

export interface RegistrationOptions {
  preRegistered: PreRegisteredClient[];
  /** An https URL with a path, serving this client's metadata document (its client_id). */
  clientMetadataUrl?: string;
  /** Metadata for Dynamic Client Registration, merged over the defaults (client_name, ...). */
  clientMetadata?: Record<string, unknown>;
  redirectUri?: string;
  /** The grant the client uses: authorization_code (with refresh_token), client_credentials or jwt_bearer. */
  grant: "authorization_code" | "client_credentials" | "jwt_bearer";
  store: TokenStore;
}

/** Throws when pre-registered credentials could go to another server than their issuer. */
export function checkPreRegistered(clients: readonly PreRegisteredClient[]): void {
  for (const { issuer, clientSecret } of clients) {
    if (issuer === undefined && clientSecret !== undefined)
      throw new TypeError(
        "createOAuthClient: preRegistered: a clientSecret needs the issuer it was registered with (`issuer`), or it could be sent to any authorization server the MCP server names",
      );
    if (issuer !== undefined && !URL.canParse(issuer))
      throw new TypeError("createOAuthClient: preRegistered: issuer must be a URL");
  }
}

/** RFC 7523 section 2.1's grant type (the registered name of the `jwt_bearer` grant). */
const JWT_BEARER_GRANT = "urn:ietf:params:oauth:grant-type:jwt-bearer";

/** A client ready for the token endpoint of one authorization server. */
export interface ClientFor {
  client: oauth.Client;
  authentication: oauth.ClientAuth;
  /** `anonymous`: no client authentication and no client_id (assertion.ts, workload identity). */
  via: "pre-registered" | "metadata-document" | "registered" | "anonymous";
}

/** What `tokenEndpointAuthMethod` a client with (or without) a secret uses at this server. */
function authMethod(as: oauth.AuthorizationServer, secret: string | undefined): string {
  if (secret === undefined) return "none";
  // RFC 8414 section 2: client_secret_basic when the server lists nothing.
  const supported = as.token_endpoint_auth_methods_supported ?? ["client_secret_basic"];
  return supported.includes("client_secret_basic") || !supported.includes("client_secret_post")
    ? "client_secret_basic"
    : "client_secret_post";
}

/**
 * client_secret_basic with RFC 6749 section 2.3.1's form encoding as WHATWG URLSearchParams does
 * it: oauth4webapi's also escapes unreserved characters (`-` as `%2D`), which servers that do
 * not form-decode the credentials (the conformance suite's among them) refuse.
 */
function clientSecretBasic(secret: string): oauth.ClientAuth {
  const encode = (value: string) => new URLSearchParams({ v: value }).toString().slice(2);
  return (_as, client, _body, headers) => {
    headers.set("authorization", `Basic ${btoa(`${encode(client.client_id)}:${encode(secret)}`)}`);
  };
}

function authentication(
  method: string,
  secret: string | undefined,
  key?: CryptoKey,
): oauth.ClientAuth {
  if (method === "none") return oauth.None();
  if (method === "private_key_jwt" && key) return oauth.PrivateKeyJwt(key);
  if (secret === undefined)
    throw new AuthorizationError(`token endpoint authentication ${method} needs a client secret`);
  if (method === "client_secret_basic") return clientSecretBasic(secret);
  if (method === "client_secret_post") return oauth.ClientSecretPost(secret);
  throw new AuthorizationError(`unsupported token endpoint authentication method ${method}`);
}

/** Credentials ready for `as`'s token endpoint: the method given, else one from the key, secret and metadata. */
export function ready(
  as: oauth.AuthorizationServer,
  clientId: string,
  secret: string | undefined,
  method: string | undefined,
  via: ClientFor["via"],
  key?: CryptoKey,
): ClientFor {
  const chosen = method ?? (key ? "private_key_jwt" : authMethod(as, secret));
  return {
    client: { client_id: clientId, token_endpoint_auth_method: chosen },
    authentication: authentication(chosen, secret, key),
    via,
  };
}

/**
 * RFC 7591 section 3.2.1 requires `client_secret_expires_at` with a secret, and oauth4webapi
 * enforces it; many servers leave it out. Missing, it is read as 0 ("does not expire").
 */
async function withSecretExpiry(response: Response): Promise<Response> {
  if (response.status !== 201) return response;
  const body = (await response.clone().json().catch(unlessTooLarge)) as unknown;
  if (typeof body !== "object" || body === null) return response;
  const fields = body as Record<string, unknown>;
  if (fields["client_secret"] === undefined || fields["client_secret_expires_at"] !== undefined)
    return response;
  const headers = { "content-type": "application/json" };
  const patched = { ...fields, client_secret_expires_at: 0 };
  return new Response(JSON.stringify(patched), { status: 201, headers });
}

/** Native (loopback or custom-scheme redirect) or web, for OIDC registration rules. */
function applicationType(redirectUri: string | undefined): "native" | "web" {
  if (redirectUri === undefined) return "native";
  const url = new URL(redirectUri);
  const loopback = ["localhost", "127.0.0.1", "[::1]"].includes(url.hostname);
  return url.protocol !== "https:" || loopback ? "native" : "web";
}

export function createRegistrar(options: RegistrationOptions, http: Http) {
  // Pre-registered credentials without an issuer (no secret: checkPreRegistered), bound on first use.
  const boundTo = new Map<PreRegisteredClient, string>();

  function preRegisteredFor(issuer: string): PreRegisteredClient | undefined {
    const exact = options.preRegistered.find((c) => c.issuer === issuer);
    if (exact) return exact;
    const unbound = options.preRegistered.find(
      (c) => c.issuer === undefined && (boundTo.get(c) ?? issuer) === issuer,
    );
    if (unbound) boundTo.set(unbound, issuer);
    return unbound;
  }

  async function register(as: oauth.AuthorizationServer): Promise<ClientFor> {
    const supported = as.token_endpoint_auth_methods_supported ?? ["client_secret_basic"];
    const requested =
      ["none", "client_secret_basic", "client_secret_post"].find((m) => supported.includes(m)) ??
      "none";
    const authorizationCode = options.grant === "authorization_code";
    const metadata = {
      client_name: "mcp-gen client",
      grant_types: authorizationCode
        ? ["authorization_code", "refresh_token"]
        : [options.grant === "jwt_bearer" ? JWT_BEARER_GRANT : options.grant],
      response_types: authorizationCode ? ["code"] : [],
      token_endpoint_auth_method: requested,
      ...(authorizationCode && options.redirectUri
        ? {
            redirect_uris: [options.redirectUri],
            application_type: applicationType(options.redirectUri),
          }
        : {}),
      ...options.clientMetadata,
    };
    const url = new URL(as.registration_endpoint!);
    const response = await oauth.dynamicClientRegistrationRequest(
      as,
      metadata,
      requestOptions(http, url),
    );
    const registered = await oauth.processDynamicClientRegistrationResponse(
      await withSecretExpiry(response),
    );
    const method = registered.token_endpoint_auth_method ?? requested;
    const client = {
      clientId: registered.client_id,
      ...(typeof registered.client_secret === "string"
        ? { clientSecret: registered.client_secret }
        : {}),
      tokenEndpointAuthMethod: typeof method === "string" ? method : requested,
    };
    await options.store.setClient(as.issuer, client);
    return ready(
      as,
      client.clientId,
      client.clientSecret,
      client.tokenEndpointAuthMethod,
      "registered",
    );
  }

  /** The credentials registered beforehand with the authorization server `as`, if any. */
  function preRegistered(as: oauth.AuthorizationServer): ClientFor | undefined {
    const pre = preRegisteredFor(as.issuer);
    return (
      pre &&
      ready(
        as,
        pre.clientId,
        pre.clientSecret,
        pre.tokenEndpointAuthMethod,
        "pre-registered",
        pre.privateKey,
      )
    );
  }

  /** The client to use with the authorization server `as`, registering when needed. */
  async function clientFor(as: oauth.AuthorizationServer): Promise<ClientFor> {
    const pre = preRegistered(as);
    if (pre) return pre;
    const document = options.clientMetadataUrl;
    if (document !== undefined && as.client_id_metadata_document_supported === true) {
      const url = new URL(document);
      if (url.protocol !== "https:" || url.pathname === "/")
        throw new AuthorizationError("clientMetadataUrl must be an https URL with a path");
      return ready(as, document, undefined, "none", "metadata-document");
    }
    const kept = await options.store.getClient(as.issuer);
    if (kept)
      return ready(
        as,
        kept.clientId,
        kept.clientSecret,
        kept.tokenEndpointAuthMethod,
        "registered",
      );
    if (as.registration_endpoint !== undefined) return register(as);
    throw new AuthorizationError(
      "no client registration for this authorization server: give pre-registered credentials or a client metadata document URL",
    );
  }

  /** Forgets what a client registered with `issuer` (refused by its server). */
  const forget = async (issuer: string) => options.store.setClient(issuer, undefined);

  return { clientFor, preRegistered, forget };
}

export type Registrar = ReturnType<typeof createRegistrar>;
