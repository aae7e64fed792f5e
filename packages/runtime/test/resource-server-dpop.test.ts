import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDPoPProver, generateDPoPKeyPair, type DPoPProver } from "../src/auth/dpop.js";
import { createDPoPProofVerifier } from "../src/auth/dpop-proof.js";
import { createEraDispatcher } from "../src/server/era-dispatcher.js";
import { routingHeaders } from "../src/transport/http/headers.js";
import {
  startTestAuthorizationServer,
  type TestAuthorizationServer,
} from "../../cli/test/support/oauth-server.js";
import { serveProtected } from "../../cli/test/support/protected-server.js";
import { proofSigner } from "./dpop-signer.js";
import { dualEras, PROTOCOL, request } from "./fixture.js";

// The resource server with DPoP-bound tokens (RFC 9449 section 7): the proofs the generated
// OAuth client signs (src/auth/dpop.ts) checked by src/auth/dpop-proof.ts, and every
// way a proof or a binding can be wrong refused with its challenge.

let as: TestAuthorizationServer;
const servers: Record<"dpop" | "required" | "plain", { url: string; close(): Promise<void> }> =
  {} as never;
let prover: DPoPProver;
let jkt: string;

beforeAll(async () => {
  as = await startTestAuthorizationServer();
  const dispatcher = createEraDispatcher(dualEras(), {
    "tools/call": (_p: any, ctx: any) => ({
      content: [{ type: "text", text: String(ctx.principal) }],
    }),
  });
  const verifyProof = createDPoPProofVerifier();
  servers.dpop = await serveProtected(PROTOCOL, dispatcher, as, { dpop: { verifyProof } });
  servers.required = await serveProtected(PROTOCOL, dispatcher, as, {
    dpop: { verifyProof, required: true },
  });
  servers.plain = await serveProtected(PROTOCOL, dispatcher, as, {});
  prover = createDPoPProver(await generateDPoPKeyPair());
  jkt = await prover.thumbprint();
});
afterAll(async () => {
  await Promise.all(Object.values(servers).map((s) => s.close()));
  await as.close();
});

const message = request("tools/call", 1, { name: "whoami" });
const post = (url: string, headers: Record<string, string>) =>
  fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...routingHeaders(PROTOCOL, message),
      ...headers,
    },
    body: JSON.stringify(message),
  });
const bound = (url: string, key = jkt) => as.mintToken({ aud: url, claims: { cnf: { jkt: key } } });
const dpop = async (url: string, token: string, proof?: string) => ({
  authorization: `DPoP ${token}`,
  dpop: proof ?? (await prover.proof("POST", new URL(url), token)),
});
/** The error a 401 names, and the scheme of the first challenge in its WWW-Authenticate. */
const refusal = (r: Response) => {
  const header = r.headers.get("www-authenticate") ?? "";
  return {
    status: r.status,
    scheme: header.split(" ")[0],
    error: /error="([^"]*)"/.exec(header)?.[1],
    description: /error_description="([^"]*)"/.exec(header)?.[1],
  };
};

describe("a resource server taking DPoP-bound tokens", () => {
  it("says so in its metadata, and offers both schemes (DPoP with its algs) to a request without credentials", async () => {
    const origin = new URL(servers.dpop.url).origin;
    const metadata = await (
      await fetch(`${origin}/.well-known/oauth-protected-resource/mcp`)
    ).json();
    expect(metadata).toMatchObject({
      dpop_signing_alg_values_supported: ["ES256"],
      dpop_bound_access_tokens_required: false,
    });
    const r = await post(servers.dpop.url, {});
    expect(r.status).toBe(401);
    expect(r.headers.get("www-authenticate")).toMatch(
      /^Bearer resource_metadata="[^"]+", DPoP algs="ES256", resource_metadata="[^"]+"$/,
    );
  });

  it("accepts a bound token with the DPoP scheme and a proof by its key, each proof once", async () => {
    const token = await bound(servers.dpop.url);
    const headers = await dpop(servers.dpop.url, token);
    const ok = await post(servers.dpop.url, headers);
    expect(ok.status).toBe(200);
    expect(await ok.text()).toContain("alice");
    expect(refusal(await post(servers.dpop.url, headers))).toMatchObject({
      status: 401,
      scheme: "DPoP",
      error: "invalid_dpop_proof",
      description: "The DPoP proof was already used",
    });
  });

  it("refuses proofs for another method, resource or token, and old ones", async () => {
    const token = await bound(servers.dpop.url);
    const url = new URL(servers.dpop.url);
    const cases: [string, string][] = [
      [await prover.proof("GET", url, token), "The DPoP proof's htm is not this request's method"],
      [
        await prover.proof("POST", new URL("/other", url), token),
        "The DPoP proof's htu is not this resource",
      ],
      [
        await prover.proof("POST", url, `${token}x`),
        "The DPoP proof's ath does not match the access token",
      ],
      [await oldProof(url, token), "The DPoP proof is too old or from the future"],
      ["not-a-jwt", "The DPoP proof is not a JWT"],
    ];
    for (const [proof, description] of cases)
      expect(
        refusal(await post(servers.dpop.url, await dpop(servers.dpop.url, token, proof))),
        description,
      ).toMatchObject({ status: 401, error: "invalid_dpop_proof", description });
    expect(refusal(await post(servers.dpop.url, { authorization: `DPoP ${token}` }))).toMatchObject(
      { error: "invalid_dpop_proof", description: "Exactly one DPoP proof is needed" },
    );
  });

  it("refuses a proof by another key than the token's, and a bound token presented as a bearer one", async () => {
    const other = await bound(servers.dpop.url, "another-thumbprint");
    expect(
      refusal(await post(servers.dpop.url, await dpop(servers.dpop.url, other))),
    ).toMatchObject({
      status: 401,
      scheme: "DPoP",
      error: "invalid_token",
      description: "The access token is not bound to the proof's key",
    });
    for (const server of [servers.dpop, servers.plain]) {
      const token = await bound(server.url);
      expect(refusal(await post(server.url, { authorization: `Bearer ${token}` }))).toMatchObject({
        status: 401,
        scheme: "Bearer",
        error: "invalid_token",
        description: "A DPoP-bound token needs the DPoP scheme and a proof",
      });
    }
  });

  it("takes unbound bearer tokens unless DPoP is required", async () => {
    const plainToken = (url: string) => as.mintToken({ aud: url });
    expect(
      (
        await post(servers.dpop.url, {
          authorization: `Bearer ${await plainToken(servers.dpop.url)}`,
        })
      ).status,
    ).toBe(200);
    const r = await post(servers.required.url, {
      authorization: `Bearer ${await plainToken(servers.required.url)}`,
    });
    expect(refusal(r)).toMatchObject({ status: 401, scheme: "DPoP" });
    expect(r.headers.get("www-authenticate")).toContain('algs="ES256"');
  });
});

/** A proof signed ten minutes ago (the verifier takes 300 s plus 30 s of skew). */
async function oldProof(url: URL, token: string): Promise<string> {
  const sign = await proofSigner(`${url.origin}${url.pathname}`, token);
  return sign(Math.floor(Date.now() / 1000) - 600);
}
