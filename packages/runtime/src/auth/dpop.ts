import * as oauth from "oauth4webapi";

// DPoP (RFC 9449; MCP ext-auth DPoP extension, SEP-1932) for the OAuth client: one key pair per
// client, proofs at the token endpoint (signed by oauth4webapi, which also keeps the
// authorization server's nonces) and on every request to the MCP server (signed with jose:
// oauth4webapi only signs resource proofs inside requests it sends itself, and the transport
// sends its own). Needs `oauth4webapi`, and `jose` once a server asks for DPoP (loaded then,
// so clients of servers without DPoP need not install it).

/** An EC public key as a proof's header carries it. */
type PublicJwk = { kty: string; crv: string; x: string; y: string };

/** The part of jose's API used here, typed locally so the module compiles without jose. */
interface Jose {
  exportJWK(key: CryptoKey): Promise<Partial<PublicJwk>>;
  calculateJwkThumbprint(jwk: PublicJwk, digest: "sha256"): Promise<string>;
  base64url: { encode(input: Uint8Array): string };
  SignJWT: new (payload: Record<string, unknown>) => SignJWT;
}
interface SignJWT {
  setProtectedHeader(header: { alg: string; typ: string; jwk: PublicJwk }): SignJWT;
  setJti(jti: string): SignJWT;
  setIssuedAt(): SignJWT;
  sign(key: CryptoKey): Promise<string>;
}

const JOSE = "jose"; // a variable: the type checker does not look for the package
let joseModule: Promise<Jose> | undefined;
function jose(): Promise<Jose> {
  return (joseModule ??= (import(JOSE) as Promise<Jose>).catch(() => {
    joseModule = undefined;
    throw new Error("the server asks for DPoP proofs, which need the jose package: npm i jose");
  }));
}

/** The proof-of-possession side of one OAuth client. */
export interface DPoPProver {
  /** The handle oauth4webapi signs token-request proofs with (RFC 9449 section 5). */
  readonly handle: oauth.DPoPHandle;
  /** The key's JWK SHA-256 thumbprint (the `cnf.jkt` a bound token carries). */
  thumbprint(): Promise<string>;
  /**
   * A proof for one request to a resource server (RFC 9449 section 4.2 and 7.1): `htm`, `htu`
   * (the URL without query and fragment), `ath` (the hash of the access token), a fresh `jti`,
   * and the server's last nonce for that origin, if it gave one.
   */
  proof(method: string, url: URL, accessToken: string): Promise<string>;
  /** Keeps a resource server's nonce (DPoP-Nonce of a `use_dpop_nonce` challenge, section 9). */
  rememberNonce(url: URL, nonce: string): void;
}

/** The algorithm of the generated key: ES256, which every DPoP server must accept in practice. */
export const DPOP_ALGORITHM = "ES256";

/** Nonces are server-controlled: kept for at most this many origins, each at most this long. */
const MAX_NONCE_ORIGINS = 100;
const MAX_NONCE_LENGTH = 1024;

/** A new ES256 key pair whose private key cannot be exported. */
export function generateDPoPKeyPair(): Promise<CryptoKeyPair> {
  return crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, false, [
    "sign",
    "verify",
  ]);
}

/** Whether the authorization server takes DPoP proofs this client can sign. */
export function supportsDPoP(as: oauth.AuthorizationServer): boolean {
  const algorithms = as.dpop_signing_alg_values_supported;
  return Array.isArray(algorithms) && algorithms.includes(DPOP_ALGORITHM);
}

export function createDPoPProver(keyPair: CryptoKeyPair): DPoPProver {
  const handle = oauth.DPoP({}, keyPair);
  const nonces = new Map<string, string>();
  let jwk: Promise<PublicJwk> | undefined;
  // Only the public members go in a proof's header (kty, crv, x, y for an EC key).
  const publicJwk = () =>
    (jwk ??= jose()
      .then(async ({ exportJWK }) => exportJWK(keyPair.publicKey))
      .then(({ kty, crv, x, y }): PublicJwk => {
        if (!kty || !crv || !x || !y) throw new TypeError("the DPoP key is not an EC key pair");
        return { kty, crv, x, y };
      }));

  return {
    handle,
    async thumbprint() {
      return (await jose()).calculateJwkThumbprint(await publicJwk(), "sha256");
    },
    async proof(method, url, accessToken) {
      const { base64url, SignJWT } = await jose();
      const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(accessToken));
      const nonce = nonces.get(url.origin);
      return new SignJWT({
        htm: method.toUpperCase(),
        htu: `${url.origin}${url.pathname}`,
        ath: base64url.encode(new Uint8Array(digest)),
        ...(nonce !== undefined ? { nonce } : {}),
      })
        .setProtectedHeader({ alg: DPOP_ALGORITHM, typ: "dpop+jwt", jwk: await publicJwk() })
        .setJti(crypto.randomUUID())
        .setIssuedAt()
        .sign(keyPair.privateKey);
    },
    rememberNonce(url, nonce) {
      if (nonce.length === 0 || nonce.length > MAX_NONCE_LENGTH) return;
      nonces.delete(url.origin);
      if (nonces.size >= MAX_NONCE_ORIGINS) nonces.delete(nonces.keys().next().value!);
      nonces.set(url.origin, nonce);
    },
  };
}

/**
 * A token request, sent again once when the authorization server answers `use_dpop_nonce`
 * (RFC 9449 section 8): oauth4webapi's handle has kept the nonce from that answer, so the
 * second proof carries it. A second refusal is the server's answer.
 */
export async function withDPoPNonceRetry<T>(
  dpop: DPoPProver | undefined,
  request: () => Promise<T>,
): Promise<T> {
  try {
    return await request();
  } catch (error) {
    if (dpop === undefined || !oauth.isDPoPNonceError(error)) throw error;
    return request();
  }
}
