import { createHash } from "node:crypto";
import {
  calculateJwkThumbprint,
  decodeJwt,
  decodeProtectedHeader,
  exportJWK,
  importJWK,
  jwtVerify,
} from "jose";
import { afterEach, describe, expect, it } from "vitest";
import {
  createOAuthClient,
  headlessRedirect,
  memoryTokenStore,
  type OAuthClientOptions,
} from "../src/auth/oauth-client.js";
import { createDPoPProver, generateDPoPKeyPair } from "../src/auth/dpop.js";
import { createHttpTransport } from "../src/transport/http/client/client.js";
import { REDIRECT } from "./auth-common.js";
import { startFakeWithClient, type Fake, type FakeOptions } from "./auth-fixture.js";
import { PROTOCOL } from "./fixture.js";

// DPoP (RFC 9449) in the OAuth client: the proofs themselves, then the client through the HTTP
// transport against the fake authorization and resource server (auth-fixture.ts), which checks
// every proof it receives as a DPoP server would.

let fake: Fake | undefined;
afterEach(async () => fake?.close());

async function setup(options: FakeOptions, client: Partial<OAuthClientOptions> = {}) {
  const started = await startFakeWithClient(options, client);
  fake = started.fake;
  return started;
}

describe("DPoP proofs", () => {
  it("sign htm, htu without query or fragment, ath of the token, a fresh jti, with the public key only", async () => {
    const keys = await generateDPoPKeyPair();
    const prover = createDPoPProver(keys);
    const url = new URL("https://mcp.example/mcp?x=1#frag");
    const [a, b] = [
      await prover.proof("post", url, "tok-1"),
      await prover.proof("POST", url, "tok-1"),
    ];
    const header = decodeProtectedHeader(a);
    expect(header).toMatchObject({ typ: "dpop+jwt", alg: "ES256" });
    expect(Object.keys(header.jwk!).sort()).toEqual(["crv", "kty", "x", "y"]);
    const { payload } = await jwtVerify(a, await importJWK(header.jwk!, "ES256"));
    expect(payload).toMatchObject({
      htm: "POST",
      htu: "https://mcp.example/mcp",
      ath: createHash("sha256").update("tok-1").digest("base64url"),
    });
    expect(Math.abs(payload.iat! - Date.now() / 1000)).toBeLessThan(5);
    expect(decodeJwt(b).jti).not.toBe(payload.jti);
    expect(await prover.thumbprint()).toBe(
      await calculateJwkThumbprint(await exportJWK(keys.publicKey), "sha256"),
    );
  });

  it("carry a resource server's nonce to that origin only, and ignore nonces over 1,024 characters", async () => {
    const prover = createDPoPProver(await generateDPoPKeyPair());
    const here = new URL("https://mcp.example/mcp");
    prover.rememberNonce(here, "n-1");
    expect(decodeJwt(await prover.proof("POST", here, "t")).nonce).toBe("n-1");
    expect(
      decodeJwt(await prover.proof("POST", new URL("https://other.example/mcp"), "t")).nonce,
    ).toBeUndefined();
    prover.rememberNonce(here, "x".repeat(1025));
    expect(decodeJwt(await prover.proof("POST", here, "t")).nonce).toBe("n-1");
  });
});

describe("the OAuth client with DPoP", () => {
  it("proves possession at the token endpoint and on every MCP request, with the DPoP scheme", async () => {
    const { fake, call } = await setup({ dpop: {} });
    const first = await call();
    await call();
    expect(first.result?.token).toMatch(/^tok-/);
    expect(fake.proofs.filter((p) => p.error !== undefined)).toEqual([]);
    const token = fake.proofs.filter((p) => p.where === "token");
    const mcp = fake.proofs.filter((p) => p.where === "mcp");
    expect(token).toHaveLength(1);
    expect(mcp).toHaveLength(2);
    expect(new Set(mcp.map((p) => p.payload!.jti)).size).toBe(2);
    expect(fake.mcpAuthorizations.filter(Boolean)).toEqual([
      `DPoP ${first.result!.token}`,
      `DPoP ${first.result!.token}`,
    ]);
    // The authorization code is bound to the same key (RFC 9449 section 10).
    expect(fake.authorizeRequests[0]?.get("dpop_jkt")).toBe(
      await calculateJwkThumbprint(token[0]!.jwk!, "sha256"),
    );
  });

  it("sends a token request again with the authorization server's nonce after use_dpop_nonce, once", async () => {
    const { fake, call } = await setup({ dpop: { asNonce: "as-nonce-1" } });
    expect((await call()).result?.token).toMatch(/^tok-/);
    expect(fake.tokenRequests).toHaveLength(2);
    expect(decodeJwt(fake.tokenRequests[0]!.dpop!).nonce).toBeUndefined();
    expect(decodeJwt(fake.tokenRequests[1]!.dpop!).nonce).toBe("as-nonce-1");
    // Both requests carried the same code: the refused one did not spend it.
    expect(fake.tokenRequests[1]!.body.get("code")).toBe(fake.tokenRequests[0]!.body.get("code"));
  });

  it("sends an MCP request again with the resource server's nonce after its use_dpop_nonce challenge", async () => {
    const { fake, call } = await setup({ dpop: { rsNonce: "rs-nonce-1" } });
    expect((await call()).result?.token).toMatch(/^tok-/);
    const mcp = fake.proofs.filter((p) => p.where === "mcp");
    expect(mcp.map((p) => p.payload?.nonce)).toEqual([undefined, "rs-nonce-1"]);
    expect(fake.tokenRequests).toHaveLength(1); // the nonce needs no new token
    await call();
    expect(fake.proofs.filter((p) => p.where === "mcp").at(-1)?.payload?.nonce).toBe("rs-nonce-1");
  });

  it("uses bearer tokens where the server lists no DPoP algorithm, or when told not to", async () => {
    for (const [options, client] of [
      [{}, {}],
      [{ dpop: {} }, { dpop: "off" as const }],
    ] as const) {
      const { fake, call } = await setup(options, client);
      await call();
      expect(fake.tokenRequests[0]!.dpop).toBeUndefined();
      expect(fake.mcpAuthorizations.at(-1)).toMatch(/^Bearer tok-/);
      expect(fake.proofs).toEqual([]);
      await fake.close();
    }
  });

  it("signs with the key it is given, and drops a stored bound token whose key it does not have", async () => {
    const keyPair = await generateDPoPKeyPair();
    const store = memoryTokenStore();
    const { fake, call } = await setup({ dpop: {} }, { dpopKeyPair: keyPair, store });
    await call();
    const jkt = await calculateJwkThumbprint(await exportJWK(keyPair.publicKey), "sha256");
    expect(await calculateJwkThumbprint(fake.proofs[0]!.jwk!, "sha256")).toBe(jkt);
    // Another client on the same store, without the key: the bound token is not sent.
    const other = createOAuthClient({
      serverUrl: fake.url,
      redirect: headlessRedirect(REDIRECT),
      insecureLoopback: true,
      store,
    });
    const transport = createHttpTransport(PROTOCOL, { url: fake.url, auth: other });
    const answer = (await transport.request({
      jsonrpc: "2.0",
      id: 9,
      method: "tools/list",
      params: {},
    })) as { result?: { token: string } };
    expect(answer.result?.token).toMatch(/^tok-/);
    expect(fake.tokenRequests).toHaveLength(2); // it obtained its own
    expect(fake.mcpAuthorizations.at(-2)).toBeUndefined();
  });
});
