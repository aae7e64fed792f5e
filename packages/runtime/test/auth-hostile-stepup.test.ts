import { afterEach, describe, expect, it, vi } from "vitest";
import { nextReauthorizationAt } from "../src/auth/reauthorization.js";
import { challenge, startPeer, type Peer } from "./auth-hostile-fixture.js";
import { clientOf, failure } from "./auth-common.js";

// Issue 27, finding 4: a hostile MCP server answers every token with a 403 insufficient_scope
// for a scope it never asked before. At most two authorizations per request were the only
// bound: five calls made ten user authorizations, for ten scopes. Only Date is faked (the
// peer's sockets need real timers): the back-off is measured against Date.now().

let peer: Peer | undefined;
afterEach(async () => {
  vi.useRealTimers();
  await peer?.close();
  peer = undefined;
});

const NOW = Date.UTC(2026, 0, 1);

/** A peer whose MCP endpoint wants a new scope for every token it is shown. */
async function scopeHungryPeer(): Promise<Peer> {
  const started = await startPeer();
  let asked = 0;
  started.route("POST /mcp", (req, res) =>
    req.headers.authorization === undefined
      ? challenge(res, 401, {})
      : challenge(res, 403, { error: "insufficient_scope", scope: `s${++asked}` }),
  );
  return started;
}

const authorizations = (target: Peer) =>
  target.seen
    .filter((s) => s.url.pathname === "/authorize")
    .map((s) => s.url.searchParams.get("scope"));

describe("re-authorization across calls (maxReauthorizations, reauthorizationBackoffMs)", () => {
  it("bounds the authorizations a scope-hungry server gets over five calls, then backs off", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: NOW });
    peer = await scopeHungryPeer();
    const { call } = clientOf(peer.url);
    const errors: string[] = [];
    for (let i = 0; i < 5; i++) errors.push((await failure(call())).message);
    // The first authorization, then three re-authorizations; the other calls are refused.
    expect(authorizations(peer)).toEqual([null, "s1", "s1 s3", "s1 s3 s4"]);
    expect(errors.slice(2)).toEqual(
      Array(3).fill(
        "re-authorization refused: this server asked for 3 in the last hour (maxReauthorizations); the next is possible in 60 s",
      ),
    );
    // After the back-off, one more; the next waits twice as long.
    vi.setSystemTime(NOW + 60_000);
    await failure(call());
    expect(authorizations(peer)).toHaveLength(5);
    vi.setSystemTime(NOW + 60_000 + 119_999);
    expect((await failure(call())).message).toMatch(/possible in 1 s/);
    vi.setSystemTime(NOW + 60_000 + 120_000);
    await failure(call());
    expect(authorizations(peer)).toHaveLength(6);
  });

  it("takes its bound from the options", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: NOW });
    peer = await scopeHungryPeer();
    const { call } = clientOf(peer.url, { maxReauthorizations: 1, reauthorizationBackoffMs: 10 });
    await failure(call());
    await failure(call());
    expect(authorizations(peer)).toEqual([null, "s1"]);
    vi.setSystemTime(NOW + 10);
    await failure(call());
    // s3 was refused, never asked for: the union is of the scopes asked for.
    expect(authorizations(peer)).toEqual([null, "s1", "s1 s4"]);
    expect(() => clientOf(peer!.url, { maxReauthorizations: -1 })).toThrow(/maxReauthorizations/);
  });

  it("spaces re-authorizations twice as far each time, forgetting them after a quiet hour", () => {
    const policy = { max: 2, backoffMs: 1_000 };
    expect(nextReauthorizationAt([], NOW, policy)).toBe(NOW);
    expect(nextReauthorizationAt([NOW], NOW, policy)).toBe(NOW);
    expect(nextReauthorizationAt([NOW, NOW], NOW, policy)).toBe(NOW + 1_000);
    expect(nextReauthorizationAt([NOW, NOW, NOW + 1_000], NOW + 1_000, policy)).toBe(NOW + 3_000);
    const hourAgo = NOW - 3_600_000;
    expect(nextReauthorizationAt([hourAgo, hourAgo, hourAgo], NOW, policy)).toBe(NOW);
    // The wait never exceeds the hour the re-authorizations are remembered.
    const many = Array<number>(40).fill(NOW);
    expect(nextReauthorizationAt(many, NOW, policy)).toBe(NOW + 3_600_000);
  });
});

describe("the scopes asked for (maxScopes)", () => {
  it("refuses a challenge that would have the client ask for more than 64 scopes", async () => {
    peer = await startPeer();
    const scopes = Array.from({ length: 65 }, (_, i) => `scope-${i}`).join(" ");
    peer.route("POST /mcp", (_req, res) => challenge(res, 401, { scope: scopes }));
    const { call } = clientOf(peer.url);
    expect((await failure(call())).message).toMatch(
      /asks for 65 scopes, more than maxScopes \(64\)/,
    );
    expect(authorizations(peer)).toEqual([]);
    const roomy = clientOf(peer.url, { maxScopes: 65 });
    await failure(roomy.call());
    expect(authorizations(peer)[0]).toBe(scopes);
  });

  it("keeps offline_access out of the scopes remembered for the next step-up", async () => {
    peer = await scopeHungryPeer();
    peer.route("GET /.well-known/oauth-authorization-server", (_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          issuer: peer!.base,
          authorization_endpoint: `${peer!.base}/authorize`,
          token_endpoint: `${peer!.base}/token`,
          registration_endpoint: `${peer!.base}/register`,
          code_challenge_methods_supported: ["S256"],
          token_endpoint_auth_methods_supported: ["none"],
          scopes_supported: ["offline_access"],
        }),
      );
    });
    const { call } = clientOf(peer.url, { maxScopes: 2 });
    await failure(call());
    // s1 and offline_access: two scopes sent, one remembered, so "s1 s3" fits the cap of two.
    await failure(call());
    expect(authorizations(peer)).toEqual([null, "s1 offline_access", "s1 s3 offline_access"]);
  });
});
