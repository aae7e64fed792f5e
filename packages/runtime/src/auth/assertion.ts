import * as oauth from "oauth4webapi";
import { requestOptions, type Http } from "./discovery.js";
import {
  parameters,
  safeError,
  stored,
  tokenRequestOptions,
  tokenResponse,
  type GrantTarget,
} from "./grant.js";
import { ready, type ClientFor, type PreRegisteredClient, type Registrar } from "./registration.js";
import type { StoredTokens } from "./store.js";
import { AuthorizationError } from "./http-auth.js";

// The JWT bearer grant (RFC 7523 section 2.1) of the OAuth client, with the two sources of its
// assertion the MCP authorization extensions define:
// - workload identity federation (ext-auth workload-identity-federation, SEP-1933): the
//   workload's own JWT, issued by its platform (Kubernetes, SPIFFE, a cloud), with no client
//   registration and no client_id unless credentials were registered beforehand;
// - enterprise-managed authorization (ext-auth enterprise-managed-authorization, SEP-990): an
//   Identity Assertion JWT Authorization Grant (ID-JAG) obtained by a token exchange (RFC 8693)
//   at the enterprise IdP for the user's ID token; the client authenticates at the MCP
//   server's authorization server as registered there.
// A refused grant is surfaced as it is: never retried with the same assertion, and never
// followed by another grant type (the authorization server's answer is the IdP's policy).

export const JWT_BEARER = "urn:ietf:params:oauth:grant-type:jwt-bearer";
const TOKEN_EXCHANGE = "urn:ietf:params:oauth:grant-type:token-exchange";
const ID_JAG = "urn:ietf:params:oauth:token-type:id-jag";
const ID_TOKEN = "urn:ietf:params:oauth:token-type:id_token";

/** What an assertion is for: the authorization server it goes to, and the resource and scopes asked. */
export interface AssertionContext {
  /** The authorization server's issuer (the audience an ID-JAG, and most workload JWTs, name). */
  issuer: string;
  tokenEndpoint: string;
  /** The MCP server's resource identifier, as its metadata publishes it (none for 2025-03-26 servers). */
  resource: string | undefined;
  scopes: readonly string[];
  signal?: AbortSignal;
}

/** The enterprise IdP: where the token exchange goes, and the client's credentials there. */
export interface EnterpriseIdp extends PreRegisteredClient {
  /** The IdP's issuer; its token endpoint is found from its metadata unless given. */
  issuer: string;
  tokenEndpoint?: string;
}

export interface EnterpriseOptions {
  idp: EnterpriseIdp;
  /** The identity assertion from the user's single sign-on at the IdP (an ID token), asked for on every exchange. */
  idToken: (context: AssertionContext) => Promise<string> | string;
  /** Its token type (default `urn:ietf:params:oauth:token-type:id_token`). */
  subjectTokenType?: string;
}

/** The options of `createOAuthClient` for `grant: "jwt_bearer"`: exactly one source of assertions. */
export interface AssertionOptions {
  /**
   * Workload identity: the workload's JWT, asked for on every grant (a fresh one each time: they
   * are short-lived and may be single-use). Its `aud` should be the authorization server
   * (`issuer` or `tokenEndpoint` of the context, as the server expects).
   */
  assertion?: (context: AssertionContext) => Promise<string> | string;
  /** Enterprise-managed authorization: an ID-JAG from this IdP for each grant. */
  enterprise?: EnterpriseOptions;
}

/** Throws when `grant: "jwt_bearer"` lacks its one source of assertions. */
export function checkAssertionOptions(options: AssertionOptions): void {
  if ((options.assertion === undefined) === (options.enterprise === undefined))
    throw new TypeError(
      "createOAuthClient: the jwt_bearer grant needs either an assertion callback or enterprise options",
    );
}

/**
 * The clients the JWT bearer grant presents. Enterprise: the client as registered with the
 * authorization server (the ID-JAG names its client_id, and the server checks they agree).
 * Workload: credentials registered beforehand for that server, else none at all, as workload
 * identity federation needs no client_id and no registration.
 */
export function assertionClients(registrar: Registrar, options: AssertionOptions): Registrar {
  if (options.enterprise) return registrar;
  return { ...registrar, clientFor: async (as) => registrar.preRegistered(as) ?? anonymous() };
}

/** No client authentication (RFC 7523 section 3.1 makes it optional for this grant). */
function anonymous(): ClientFor {
  // oauth4webapi asks every client for a client_id; this one is never sent.
  const client = { client_id: "anonymous", token_endpoint_auth_method: "none" };
  return { client, authentication: () => undefined, via: "anonymous" };
}

/** A source of assertions: asked with the grant's context (and the network settings). */
export type AssertionSource = (http: Http, context: AssertionContext) => Promise<string>;

/** Where `options` gets its assertions: the workload's callback, or ID-JAGs from the IdP. */
export function assertionSource(options: AssertionOptions): AssertionSource {
  const { assertion, enterprise } = options;
  if (enterprise) return idJagSource(enterprise);
  return async (_http, context) =>
    credential("JWT bearer grant: the assertion callback", () => assertion!(context));
}

/** A credential from one of the app's callbacks: a non-empty string, or an error naming the callback. */
async function credential(what: string, callback: () => Promise<string> | string): Promise<string> {
  let value: unknown;
  try {
    value = await callback();
  } catch (error) {
    // The app's own error is its to log; it may quote a credential, so only its name is kept.
    const kind = error instanceof Error ? error.name : typeof error;
    throw new AuthorizationError(`${what} failed (${kind})`);
  }
  if (typeof value !== "string" || value === "")
    throw new AuthorizationError(`${what} gave no token`);
  return value;
}

/** JWT bearer grant: the assertion for tokens of the target's resource and scopes, once. */
export async function jwtBearerGrant(
  http: Http,
  target: GrantTarget,
  source: AssertionSource,
): Promise<StoredTokens> {
  const { as, client } = target;
  // RFC 8414 section 2: a server that lists its grants and not this one would refuse it.
  if (as.grant_types_supported && !as.grant_types_supported.includes(JWT_BEARER))
    throw new AuthorizationError("the authorization server does not support the JWT bearer grant");
  if (as.token_endpoint === undefined)
    throw new AuthorizationError("the authorization server has no token endpoint");
  const context: AssertionContext = {
    issuer: as.issuer,
    tokenEndpoint: as.token_endpoint,
    resource: target.resource,
    scopes: target.scopes,
    ...(http.signal ? { signal: http.signal } : {}),
  };
  const assertion = await source(http, context);
  try {
    // A DPoP nonce demand refuses the proof, not the grant: the one resend keeps the assertion.
    const body = await tokenResponse(
      target,
      () =>
        oauth.genericTokenEndpointRequest(
          as,
          client.client,
          client.authentication,
          JWT_BEARER,
          { assertion, ...parameters(target) },
          tokenRequestOptions(http, target),
        ),
      oauth.processGenericTokenEndpointResponse,
    );
    return stored(target, body);
  } catch (error) {
    throw safeError("JWT bearer grant", error);
  }
}

/**
 * ID-JAGs from the enterprise IdP (ext-auth enterprise-managed-authorization section 4): a token
 * exchange of the user's ID token, with `audience` the authorization server's issuer and
 * `resource` the MCP server's identifier; the answer must be an ID-JAG.
 */
function idJagSource(enterprise: EnterpriseOptions): AssertionSource {
  let metadata: Promise<oauth.AuthorizationServer> | undefined;
  return async (http, context) => {
    const step = "token exchange at the enterprise IdP";
    try {
      metadata ??= idpMetadata(http, enterprise.idp);
      const idp = await metadata.catch((error: unknown) => {
        metadata = undefined;
        throw error;
      });
      const { clientId, clientSecret, tokenEndpointAuthMethod, privateKey } = enterprise.idp;
      const method = tokenEndpointAuthMethod;
      const client = ready(idp, clientId, clientSecret, method, "pre-registered", privateKey);
      const subject = await credential(`${step}: the idToken callback`, () =>
        enterprise.idToken(context),
      );
      const request = {
        requested_token_type: ID_JAG,
        audience: context.issuer,
        ...(context.resource !== undefined ? { resource: context.resource } : {}),
        ...(context.scopes.length > 0 ? { scope: context.scopes.join(" ") } : {}),
        subject_token: subject,
        subject_token_type: enterprise.subjectTokenType ?? ID_TOKEN,
      };
      const response = await oauth.genericTokenEndpointRequest(
        idp,
        client.client,
        client.authentication,
        TOKEN_EXCHANGE,
        request,
        requestOptions(http, new URL(idp.token_endpoint!)),
      );
      // An ID-JAG is not an access token: its token_type is "N_A" (RFC 8693 section 2.2.1).
      const body = await oauth.processGenericTokenEndpointResponse(idp, client.client, response, {
        recognizedTokenTypes: { n_a: () => undefined },
      });
      if (body["issued_token_type"] !== ID_JAG)
        throw new AuthorizationError(`${step}: the IdP issued another token type than an ID-JAG`);
      return body.access_token;
    } catch (error) {
      throw safeError(step, error);
    }
  };
}

/** The IdP's metadata: as configured when its token endpoint is given, else discovered (OIDC, then RFC 8414). */
async function idpMetadata(http: Http, idp: EnterpriseIdp): Promise<oauth.AuthorizationServer> {
  if (idp.tokenEndpoint !== undefined)
    return { issuer: idp.issuer, token_endpoint: idp.tokenEndpoint };
  const issuer = new URL(idp.issuer);
  for (const algorithm of ["oidc", "oauth2"] as const) {
    const response = await oauth.discoveryRequest(issuer, {
      algorithm,
      ...requestOptions(http, issuer),
      // A GET has no body: fetch's types say null where oauth4webapi's say undefined.
      [oauth.customFetch]: (url, init) => http.fetch(url, { ...init, body: null }),
    });
    if (response.status !== 200) {
      await response.body?.cancel().catch(() => undefined);
      continue;
    }
    const as = await oauth.processDiscoveryResponse(issuer, response);
    if (as.token_endpoint === undefined) break;
    return as;
  }
  throw new AuthorizationError("the enterprise IdP publishes no token endpoint in its metadata");
}
