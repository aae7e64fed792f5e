import { createHash } from "node:crypto";
import { exportJWK, SignJWT } from "jose";
import { generateDPoPKeyPair } from "../src/auth/dpop.js";

// DPoP proofs signed here rather than by the runtime's prover, so that a test can give them
// what the prover never would (an issue time in the past), for the verifier's tests
// (dpop-replay.test.ts, resource-server-dpop.test.ts).

/**
 * A signer of POST proofs for `htu` and `accessToken` by one new ES256 key, each with a fresh
 * jti, issued at `iat` (seconds; default now).
 */
export async function proofSigner(htu: string, accessToken: string) {
  const keys = await generateDPoPKeyPair();
  const { kty, crv, x, y } = await exportJWK(keys.publicKey);
  return (iat = Math.floor(Date.now() / 1000)) =>
    new SignJWT({
      htm: "POST",
      htu,
      ath: createHash("sha256").update(accessToken).digest("base64url"),
    })
      .setProtectedHeader({
        alg: "ES256",
        typ: "dpop+jwt",
        jwk: { kty: kty!, crv: crv!, x: x!, y: y! },
      })
      .setJti(crypto.randomUUID())
      .setIssuedAt(iat)
      .sign(keys.privateKey);
}
