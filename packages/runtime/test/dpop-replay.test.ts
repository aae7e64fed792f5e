import { afterEach, describe, expect, it, vi } from "vitest";
import { createDPoPProofVerifier } from "../src/auth/dpop-proof.js";
import { proofSigner } from "./dpop-signer.js";

// The DPoP verifier's replay cache (RFC 9449 section 11.1): bounded per principal and in all,
// failing closed when full (a proof is refused, never an earlier one forgotten), and keeping
// each proof only as long as it could be accepted at all.

const URL_ = "https://mcp.example.com/mcp";
const TOKEN = "an-access-token";

/** A signer of proofs by one new key, each with a fresh jti, issued at `iat` (default now). */
const signer = () => proofSigner(URL_, TOKEN);

const check = (principal: string) => ({ method: "POST", url: URL_, accessToken: TOKEN, principal });
/** "ok", or the refusal's message. */
const outcome = (p: Promise<string>) =>
  p.then(
    () => "ok",
    (e: Error) => e.message,
  );

afterEach(() => void vi.useRealTimers());

describe("the DPoP replay cache", () => {
  it("cannot be flushed: a principal filling it with its own proofs neither evicts another's nor gets past its share", async () => {
    const verify = createDPoPProofVerifier({
      replayCacheSize: 50,
      replayCacheSizePerPrincipal: 20,
    });
    const alice = await signer();
    const mallory = await signer();
    const captured = await alice();
    expect(await verify(captured, check("alice"))).toMatch(/^[\w-]{43}$/);
    // Mallory, with a bound token of its own, sends more fresh proofs than the cache holds.
    const flood: string[] = [];
    for (let i = 0; i < 60; i++)
      flood.push(await outcome(verify(await mallory(), check("mallory"))));
    // The captured proof is still remembered.
    expect(await outcome(verify(captured, check("alice")))).toBe("The DPoP proof was already used");
    // Mallory got its share, then was refused (fail closed), and Alice is still served.
    expect(flood.filter((o) => o === "ok")).toHaveLength(20);
    expect(flood.slice(20)).toEqual(
      Array(40).fill("Too many recent DPoP proofs for this principal: try again later"),
    );
    expect(await outcome(verify(await alice(), check("alice")))).toBe("ok");
  });

  it("remembers a proof as long as it can be accepted: one issued in the future (within the skew) outlives its iat window", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const t0 = Date.UTC(2030, 0, 1) / 1000;
    vi.setSystemTime(t0 * 1000);
    const verify = createDPoPProofVerifier(); // 300 s old at most, 30 s of skew
    const sign = await signer();
    const early = await sign(t0 + 30);
    expect(await outcome(verify(early, check("alice")))).toBe("ok");
    // Acceptable until iat + 300 + 30 = t0 + 360: a replay at t0 + 331 is still one.
    vi.setSystemTime((t0 + 331) * 1000);
    expect(await outcome(verify(early, check("alice")))).toBe("The DPoP proof was already used");
    vi.setSystemTime((t0 + 360) * 1000);
    expect(await outcome(verify(early, check("alice")))).toBe("The DPoP proof was already used");
    vi.setSystemTime((t0 + 361) * 1000);
    expect(await outcome(verify(early, check("alice")))).toBe(
      "The DPoP proof is too old or from the future",
    );
  });

  it("forgets proofs once they could no longer be accepted, so a full principal is served again", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const t0 = Date.UTC(2030, 0, 1) / 1000;
    vi.setSystemTime(t0 * 1000);
    const verify = createDPoPProofVerifier({ replayCacheSizePerPrincipal: 2 });
    const sign = await signer();
    for (const expected of [
      "ok",
      "ok",
      "Too many recent DPoP proofs for this principal: try again later",
    ])
      expect(await outcome(verify(await sign(), check("alice")))).toBe(expected);
    // Proofs signed at t0 are acceptable until t0 + 360 at the latest (iat up to 30 s ahead).
    vi.setSystemTime((t0 + 360) * 1000);
    expect(await outcome(verify(await sign(), check("alice")))).toMatch(/^Too many/);
    vi.setSystemTime((t0 + 361) * 1000);
    expect(await outcome(verify(await sign(), check("alice")))).toBe("ok");
  });

  it("refuses every new proof while the whole cache is full, and buckets by the key's thumbprint without a principal", async () => {
    const verify = createDPoPProofVerifier({ replayCacheSize: 3, replayCacheSizePerPrincipal: 2 });
    const [a, b] = [await signer(), await signer()];
    const anonymous = { method: "POST", url: URL_, accessToken: TOKEN };
    expect(await outcome(verify(await a(), anonymous))).toBe("ok");
    expect(await outcome(verify(await a(), anonymous))).toBe("ok");
    expect(await outcome(verify(await a(), anonymous))).toMatch(/for this principal/);
    expect(await outcome(verify(await b(), anonymous))).toBe("ok");
    expect(await outcome(verify(await b(), check("carol")))).toBe(
      "Too many recent DPoP proofs: try again later",
    );
  });

  it("refuses limits that are not positive integers", () => {
    for (const limit of [0, -1, 1.5, Number.NaN, Infinity]) {
      expect(() => createDPoPProofVerifier({ replayCacheSize: limit })).toThrow(/replayCacheSize/);
      expect(() => createDPoPProofVerifier({ replayCacheSizePerPrincipal: limit })).toThrow(
        /replayCacheSizePerPrincipal/,
      );
    }
  });
});
