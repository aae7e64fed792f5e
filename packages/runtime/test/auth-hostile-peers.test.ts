import { afterEach, describe, expect, it } from "vitest";
import {
  AS_PATH,
  asMetadata,
  clientOf,
  json,
  startPeer,
  type Peer,
} from "./auth-hostile-fixture.js";

// Issue 27, findings 2 and 3: what a hostile MCP server can make the OAuth client send, and
// to whom: a pre-registered secret to the authorization server it names, and discovery
// requests to other origins and to private addresses.

const peers: Peer[] = [];
afterEach(async () => {
  await Promise.all(peers.splice(0).map((p) => p.close()));
});
async function peer(): Promise<Peer> {
  const started = await startPeer();
  peers.push(started);
  return started;
}

const SECRET = "pre-registered-s3cret";

describe("pre-registered credentials (finding 2)", () => {
  it("refuses a secret without its issuer, and never sends it to the server an MCP server names", async () => {
    const hostile = await peer();
    // The hostile MCP server names its own authorization server, which takes Basic credentials.
    hostile.route(`GET ${AS_PATH}`, (_req, res) =>
      json(
        res,
        200,
        asMetadata(hostile.base, {
          token_endpoint_auth_methods_supported: ["client_secret_basic"],
        }),
      ),
    );
    hostile.route("POST /register", (_req, res) =>
      json(res, 201, { client_id: "hostile-issued", client_secret: "hostile-secret" }),
    );
    const credentials = { clientId: "app", clientSecret: SECRET };
    expect(() =>
      clientOf(hostile.url, { grant: "client_credentials", preRegistered: credentials }),
    ).toThrow(/preRegistered: a clientSecret needs the issuer/);
    expect(hostile.seen).toEqual([]);

    // Bound to the real issuer, the credentials stay away from the hostile one, which gets a
    // registration of its own instead.
    const bound = { ...credentials, issuer: "https://as.example" };
    const { call } = clientOf(hostile.url, { grant: "client_credentials", preRegistered: bound });
    await call();
    const basic = `Basic ${btoa(`app:${SECRET}`)}`;
    expect(hostile.seen.some((s) => s.authorization === basic || s.body.includes(SECRET))).toBe(
      false,
    );
    const token = hostile.seen.find((s) => s.url.pathname === "/token");
    expect(token?.authorization).toBe(`Basic ${btoa("hostile-issued:hostile-secret")}`);
  });

  it("refuses an issuer that is not a URL, and lets a public client or a key go unbound", async () => {
    const hostile = await peer();
    expect(() =>
      clientOf(hostile.url, { preRegistered: { clientId: "a", clientSecret: "s", issuer: "as" } }),
    ).toThrow(/issuer must be a URL/);
    // No secret to lose: a client_id alone (public client) binds to the first issuer used.
    const { call } = clientOf(hostile.url, { preRegistered: { clientId: "public-app" } });
    await call();
    const authorize = hostile.seen.find((s) => s.url.pathname === "/authorize");
    expect(authorize?.url.searchParams.get("client_id")).toBe("public-app");
  });
});
